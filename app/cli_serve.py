"""``tableside serve [SAVE] [--host H] [--port P]``: the players' view in their browsers.

One aiohttp server process (:mod:`app.player_server`) serves the page to every player and
pushes each change of the save to it; it reads the save and never writes it, so it runs beside
the GM's ``tableside SAVE`` on the same file. While it runs, ``<SAVE>.serve`` beside the save
holds its URL, so the GM's app can show it (and its QR code) on the party panel.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.cli_base import EXIT_OK, Parser, UsageError
from app.side_files import LINK_BYTES, SideFileError, read_side_text
from rulesets.text import visible
from rulesets.values import frozen

DEFAULT_PORT = 8000
ALL_ADDRESSES = ("0.0.0.0", "::", "")


def _parser() -> Parser:
    p = Parser(
        prog="tableside serve",
        description="Serve a read-only players' view of a campaign to browsers and phones.",
    )
    p.add_argument(
        "save", metavar="SAVE", nargs="?", type=Path, help="campaign file (default: the last one)"
    )
    p.add_argument(
        "--host",
        default="localhost",
        metavar="H",
        help="address to listen on (default localhost; 0.0.0.0 shares it on the table's network)",
    )
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, metavar="P", help=f"port (default {DEFAULT_PORT})"
    )
    return p


def lan_address() -> str:
    """This machine's address on the local network (what other devices at the table reach)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        # A UDP connect sends nothing; it only picks the interface a route would use.
        probe.connect(("192.0.2.1", 9))
        address: str = probe.getsockname()[0]
        return address
    return socket.gethostname()


def public_url(host: str, port: int) -> str:
    """The URL players open; a listen-everywhere host is replaced by a reachable address."""
    shown = lan_address() if host in ALL_ADDRESSES else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def code_lines(data: dict[str, Any]) -> list[str]:
    """Each PC's code, for the GM's terminal (the party sheet shows them too)."""
    from app.player_view import code_for, meta_of, party

    meta = meta_of(data)
    codes = [(name, code_for(meta, pc_id)) for pc_id, name in party(data)]
    if not codes:
        return []
    if any(code is None for _, code in codes):
        return [
            "No player codes yet: in the GM's app press V on the party panel and save the "
            "players' view settings; the codes then show on the party sheet."
        ]
    return ["Player codes (private hands): " + ", ".join(f"{n} {c}" for n, c in codes)]


def link_path(save: Path) -> Path:
    """Where a running ``tableside serve`` leaves its URL for the GM's app."""
    return save.with_name(save.name + ".serve")


LOCAL_ONLY = ("localhost", "127.0.0.1", "::1", "ip6-localhost")


@frozen
class Serving:
    """What a running ``tableside serve`` left beside the save (``SAVE.serve``)."""

    url: str
    listen: str = ""
    """The ``--host`` it listens on ("" when an older Tableside left the record)."""
    port: int = DEFAULT_PORT

    @property
    def local_only(self) -> bool:
        """Listening on this machine only: no phone can reach it."""
        host = self.listen or (urlsplit(self.url).hostname or "")
        return host.lower() in LOCAL_ONLY or host.startswith("127.")


def serving(save: Path) -> Serving | None:
    """The ``tableside serve`` running on this save now, or None.

    Raises:
        SideFileError: ``SAVE.serve`` is a link, a FIFO, a device or too large (not read).
    """
    try:
        text = read_side_text(link_path(save), LINK_BYTES)
    except FileNotFoundError:
        return None
    try:
        found = json.loads(text)
        url, pid, host = str(found["url"]), int(found["pid"]), str(found["host"])
        listen = str(found.get("listen", ""))
        port = int(found.get("port", urlsplit(url).port or DEFAULT_PORT))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if host == socket.gethostname() and pid > 0:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None  # stopped without tidying up (killed)
        except PermissionError:
            pass
    return Serving(url, listen, port)


def serving_url(save: Path) -> str | None:
    """The URL of the ``tableside serve`` running on this save now, or None (also when
    ``SAVE.serve`` is not a file that can be read safely)."""
    try:
        found = serving(save)
    except SideFileError:
        return None
    return found.url if found is not None else None


def _leave_link(link: Path, record: dict[str, Any]) -> None:
    """Write ``SAVE.serve`` by a new file renamed over it: a link or a FIFO planted there is
    replaced, never written through."""
    tmp = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps(record))
        os.replace(tmp, link)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def cmd_serve(argv: Sequence[str]) -> int:
    from app import paths
    from app.player_gate import listening_sockets
    from app.player_server import quiet_logging, serve
    from app.side_files import read_side_file
    from app.store import StoreError, follow_link, load_campaign

    args = _parser().parse_args(argv)
    if not 1 <= args.port <= 65535:
        raise UsageError("tableside serve: --port must be between 1 and 65535")
    save = args.save or paths.last_campaign()
    if save is None:
        raise UsageError("tableside serve: no SAVE given and no campaign used yet")
    path = save.expanduser().absolute()
    try:
        if path.is_symlink():
            # The GM's app locks and writes the file a link points to, and leaves its side
            # files beside that: serve that file. Nothing is followed after this.
            path = follow_link(path)
        data = load_campaign(path, read=read_side_file).data  # as the server reads it
    except StoreError as exc:
        raise UsageError(f"tableside serve: {exc}") from None
    try:
        # Bound here, with SO_REUSEADDR, and handed to the server: no second bind to refuse.
        sockets = listening_sockets(args.host, args.port)
    except OSError as exc:
        raise UsageError(
            f"tableside serve: cannot listen on {args.host}:{args.port} ({exc.strerror or exc})"
        ) from None
    url = public_url(args.host, args.port)
    notes = code_lines(data)
    link = link_path(path)

    def ready() -> None:
        print(visible(f"Players' view of {path}"), flush=True)
        print(f"Open {url} in a browser (Ctrl+C stops)", flush=True)
        for line in notes:
            print(visible(line), flush=True)
        record = {
            "url": url,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "listen": args.host,
            "port": args.port,
        }
        with contextlib.suppress(OSError):
            _leave_link(link, record)

    quiet_logging()
    try:
        asyncio.run(serve(path, args.host, sockets, ready))
    except OSError as exc:
        raise UsageError(f"tableside serve: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # one line, never a traceback (it could quote the save)
        raise UsageError(f"tableside serve: stopped by an error ({type(exc).__name__})") from None
    finally:
        with contextlib.suppress(OSError):
            if serving_url(path) == url:
                link.unlink()
    return EXIT_OK

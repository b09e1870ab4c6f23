"""``tableside serve [SAVE] [--host H] [--port P]``: the players' view in their browsers.

textual-serve runs a small web server; each browser that opens the page gets its own process of
the players' view (:mod:`app.player`), which reads the save and never writes it, so the server
runs beside the GM's ``tableside SAVE`` on the same file.
"""

from __future__ import annotations

import contextlib
import shlex
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.cli_base import EXIT_OK, Parser, UsageError
from app.text import visible

DEFAULT_PORT = 8000
ALL_ADDRESSES = ("0.0.0.0", "::", "")


def _parser() -> Parser:
    p = Parser(
        prog="tableside serve",
        description="Serve a read-only players' view of a campaign to browsers (textual-serve).",
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


def cmd_serve(argv: Sequence[str]) -> int:
    from app import paths
    from app.store import StoreError, read_campaign

    args = _parser().parse_args(argv)
    if not 1 <= args.port <= 65535:
        raise UsageError("tableside serve: --port must be between 1 and 65535")
    save = args.save or paths.last_campaign()
    if save is None:
        raise UsageError("tableside serve: no SAVE given and no campaign used yet")
    path = save.expanduser().absolute()
    try:
        data = read_campaign(path)
    except StoreError as exc:
        raise UsageError(f"tableside serve: {exc}") from None
    with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
        # Refused here with one line rather than by aiohttp with a traceback.
        try:
            probe.bind((args.host, args.port))
        except OSError as exc:
            raise UsageError(
                f"tableside serve: cannot listen on {args.host}:{args.port} ({exc.strerror or exc})"
            ) from None
    url = public_url(args.host, args.port)
    command = shlex.join([sys.executable, "-m", "app.player", str(path)])
    server = _server(command, args.host, args.port, url, path, code_lines(data))
    try:
        server.serve()
    except OSError as exc:
        raise UsageError(f"tableside serve: {exc.strerror or exc}") from None
    return EXIT_OK


def _server(command: str, host: str, port: int, url: str, path: Path, notes: list[str]) -> Any:
    from textual_serve.server import Server

    class PlayersServer(Server):
        """textual-serve's server, announcing itself in Tableside's words."""

        async def on_startup(self, app: Any) -> None:
            print(visible(f"Players' view of {path}"), flush=True)
            print(f"Open {url} in a browser (Ctrl+C stops)", flush=True)
            for line in notes:
                print(visible(line), flush=True)

    return PlayersServer(command, host=host, port=port, title="Tableside", public_url=url)

"""``tableside serve``'s web server: the players' view as an HTML page, one process for all pages.

One aiohttp application. ``GET /`` is the page (``player_page.html`` beside this module, with its
style sheet, script and icon: every asset is served from here, since a table may have no
internet); ``GET /ws`` is the websocket each page opens. One task polls the save
(:class:`app.player_feed.SaveWatch`) and pushes the same view, built once, to every page; a page
asks for a private hand over its websocket (:class:`app.player_feed.HandDesk`).

The table's network is shared, so every request is checked before it is served:

* ``Host`` must name this server (an IP address, ``localhost``, this machine's name, or the
  ``--host`` given) on its port: a page of another site reached through DNS rebinding is
  refused; ``Origin``, where a browser sends one, must be this server itself, so a page from
  another site cannot open the websocket.
* At most :data:`MAX_PAGES` pages at once; the next one gets a page that says so.
* Request lines, headers and bodies are bounded, and so is a page's websocket message
  (:data:`MAX_MESSAGE`): a bigger one closes that page's socket.
* A refused or malformed request is one log line (:func:`quiet_logging`); a traceback, the save's
  contents or the campaign's secret never reach the server's output.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import re
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson
from aiohttp import WSCloseCode, WSMsgType, web

from app.player_feed import MAX_CODE, POLL_SECONDS, HandDesk, SaveWatch
from app.player_gate import REPORT_SECONDS, REQUEST_SECONDS, Gate, Limits, OncePerMinute

MAX_PAGES = 32
PAGES_PER_ADDRESS = 4
"""Pages one address (a phone, a laptop) may hold: a few tabs, never the table's 32."""
MAX_MESSAGE = 1024
"""Bytes of one message from a page (a code request is under 100)."""
MAX_REQUEST = 4096
"""Bytes of a request body (the page sends none) and of one header line."""
SEND_TIMEOUT = 5.0
"""A page that does not take a message within this long (a phone gone to sleep mid-send) is
closed, so one stalled page never holds up the others."""
HEARTBEAT = 20.0
"""Seconds between pings: a phone that left without closing frees its place within a minute."""
ASSETS = {
    "/": ("player_page.html", "text/html"),
    "/player.css": ("player_page.css", "text/css"),
    "/player.js": ("player_page.js", "text/javascript"),
    "/icon.svg": ("player_page.svg", "image/svg+xml"),
}
SECURITY_HEADERS = {
    # The browser itself refuses any request elsewhere: the page works on a table offline.
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
FULL_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Players' view full</title><link rel="stylesheet" href="/player.css"></head>
<body><main><h1>The players' view is full</h1>
<p>{limit} pages are open already. Close it on another phone or tab, then reload this page.</p>
</main></body></html>
"""

log = logging.getLogger("tableside.serve")
HOST_CHARS = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


@dataclass(eq=False)
class Page:
    """One open page: its socket and the hand it unlocked, if any."""

    ws: web.WebSocketResponse
    peer: str
    hand: tuple[int, str] | None = None
    """The PC whose hand this page sees and the code it typed (checked again on each change)."""
    sent_view: str = ""
    sent_hand: str = ""


@dataclass
class PlayersServer:
    """The shared state of one ``tableside serve``: the save's watch, the pages, the lockouts."""

    watch: SaveWatch
    desk: HandDesk
    names: frozenset[str]
    """Host names (besides IP addresses) a request may name: ``localhost``, this machine's."""
    poll: float = POLL_SECONDS
    max_pages: int = MAX_PAGES
    pages_per_address: int = PAGES_PER_ADDRESS
    pages: set[Page] = field(default_factory=set)
    page_transports: set[asyncio.BaseTransport] = field(default_factory=set)
    """The connections that are pages' websockets (their frames are not requests)."""

    def is_page(self, transport: asyncio.BaseTransport) -> bool:
        return transport in self.page_transports

    def pages_from(self, peer: str) -> int:
        return sum(1 for page in self.pages if page.peer == peer)

    # --- the guard -------------------------------------------------------------------------
    def host_allowed(self, host: str, port: int) -> bool:
        if HOST_CHARS.fullmatch(host) is None:
            return False
        if host.endswith("]") or ":" not in host:
            name, given = host, "80"  # no port given: the default one
        else:
            name, _, given = host.rpartition(":")
        if int(given) != port:
            return False
        name = name.strip("[]").lower()
        with contextlib.suppress(ValueError):
            ipaddress.ip_address(name)  # an address cannot be rebound to another site
            return True
        return name in self.names

    def refusal(self, request: web.Request) -> str | None:
        """Why this request is refused (one line for the log), or None."""
        host = request.headers.get("Host", "")
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        port = int(sock[1]) if sock else 0
        if not self.host_allowed(host, port):
            return f"refused a request naming host {host[:80]!r}"
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{host.lower()}":
            return f"refused a request from a page of another site ({origin[:80]!r})"
        return None

    # --- pushing -----------------------------------------------------------------------------
    async def follow(self) -> None:
        """Poll the save for the server's lifetime; push each change to every page."""
        while True:
            try:
                changed = await asyncio.to_thread(self.watch.poll)
                if changed:
                    await self.push_all()
            except Exception as exc:  # the watch must outlive any one bad read
                log.warning("players' view: following the save failed (%s)", type(exc).__name__)
            await asyncio.sleep(self.poll)

    async def push_all(self) -> None:
        await asyncio.gather(*(self.push(page) for page in list(self.pages)))

    async def push(self, page: Page) -> None:
        if page.sent_view != self.watch.payload:
            page.sent_view = self.watch.payload
            await self.send(page, self.watch.payload)
        if page.hand is None:
            return
        pc_id, typed = page.hand
        if not self.desk.still_open(pc_id, typed):
            page.hand, page.sent_hand = None, ""
            message = "The GM changed the player codes: type your code again."
            await self.send_json(page, {"type": "closed", "pc": pc_id, "message": message})
            return
        await self.send_hand(page, self.desk.hand(pc_id))

    async def send_hand(self, page: Page, hand: dict[str, Any]) -> None:
        text = orjson.dumps(hand).decode()
        if text != page.sent_hand:
            page.sent_hand = text
            await self.send(page, text)

    async def send_json(self, page: Page, message: dict[str, Any]) -> None:
        await self.send(page, orjson.dumps(message).decode())

    async def send(self, page: Page, text: str) -> None:
        if page.ws.closed:
            return
        try:
            await asyncio.wait_for(page.ws.send_str(text), SEND_TIMEOUT)
        except (TimeoutError, ConnectionError, RuntimeError):
            log.info("closed a page that stopped listening (%s)", page.peer)
            with contextlib.suppress(Exception):
                await page.ws.close(code=WSCloseCode.GOING_AWAY)

    # --- a page's messages -------------------------------------------------------------------
    async def answer(self, page: Page, text: str) -> bool:
        """Act on one message from a page; False when it is malformed (the page is closed)."""
        try:
            message = orjson.loads(text)
        except orjson.JSONDecodeError:
            return False
        if not isinstance(message, dict):
            return False
        kind = message.get("type")
        if kind == "lock":
            page.hand, page.sent_hand = None, ""
            return True
        if kind != "unlock":
            return False
        pc_id, typed = message.get("pc"), message.get("code")
        if type(pc_id) is not int or not isinstance(typed, str) or len(typed) > MAX_CODE:
            return False
        reply, opened = self.desk.unlock(pc_id, typed)
        if opened:
            page.hand = (pc_id, typed)
            page.sent_hand = ""
            await self.send_hand(page, reply)
        else:
            page.hand, page.sent_hand = None, ""
            await self.send_json(page, reply)
        return True


SERVER = web.AppKey("server", PlayersServer)


# --- handlers ----------------------------------------------------------------------------------
@web.middleware
async def guard(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
    server: PlayersServer = request.app[SERVER]
    reason = server.refusal(request)
    if reason is not None:
        log.warning("%s from %s", reason, request.remote)
        return web.Response(status=403, text="Refused: this is Tableside's players' view.\n")
    response: web.StreamResponse = await handler(request)
    return response


async def asset(request: web.Request) -> web.StreamResponse:
    server: PlayersServer = request.app[SERVER]
    name, kind = ASSETS[request.path]
    if request.path == "/" and len(server.pages) >= server.max_pages:
        log.warning("refused a page from %s: %d pages are open", request.remote, server.max_pages)
        return web.Response(
            status=503,
            text=FULL_PAGE.format(limit=server.max_pages),
            content_type="text/html",
            headers=SECURITY_HEADERS,
        )
    return web.Response(
        body=_asset(name), content_type=kind, charset="utf-8", headers=SECURITY_HEADERS
    )


async def page_socket(request: web.Request) -> web.StreamResponse:
    server: PlayersServer = request.app[SERVER]
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=HEARTBEAT)
    if not ws.can_prepare(request).ok:
        log.warning("refused a malformed websocket request from %s", request.remote)
        return web.Response(status=400, text="Bad request\n")
    transport = request.transport
    if transport is not None:
        server.page_transports.add(transport)
    try:
        return await _serve_page(server, request, ws)
    finally:
        server.page_transports.discard(transport)


async def _serve_page(
    server: PlayersServer, request: web.Request, ws: web.WebSocketResponse
) -> web.WebSocketResponse:
    await ws.prepare(request)
    peer = str(request.remote)
    full = ""
    if len(server.pages) >= server.max_pages:
        log.warning("refused a page from %s: %d pages are open", peer, server.max_pages)
        full = (
            f"The players' view is full: {server.max_pages} pages are open. Close one, then reload."
        )
    elif server.pages_from(peer) >= server.pages_per_address:
        log.warning(
            "refused a page from %s: %d pages are open from that address",
            peer,
            server.pages_per_address,
        )
        full = (
            f"{server.pages_per_address} pages are open from this device already. "
            "Close one, then reload."
        )
    if full:
        await ws.send_json({"type": "full", "message": full})
        await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"full")
        return ws
    page = Page(ws, peer)
    server.pages.add(page)
    log.info("a page opened from %s (%d open)", peer, len(server.pages))
    try:
        await server.push(page)
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                if not await server.answer(page, msg.data):
                    log.warning("closed a page that sent a malformed message (%s)", peer)
                    await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"malformed")
            elif msg.type == WSMsgType.ERROR:
                log.warning("closed a page: %s (%s)", _short(ws.exception()), peer)
            else:
                log.warning("closed a page that sent a malformed message (%s)", peer)
                await ws.close(code=WSCloseCode.UNSUPPORTED_DATA, message=b"text only")
    finally:
        server.pages.discard(page)
        log.info("a page closed from %s (%d open)", peer, len(server.pages))
    return ws


@functools.cache
def _asset(name: str) -> bytes:
    return (Path(__file__).parent / name).read_bytes()


def _short(exc: BaseException | None) -> str:
    """An exception as its type and its message on one line (120 characters at most)."""
    if exc is None:
        return "an error"
    text = str(getattr(exc, "message", "") or exc)
    flat = " ".join(text.split())[:120]
    return f"{type(exc).__name__}: {flat}" if flat else type(exc).__name__


def machine_names(host: str) -> frozenset[str]:
    """The names a request may give for this server (IP addresses are always allowed)."""
    names = {"localhost", socket.gethostname().lower()}
    with contextlib.suppress(OSError):
        names.add(socket.getfqdn().lower())
    names |= {f"{n}.local" for n in list(names) if "." not in n}
    if host and host not in ("0.0.0.0", "::"):
        names.add(host.lower())
    return frozenset(names)


def make_app(
    path: Path,
    *,
    host: str = "localhost",
    poll: float = POLL_SECONDS,
    max_pages: int = MAX_PAGES,
    pages_per_address: int = PAGES_PER_ADDRESS,
    clock: Callable[[], float] = time.monotonic,
) -> web.Application:
    """The players' view of ``path`` as an aiohttp application (the tests serve it too)."""
    watch = SaveWatch(path)
    watch.poll()
    server = PlayersServer(
        watch, HandDesk(watch, clock), machine_names(host), poll, max_pages, pages_per_address
    )
    app = web.Application(middlewares=[guard], client_max_size=MAX_REQUEST)
    app[SERVER] = server
    for route in ASSETS:
        app.router.add_get(route, asset)
    app.router.add_get("/ws", page_socket)

    async def following(app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(server.follow())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def closing(app: web.Application) -> None:
        # On shutdown, before aiohttp waits for the handlers to end: a page's handler ends
        # only when its socket closes.
        for page in list(server.pages):
            with contextlib.suppress(Exception):
                await page.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")

    app.cleanup_ctx.append(following)
    app.on_shutdown.append(closing)
    return app


HANDLER_LIMITS: dict[str, Any] = {
    "max_line_size": MAX_REQUEST,
    "max_field_size": MAX_REQUEST,
    "max_headers": 64,
    "keepalive_timeout": REQUEST_SECONDS,
}
"""aiohttp's request parser limits (a longer line or header is refused with 400/431), and how
long a connection may sit idle between requests."""


# --- the log: one line per event ---------------------------------------------------------------
class OneLine(logging.Formatter):
    """A record as one line: an exception becomes its type and first line, never a traceback
    (the traceback of a failed request holds local variables' text, and with it, once, the
    campaign's secret)."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage().splitlines()[0] if record.getMessage() else ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            from aiohttp.http_exceptions import HttpProcessingError

            # A parser error's text is about the request's bytes; any other's could hold data.
            detail = _short(exc) if isinstance(exc, HttpProcessingError) else type(exc).__name__
            text = f"{text}: {detail}"
        text = text[:300]
        held = getattr(record, "not_shown", 0)
        if held:
            text += f" (and {held} more like it in the last minute)"
        return f"tableside serve: {text}"


class _WantedRecords(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        # aiohttp logs a request that is not HTTP at all only at debug level: still one line.
        return record.levelno >= logging.INFO or record.getMessage().startswith("Error handling")


def quiet_logging(stream: IO[str] | None = None, every: float = REPORT_SECONDS) -> logging.Handler:
    """Send the server's and aiohttp's records, one line each, to ``stream`` (stderr); each
    kind at most once in ``every`` seconds, with the count of the others."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(OneLine())
    handler.addFilter(_WantedRecords())
    handler.addFilter(OncePerMinute(every))
    for name in ("tableside.serve", "aiohttp.server", "aiohttp.web", "aiohttp.websocket"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(logging.DEBUG if name.startswith("aiohttp") else logging.INFO)
        logger.propagate = False
    logging.getLogger("aiohttp.access").disabled = True
    return handler


def report_overdue(*, all_held: bool = False) -> None:
    """Log each kind of record held back for a minute (every kind held: ``all_held``, as the
    server stops), with how many there were."""
    for handler in logging.getLogger("tableside.serve").handlers:
        for found in handler.filters:
            if isinstance(found, OncePerMinute):
                for record in found.overdue(all_held=all_held):
                    handler.handle(record)


async def _reporting(every: float = 5.0) -> None:
    while True:
        await asyncio.sleep(every)
        report_overdue()


def one_line_loop_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """asyncio's own error report, one line (its default prints a traceback)."""
    exc = context.get("exception")
    detail = type(exc).__name__ if exc is not None else str(context.get("message", "error"))
    log.warning("players' view: %s", detail[:200])


async def serve(
    path: Path,
    host: str,
    sockets: list[socket.socket],
    on_ready: Callable[[], None],
    stop: asyncio.Event | None = None,
    limits: Limits | None = None,
) -> None:
    """Serve on ``sockets`` (:func:`app.player_gate.listening_sockets`) until ``stop`` is set,
    Ctrl+C, SIGTERM or a closed terminal (SIGHUP)."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(one_line_loop_errors)
    stop = stop or asyncio.Event()
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, stop.set)
    app = make_app(path, host=host)
    runner = web.AppRunner(app, access_log=None, **HANDLER_LIMITS)
    await runner.setup()
    handlers = runner.server
    assert handlers is not None  # set up above
    gate = Gate(handlers, limits or Limits(), app[SERVER].is_page)
    tasks = [asyncio.create_task(gate.run(sock)) for sock in sockets]
    tasks.append(asyncio.create_task(_reporting()))
    try:
        on_ready()
        await stop.wait()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for sock in sockets:
            sock.close()
        await runner.cleanup()
        report_overdue(all_held=True)

"""Who ``tableside serve`` lets in: the pages it has keep being served whatever else connects.

The web application (:mod:`app.player_server`) answers requests; this is the door before it,
at the level of connections, since a connection that never sends a request never reaches a
handler:

* The listening sockets are made here with ``SO_REUSEADDR``, so the server starts again at once
  on the port it just left (its old connections wait out TIME_WAIT on that port).
* A connection that has not sent a whole request (its headers) within
  :attr:`Limits.request_seconds` is closed; so is one whose headers trickle in. Between
  requests, aiohttp's keep-alive timeout (the same seconds) closes an idle one.
* At most :attr:`Limits.per_address` connections from one address: one machine cannot hold
  the door (nor all the pages) for the table.
* File descriptors are kept in reserve: the server stops accepting while the connections
  would leave fewer than :attr:`Limits.fd_reserve` of ``RLIMIT_NOFILE`` free, so the save can
  still be read and every open page still gets the GM's change; the connections waiting stay
  in the kernel's queue until one closes.
* Each kind of refusal is logged at most once a minute, with how many there were
  (:class:`OncePerMinute`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import errno
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from rulesets.values import frozen, record

log = logging.getLogger("tableside.serve")

REQUEST_SECONDS = 5.0
"""A phone sends its request in milliseconds; a connection silent for this long is not one."""
PER_ADDRESS = 8
"""A page and the few connections a browser opens for its assets, twice over (a reload)."""
FD_RESERVE = 64
"""Descriptors left free: the save, its journal and owner file, a worker thread, the log."""
BACKLOG = 128
REPORT_SECONDS = 60.0


@frozen
class Limits:
    """What the door allows (the tests narrow it; ``tableside serve`` uses the defaults)."""

    request_seconds: float = REQUEST_SECONDS
    per_address: int = PER_ADDRESS
    fd_reserve: int = FD_RESERVE
    max_connections: int | None = None
    """None: as many as ``RLIMIT_NOFILE`` allows beside the reserve (:func:`room_for`)."""


def room_for(reserve: int) -> int:
    """How many connections this process may hold and still keep ``reserve`` descriptors."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 16
    try:
        in_use = len(os.listdir("/proc/self/fd"))
    except OSError:
        in_use = 32  # no /proc: a fresh server holds about this many
    return max(1, soft - in_use - reserve)


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Bound, listening, non-blocking sockets for ``host`` (every address it names) and ``port``.

    Raises:
        OSError: the port is taken, or the host names no address here.
    """
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    made: list[socket.socket] = []
    seen: set[Any] = set()
    try:
        for family, kind, proto, _, address in infos:
            if address in seen:
                continue
            seen.add(address)
            sock = socket.socket(family, kind, proto)
            made.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                # An address family this machine lacks (no IPv6) is skipped, not fatal.
                if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) and len(infos) > 1:
                    made.pop().close()
                    continue
                raise
            sock.listen(BACKLOG)
            sock.setblocking(False)
        if not made:
            raise OSError(errno.EADDRNOTAVAIL, "no address to listen on")
    except BaseException:
        for sock in made:
            sock.close()
        raise
    return made


# --- the log: once a minute per kind ------------------------------------------------------------
@record
class _Kind:
    said_at: float
    held: int = 0
    latest: logging.LogRecord | None = None


class OncePerMinute(logging.Filter):
    """Lets each kind of record (its message before the values go in) through at most once a
    minute; the ones held back are counted, and the next one through, or :meth:`overdue` once
    the minute is over, says how many (``record.not_shown``)."""

    MAX_KINDS = 256

    def __init__(
        self, every: float = REPORT_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self.kinds: dict[str, _Kind] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "overdue", False):
            return True  # counted already: see overdue()
        kind = str(record.msg)
        if kind not in self.kinds and len(self.kinds) >= self.MAX_KINDS:
            kind = "other"
        now = self.clock()
        seen = self.kinds.get(kind)
        if seen is not None and now - seen.said_at < self.every:
            seen.held += 1
            seen.latest = record
            return False
        if seen is not None and seen.held:
            record.not_shown = seen.held
        self.kinds[kind] = _Kind(now)
        return True

    def overdue(self, *, all_held: bool = False) -> list[logging.LogRecord]:
        """The latest held record of each kind whose minute is over (of every kind:
        ``all_held``, as the server stops), each saying how many more like it were held
        (hand them to the handler)."""
        now = self.clock()
        due = []
        for kind, seen in self.kinds.items():
            if seen.latest is not None and (all_held or now - seen.said_at >= self.every):
                seen.latest.not_shown = seen.held - 1
                seen.latest.overdue = True
                due.append(seen.latest)
                self.kinds[kind] = _Kind(now)
        return due


# --- the door ---------------------------------------------------------------------------------
class Door(asyncio.Protocol):
    """One connection: counted, timed until its request's headers are in, then handed on."""

    def __init__(self, gate: Gate, address: str, inner: asyncio.Protocol) -> None:
        self.gate = gate
        self.address = address
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.tail = b""
        self.between = False
        """The last request's headers are in: the next byte starts another (unless a page)."""

    def _arm(self) -> None:
        loop = asyncio.get_running_loop()
        self.deadline = loop.call_later(self.gate.limits.request_seconds, self._too_slow)
        self.tail = b""

    def _too_slow(self) -> None:
        self.deadline = None
        log.warning(
            "closed a connection from %s that sent no whole request in %g s",
            self.address,
            self.gate.limits.request_seconds,
        )
        if self.transport is not None:
            self.transport.abort()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self._arm()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.between and self.transport is not None:
            self.between = False
            if not self.gate.is_page(self.transport):  # a page's frames are not requests
                self._arm()  # another request begins
        if self.deadline is not None:
            seen = self.tail + data
            if b"\r\n\r\n" in seen:
                self.deadline.cancel()
                self.deadline = None
                self.between = True
            self.tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.gate.left(self.address)
        self.inner.connection_lost(exc)


class Gate:
    """Accepts connections for a protocol factory (aiohttp's server), within :class:`Limits`."""

    def __init__(
        self,
        factory: Callable[[], asyncio.Protocol],
        limits: Limits,
        is_page: Callable[[asyncio.BaseTransport], bool] = lambda transport: False,
    ) -> None:
        self.factory = factory
        self.limits = limits
        self.is_page = is_page
        self.capacity = limits.max_connections or room_for(limits.fd_reserve)
        self.open = 0
        self.by_address: collections.Counter[str] = collections.Counter()
        self.room = asyncio.Event()
        self.room.set()

    def left(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        self.room.set()

    async def run(self, sock: socket.socket) -> None:
        """Accept on ``sock`` until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            if self.open >= self.capacity:
                log.warning(
                    "not taking new connections while %d are open "
                    "(file descriptors kept for the open pages)",
                    self.open,
                )
                self.room.clear()
                while self.open >= self.capacity:
                    await self.room.wait()
                    self.room.clear()
            try:
                conn, peer = await loop.sock_accept(sock)
            except OSError as exc:  # out of descriptors all the same, a connection reset
                log.warning("could not take a connection (%s)", exc.strerror or exc)
                await asyncio.sleep(0.1)
                continue
            address = str(peer[0])
            if self.by_address[address] >= self.limits.per_address:
                log.warning(
                    "refused a connection from %s: %d are open from that address",
                    address,
                    self.limits.per_address,
                )
                with contextlib.suppress(OSError):
                    conn.close()
                continue
            self.open += 1
            self.by_address[address] += 1
            door = Door(self, address, self.factory())
            try:
                conn.setblocking(False)
                await loop.connect_accepted_socket(lambda door=door: door, conn)  # type: ignore[misc]
            except OSError:
                conn.close()
                self.left(address)

"""``tableside serve`` under a crowd: silent and slow connections, one address taking many,
file descriptors running out, a restart on the port just left, and a log that stays short.

The real command in a subprocess (its output in a file, so a flood of lines cannot block it),
on 127.0.0.1. Other machines at the table are other loopback addresses (127.0.N.M: Linux
answers all of 127/8), each connection bound to its own before it connects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from app.commands import combat as cmd
from app.player_gate import OncePerMinute, room_for
from app.queries import current_encounter
from app.state import Campaign
from tests.apphelpers import open_demo
from tests.test_players_serve import stop_server


@contextlib.contextmanager
def serve(
    save: Path, port: int = 0, *, nofile: int | None = None
) -> Iterator[tuple[int, Path, subprocess.Popen[bytes]]]:
    """``tableside serve SAVE --host 127.0.0.1`` on ``port`` (free if 0): ``(port, log, proc)``."""
    if not port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
    out = save.with_name(f"serve-{port}-{time.monotonic_ns()}.log")

    def limit() -> None:
        if nofile is not None:
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))

    with out.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", str(save), "--host", "127.0.0.1"]
            + ["--port", str(port)],
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=limit,
        )
    try:
        deadline = time.monotonic() + 30
        while "Open http" not in out.read_text(errors="replace"):
            assert proc.poll() is None, out.read_text(errors="replace")
            assert time.monotonic() < deadline, "tableside serve did not start"
            time.sleep(0.05)
        yield port, out, proc
    finally:
        stop_server(proc)


def connect_from(address: str, port: int) -> socket.socket:
    sock = socket.socket()
    sock.bind((address, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (reading what it sends)."""
    sock.settimeout(0.2)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except ConnectionError:
            return True
    return False


def crowd_address(i: int) -> str:
    return f"127.0.{1 + i // 200}.{1 + i % 200}"


def enc_id(campaign: Campaign) -> int:
    found = current_encounter(campaign)
    assert found is not None
    return found[0]


async def next_view(ws: aiohttp.ClientWebSocketResponse, timeout: float) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            message = await ws.receive_json()
            if message["type"] == "view":
                return dict(message)


@pytest.fixture
def gm(tmp_path: Path) -> Iterator[Campaign]:
    campaign = open_demo(tmp_path, "shadows")
    campaign.apply(cmd.StartEncounter(enc_id(campaign)))
    campaign.store.flush()
    yield campaign
    campaign.store.close()


def test_a_connection_that_sends_no_whole_request_is_closed_and_a_page_is_not(
    gm: Campaign,
) -> None:
    """A silent connection and one whose headers trickle in are closed within seconds; a page
    whose socket is open longer (and sends a message) stays and gets the GM's change."""

    async def scenario(port: int) -> tuple[bool, bool, str]:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
            before = (await next_view(ws, 10))["headline"]
            silent = connect_from("127.0.0.1", port)
            slow = connect_from("127.0.0.1", port)
            slow.sendall(b"GET / HTTP/1.1\r\n")
            slow_closed = False
            for _ in range(16):  # a header line every half second: never a whole request
                await asyncio.sleep(0.5)
                try:
                    slow.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    slow_closed = True
                    break
            await ws.send_json({"type": "lock"})  # a page's frame is not a request
            silent_closed = await asyncio.to_thread(closed_within, silent, 1.0)
            slow_closed = slow_closed or await asyncio.to_thread(closed_within, slow, 1.0)
            silent.close()
            slow.close()
            gm.apply(cmd.NextTurn(enc_id(gm)))
            after = (await next_view(ws, 5))["headline"]
            await ws.close()
            assert after != before
            return silent_closed, slow_closed, after

    with serve(gm.store.path) as (port, log, _):
        silent_closed, slow_closed, _ = asyncio.run(scenario(port))
        text = log.read_text()
    assert silent_closed and slow_closed
    assert "sent no whole request in 5 s" in text


def test_one_address_cannot_hold_more_than_a_few_connections_or_pages(gm: Campaign) -> None:
    with serve(gm.store.path) as (port, log, _):
        held = [connect_from("127.0.0.1", port) for _ in range(8)]
        extra = [connect_from("127.0.0.1", port) for _ in range(40)]
        assert all(closed_within(sock, 1.0) for sock in extra[:3])
        other = connect_from("127.0.0.2", port)  # another phone still gets in
        other.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        other.settimeout(5)
        assert other.recv(64).startswith(b"HTTP/1.1 200")
        for sock in held + extra + [other]:
            sock.close()
        time.sleep(0.3)
        text = log.read_text()
    refusals = [line for line in text.splitlines() if "refused a connection" in line]
    assert refusals == [
        "tableside serve: refused a connection from 127.0.0.1: 8 are open from that address"
    ]


def test_the_pages_keep_following_the_gm_when_descriptors_run_short(gm: Campaign) -> None:
    """Under ``ulimit -n 160``, 400 idle connections from 50 addresses: the page open before
    them still gets every GM change within a second, and the log stays a few lines."""

    async def scenario(port: int) -> list[float]:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
            await next_view(ws, 10)
            crowd: list[socket.socket] = []
            for i in range(400):
                with contextlib.suppress(OSError):
                    sock = socket.socket()
                    crowd.append(sock)
                    sock.setblocking(False)
                    sock.bind((crowd_address(i // 8), 0))
                    sock.connect_ex(("127.0.0.1", port))
            await asyncio.sleep(0.5)
            took = []
            for _ in range(3):
                start = time.monotonic()
                gm.apply(cmd.NextTurn(enc_id(gm)))
                await next_view(ws, 5)
                took.append(time.monotonic() - start)
                await asyncio.sleep(0.3)
            for sock in crowd:
                sock.close()
            await ws.close()
            return took

    with serve(gm.store.path, nofile=160) as (port, log, _):
        took = asyncio.run(scenario(port))
        time.sleep(0.3)
        lines = log.read_text().splitlines()
    assert max(took) < 1.0, took
    assert len(lines) < 15, lines[:20]
    assert any("not taking new connections" in line for line in lines)


def test_serve_starts_again_at_once_on_the_port_it_just_left(gm: Campaign) -> None:
    async def open_page(port: int) -> None:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
            await next_view(ws, 10)
            proc.send_signal(signal.SIGTERM)  # stopped while the page is open
            await ws.receive(timeout=10)
            await ws.close()

    with serve(gm.store.path) as (port, _, proc):
        asyncio.run(open_page(port))
        proc.wait(timeout=10)
    with serve(gm.store.path, port) as (again, log, _):
        assert again == port
        assert f"Open http://127.0.0.1:{port}" in log.read_text()


def test_each_kind_of_log_line_is_said_once_a_minute_with_its_count() -> None:
    now = [0.0]
    out: list[str] = []
    throttle = OncePerMinute(60.0, clock=lambda: now[0])

    class Lines(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            text = record.getMessage()
            held = getattr(record, "not_shown", 0)
            out.append(f"{text} (+{held})" if held else text)

    handler = Lines()
    handler.addFilter(throttle)
    logger = logging.getLogger("tableside.test-throttle")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for i in range(7890):
            now[0] = i / 7890
            logger.warning("refused a connection from %s", f"10.0.0.{i % 250}")
            logger.warning("closed a connection from %s that sent nothing", "10.0.0.9")
        assert out == [
            "refused a connection from 10.0.0.0",
            "closed a connection from 10.0.0.9 that sent nothing",
        ]
        now[0] = 30.0
        assert [handler.handle(r) for r in throttle.overdue()] == []  # not a minute yet
        now[0] = 61.0
        for record in throttle.overdue():
            handler.handle(record)
        assert out[2:] == [
            "refused a connection from 10.0.0.139 (+7888)",
            "closed a connection from 10.0.0.9 that sent nothing (+7888)",
        ]
        now[0] = 62.0
        logger.warning("refused a connection from %s", "10.0.0.1")
        now[0] = 122.0
        logger.warning("refused a connection from %s", "10.0.0.2")
        assert out[4:] == ["refused a connection from 10.0.0.2 (+1)"]
        now[0] = 123.0
        logger.warning("refused a connection from %s", "10.0.0.3")
        for record in throttle.overdue(all_held=True):  # the server stops: say what is held
            handler.handle(record)
        assert out[5:] == ["refused a connection from 10.0.0.3"]
    finally:
        logger.removeHandler(handler)


def test_the_room_for_connections_keeps_the_reserve() -> None:
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    in_use = len(os.listdir("/proc/self/fd"))
    assert room_for(64) == max(1, soft - in_use - 64)
    assert re.fullmatch(r"\d+", str(room_for(10**9)))  # never less than one
    assert room_for(10**9) == 1

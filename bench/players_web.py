"""How fast a GM's change reaches the players' phones, under a crowd, and what the server costs.

Starts the real ``tableside serve`` on a Shadows demo the GM's campaign holds open, under
``ulimit -n 1024``, opens 10 pages' websockets (10 phones: each from its own loopback address),
then lets a crowd in from another process: 1,000 idle connections and 300 slow ones (a header
line a second, never a whole request), 8 per address, each opened again as soon as the server
closes it. Meanwhile it makes 50 GM changes (next turn, a random 0.2-0.4 s apart so they fall
anywhere in the server's poll cycle). Each change's latency, per page, is from just before the
GM's command is applied (so the GM's own journal write and sync are counted; the save file
takes the change in once the changes pause, as in the GM's app) until that page has the new
view. Then the server's resident memory with those 10 pages open, against a bare aiohttp
server holding 10 websockets, started and measured the same way in the same run.

Goals: p95 under 1 s with the crowd at the door; the server under 80 MB.

    python bench/players_web.py
"""

from __future__ import annotations

import asyncio
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import aiohttp

from app.commands import combat as cmd
from app.demo import write_demo
from app.player_feed import POLL_SECONDS
from app.queries import current_encounter
from app.state import Campaign
from app.store import CampaignStore

PAGES = 10
CHANGES = 50
IDLE = 1000
SLOW = 300
SERVER_FILES = 1024
"""The server's ``ulimit -n``."""
CROWD = textwrap.dedent(
    """
    import asyncio, resource, sys, time

    port, idle, slow, seconds = (int(a) for a in sys.argv[1:5])
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    counts = {"opened": 0, "closed by the server": 0, "not taken in 5 s": 0}

    def address(i, block):
        n = i // 8  # 8 connections per address, the server's limit
        return f"127.{block}.{1 + n // 250}.{1 + n % 250}"

    async def one(i, block, trickle, end):
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(address(i, block), 0)), 5)
            except (OSError, TimeoutError):
                counts["not taken in 5 s"] += 1
                continue
            counts["opened"] += 1
            try:
                if trickle:
                    writer.write(b"GET / HTTP/1.1\\r\\n")
                while time.monotonic() < end:
                    try:
                        got = await asyncio.wait_for(reader.read(1024), 1.0)
                    except TimeoutError:
                        if trickle:
                            writer.write(b"X-Slow: 1\\r\\n")
                        continue
                    if not got:
                        counts["closed by the server"] += 1
                        break
            except OSError:
                counts["closed by the server"] += 1
            writer.close()

    async def main():
        end = time.monotonic() + seconds
        tasks = [one(i, 10, False, end) for i in range(idle)]
        tasks += [one(i, 20, True, end) for i in range(slow)]
        print("crowd at the door", flush=True)
        await asyncio.gather(*tasks)
        print(" · ".join(f"{v} {k}" for k, v in counts.items()), flush=True)

    asyncio.run(main())
    """
)
BARE_SERVER = textwrap.dedent(
    """
    import sys
    from aiohttp import web

    async def ws(request):
        sock = web.WebSocketResponse()
        await sock.prepare(request)
        async for _ in sock:
            pass
        return sock

    app = web.Application()
    app.router.add_get("/ws", ws)
    print("ready", flush=True)
    web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None)
    """
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _server_files() -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (SERVER_FILES, hard))


def start(
    args: list[str], ready: str, stderr: Path | None = None
) -> subprocess.Popen[str]:
    err = stderr.open("w") if stderr is not None else subprocess.DEVNULL
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=err, text=True, preexec_fn=_server_files
    )
    assert proc.stdout is not None
    while ready not in proc.stdout.readline():
        if proc.poll() is not None:
            raise RuntimeError(f"{args[2:]} exited {proc.returncode}")
    return proc


async def open_pages(
    port: int, sessions: list[aiohttp.ClientSession]
) -> list[aiohttp.ClientWebSocketResponse]:
    for _ in range(100):
        try:
            return [await s.ws_connect(f"http://127.0.0.1:{port}/ws") for s in sessions]
        except aiohttp.ClientConnectorError:
            await asyncio.sleep(0.05)
    raise RuntimeError("the server does not accept connections")


def phones() -> list[aiohttp.ClientSession]:
    """One session per phone, each from its own loopback address (127.0.0.11 ...)."""
    return [
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{11 + i}", 0)))
        for i in range(PAGES)
    ]


async def follow(ws: aiohttp.ClientWebSocketResponse, seen: list[tuple[float, str]]) -> None:
    """Record when each view arrives, with its headline."""
    async for msg in ws:
        if msg.type == aiohttp.WSMsgType.TEXT and '"type":"view"' in msg.data:
            headline = msg.data.split('"headline":"', 1)[1].split('"', 1)[0]
            seen.append((time.perf_counter(), headline))


async def measure(
    campaign: Campaign, port: int, pid: int
) -> tuple[list[float], float, str]:
    found = current_encounter(campaign)
    assert found is not None
    enc_id = found[0]
    rng = random.Random(23)
    sessions = phones()
    try:
        pages = await open_pages(port, sessions)
        seen: list[list[tuple[float, str]]] = [[] for _ in pages]
        tasks = [asyncio.create_task(follow(ws, s)) for ws, s in zip(pages, seen, strict=True)]
        while not all(seen):
            await asyncio.sleep(0.01)
        crowd = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CROWD, str(port), str(IDLE), str(SLOW), "40",
            stdout=asyncio.subprocess.PIPE,
        )
        assert crowd.stdout is not None
        await crowd.stdout.readline()
        await asyncio.sleep(3)  # the crowd in, the first idle ones not yet closed
        latencies = []
        for _ in range(CHANGES):
            await asyncio.sleep(rng.uniform(0.2, 0.4))
            counts = [len(s) for s in seen]
            start = time.perf_counter()
            campaign.apply(cmd.NextTurn(enc_id))  # in the journal, synced, as the GM's app has it
            deadline = start + 10
            while any(len(s) == n for s, n in zip(seen, counts, strict=True)):
                if time.perf_counter() > deadline:
                    raise RuntimeError("a page never got the change")
                await asyncio.sleep(0.002)
            latencies += [s[n][0] - start for s, n in zip(seen, counts, strict=True)]
        memory = rss_mb(pid)
        crowd_said = (await crowd.stdout.readline()).decode().strip()
        await crowd.wait()
        for ws in pages:
            await ws.close()
        for task in tasks:
            task.cancel()
    finally:
        for session in sessions:
            await session.close()
    return latencies, memory, crowd_said


async def bare_memory(port: int, pid: int) -> float:
    sessions = phones()
    try:
        pages = await open_pages(port, sessions)
        await asyncio.sleep(0.5)
        memory = rss_mb(pid)
        for ws in pages:
            await ws.close()
    finally:
        for session in sessions:
            await session.close()
    return memory


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        save = write_demo("shadows", Path(folder) / "demo-shadows.json", seed=3)
        campaign = Campaign(CampaignStore.open(save), rng=random.Random(1))
        found = current_encounter(campaign)
        assert found is not None
        campaign.apply(cmd.StartEncounter(found[0]))
        campaign.store.flush()
        port = free_port()
        said = Path(folder) / "serve.log"
        server = start(
            [sys.executable, "-m", "app", "serve", str(save), "--host", "127.0.0.1"]
            + ["--port", str(port)],
            "Open ",
            stderr=said,
        )
        try:
            latencies, memory, crowd = asyncio.run(measure(campaign, port, server.pid))
        finally:
            server.terminate()
            server.wait(10)
            campaign.store.close()
        log_lines = said.read_text().splitlines()
    port = free_port()
    bare = start([sys.executable, "-c", BARE_SERVER, str(port)], "ready")
    try:
        baseline = asyncio.run(bare_memory(port, bare.pid))
    finally:
        bare.terminate()
        bare.wait(10)
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[int(len(ms) * 0.95) - 1]
    print(
        f"crowd: {IDLE} idle + {SLOW} slow connections, 8 per address, reopened as closed, "
        f"server under ulimit -n {SERVER_FILES}: {crowd}"
    )
    print(f"server log: {len(log_lines)} lines for the whole run")
    for line in log_lines[:12]:
        print(f"  {line}")
    print(f"GM change -> {PAGES} open pages, {CHANGES} changes ({len(ms)} deliveries):")
    print(
        f"  median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, max {ms[-1]:.0f} ms "
        f"(server polls the save every {POLL_SECONDS * 1000:.0f} ms; goal p95 < 1000 ms: "
        f"{'met' if p95 < 1000 else 'NOT met'})"
    )
    print(
        f"server RSS with {PAGES} pages: {memory:.1f} MB; bare aiohttp server with {PAGES} "
        f"websockets: {baseline:.1f} MB ({memory / baseline:.2f}x; goal < 80 MB: "
        f"{'met' if memory < 80 else 'NOT met'})"
    )


if __name__ == "__main__":
    main()

"""How fast a GM's change reaches the players' phones, and what the server costs in memory.

Starts the real ``tableside serve`` on a Shadows demo the GM's campaign holds open, opens 10
pages' websockets, and makes 50 GM changes (next turn, a random 0.2-0.4 s apart so they fall
anywhere in the server's poll cycle). Each change's latency, per page, is from just before the
GM's command is applied (so the GM's own journal write and sync are counted; the save file
takes the change in once the changes pause, as in the GM's app) until that page has the new
view. Then the server's resident memory with those 10 pages open, against a bare aiohttp
server holding 10 websockets, started and measured the same way in the same run.

Goals (issue 23): p95 under 1 s; the server under 80 MB.

    python bench/players_web.py
"""

from __future__ import annotations

import asyncio
import random
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


def start(args: list[str], ready: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    while ready not in proc.stdout.readline():
        if proc.poll() is not None:
            raise RuntimeError(f"{args[2:]} exited {proc.returncode}")
    return proc


async def open_pages(
    port: int, session: aiohttp.ClientSession
) -> list[aiohttp.ClientWebSocketResponse]:
    for _ in range(100):
        try:
            return [await session.ws_connect(f"http://127.0.0.1:{port}/ws") for _ in range(PAGES)]
        except aiohttp.ClientConnectorError:
            await asyncio.sleep(0.05)
    raise RuntimeError("the server does not accept connections")


async def follow(ws: aiohttp.ClientWebSocketResponse, seen: list[tuple[float, str]]) -> None:
    """Record when each view arrives, with its headline."""
    async for msg in ws:
        if msg.type == aiohttp.WSMsgType.TEXT and '"type":"view"' in msg.data:
            headline = msg.data.split('"headline":"', 1)[1].split('"', 1)[0]
            seen.append((time.perf_counter(), headline))


async def measure(campaign: Campaign, port: int, pid: int) -> tuple[list[float], float]:
    found = current_encounter(campaign)
    assert found is not None
    enc_id = found[0]
    rng = random.Random(23)
    async with aiohttp.ClientSession() as session:
        pages = await open_pages(port, session)
        seen: list[list[tuple[float, str]]] = [[] for _ in pages]
        tasks = [asyncio.create_task(follow(ws, s)) for ws, s in zip(pages, seen, strict=True)]
        while not all(seen):
            await asyncio.sleep(0.01)
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
        for ws in pages:
            await ws.close()
        for task in tasks:
            task.cancel()
    return latencies, memory


async def bare_memory(port: int, pid: int) -> float:
    async with aiohttp.ClientSession() as session:
        pages = await open_pages(port, session)
        await asyncio.sleep(0.5)
        memory = rss_mb(pid)
        for ws in pages:
            await ws.close()
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
        server = start(
            [sys.executable, "-m", "app", "serve", str(save), "--port", str(port)], "Open "
        )
        try:
            latencies, memory = asyncio.run(measure(campaign, port, server.pid))
        finally:
            server.terminate()
            server.wait(10)
            campaign.store.close()
    port = free_port()
    bare = start([sys.executable, "-c", BARE_SERVER, str(port)], "ready")
    try:
        baseline = asyncio.run(bare_memory(port, bare.pid))
    finally:
        bare.terminate()
        bare.wait(10)
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[int(len(ms) * 0.95) - 1]
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

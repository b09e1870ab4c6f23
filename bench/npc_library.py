"""First visit to the NPC panel: key ``3`` to the first paint, 10,000-NPC library against 10.

Builds a Somnihil campaign with N library NPCs, runs the app headless on the combat panel,
and times the first ``3`` (the NPC panel is built on its first visit) to the first repaint
that shows the NPC panel, and the longest the UI was blocked (no message handled) in that
time. Each run is a fresh app, medians of five. Prints ms and the ratio against 10 NPCs
(goal: the first paint does not grow with the library). Not part of the suite.

    python bench/npc_library.py [--runs 5] [--library 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from app.demo import npc_document, write_demo  # noqa: E402
from app.state import Campaign  # noqa: E402
from app.store import CampaignStore  # noqa: E402
from app.textual_compat import on_every_frame  # noqa: E402
from app.tui import TablesideApp  # noqa: E402

PAINTS: list[tuple[float, str]] = []
"""(time, screen class) of every finished compositor refresh."""


def _hook_repaints() -> None:
    on_every_frame(lambda screen: PAINTS.append((time.perf_counter(), type(screen).__name__)))


def build(folder: Path, size: int) -> Path:
    path = folder / f"library-{size}.json"
    write_demo("somnihil", path, seed=1)
    store = CampaignStore.open(path)
    store.db.table("npcs").insert_multiple(
        npc_document(f"Foe {i}", ("bench", f"band {i % 7}"), i % 4, (i // 4) % 3, i % 2)
        for i in range(size)
    )
    store.commit()
    store.close()
    return path


async def first_paint(path: Path) -> tuple[float, float]:
    """(ms from ``3`` to the NPC panel's first paint, longest UI stall in between in ms)."""
    campaign = Campaign(CampaignStore.open(path), rng=random.Random(1))
    app = TablesideApp(campaign)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause(0.2)
        stalls: list[float] = []
        ticking = True

        async def heartbeat() -> None:
            # The event loop is blocked while the UI thread works: the gaps between beats
            # are what the GM feels as a frozen screen.
            last = time.perf_counter()
            while ticking:
                await asyncio.sleep(0.001)
                now = time.perf_counter()
                stalls.append(now - last)
                last = now

        beat = asyncio.create_task(heartbeat())
        PAINTS.clear()
        t0 = time.perf_counter()
        await pilot.press("3")
        while not any(name == "NpcScreen" for _, name in PAINTS):
            await asyncio.sleep(0.001)
        painted = min(t for t, name in PAINTS if name == "NpcScreen") - t0
        ticking = False
        await beat
    campaign.store.close()
    return painted * 1000, max(stalls, default=0.0) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--library", type=int, default=10_000)
    args = parser.parse_args()
    _hook_repaints()
    results: dict[int, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (10, args.library):
            path = build(Path(tmp), size)
            results[size] = [asyncio.run(first_paint(path)) for _ in range(args.runs)]
    print(f"{platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"key 3 -> first paint of the NPC panel, median of {args.runs} fresh apps")
    base = statistics.median(p for p, _ in results[10])
    for size, runs in results.items():
        paint = statistics.median(p for p, _ in runs)
        stall = statistics.median(s for _, s in runs)
        print(
            f"{size:6} NPCs: first paint {paint:7.1f} ms, longest stall {stall:7.1f} ms,"
            f" ratio {paint / base:4.2f}x"
        )


if __name__ == "__main__":
    main()

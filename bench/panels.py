"""A long campaign's history: panel switches and quit, 20,000 log entries against 50.

Builds a Somnihil demo campaign whose roll log holds N entries (rolls and events, as a long
campaign's sessions leave them), runs the app headless at 120x36 on the combat panel and times,
in one fresh app per run:

- the first visit to each panel (``2`` Tray, ``3`` NPCs, ``4`` Party: the panel is built then),
  key to the first repaint that shows it;
- a later switch back to the tray (``1`` then ``2``), key to the tray's repaint;
- ``ctrl+q`` to the app's exit.

Prints medians of the runs for each size and the ratio of the large history to the small one,
in the same run (goals: the tray switch at most 1.5x the 50-entry switch and at most 300 ms;
a first visit at most 100 ms on an idle machine; quit immediate). Not part of the suite.

    python bench/panels.py [--runs 5] [--history 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
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

from textual import events  # noqa: E402

from app.demo import write_demo  # noqa: E402
from app.state import Campaign  # noqa: E402
from app.store import CampaignStore  # noqa: E402
from app.textual_compat import on_every_frame  # noqa: E402
from app.tui import TablesideApp  # noqa: E402

PAINTS: list[tuple[float, str]] = []
"""(time, screen class) of every finished compositor refresh."""

STEPS = (("2", "TrayScreen"), ("3", "NpcScreen"), ("4", "PartyScreen"))


def _hook_repaints() -> None:
    on_every_frame(lambda screen: PAINTS.append((time.perf_counter(), type(screen).__name__)))


def log_entry(i: int) -> dict[str, object]:
    """One roll (four in five) or event line, as the tray and the tracker write them."""
    at = (datetime.datetime(2026, 1, 1) + datetime.timedelta(minutes=i)).isoformat() + "+00:00"
    if i % 5:
        dice = [(i * 7) % 20 + 1]
        return {
            "at": at,
            "kind": "roll",
            "who": f"Player {i % 5}",
            "expression": "1d20+3",
            "total": dice[0] + 3,
            "dice": dice,
            "band": "Success",
            "detail": "",
        }
    return {"at": at, "kind": "event", "text": f"Goblin {i % 9} takes 3 damage: 7 → 4/7 HP"}


def build(folder: Path, size: int) -> Path:
    path = folder / f"history-{size}.json"
    write_demo("somnihil", path, seed=1)
    store = CampaignStore.open(path)
    store.db.table("log").insert_multiple(log_entry(i) for i in range(size))
    store.commit()
    store.close()
    return path


async def _until(name: str, since: float) -> float:
    while True:
        seen = [t for t, shown in PAINTS if shown == name and t >= since]
        if seen:
            return (min(seen) - since) * 1000
        await asyncio.sleep(0.0005)


async def one_run(path: Path) -> dict[str, float]:
    """Milliseconds for each step of one fresh app."""
    figures: dict[str, float] = {}
    campaign = Campaign(CampaignStore.open(path), rng=random.Random(1))
    app = TablesideApp(campaign)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.pause(0.3)
        for key, screen in STEPS:
            PAINTS.clear()
            t0 = time.perf_counter()
            app.post_message(events.Key(key, key))
            figures[f"first visit {key}"] = await _until(screen, t0)
            await pilot.pause(0.2)
        await pilot.press("1")
        await pilot.pause(0.2)
        PAINTS.clear()
        t0 = time.perf_counter()
        app.post_message(events.Key("2", "2"))
        figures["tray switch"] = await _until("TrayScreen", t0)
        await pilot.pause(0.2)
        t0 = time.perf_counter()
        app.post_message(events.Key("ctrl+q", None))
        while app.is_running and app.return_code is None:  # set by App.exit
            await asyncio.sleep(0.0005)
        figures["quit"] = (time.perf_counter() - t0) * 1000
    campaign.store.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--history", type=int, default=20_000)
    args = parser.parse_args()
    _hook_repaints()
    results: dict[int, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (50, args.history):
            path = build(Path(tmp), size)
            results[size] = [asyncio.run(one_run(path)) for _ in range(args.runs)]
    print(
        f"{datetime.date.today()}  {platform.platform()}  {os.cpu_count()} CPUs  "
        f"Python {platform.python_version()}  runs: {args.runs} fresh apps, medians, 120x36"
    )
    small, large = results[50], results[args.history]
    for step in small[0]:
        a = statistics.median(r[step] for r in small)
        b = statistics.median(r[step] for r in large)
        print(
            f"{step:15}  {50:>6} entries {a:8.1f} ms   {args.history:>6} entries {b:8.1f} ms"
            f"   ratio {b / a:5.2f}x"
        )


if __name__ == "__main__":
    main()

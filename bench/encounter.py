"""Keypress to repaint in the combat tracker: 300 combatants against 5, 5,000-NPC library.

Builds a resolution campaign with 5,000 library NPCs and one encounter of N combatants, runs
the app headless, and times ``n`` (next turn) and a damage submit (``t``, amount, enter: the
enter is timed) to the repaint that shows the changed rows (the command applied, the change
journaled and synced, the table repainted), and to the last repaint the key caused. The timed
key reaches the app as a terminal's does (see :func:`_press_to_repaint`). Prints the medians
for 300 and for 5 combatants (goal: median at 300 ≤ 16 ms). Not part of the suite.

    python bench/encounter.py [--presses 40]
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textual import events  # noqa: E402
from textual.pilot import Pilot  # noqa: E402

from app.demo import npc_document, write_demo  # noqa: E402
from app.state import Campaign  # noqa: E402
from app.store import CampaignStore  # noqa: E402
from app.textual_compat import on_every_frame  # noqa: E402
from app.tui import TablesideApp  # noqa: E402
from rulesets import encounter as er  # noqa: E402
from widgets.combat_table import CombatTable  # noqa: E402

LIBRARY = 5000


def build(folder: Path, size: int) -> Path:
    path = folder / f"bench-{size}.json"
    write_demo("resolution", path, seed=1)
    store = CampaignStore.open(path)
    npcs = store.db.table("npcs")
    npcs.insert_multiple(
        npc_document(f"Foe {i}", ("bench",), i % 4, (i // 4) % 3, i % 2) for i in range(LIBRARY)
    )
    fight = er.Encounter(id="e1", name=f"Bench {size}", model="initiative")
    party = store.db.table("party").all()
    people = [
        er.Combatant(name=str(pc["name"]), side="pc", ref=str(pc.doc_id), initiative=20 - k)
        for k, pc in enumerate(party[: min(4, size)])
    ]
    people += [
        er.Combatant(
            name=f"Goblin {i}", side="npc", ref="1", initiative=10, stats={"hp": 500, "hp_max": 500}
        )
        for i in range(1, size - len(people) + 1)
    ]
    er.add_combatants(fight, people)
    er.start(fight)
    enc = store.db.table("encounters")
    enc.truncate()
    enc.insert(fight.to_dict())
    store.commit()
    store.close()
    return path


REPAINTS: list[float] = []
"""Times at which a screen finished a compositor refresh (a repaint)."""
SHOWN: list[float] = []
"""Times at which the combatant table was handed new rows."""


def _hook_repaints() -> None:
    show = CombatTable.show

    def shown(self: CombatTable, *args: Any, **kwargs: Any) -> None:
        show(self, *args, **kwargs)
        SHOWN.append(time.perf_counter())

    on_every_frame(lambda screen: REPAINTS.append(time.perf_counter()))
    CombatTable.show = shown  # type: ignore[method-assign]


QUIET = 0.05
"""Seconds with no repaint after which a key's effects are taken as settled."""
CHARACTERS = {"n": "n", "enter": "\r"}


async def _press_to_repaint(pilot: Pilot[None], key: str) -> tuple[float, float]:
    """Seconds from the key being sent to (the repaint that shows its result, the last
    repaint it caused).

    The first is the latency a GM feels: the changed row on screen. The second adds the
    clean-up after it (closing a prompt repaints the screen again once it is gone). The key
    goes to the app as a terminal's does (a Key event in the app's queue) rather than
    through Pilot, whose wait after each key queues a callback on every widget of the screen
    while the key is still being handled: harness work inside the figure.
    """
    app = pilot.app
    await pilot.pause()
    REPAINTS.clear()
    SHOWN.clear()
    t0 = time.perf_counter()
    app.post_message(events.Key(key, CHARACTERS.get(key)))
    last = t0
    while True:
        await asyncio.sleep(QUIET)
        newest = max(REPAINTS, default=t0)
        if newest == last and (newest > t0 or time.perf_counter() - t0 > 1):
            break
        last = newest
    after = [t for t in REPAINTS if t > t0]
    settled = (max(after) if after else time.perf_counter()) - t0
    fed = [t for t in SHOWN if t > t0]
    seen = [t for t in after if fed and t >= min(fed)]
    return (min(seen) - t0 if seen else settled), settled


Timings = list[tuple[float, float]]


async def measure(path: Path, presses: int) -> tuple[Timings, Timings]:
    campaign = Campaign(CampaignStore.open(path), rng=random.Random(1))
    app = TablesideApp(campaign)
    nexts: Timings = []
    damages: Timings = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(presses):
            nexts.append(await _press_to_repaint(pilot, "n"))
        for _ in range(presses):
            await pilot.press("j", "t", "1")
            damages.append(await _press_to_repaint(pilot, "enter"))
        app.campaign.store.flush()
    campaign.store.close()
    return nexts, damages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=40)
    args = parser.parse_args()
    _hook_repaints()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        results = {}
        for size in (5, 300):
            results[size] = asyncio.run(measure(build(folder, size), args.presses))
    print(f"{platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"library: {LIBRARY} NPCs; {args.presses} presses each; median ms (p90)")
    for label, k in (("next turn (n)", 0), ("damage (t … enter)", 1)):
        for what, j in (("result on screen", 0), ("screen settled", 1)):
            small, big = (sorted(t[j] for t in results[s][k]) for s in (5, 300))
            m5, m300 = statistics.median(small) * 1000, statistics.median(big) * 1000
            p90 = big[int(len(big) * 0.9) - 1] * 1000
            verdict = "OK" if m300 <= 16 else "over the 16 ms goal"
            print(
                f"{label:19} {what:17} 5: {m5:6.1f}  300: {m300:6.1f} (p90 {p90:5.1f})"
                f"  ratio {m300 / m5:4.1f}x  {verdict}"
            )


if __name__ == "__main__":
    main()

"""Danger estimate: fights played out per second, per game (goal: 2,000 fights of four PCs
against six foes in at most 1 s on one core).

Each game's demo party against its demo foes doubled to six, as ``tableside danger`` plays it:
the preparation (every pair's exact odds) and the fights, timed together, the best of
``--repeat`` runs (the machine may be shared: the CPU time is printed beside the wall time).
Not part of the suite.

    python bench/danger.py [--runs 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import copy
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.demo import write_demo  # noqa: E402
from app.store import read_campaign  # noqa: E402
from rulesets import danger, registry  # noqa: E402

GAMES = ("resolution", "nemron", "shadows", "aspects", "somnihil")


def six_foes(data: dict[str, Any]) -> dict[str, Any]:
    """The demo encounter with its foes doubled (three more, numbered on)."""
    enc = next(iter(data["encounters"].values()))
    foes = [c for c in enc["combatants"] if c["side"] == "npc"]
    for n, foe in enumerate(foes * 2, start=1):
        if len([c for c in enc["combatants"] if c["side"] == "npc"]) >= 6:
            break
        more = copy.deepcopy(foe)
        more["id"], more["name"] = f"x{n}", f"{foe['name']} bis {n}"
        enc["combatants"].append(more)
    return data


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.runs} fights")
    with tempfile.TemporaryDirectory() as folder:
        for game_id in GAMES:
            data = six_foes(read_campaign(write_demo(game_id, Path(folder) / f"{game_id}.json")))
            game = registry.game(game_id)
            eid = int(next(iter(data["encounters"])))
            best = cpu = float("inf")
            for seed in range(args.repeat):
                rng = random.Random(seed)
                start, used = time.perf_counter(), time.process_time()
                found = danger.estimate_encounter(data, game, eid, args.runs, rng)
                assert found is not None
                best = min(best, time.perf_counter() - start)
                cpu = min(cpu, time.process_time() - used)
            sides = f"{len(found.drops)} PCs v 6 foes"
            print(
                f"{game_id:<11} {sides}: {args.runs / best:7.0f} fights/s "
                f"({best:.2f} s wall, {cpu:.2f} s CPU for {args.runs}) · {danger.meter(found)}"
            )


if __name__ == "__main__":
    main()

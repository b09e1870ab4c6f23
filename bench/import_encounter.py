"""Importing an Improved Initiative encounter as a running fight: seconds by combatant count.

``tableside import FILE --save SAVE`` recreates the encounter in the tracker: its
statblocks go into the NPC library and every combatant into the fight. It once grew with the
square of the count (20k not done in 60 s; the figures are in docs/performance.md); the goal is linear, and 20k in at most 5 s. Each run is the command in this process
(stdout to /dev/null) on a fresh Resolution demo campaign; the encounter holds N combatants of
N/4 distinct statblocks (so the library import and the numbering of groups both count), a
quarter of them wounded, some with conditions. Prints seconds and the time per 1,000
combatants against the smallest count (a linear import keeps that ratio near 1).

    python bench/import_encounter.py [--counts 1000 3000 20000] [--runs 3]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.cli import main  # noqa: E402
from app.demo import write_demo  # noqa: E402

GOBLIN = {
    "HP": {"Value": 7, "Notes": "(2d6)"},
    "AC": {"Value": 15, "Notes": ""},
    "InitiativeModifier": 2,
    "Abilities": {"Str": 8, "Dex": 14, "Con": 10, "Int": 10, "Wis": 8, "Cha": 8},
    "Challenge": "1/4",
    "Traits": [],
    "Actions": [{"Name": "Scimitar", "Content": "Melee Weapon Attack: +4 to hit."}],
    "Player": "",
}


def encounter(count: int) -> dict[str, object]:
    kinds = max(1, count // 4)
    combatants = []
    for i in range(count):
        block = dict(GOBLIN, Name=f"Goblin {i % kinds}")
        tags = (
            [{"Text": "Poisoned", "DurationRemaining": 2, "DurationTiming": "EndOfTurn"}]
            if i % 7 == 0
            else []
        )
        combatants.append(
            {
                "Id": f"c{i}",
                "StatBlock": block,
                "CurrentHP": 3 if i % 4 == 0 else 7,
                "TemporaryHP": 0,
                "Initiative": (i * 13) % 25,
                "Alias": "",
                "IndexLabel": i // kinds + 1,
                "Tags": tags,
                "Hidden": i % 11 == 0,
                "InterfaceVersion": "3.9.0",
            }
        )
    return {"Name": f"Horde of {count}", "Combatants": combatants, "RoundCounter": 1,
            "ActiveCombatantId": "c0"}


def timed(args: list[str]) -> float:
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        start = time.perf_counter()
        code = main(args)
        elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"import failed with exit {code}: {args}")
    return elapsed


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 3000, 20000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, {datetime.date.today()}, median of {args.runs}"
    )
    base: float | None = None
    with tempfile.TemporaryDirectory() as folder:
        for count in args.counts:
            file = Path(folder) / f"encounter-{count}.json"
            file.write_text(json.dumps(encounter(count)), encoding="utf-8")
            times = []
            for run in range(args.runs):
                save = write_demo("resolution", Path(folder) / f"c{count}-{run}.json", seed=1)
                times.append(timed(["import", str(file), "--save", str(save)]))
            median = statistics.median(times)
            per_k = median / count * 1000
            base = base or per_k
            print(
                f"{count:>7,} combatants: {median:7.2f} s   {per_k * 1000:7.1f} ms per 1,000"
                f"   ({per_k / base:.2f}x the per-1,000 time of the smallest)"
            )


if __name__ == "__main__":
    main_bench()

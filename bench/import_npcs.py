"""Importing 8,000 5e monsters (NPC-09) with and without ``--save``: seconds per run.

One TinyDB insert per NPC copied the whole table each time, so the import with ``--save`` grew
with the square of the count (the figures before and after are in docs/performance.md). The import is now one command
with one bulk insert; the goal is "near the no-save time". Each run is ``tableside import-5e``
in this process (stdout to /dev/null), on a fresh demo campaign in a temporary folder; the file
is the 25-monster SRD sample repeated under distinct names. A second ``--save`` run of the same
file is timed too: every monster is then found and left alone (the update-not-duplicate path).

    python bench/import_npcs.py [--count 8000] [--runs 3]
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.cli import main  # noqa: E402
from app.demo import write_demo  # noqa: E402

SAMPLE = ROOT / "tests" / "fixtures" / "srd5e-monsters-sample.json"


def monsters(count: int) -> list[dict[str, object]]:
    base = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return [
        dict(base[i % len(base)], name=f"{base[i % len(base)]['name']} {i}") for i in range(count)
    ]


def timed(run: Callable[[], int]) -> float:
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        start = time.perf_counter()
        code = run()
        elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"import failed with exit {code}")
    return elapsed


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=8000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, {datetime.date.today()}"
    )
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "monsters.json"
        file.write_text(json.dumps(monsters(args.count)), encoding="utf-8")
        print(f"{args.count} monsters, {file.stat().st_size / 1e6:.1f} MB, median of {args.runs}")
        plain, saved, again = [], [], []
        for run in range(args.runs):
            save = write_demo("resolution", Path(folder) / f"c{run}.json", seed=1)
            plain.append(timed(lambda: main(["import-5e", str(file)])))
            saved.append(timed(lambda s=save: main(["import-5e", str(file), "--save", str(s)])))
            again.append(timed(lambda s=save: main(["import-5e", str(file), "--save", str(s)])))
    base = statistics.median(plain)
    for label, times in (
        ("without --save", plain),
        ("with --save (all added)", saved),
        ("with --save again (all left alone)", again),
    ):
        median = statistics.median(times)
        print(f"{label:>36}: {median:6.2f} s  ({median / base:.2f}x the no-save time)")


if __name__ == "__main__":
    main_bench()

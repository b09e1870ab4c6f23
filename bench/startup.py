"""Cold start to first paint: ``tableside --demo`` against a bare Textual app, same method, same run.

Each sample is a fresh interpreter (imports included) that builds the app, runs it headless
until its first screen has been composed and painted, then exits. We print the medians, the
ratio (goal: Tableside <= 1.25x bare Textual) and peak memory (goal: <= 2x).

    python bench/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

async def painted(pilot):
    await pilot.pause()
    pilot.app.exit()

Bare().run(headless=True, size=(120, 36), auto_pilot=painted)
"""

TABLESIDE = """
import os
from pathlib import Path
from app.demo import write_demo
from app.launch import open_campaign
from app.tui import TablesideApp

path = Path(os.environ["BENCH_DIR"]) / f"demo-{os.getpid()}.json"
write_demo("somnihil", path, seed=1)
campaign = open_campaign(path)

async def painted(pilot):
    await pilot.pause()
    pilot.app.exit()

TablesideApp(campaign).run(headless=True, size=(120, 36), auto_pilot=painted)
campaign.store.close()
"""


def sample(code: str, env: dict[str, str]) -> tuple[float, int]:
    """Seconds from spawn to exit, and peak RSS in KiB, of one fresh interpreter."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"benchmark child failed with status {status}")
    return elapsed, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "BENCH_DIR": folder, "TABLESIDE_SAVES": folder}
        sample(BARE, env), sample(TABLESIDE, env)  # warm the OS file cache for both
        bare, ours = [], []
        for _ in range(args.runs):  # interleaved so drift hits both equally
            bare.append(sample(BARE, env))
            ours.append(sample(TABLESIDE, env))
    bare_t = statistics.median(t for t, _ in bare)
    ours_t = statistics.median(t for t, _ in ours)
    bare_m = statistics.median(m for _, m in bare)
    ours_m = statistics.median(m for _, m in ours)
    print(f"runs: {args.runs} each, python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(
        f"bare Textual  start→first paint  median {bare_t * 1000:7.1f} ms   peak RSS {bare_m / 1024:6.1f} MiB"
    )
    print(
        f"tableside demo start→first paint median {ours_t * 1000:7.1f} ms   peak RSS {ours_m / 1024:6.1f} MiB"
    )
    print(
        f"ratio start: {ours_t / bare_t:.2f}x (goal <= 1.25x)   memory: {ours_m / bare_m:.2f}x (goal <= 2x)"
    )


if __name__ == "__main__":
    main()

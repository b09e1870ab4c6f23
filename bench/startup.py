"""Cold start to first paint: ``tableside --demo`` against a bare Textual app, same method, same run.

Each sample is a fresh interpreter (imports included) that builds the app, runs it headless at
120×36 until Textual's ``Ready`` event (sent once the DOM is ready and the first frame has been
displayed), notes the wall clock there, then exits. The figure is spawn → first paint (the exit, and Tableside's final save flush, are not
start-up). Both apps are sampled interleaved, as cold processes, and we print the medians, the
ratio (goal: Tableside <= 1.25x bare Textual), peak memory (goal: <= 2x), the machine and date.

    python bench/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BARE = """
import time
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

    def on_ready(self):
        print(time.time(), flush=True)
        self.exit()

Bare().run(headless=True, size=(120, 36))
"""

TABLESIDE = """
import os
import sys
import time
from pathlib import Path
from app.demo import write_demo
from app.launch import open_campaign
from app.tui import TablesideApp

path = Path(os.environ["BENCH_DIR"]) / f"demo-{os.getpid()}.json"
write_demo("somnihil", path, seed=1)
campaign = open_campaign(path)

class Painted(TablesideApp):
    CSS_PATH = str(Path(sys.modules["app.tui"].__file__).with_name("tui.tcss"))

    def on_ready(self):
        ready = getattr(super(), "on_ready", None)  # Tableside's own work at that moment counts
        if ready is not None:
            ready()
        print(time.time(), flush=True)
        self.exit()

Painted(campaign).run(headless=True, size=(120, 36))
campaign.store.close()
"""


def sample(code: str, env: dict[str, str]) -> tuple[float, int]:
    """Seconds from spawn to first paint, and peak RSS in KiB, of one fresh interpreter."""
    start = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    painted = float(proc.stdout.readline())
    proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"benchmark child failed with status {status}")
    return painted - start, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # Bytecode as an installed app has it: pip compiles site-packages (Textual) on install,
        # and Tableside's own modules would otherwise be compiled from source on every run
        # when PYTHONDONTWRITEBYTECODE is set. A private cache folder keeps the tree clean; the
        # warm-up sample below fills it for both apps.
        env = {
            **os.environ,
            "BENCH_DIR": folder,
            "TABLESIDE_SAVES": folder,
            "PYTHONPYCACHEPREFIX": str(Path(folder) / "pycache"),
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        sample(BARE, env), sample(TABLESIDE, env)  # warm the OS file cache for both
        bare, ours = [], []
        for _ in range(args.runs):  # interleaved so drift hits both equally
            bare.append(sample(BARE, env))
            ours.append(sample(TABLESIDE, env))
    bare_t = statistics.median(t for t, _ in bare)
    ours_t = statistics.median(t for t, _ in ours)
    bare_m = statistics.median(m for _, m in bare)
    ours_m = statistics.median(m for _, m in ours)
    print(
        f"{datetime.date.today()}  runs: {args.runs} each  python {platform.python_version()}  "
        f"{platform.system()} {platform.machine()}  {os.cpu_count()} cores  size 120x36"
    )
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

"""Cold start to first paint: ``tableside --demo`` against a bare Textual app, same method, same run.

Each sample is a fresh interpreter (imports included) that builds the app and runs it headless
at 120×36 until its first frame as a GM sees it: the first repaint of the screen after which the
Footer shows its keys (``bench/startup_pty.py`` waits for the same thing on a real terminal: the
Footer's text). Textual's ``Ready`` event, which this used before, is posted at the first layout,
which may come before any key is in the Footer, and is handled whenever the app's queue gets to
it. The figure is spawn → first frame (the exit, and Tableside's final save flush, are not
start-up). Both apps are sampled interleaved, as cold processes, and we print the medians, the
ratio (goal: Tableside <= 1.5x bare Textual), peak memory at the first frame (goal: <= 2x),
the machine and date.

Tableside keeps the CSS its first frame parsed in the user's cache folder (app.css_cache): a
warm-up start writes it, as every start but a GM's very first does; ``--cold`` removes it
before each sample, to time that first start.

    python bench/startup.py [--runs 15] [--cold]
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
sys.path.insert(0, str(ROOT))

from app.css_cache import CACHE_FILE  # noqa: E402

FIRST_FRAME = """
import resource
import time
from app.textual_compat import on_every_frame


def _painted(screen):
    # The first repaint with keys in the Footer: the first frame a GM sees whole. Textual's
    # Footer has a widget per key (none until its bindings are known); Tableside's draws its
    # keys as one line (``shown``).
    footer = screen.query("Footer, TablesideFooter")
    if footer and (getattr(footer.first(), "shown", ()) or footer.first().query("FooterKey")):
        print(time.time(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)
        stop()
        screen.app.exit()


stop = on_every_frame(_painted)
"""
"""Both apps: print the wall clock and the peak memory so far at the first frame with the
Footer's keys, then exit (Tableside starts loading the other panels in the background once its
first frame is whole: that is not start-up, and is not counted)."""

BARE = (
    FIRST_FRAME
    + """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

Bare().run(headless=True, size=(120, 36))
"""
)

# ``import app`` first, as ``tableside`` (app.cli) imports it before anything else, and the
# collector's start-up thresholds, as its TUI command (app.cli.cmd_open) sets them.
TABLESIDE = (
    "import app, gc\ngc.set_threshold(*app.START_UP_THRESHOLDS)\n"
    + FIRST_FRAME
    + """
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

Painted(campaign).run(headless=True, size=(120, 36))
campaign.store.close()
"""
)


def sample(code: str, env: dict[str, str]) -> tuple[float, int]:
    """Seconds from spawn to first paint, and peak RSS in KiB then, of one fresh interpreter."""
    start = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    painted, rss = proc.stdout.readline().split()
    proc.stdout.read()
    _, status, _usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"benchmark child failed with status {status}")
    return float(painted) - start, int(rss)


WARM_UP = TABLESIDE.replace("screen.app.exit()", "screen.app.set_timer(1.5, screen.app.exit)")
"""Tableside run on past its first frame, long enough to write its CSS cache (app.css_cache)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--cold", action="store_true", help="no CSS cache at each start (a first start)"
    )
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
            "TABLESIDE_CACHE": str(Path(folder) / "cache"),
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        css = Path(folder) / "cache" / CACHE_FILE
        # Warm the OS file cache for both; Tableside's run writes its CSS cache, as any start
        # but the very first (or the first after a Textual upgrade) finds it.
        sample(BARE, env), sample(WARM_UP, env)
        assert css.is_file(), "the warm-up start wrote no CSS cache"
        bare, ours = [], []
        for _ in range(args.runs):  # interleaved so drift hits both equally
            bare.append(sample(BARE, env))
            if args.cold:
                css.unlink(missing_ok=True)
            ours.append(sample(TABLESIDE, env))
    bare_t = statistics.median(t for t, _ in bare)
    ours_t = statistics.median(t for t, _ in ours)
    bare_m = statistics.median(m for _, m in bare)
    ours_m = statistics.median(m for _, m in ours)
    print(
        f"{datetime.date.today()}  runs: {args.runs} each  python {platform.python_version()}  "
        f"{platform.system()} {platform.machine()}  {os.cpu_count()} cores  size 120x36  "
        f"CSS cache: {'none (first start)' if args.cold else 'written by an earlier start'}"
    )
    print(
        f"bare Textual  start→first paint  median {bare_t * 1000:7.1f} ms   peak RSS {bare_m / 1024:6.1f} MiB"
    )
    print(
        f"tableside demo start→first paint median {ours_t * 1000:7.1f} ms   peak RSS {ours_m / 1024:6.1f} MiB"
    )
    # Each round runs both back to back: the median of the rounds' ratios leaves out the host's
    # drift from one round to the next, which moves the two medians' ratio.
    paired = statistics.median(o[0] / b[0] for o, b in zip(ours, bare, strict=True))
    print(
        f"ratio start: {ours_t / bare_t:.2f}x (goal <= 1.5x)   memory: {ours_m / bare_m:.2f}x (goal <= 2x)"
    )
    print(f"median of each round's ratio: {paired:.2f}x")


if __name__ == "__main__":
    main()

"""Start-up as a GM meets it: ``tableside --demo`` spawned in a pseudo-terminal, to its first frame.

``bench/startup.py`` times the app in-process and headless; this one spawns the real command,
as a terminal would, and reads its output until the first frame is drawn: the alternate screen
is entered and the Footer's text (drawn last, at the bottom) has arrived. A bare Textual app
(a Header, a Static and a Footer) is timed the same way, interleaved, in the same run, and the
medians and their ratio are printed (goal: Tableside at most 1.5x the bare app).

Both run from this checkout's interpreter with bytecode cached in a private folder (as an
installed app has it compiled); the demo campaign is written to a temporary campaign folder.
Tableside keeps the CSS its first frame parsed in its cache folder (app.css_cache): the warm-up
start runs on long enough to write it, as every start but a GM's very first finds it; ``--cold``
removes it before each sample, to time that first start.

    python bench/startup_pty.py [--runs 11] [--cold]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.css_cache import CACHE_FILE  # noqa: E402

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    BINDINGS = [("q", "quit", "Quit")]
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

Bare().run()
"""
ALTERNATE_SCREEN = b"\x1b[?1049h"


def first_frame(argv: list[str], marker: bytes, env: dict[str, str], linger: float = 0) -> float:
    """Seconds from spawn to the first frame: the alternate screen, then ``marker``; the app
    is stopped ``linger`` seconds later."""
    main, child = pty.openpty()
    os.set_blocking(main, False)
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=child, stdout=child, stderr=child, env=env, cwd=ROOT, close_fds=True
    )
    os.close(child)
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([main], [], [], 10)
            if not ready:
                raise SystemExit(f"no first frame from {argv[-1]!r} in 10 s: {seen[-200:]!r}")
            try:
                seen += os.read(main, 65536)
            except OSError:
                raise SystemExit(f"{argv} ended before its first frame: {seen[-300:]!r}") from None
            at = seen.find(ALTERNATE_SCREEN)
            if at >= 0 and marker in seen[at:]:
                shown = time.perf_counter() - start
                time.sleep(linger)
                return shown
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        os.close(main)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument(
        "--cold", action="store_true", help="no CSS cache at each start (a first start)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": "120",
            "LINES": "36",
            "TABLESIDE_SAVES": folder,
            "XDG_CONFIG_HOME": str(Path(folder) / "config"),
            "PYTHONPYCACHEPREFIX": str(Path(folder) / "pycache"),
            "TABLESIDE_CACHE": str(Path(folder) / "cache"),
        }
        css = Path(folder) / "cache" / CACHE_FILE
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        bare = [sys.executable, "-c", BARE]
        ours = [sys.executable, "-m", "app", "--demo"]
        # The Footer is drawn on the bottom row: its palette hint is in both apps' last row.
        marker = b"palette"
        # Warm the OS file cache for both; Tableside's start lingers to write its CSS cache.
        first_frame(bare, marker, env), first_frame(ours, marker, env, linger=1.5)
        assert css.is_file(), "the warm-up start wrote no CSS cache"
        bare_t, ours_t = [], []
        for _ in range(args.runs):
            bare_t.append(first_frame(bare, marker, env))
            if args.cold:
                css.unlink(missing_ok=True)
            ours_t.append(first_frame(ours, marker, env))
    b, o = statistics.median(bare_t), statistics.median(ours_t)
    print(
        f"{datetime.date.today()}  runs: {args.runs} each  python {platform.python_version()}  "
        f"{platform.system()} {platform.machine()}  {os.cpu_count()} cores  in a pty  "
        f"CSS cache: {'none (first start)' if args.cold else 'written by an earlier start'}"
    )
    print(f"bare Textual      spawn→first frame  median {b * 1000:7.1f} ms")
    print(f"tableside --demo  spawn→first frame  median {o * 1000:7.1f} ms")
    # Each round runs both back to back: the median of the rounds' ratios leaves out the host's
    # drift from one round to the next, which moves the two medians' ratio.
    paired = statistics.median(t / u for t, u in zip(ours_t, bare_t, strict=True))
    print(f"ratio: {o / b:.2f}x (goal <= 1.5x)   median of each round's ratio: {paired:.2f}x")


if __name__ == "__main__":
    main()

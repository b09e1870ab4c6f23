"""A kill at every system call the store makes, and two in a row at every pair of them.

``python -m tests.killsweep FOLDER [--pairs] [--every N]`` runs the sweep in a process of its
own (it forks a child per kill, so no thread of the test runner may be running) and prints
one JSON object of figures; tests/test_kill.py runs it and checks them.

How a kill lands on a system call: in the child, the store's ``os`` module is replaced by a
:class:`Tripwire` that counts each call that changes the disk (an open for writing, a write,
a sync, a rename, an unlink, a truncation, a mode change) and SIGKILLs the process just
before the chosen one, in its middle (a write then leaves half its bytes), or just after. Reads are not counted: a kill between two reads leaves
the disk as a kill after the write before them does.

The session killed first plays a few rolls (with a fold in the middle) and closes; the one
killed second is the recovery: it opens the save the first kill left, rolls once and closes.
After both, a last opening must hold every roll either child acknowledged (``apply``
returned), and nothing may read as another program's change or a damaged journal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

STORE_MODULES = ("app.store", "app.save_files", "app.journal")
"""The modules whose ``os`` calls are the store's system calls."""
MUTATING = frozenset(
    {"open", "write", "fsync", "fdatasync", "replace", "rename", "unlink", "ftruncate", "fchmod"}
)
FIRST_ROLLS = ("first 1", "first 2", "first 3", "first 4")
FLUSH_AFTER = 1
"""The first session folds after its second roll (and again at closing)."""
FALSE_ALARMS = ("another program", "damaged", "does not belong")


class Tripwire:
    """Stands in for :mod:`os` in the store's modules: counts the calls that change the disk
    and kills the process at point ``kill_at``: three points a call (before it; in the middle,
    which for a write leaves half its bytes written; after it)."""

    def __init__(self, real: ModuleType, kill_at: int) -> None:
        self._real = real
        self.kill_at = kill_at
        self.points = 0

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._real, name)
        if name not in MUTATING:
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            if name == "open" and not args[1] & (self._real.O_WRONLY | self._real.O_RDWR):
                return value(*args, **kwargs)  # a read: the disk is as it was
            self._point()
            try:
                if name == "write" and len(args[1]) > 1 and self.points == self.kill_at:
                    # Killed mid-write: half the bytes reached the file (a line torn).
                    value(args[0], args[1][: len(args[1]) // 2])
                self._point()
                return value(*args, **kwargs)
            finally:
                self._point()

        return call

    def _point(self) -> None:
        if self.points == self.kill_at:
            self._real.kill(self._real.getpid(), signal.SIGKILL)
        self.points += 1


def _quiet_folds() -> None:
    """Folds only when asked (a flush, the close): the calls come in the same order every
    run, so point N is the same moment in every child."""
    from app import store

    store.FOLD_SECONDS = store.FOLD_QUIET = store.FOLD_LATEST = 3600.0


def _session(save: Path, rolls: tuple[str, ...], flush_after: int | None) -> None:
    from app.commands.dice import RollDice
    from app.state import Campaign
    from app.store import CampaignStore

    store = CampaignStore.open(save)
    _append(save.with_name("notes"), store.notes)
    campaign = Campaign(store, rng=random.Random(0))
    for n, who in enumerate(rolls):
        campaign.apply(RollDice("1d6", who=who))
        _append(save.with_name("acks"), [who])  # shown: apply returned
        if n == flush_after:
            store.flush()
    store.close()


def _append(path: Path, lines: list[str]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.writelines(line.replace("\n", " ") + "\n" for line in lines)


def _read(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []


def first(save: Path) -> None:
    _session(save, FIRST_ROLLS, FLUSH_AFTER)


def second(save: Path) -> None:
    _session(save, ("second",), None)


def run(save: Path, script: Callable[[Path], None], kill_at: int) -> tuple[bool, int]:
    """Fork a child playing ``script`` on ``save``, killed at point ``kill_at`` (-1: never).
    Returns whether it was killed, and how many points it passed when not."""
    points_file = save.with_name("points")
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            _quiet_folds()
            wire = Tripwire(os, kill_at)
            for name in STORE_MODULES:
                sys.modules[name].os = wire  # type: ignore[attr-defined]
            script(save)
            points_file.write_text(str(wire.points), encoding="ascii")
        except BaseException:
            save.with_name("error").write_text(traceback.format_exc(), encoding="utf-8")
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    error = save.with_name("error")
    if error.exists():
        raise AssertionError(f"the child failed at point {kill_at}:\n{error.read_text()}")
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL, status
        return True, 0
    return False, int(points_file.read_text(encoding="ascii"))


def check(save: Path, counts: Counter[str], where: str) -> None:
    """Open the save as the GM would next: every acknowledged roll there, no false alarm."""
    from app.store import CampaignStore

    acked = set(_read(save.with_name("acks")))
    store = CampaignStore.open(save)
    try:
        notes = _read(save.with_name("notes")) + store.notes
        saved = {e.get("who") for e in store.data["log"].values() if e.get("kind") == "roll"}
    finally:
        store.close()
    aside = [p.name for p in save.parent.glob(f"{save.name}.journal-*")]
    alarms = [n for n in notes if any(word in n for word in FALSE_ALARMS)]
    counts["changes shown"] += len(acked)
    lost = acked - saved
    counts["lost"] += len(lost)
    counts["false alarms"] += bool(alarms or aside)
    if lost or alarms or aside:
        counts["failures"] += 1
        if counts["failures"] <= 5:
            print(f"{where}: lost {sorted(lost)}, notes {alarms}, aside {aside}", file=sys.stderr)


def _fresh(folder: Path, template: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(template, folder)
    return folder / "c.json"


def sweep(root: Path, *, pairs: bool, every: int = 1) -> Counter[str]:
    from app.store import CampaignStore

    template = root / "template"
    template.mkdir()
    CampaignStore.open(template / "c.json").close()
    # What the libraries build on first use (the dice grammar) is built once, here, not in
    # every child; the store is closed again, so no thread runs when the children fork.
    first(_fresh(root / "warm", template))
    counts: Counter[str] = Counter()
    work, after_first = root / "work", root / "after-first"
    killed, points = run(_fresh(work, template), first, -1)
    assert not killed and points > 0
    counts["points in the first session"] = points
    for i in range(points):
        killed, _ = run(_fresh(work, template), first, i)
        assert killed, f"point {i} was not reached"
        counts["kills"] += 1
        if after_first.exists():
            shutil.rmtree(after_first)
        shutil.copytree(work, after_first)
        killed, second_points = run(work / "c.json", second, -1)  # the recovery, unkilled
        assert not killed
        check(work / "c.json", counts, f"kill at {i}")
        if not pairs:
            continue
        counts["points in recoveries"] += second_points
        for j in range(0, second_points, every):
            save = _fresh(work, after_first)
            killed, _ = run(save, second, j)
            assert killed, f"point {j} of the recovery after {i} was not reached"
            counts["kills"] += 1
            counts["pairs"] += 1
            check(save, counts, f"kills at {i} then {j}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.killsweep")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--pairs", action="store_true", help="kill the recovery at every point")
    parser.add_argument("--every", type=int, default=1, help="every Nth point of the recovery")
    args = parser.parse_args()
    counts = sweep(args.folder, pairs=args.pairs, every=args.every)
    for key in ("lost", "false alarms", "failures", "pairs"):
        counts[key] += 0
    print(json.dumps(dict(counts), sort_keys=True))


if __name__ == "__main__":
    main()

"""GEN-07, shown means saved: SIGKILL the GM's session at random moments, over and over.

Two loops, each 200 kills in the suite and 1,000 with ``-m slow``:

* **The real TUI** (:func:`tui_kill_loop`): ``tableside SAVE`` on a pseudo-terminal, forked from
  a pre-imported zygote (tests/killtui.py), is typed at like a GM rolling as fast as the keys
  go (``d``, then ``1d1+N enter`` again and again, each N new) and SIGKILLed at a random
  moment: during start-up (while it replays and folds the journal the last kill left), or
  while rolls stream in. Every roll whose result reached the terminal (read from the pty,
  escape sequences stripped) must be in the save afterwards (the save with its journal, as
  ``tableside export`` and the next start read it). The figures of docs/saves.md ("How it is
  proven") come from here.
* **The store under the app** (:func:`kill_loop`): a child plays a scripted Shadows session
  through ``Campaign.apply`` (tests/killsession.py) and acknowledges each step as soon as
  ``apply`` returns; after each kill the save must be exactly the state of the last
  acknowledged step or the one in flight, replayed independently.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import orjson
import pytest
from filelock import FileLock

from app.demo import write_demo
from app.store import CampaignStore, journal_path, read_campaign, read_journal
from tests.killsession import digest, new_campaign, play, read_acks

ROOT = Path(__file__).resolve().parents[1]
MAX_KILL_DELAY = 0.05
"""Even attempts of the store loop are killed up to this long after the fork, so some land
while the child is still opening the save; odd ones this long after its first
acknowledgement, so that at least half the kills land mid-session."""
FIRST_ACK_TIMEOUT = 20.0


class Zygote:
    """``python -m MODULE``: imports the app once and forks a session per attempt."""

    def __init__(self, log: Path, module: str, env: dict[str, str] | None = None) -> None:
        self._stderr: IO[bytes] = log.open("wb")
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env={**os.environ, **(env or {})},
        )
        assert self._ask(None) == "ready", self.log.read_text()

    def _ask(self, line: str | None) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if line is not None:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def run(self, *args: object) -> int:
        answer = self._ask(" ".join(["run", *map(str, args)]))
        assert answer.startswith("pid "), (answer, self.log.read_text())
        return int(answer.split()[1])

    def reap(self, pid: int) -> int:
        answer = self._ask(f"reap {pid}")
        assert answer.startswith("status "), (answer, self.log.read_text())
        return int(answer.split()[1])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self._stderr.close()


@pytest.fixture
def zygote(tmp_path: Path) -> Iterator[Zygote]:
    z = Zygote(tmp_path / "zygote.log", "tests.killsession")
    try:
        yield z
    finally:
        z.close()


def _temp_files(save: Path) -> list[Path]:
    return list(save.parent.glob(f".{save.name}.*.tmp"))


def _killed(status: int) -> bool:
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def _report(what: str, counts: Counter[str], seconds: float) -> str:
    figures = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    return f"{what} ({seconds:.1f} s): {figures}"


# --- the real TUI on a pty ------------------------------------------------------------------------
ROLL_SHOWN = re.compile(rb"1d1\+(\d+) = (\d+) \(")
"""The quick roll's result line (``GM: 1d1+100000 = 100001 (1d1 (1) + 100000 = 100001)``); the
field being typed into never shows `` = ``."""
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
START_KILLS = 0.2
"""The share of attempts killed during start-up: reading the save, replaying and folding the
journal the last kill left, backing it up, drawing the first frame."""
STREAM_SECONDS = (0.0, 0.3)
"""How long rolls stream in before the kill, after the first frame (uniform)."""
ROLL_EVERY = (0.005, 0.03)
"""Seconds between two rolls typed (uniform): about as fast as the app takes them (a roll is
eleven keys), so a change is nearly always in flight when the kill comes."""
ROLLS_BEFORE_KILL = (0, 3)
"""How many rolls must have reached the screen before a rolling session may be killed
(uniform): the loop's coverage then does not hang on how fast the machine is."""
FIRST_FRAME_TIMEOUT = 20.0


class Pty:
    """A pseudo-terminal pair: the child's side by name, ours (the master) non-blocking."""

    def __init__(self, rows: int = 24, cols: int = 80) -> None:
        import pty

        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.set_blocking(self.master, False)
        self.name = os.ttyname(self.slave)
        self.output = bytearray()

    def pump(self, timeout: float, *, send: bytes = b"") -> int:
        """Read what the app wrote (waiting at most ``timeout``), and write ``send``; returns
        how much of ``send`` went out (the pty's buffer may be full of unread keys)."""
        ready, writable, _ = select.select(
            [self.master], [self.master] if send else [], [], timeout
        )
        if ready:
            with contextlib.suppress(BlockingIOError):
                self.output += os.read(self.master, 1 << 16)
        if writable:
            with contextlib.suppress(BlockingIOError):
                return os.write(self.master, send)
        return 0

    def wait_for(self, needle: bytes, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while needle not in self.output and time.monotonic() < end:
            self.pump(0.01)
        return needle in self.output

    def drain(self) -> None:
        """Everything written before the child died (the last frame is shown too)."""
        os.close(self.slave)
        while True:
            ready, _, _ = select.select([self.master], [], [], 2.0)
            if not ready:
                break
            try:
                chunk = os.read(self.master, 1 << 16)
            except BlockingIOError:
                continue
            except OSError as exc:  # EIO: every slave side closed, the child is gone
                assert exc.errno == errno.EIO, exc
                break
            if not chunk:
                break
            self.output += chunk
        os.close(self.master)

    def shown_rolls(self) -> set[int]:
        """The N of every ``1d1+N`` roll whose result reached the screen."""
        text = _ESCAPES.sub(b"", bytes(self.output))
        return {int(n) for n, total in ROLL_SHOWN.findall(text) if int(total) == int(n) + 1}


def _saved_rolls(save: Path) -> set[int]:
    rolls = set()
    for entry in read_campaign(save)["log"].values():  # the save and its journal, validated
        found = re.fullmatch(r"1d1\+(\d+)", str(entry.get("expression", "")))
        if entry.get("kind") == "roll" and found:
            rolls.add(int(found.group(1)))
    return rolls


def tui_kill_loop(folder: Path, kills: int, seed: int) -> Counter[str]:
    """Kill ``kills`` real TUI sessions on one save; return what happened. Every roll shown on
    the terminal before a kill must be in the save after it."""
    save = folder / "killed.json"
    write_demo("shadows", save, seed=seed)
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    next_roll = 100_000 + seed * 1_000_000
    zygote = Zygote(folder / "zygote.log", "tests.killtui", {"TABLESIDE_SAVES": str(folder)})
    try:
        for attempt in range(kills):
            term = Pty()
            pid = zygote.run(term.name, save)
            at_start = rng.random() < START_KILLS
            if at_start:
                end = time.monotonic() + rng.uniform(0.0, 0.15)
                while time.monotonic() < end:
                    term.pump(0.005)
            else:
                assert term.wait_for(b"Combat", FIRST_FRAME_TIMEOUT), (
                    attempt,
                    term.output[-2000:],
                    (folder / "zygote.log").read_text(),
                )
                # Kill at a random moment, but not before a chosen number of rolls has
                # reached the screen: a slow machine streams longer, so every machine kills
                # sessions with rolls shown and more being typed.
                wanted = rng.randint(*ROLLS_BEFORE_KILL)
                keys, typed_at = b"d", time.monotonic()
                end = typed_at + rng.uniform(*STREAM_SECONDS)
                give_up = typed_at + FIRST_FRAME_TIMEOUT
                shown, counted_at = 0, typed_at
                while True:
                    now = time.monotonic()
                    if now >= end and shown >= wanted:
                        break
                    assert now < give_up, (attempt, wanted, term.output[-2000:])
                    if shown < wanted and now >= counted_at:
                        shown, counted_at = len(term.shown_rolls()), now + 0.02
                    if now >= typed_at:
                        keys += b"1d1+%d\r" % next_roll
                        next_roll += 1
                        typed_at += rng.uniform(*ROLL_EVERY)
                    keys = keys[term.pump(0.002, send=keys) :]
            os.kill(pid, signal.SIGKILL)
            term.drain()
            status = zygote.reap(pid)
            assert _killed(status), (status, term.output[-3000:].decode("utf-8", "replace"))
            counts["kills"] += 1
            counts["kills during start-up" if at_start else "kills while rolling"] += 1

            shown_rolls = term.shown_rolls()
            journal = read_journal(save)
            if journal is not None and journal.changes:
                counts["kills that left changes in the journal"] += 1
            if _temp_files(save):
                counts["kills mid-write (temp file left)"] += 1
            saved = _saved_rolls(save)
            lost = shown_rolls - saved
            counts["rolls shown"] += len(shown_rolls)
            counts["shown rolls lost"] += len(lost)
            assert not lost, f"attempt {attempt}: rolls shown on screen but not saved: {lost}"
    finally:
        zygote.close()
    final = CampaignStore.open(save)  # a last opening folds what the last kill left
    final.close()
    assert not journal_path(save).exists() and _temp_files(save) == []
    counts["rolls in the save"] = len(_saved_rolls(save))
    counts["shown rolls lost"] += 0
    return counts


def _check_tui(counts: Counter[str], kills: int) -> None:
    assert counts["kills"] == kills
    assert counts["shown rolls lost"] == 0
    # The loop must kill sessions while rolls are shown, not only while they start up, and
    # catch some with changes the save file itself did not have yet.
    assert counts["kills while rolling"] >= kills // 2
    assert counts["rolls shown"] >= counts["kills while rolling"]
    assert counts["kills that left changes in the journal"] >= 1


def test_gen07_the_real_tui_killed_200_times_loses_no_shown_roll(tmp_path: Path) -> None:
    began = time.perf_counter()
    counts = tui_kill_loop(tmp_path, kills=200, seed=1)
    print(_report("TUI kill loop", counts, time.perf_counter() - began))
    _check_tui(counts, 200)


@contextlib.contextmanager
def _load(cpus: int) -> Iterator[None]:
    """Busy processes on every core: the kills land under load."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cpus)]
    try:
        yield
    finally:
        for proc in burners:
            proc.kill()
            proc.wait()


@pytest.mark.slow
def test_gen07_the_real_tui_killed_1000_times_under_load(tmp_path: Path) -> None:
    """1,000 kills on five saves of 200, with every core kept busy by other processes."""
    began = time.perf_counter()
    total: Counter[str] = Counter()
    with _load(len(os.sched_getaffinity(0))):
        for run in range(5):
            folder = tmp_path / f"run{run}"
            folder.mkdir()
            total += tui_kill_loop(folder, kills=200, seed=10 + run)
    total["shown rolls lost"] += 0
    print(_report("TUI kill loop under load", total, time.perf_counter() - began))
    _check_tui(total, 1000)


# --- the store under the app ----------------------------------------------------------------------
class _Unwritten(CampaignStore):
    """The replay's store: the same change path (checks, journal lines, folds), minus the disk."""

    def _append(self, line: bytes) -> None:
        self._journal_size += len(line)

    def _write_now(self, payload: bytes) -> None:
        pass


def _replay(start: dict[str, Any], attempt: int, steps: int, scratch: Path) -> list[str]:
    """Digests of the campaign before the session and after each of its first ``steps``."""
    store = _Unwritten(scratch, orjson.loads(orjson.dumps(start)), FileLock(str(scratch)))
    try:
        campaign = new_campaign(store, attempt)
        digests = [digest(store.data)]
        for _ in zip(range(steps), play(campaign, attempt), strict=False):
            digests.append(digest(store.data))
    finally:
        store.close()
    return digests


def _wait_for_first_ack(acks: Path, err: Path) -> None:
    deadline = time.monotonic() + FIRST_ACK_TIMEOUT
    while not (acks.exists() and acks.stat().st_size) and not err.exists():
        assert time.monotonic() < deadline, "the session never acknowledged a step"
        time.sleep(0.001)


def kill_loop(zygote: Zygote, folder: Path, kills: int, seed: int) -> Counter[str]:
    """Kill ``kills`` sessions on one save and check it after each; return what happened."""
    save = folder / "killed.json"
    write_demo("shadows", save, seed=seed)
    scratch = folder / "replay.json"
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    start = read_campaign(save)
    for attempt in range(kills):
        acks = folder / f"acks-{attempt}"
        pid = zygote.run(save, acks, attempt)
        if attempt % 2:
            _wait_for_first_ack(acks, err=acks.with_name(acks.name + ".err"))
        time.sleep(rng.uniform(0.0, MAX_KILL_DELAY))
        os.kill(pid, signal.SIGKILL)
        status = zygote.reap(pid)
        err = acks.with_name(acks.name + ".err")
        assert not err.exists(), err.read_text()
        assert _killed(status), status
        counts["kills"] += 1

        acked = read_acks(acks)
        n = len(acked)
        counts["acknowledged changes"] += n
        counts["kills after acknowledged writes" if n else "kills while opening or first step"] += 1
        if _temp_files(save):
            counts["kills mid-write (temp file left)"] += 1
        journal = read_journal(save)
        if journal is not None and journal.changes:
            counts["kills with changes in the journal"] += 1

        saved = read_campaign(save)  # raises unless the file is one whole, valid campaign
        expected = _replay(start, attempt, n + 1, scratch)
        assert [d for _, d in acked] == expected[1 : n + 1], "replay differs from the child"
        got = digest(saved)
        if got in expected[:n]:
            counts["lost acknowledged changes"] += n - expected.index(got)
        assert got in expected[n : n + 2], (
            f"attempt {attempt}: the save is not the state of the last acknowledged step "
            f"({n}) or the one in flight; lost acknowledged changes: "
            f"{counts['lost acknowledged changes']}"
        )
        if len(expected) > n + 1 and got == expected[n + 1]:
            counts["in-flight change saved"] += 1

        CampaignStore.open(save).close()  # opens for real: journal folded, temp files cleaned
        assert digest(read_campaign(save)) == got, "opening changed the campaign"
        assert _temp_files(save) == [] and not journal_path(save).exists()
        start = saved
    counts["lost acknowledged changes"] += 0
    return counts


def _check(counts: Counter[str], kills: int) -> None:
    assert counts["kills"] == kills
    assert counts["lost acknowledged changes"] == 0
    # The loop must actually kill sessions mid-play, not only while they start up.
    assert counts["kills after acknowledged writes"] >= kills // 2
    assert counts["acknowledged changes"] >= kills // 2
    assert counts["kills with changes in the journal"] >= 1


def test_gen07_kill_loop_keeps_every_acknowledged_change(zygote: Zygote, tmp_path: Path) -> None:
    began = time.perf_counter()
    counts = kill_loop(zygote, tmp_path, kills=200, seed=1)
    print(_report("store kill loop", counts, time.perf_counter() - began))
    _check(counts, 200)


@pytest.mark.slow
def test_gen07_kill_loop_long(zygote: Zygote, tmp_path: Path) -> None:
    """1,000 kills, on five saves of 200 so the campaign log stays the size of a long evening."""
    began = time.perf_counter()
    total: Counter[str] = Counter()
    for run in range(5):
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        total += kill_loop(zygote, folder, kills=200, seed=100 + run)
    total["lost acknowledged changes"] += 0
    print(_report("store kill loop", total, time.perf_counter() - began))
    _check(total, 1000)

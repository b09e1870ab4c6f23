"""SIGKILL a process mid-session, over and over: the save always opens and keeps every change
that was acknowledged as saved (at most the change in flight is lost)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.store import read_campaign

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import random, sys
from pathlib import Path
from app.commands.dice import RollDice
from app.state import Campaign
from app.store import CampaignStore

store = CampaignStore.open(Path(sys.argv[1]))
campaign = Campaign(store, rng=random.Random())
start = int(sys.argv[2])
for i in range(start, start + 100000):
    campaign.apply(RollDice("3d6", who=f"r{i}"))
    store.flush()
    print(i, flush=True)
"""


def _kill_loop(save: Path, kills: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    acked = -1
    killed_mid_write = 0
    for _ in range(kills):
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(save), str(acked + 1)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        first = proc.stdout.readline()  # wait out start-up, then kill at a random moment of writing
        time.sleep(rng.uniform(0.0, 0.15))
        os.kill(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, err
        lines = (first + out).split()
        if lines:
            acked = int(lines[-1])
            killed_mid_write += 1
        data = read_campaign(save)  # raises if the file is not a whole, valid campaign
        logged = {e["who"] for e in data["log"].values() if e.get("kind") == "roll"}
        missing = [i for i in range(acked + 1) if f"r{i}" not in logged]
        assert missing == [], f"acknowledged changes lost: {missing[:5]}"
    return {"kills": kills, "kills_after_writes": killed_mid_write, "acknowledged": acked + 1}


def test_gen07_kill_loop_keeps_every_acknowledged_change(tmp_path: Path) -> None:
    counts = _kill_loop(tmp_path / "killed.json", kills=20, seed=1)
    print(f"kill loop: {counts}")
    assert counts["kills_after_writes"] == 20 and counts["acknowledged"] > 40


@pytest.mark.slow
def test_kill_loop_long(tmp_path: Path) -> None:
    counts = _kill_loop(tmp_path / "killed.json", kills=200, seed=2)
    print(f"kill loop: {counts}")
    assert counts["kills_after_writes"] == 200

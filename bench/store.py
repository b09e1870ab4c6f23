"""What saving one change costs the UI thread, for campaigns of 100, 1,000 and 10,000 documents.

A change here is what a keypress makes: ``Campaign.apply(RollDice("3d6"))`` (one roll into the
log). For each size this prints the median time the UI thread spends in that call, everything
included (the roll, the undo record and whatever the store does before the result may be
shown); the part of it spent in the store; when the save file itself has the change (the
journal is folded into it off the UI thread); and ``json.dumps`` of the same campaign as the
baseline the store is measured against. The per-change cost must not grow with the campaign.

    python bench/store.py            # run from a checkout (PYTHONPATH=. if not installed)
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from app.commands.dice import RollDice
from app.state import Campaign
from app.store import CampaignStore
from rulesets.registry import get

SAMPLES = 60


def fill(store: CampaignStore, documents: int) -> None:
    ruleset = get("nemron")
    rng = random.Random(1)
    party = store.db.table("party")
    log = store.db.table("log")
    for i in range(documents):
        if i % 4 == 0:
            party.insert(ruleset.make_character(f"PC {i}", power=rng.randint(0, 4)))
        else:
            log.insert(
                {
                    "at": "2026-11-21T20:00:00+00:00",
                    "kind": "roll",
                    "who": "GM",
                    "expression": "3d6",
                    "total": rng.randint(3, 18),
                    "dice": [1, 2, 3],
                    "band": "",
                    "detail": "",
                }
            )


def _store_seconds(store: CampaignStore) -> list[float]:
    """Time spent in the store's own part of each change (wraps whichever method the
    checkout's Campaign calls: ``record`` with a journal, ``commit`` before it)."""
    spent: list[float] = []
    name = "record" if hasattr(store, "record") else "commit"
    inner = getattr(store, name)

    def timed(*args: object, **kwargs: object) -> object:
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    setattr(store, name, timed)
    return spent


def _on_disk(path: Path, marker: str, deadline: float) -> float:
    """Seconds until the save file itself holds ``marker`` (polled)."""
    start = time.perf_counter()
    while time.perf_counter() - start < deadline:
        try:
            if marker.encode() in path.read_bytes():
                break
        except OSError:
            pass
        time.sleep(0.0005)
    return time.perf_counter() - start


def measure(documents: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"
        store = CampaignStore.open(path, ruleset="nemron")
        fill(store, documents)
        store.commit()
        store.flush()
        campaign = Campaign(
            store, rng=random.Random(2), clock=lambda: datetime(2026, 11, 21, tzinfo=UTC)
        )
        in_store = _store_seconds(store)
        change_ms, file_ms, dumps_ms = [], [], []
        for i in range(SAMPLES):
            who = f"bench-{documents}-{i}"
            start = time.perf_counter()
            campaign.apply(RollDice("3d6", who=who))
            change_ms.append((time.perf_counter() - start) * 1000)
            file_ms.append((_on_disk(path, who, 5.0) + change_ms[-1] / 1000) * 1000)
            start = time.perf_counter()
            json.dumps(store.data)
            dumps_ms.append((time.perf_counter() - start) * 1000)
        store.close()
    return {
        "change": statistics.median(change_ms),
        "store": statistics.median(in_store) * 1000,
        "file": statistics.median(file_ms),
        "dumps": statistics.median(dumps_ms),
    }


def main() -> None:
    print(
        f"{'documents':>10} {'UI thread: change':>18} {'of it the store':>16} "
        f"{'in the save file':>17} {'json.dumps':>11} {'change/dumps':>13}"
    )
    for documents in (100, 1_000, 10_000):
        m = measure(documents)
        print(
            f"{documents:>10} {m['change']:>15.2f} ms {m['store']:>13.2f} ms "
            f"{m['file']:>14.2f} ms {m['dumps']:>8.2f} ms {m['change'] / m['dumps']:>12.2f}x"
        )


if __name__ == "__main__":
    main()

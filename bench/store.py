"""Autosave cost of one change, for campaigns of 100, 1,000 and 10,000 documents.

For each size: the time the UI thread spends in ``CampaignStore.commit`` (serialise + queue; the
disk write and fsync happen on the writer thread), the full time until that change is on disk,
and ``json.dumps`` of the same data as the baseline (goal: commit <= json.dumps).

    python bench/store.py
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from app.store import CampaignStore
from rulesets.registry import get


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


def measure(documents: int, samples: int = 30) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = CampaignStore.open(Path(folder) / "bench.json", ruleset="nemron")
        fill(store, documents)
        store.commit()
        store.flush()
        commit_ms, durable_ms, dumps_ms = [], [], []
        log = store.db.table("log")
        for i in range(samples):
            log.insert({"at": "t", "kind": "event", "who": "GM", "text": f"change {i}"})
            t0 = time.perf_counter()
            store.commit()
            t1 = time.perf_counter()
            store.flush()
            t2 = time.perf_counter()
            json.dumps(store.data)
            t3 = time.perf_counter()
            commit_ms.append((t1 - t0) * 1000)
            durable_ms.append((t2 - t0) * 1000)
            dumps_ms.append((t3 - t2) * 1000)
        store.close()
    return statistics.median(commit_ms), statistics.median(durable_ms), statistics.median(dumps_ms)


def main() -> None:
    print(
        f"{'documents':>10} {'UI thread (commit)':>20} {'on disk (fsync)':>17} {'json.dumps':>12} {'ratio':>7}"
    )
    for documents in (100, 1_000, 10_000):
        commit, durable, dumps = measure(documents)
        print(
            f"{documents:>10} {commit:>17.2f} ms {durable:>14.2f} ms {dumps:>9.2f} ms {commit / dumps:>6.2f}x"
        )


if __name__ == "__main__":
    main()

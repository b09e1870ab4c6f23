"""How fast the players' view follows the GM: from the GM's change on disk to the new view.

The server polls the save every 0.15 s (``app.player_feed.POLL_SECONDS``) and then re-reads it whole
(``read_campaign``: parse + validate) and rebuilds what it shows (``build_view``). This prints
that re-read cost for the Shadows demo and for a big campaign (300 combatants, 2,000 log
entries), with ``json.loads`` of the same file as the baseline, and the worst-case follow time
(poll interval + re-read + rebuild; the goal is under one second).

    python bench/players.py
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from app.commands import combat as cmd
from app.demo import write_demo
from app.player_feed import POLL_SECONDS
from app.player_view import PlayerSettings, build_view, meta_of
from app.queries import current_encounter
from app.state import Campaign
from app.store import CampaignStore, read_campaign
from rulesets import registry


def median_ms(fn: object, runs: int = 30) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def big(path: Path) -> None:
    store = CampaignStore.open(path)
    campaign = Campaign(store, rng=random.Random(1))
    found = current_encounter(campaign)
    assert found is not None
    for n in range(6):  # 4 PCs + 3 goblins + 6 x 49 = 301 combatants
        campaign.apply(
            cmd.QuickAdd(found[0], name=f"Cultist {n}", count=49, health=12, quickness=5)
        )
    log = store.db.table("log")
    for i in range(2000):
        log.insert(
            {
                "at": "2026-11-21T20:00:00+00:00",
                "kind": "roll",
                "who": "GM",
                "expression": "1d20",
                "total": i % 20 + 1,
                "dice": [1],
                "band": "",
            }
        )
    store.commit()
    store.close()


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    demo = write_demo("shadows", folder / "demo.json", seed=1)
    large = write_demo("shadows", folder / "big.json", seed=1)
    big(large)
    game = registry.game("shadows")
    for label, path in (("Shadows demo", demo), ("300 combatants", large)):
        data = read_campaign(path)
        size = path.stat().st_size / 1024
        rows = len(build_view(data, game, PlayerSettings()).rows)
        read = median_ms(lambda p=path: read_campaign(p))
        view = median_ms(lambda d=data: build_view(d, game, PlayerSettings.from_meta(meta_of(d))))
        raw = median_ms(lambda p=path: json.loads(p.read_bytes()))
        worst = POLL_SECONDS * 1000 + read + view
        print(
            f"{label}: {size:.0f} KiB, {rows} rows shown; re-read {read:.2f} ms "
            f"(json.loads {raw:.2f} ms, {read / raw:.1f}x), build view {view:.2f} ms; "
            f"worst-case follow {worst:.0f} ms"
        )


if __name__ == "__main__":
    main()

"""Build the app on a demo campaign with a seeded rng and a fixed clock, for Pilot and snapshots."""

from __future__ import annotations

import random
from pathlib import Path

from app.demo import write_demo
from app.state import Campaign
from app.store import CampaignStore
from app.tui import TablesideApp
from tests.conftest import FIXED_NOW

SIZE = (120, 36)


def open_demo(folder: Path, game: str = "somnihil", seed: int = 3) -> Campaign:
    path = folder / f"demo-{game}.json"
    if not path.exists():
        write_demo(game, path, seed=seed)
    store = CampaignStore.open(path)
    return Campaign(store, rng=random.Random(seed), clock=lambda: FIXED_NOW)


def demo_app(folder: Path, game: str = "somnihil", seed: int = 3) -> TablesideApp:
    """The app on a fresh demo campaign; close ``app.campaign.store`` when done."""
    return TablesideApp(open_demo(folder, game, seed))


def screen_text(app: TablesideApp) -> list[str]:
    """The top screen as the GM reads it: one string per terminal row (styles dropped)."""
    update = app.screen._compositor.render_full_update()
    return ["".join(segment.text for segment in strip) for strip in update.strips]

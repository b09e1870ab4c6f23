"""Shared fixtures: every test gets its own campaign folder, never the repository's saves/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.state import Campaign
from app.store import CampaignStore

FIXED_NOW = datetime(2026, 11, 21, 20, 0, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _isolated_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    monkeypatch.setenv("TABLESIDE_SAVES", str(folder))
    # Nor the GM's own keymap (user config folder): every test starts with the default keys.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return folder


@pytest.fixture
def save_path(tmp_path: Path) -> Path:
    return tmp_path / "campaign.json"


@pytest.fixture
def campaign_factory(tmp_path: Path) -> Iterator:
    opened: list[CampaignStore] = []

    def make(ruleset: str = "somnihil", path: Path | None = None, seed: int = 7) -> Campaign:
        store = CampaignStore.open(path or tmp_path / f"{ruleset}.json", ruleset=ruleset)
        opened.append(store)
        return Campaign(store, rng=random.Random(seed), clock=lambda: FIXED_NOW)

    yield make
    for store in opened:
        store.close()

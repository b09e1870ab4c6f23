"""Shared fixtures: every test gets its own campaign folder, never the repository's saves/."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from app.state import Campaign
from app.store import CampaignStore

FIXED_NOW = datetime(2026, 11, 21, 20, 0, 0, tzinfo=UTC)

# The suite runs in parallel on a shared CI machine: how fast Hypothesis draws an input there says
# nothing about the rules, so its timing checks (a deadline, "input generation is slow") are off.
settings.register_profile(
    "tableside", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("tableside")


@pytest.fixture(autouse=True)
def _isolated_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    monkeypatch.setenv("TABLESIDE_SAVES", str(folder))
    # Nor the GM's own keymap (user config folder): every test starts with the default keys.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    # Nor the user's cache folder (app.css_cache writes parsed CSS there).
    monkeypatch.setenv("TABLESIDE_CACHE", str(tmp_path / "cache"))
    return folder


@pytest.fixture(autouse=True)
def _collector_left_on() -> Iterator[None]:
    """The app stops the garbage collector from its Load event to its first whole frame
    (app.collector.settle_collector): an app that ended, however, must have turned it back on."""
    yield
    assert gc.isenabled(), "an app left the garbage collector off"


@pytest.fixture
def save_path(tmp_path: Path) -> Path:
    return tmp_path / "campaign.json"


@pytest.fixture
def campaign_factory(tmp_path: Path) -> Iterator[Callable[..., Campaign]]:
    opened: list[CampaignStore] = []

    def make(ruleset: str = "somnihil", path: Path | None = None, seed: int = 7) -> Campaign:
        store = CampaignStore.open(path or tmp_path / f"{ruleset}.json", ruleset=ruleset)
        opened.append(store)
        return Campaign(store, rng=random.Random(seed), clock=lambda: FIXED_NOW)

    yield make
    for store in opened:
        store.close()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: twice the cores, at most 8. A Pilot test spends most of its wall time in
    Textual's idle detection (each key press sleeps until the app is idle), so on 2 cores four
    workers finish the suite in about half the time two do; past 8 memory, not time, grows."""
    import os

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(8, 2 * (cores or 1)))

"""A long campaign's history costs a panel nothing.

A campaign with thousands of log entries: the tray reads and formats only the newest part of
the log (a window), reads older entries when the GM moves up past the oldest one shown, keeps
the GM's line while it does, and a new roll is appended to the view, not redrawn whole.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

import widgets.roll_log as roll_log
from app.store import CampaignStore
from screens.tray import TrayScreen
from tests.apphelpers import SIZE, demo_app, open_demo
from widgets.roll_log import RollLog

HISTORY = 5_000


def entry(i: int) -> dict[str, Any]:
    at = (datetime.datetime(2026, 1, 1) + datetime.timedelta(minutes=i)).isoformat()
    if i % 5:
        return {"at": at + "+00:00", "kind": "roll", "who": f"P{i}", "expression": "1d20",
                "total": i % 20 + 1, "dice": [i % 20 + 1], "band": "", "detail": ""}
    return {"at": at + "+00:00", "kind": "event", "text": f"event {i}"}


def long_campaign(tmp_path: Path) -> None:
    """The demo campaign's save with ``HISTORY`` more log entries."""
    open_demo(tmp_path, "somnihil").store.close()
    store = CampaignStore.open(tmp_path / "demo-somnihil.json")
    store.db.table("log").insert_multiple(entry(i) for i in range(HISTORY))
    store.commit()
    store.close()


@pytest.fixture
def formatted(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every entry the roll log formats into a line."""
    seen: list[dict[str, Any]] = []
    original = roll_log.format_entry

    def counting(e: dict[str, Any], *, full: bool = False) -> Any:
        seen.append(e)
        return original(e, full=full)

    monkeypatch.setattr(roll_log, "format_entry", counting)
    return seen


async def test_the_tray_reads_the_newest_part_of_a_long_log(
    tmp_path: Path, formatted: list[dict[str, Any]]
) -> None:
    long_campaign(tmp_path)
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, TrayScreen)
        log = app.screen.query_one(RollLog)
        # Only the window is formatted, and it ends with the newest entry, under the cursor.
        assert len(formatted) == RollLog.WINDOW
        assert log.option_count == RollLog.WINDOW
        assert log.entry_at(log.option_count - 1)["who"] == f"P{HISTORY - 1}"
        assert log.highlighted == log.option_count - 1
        assert f"newest {RollLog.WINDOW} of {HISTORY:,}" in str(log.border_subtitle)

        # A new roll is one more line formatted, not the window again.
        formatted.clear()
        await pilot.press("d", *"1d6", "enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert len(formatted) <= 2
        assert log.entry_at(log.option_count - 1)["expression"] == "1d6"

        # Up past the oldest line shown reads a page more, and the GM stays on that line.
        log.focus()
        log.highlighted = 0
        oldest = log.entry_at(0)
        await pilot.press("up")
        await pilot.pause()
        assert log.option_count == RollLog.WINDOW + RollLog.PAGE
        assert log.entry_at(log.highlighted or 0) == oldest
    app.campaign.store.close()


async def test_the_rolls_only_filter_reads_a_window_of_rolls(tmp_path: Path) -> None:
    long_campaign(tmp_path)
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "R")
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        kinds = {log.entry_at(i)["kind"] for i in range(log.option_count)}
        assert kinds == {"roll"} and log.option_count == RollLog.WINDOW
        await pilot.press("R")
        await pilot.pause()
        kinds = {log.entry_at(i)["kind"] for i in range(log.option_count)}
        assert kinds == {"roll", "event"}
    app.campaign.store.close()

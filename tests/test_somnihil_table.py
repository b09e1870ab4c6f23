"""Somnihil at the table, outside the exchange: casting with no spells, a Shill, sessions,
rests in and out of a fight, Cheat Death's log line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.tui import TablesideApp
from tests.apphelpers import SIZE, demo_app, select_named


def heard(app: TablesideApp) -> list[str]:
    """Every message the app tells the GM from now on (App.notify, wrapped)."""
    told: list[str] = []
    notify = app.notify

    def recording(message: str, *args: Any, **kwargs: Any) -> None:
        told.append(str(message))
        notify(message, *args, **kwargs)

    app.notify = recording  # type: ignore[method-assign]
    return told


async def test_y_on_a_cipher_who_knows_no_spells_says_so(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    told = heard(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await select_named(pilot, "Tamsin Vey")
        await pilot.press("y")
        await pilot.pause()
        assert any("Tamsin Vey knows no spells" in m for m in told), told
    app.campaign.store.close()

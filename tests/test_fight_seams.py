"""Seams between the exchange, the turn order and the games' own keys, found by playing whole
fights by keys (Shadows, Nemron): each test presses what a GM pressed and checks what the screen
shows and what was saved."""

from __future__ import annotations

from pathlib import Path

from app.tui import TablesideApp
from tests.apphelpers import SIZE, demo_app
from tests.test_exchange_keys import amount_line, health, start, turn_of


async def test_ctrl_u_clears_the_typed_answer_of_the_exchange(tmp_path: Path) -> None:
    """A refused answer is corrected by clearing it, as in any text field: ctrl+u then the
    right card, not the two run together."""
    app: TablesideApp = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "shadows")
        await turn_of(pilot, app, "npc")
        before = health(app)
        await pilot.press("A", *"4 Cups", "ctrl+u", *"none")
        await pilot.pause()
        line = amount_line(app)
        assert "): none▏" in line, line
        assert health(app) == before
    app.campaign.store.close()

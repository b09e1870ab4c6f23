"""In each game's demo, `?` on every panel lists only that game's keys, each key once.

Help, the Footer and the palette are fed from the same bindings, so checking help checks what
the GM is taught everywhere: no other game's actions, no key that two actions share in one
panel (with the app's keys), keys as a person types them, no mechanic IDs in what the GM reads.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesets import registry
from screens.help import HelpScreen
from tests.apphelpers import SIZE, demo_app
from tests.games import BUILT_IN

GAMES = BUILT_IN
PANEL_KEYS = {"combat": "1", "tray": "2", "npcs": "3", "party": "4"}
MECHANIC_ID = re.compile(r"\b[A-Z]{2,3}-\d\d\b")
TEXTUAL_NAMES = re.compile(r"\b(right_square_bracket|left_square_bracket|question_mark|equals_sign)\b")


def _foreign_labels(game_id: str) -> set[str]:
    """Labels of other games' actions that this game does not declare itself."""
    own = {a.label for a in registry.game(game_id).actions}
    return {
        a.label
        for other in GAMES
        if other != game_id
        for a in registry.game(other).actions
        if a.label not in own
    }


@pytest.mark.parametrize("game_id", GAMES)
async def test_help_lists_only_this_games_keys_once_each(tmp_path: Path, game_id: str) -> None:
    app = demo_app(tmp_path, game_id)
    foreign = _foreign_labels(game_id)
    async with app.run_test(size=SIZE) as pilot:
        for panel, key in PANEL_KEYS.items():
            await pilot.press("escape", key)
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen), panel
            rows = [(k, d) for k, d in app.screen.help_rows if k and d]
            keys = [key for k, _ in rows for key in k.split(", ")]
            repeated = sorted({k for k in keys if keys.count(k) > 1})
            assert repeated == [], f"{game_id} {panel}: keys on two actions: {repeated}"
            texts = " | ".join(f"{k} {d}" for k, d in rows)
            assert not MECHANIC_ID.search(texts), f"{game_id} {panel}: {texts}"
            assert not TEXTUAL_NAMES.search(texts), f"{game_id} {panel}: {texts}"
            shown = {d for _, d in rows}
            assert shown.isdisjoint(foreign), f"{game_id} {panel}: {shown & foreign}"
            await pilot.press("escape")
    app.campaign.store.close()


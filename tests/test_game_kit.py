"""Every installed game passes the game API's test kit (``tableside_api.testing``, issue 25):
the five built-in games, and any other installed beside them (the toy game of
tests/fixtures/toy_game once tests/test_toy_package.py has installed it in that worker)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tableside_api
from rulesets import registry
from tableside_api.testing import (
    check_action_keys,
    check_game,
    every_installed_game,
    installed_games,
    shown,
)
from tests.test_toy_game import DUEL


@every_installed_game()  # type: ignore[untyped-decorator]
def test_every_installed_game_passes_the_kit(
    game_id: str, tmp_path: Path, _isolated_saves: Path
) -> None:
    check_game(game_id, tmp_path)


def test_the_kit_finds_games_by_their_entry_points_only() -> None:
    found = installed_games()
    assert found == sorted(ep.name for ep in registry._entry_points().values())
    assert {"somnihil", "resolution", "shadows", "nemron", "aspects"} <= set(found)


def test_the_game_api_names_what_a_game_is_built_from() -> None:
    from rulesets.decks import DeckSpec
    from rulesets.game import Game

    assert tableside_api.Game is Game and tableside_api.DeckSpec is DeckSpec
    assert sorted(tableside_api.__all__) == sorted(set(tableside_api.__all__))
    assert all(hasattr(tableside_api, name) for name in tableside_api.__all__)
    assert tableside_api.API_VERSION == "1.1"


def test_the_kit_fails_a_game_whose_odds_do_not_sum_to_one(tmp_path: Path) -> None:
    from fractions import Fraction

    from tableside_api.testing import _odds_sum

    with pytest.raises(AssertionError, match="sum to 5/6, not 1"):
        _odds_sum("duel", "duel", {"Hit": Fraction(1, 2), "Miss": Fraction(1, 3)})


def test_the_kit_fails_text_that_would_reach_the_terminal_raw() -> None:
    shown("duel", "health", ["3/3 Grit", "[b]bold[/b] is text"])
    with pytest.raises(AssertionError, match="duel: health gave .*hidden characters"):
        shown("duel", "health", "3/3 \x1b]0;owned\x07Grit")
    with pytest.raises(AssertionError, match="more than one line"):
        shown("duel", "health", ["3/3\nGrit"])
    with pytest.raises(AssertionError, match="gave None, not a string"):
        shown("duel", "preview", [None])


def test_the_kit_fails_an_action_on_a_key_its_panel_binds(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from rulesets.table import Action

    roll = Action("roll", "tray", "c", "Roll", lambda ctx, values: DUEL.checks.checks[0].spec)  # type: ignore[arg-type, return-value]
    clashing = dataclasses.replace(DUEL, actions=(roll,))
    withdraw = registry.register(clashing)
    try:
        with pytest.raises(AssertionError, match="the tray action 'Roll' on 'c': the panel binds"):
            check_action_keys("duel")
    finally:
        withdraw()

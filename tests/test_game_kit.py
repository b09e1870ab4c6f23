"""Every installed game passes the game API's test kit (``tableside_api.testing``):
the five built-in games, and any other installed beside them (the toy game of
tests/fixtures/toy_game once tests/test_toy_package.py has installed it in that worker)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tableside_api
from rulesets import registry
from rulesets.game import Game
from tableside_api.testing import (
    check_action_keys,
    check_game,
    check_play,
    every_installed_game,
    installed_games,
    shown,
)
from tests.test_toy_game import DUEL, _foe


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
    assert tableside_api.API_VERSION == "1.2"


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


# --- the kit plays a game against a real campaign, and fails a hostile one ----------------------
def _hostile_games() -> dict[str, tuple[Game, str]]:
    """Duel with one hook written wrong, and the words the kit must fail it with."""
    import dataclasses

    from rulesets import encounter as er
    from rulesets.checks import Preset
    from rulesets.fight import Hit
    from rulesets.foes import Strike, Swing
    from rulesets.game import Game as GameType
    from rulesets.table import Action
    from rulesets.turn_orders import TurnOrder

    def hurt(hit: Hit, sheet: dict[str, Any], amount: int) -> Any:
        return None

    def tags(c: er.Combatant) -> Any:
        return 42

    def preset(encounter: Any, who: Any) -> Preset | None:
        raise KeyError("anomaly")

    def health(sheet: Any) -> str:
        return str(1 // 0)

    def attack(swing: Swing) -> Any:
        return Strike(said="hit", hits=(5,))  # type: ignore[arg-type]  # a number, not text

    def action(ctx: Any, values: Any) -> Any:
        raise KeyError("no command")

    class Broken(TurnOrder):
        id = "broken"

        def cell(self, enc: er.Encounter, c: er.Combatant) -> str:
            raise IndexError("no card")

    games: dict[str, tuple[GameType, str]] = {
        "hurt None": (
            dataclasses.replace(DUEL, fight=dataclasses.replace(DUEL.fight, hurt=hurt)),
            r"fight\.hurt \(it returned None, not \(sheet, log lines\)\)",
        ),
        "tags 42": (
            dataclasses.replace(DUEL, fight=dataclasses.replace(DUEL.fight, tags=tags)),
            r"fight\.tags \(it returned 42, not a list of lines\)",
        ),
        "turn order": (
            dataclasses.replace(
                DUEL,
                ruleset=dataclasses.replace(DUEL.ruleset, turn_model="broken"),
                turn_orders=(Broken(),),
            ),
            r"turn_orders\[broken\]\.cell \(IndexError: no card\)",
        ),
        "preset": (
            dataclasses.replace(DUEL, checks=dataclasses.replace(DUEL.checks, preset=preset)),
            r"checks\.preset \(KeyError: 'anomaly'\)",
        ),
        "health line": (
            dataclasses.replace(
                DUEL, ruleset=dataclasses.replace(DUEL.ruleset, health_summary=health)
            ),
            r"ruleset\.health_summary \(ZeroDivisionError",
        ),
        "attack": (
            dataclasses.replace(
                DUEL,
                foes=dataclasses.replace(DUEL.foes, attack=attack),
            ),
            r"foes\.attack \(its Strike's hits are \(5,\), not amounts as text",
        ),
        "action": (
            dataclasses.replace(DUEL, actions=(Action("rally", "party", "y", "Rally", action),)),
            r"actions\[rally\]\.make \(KeyError: 'no command'\)",
        ),
        "no attack of its own": (
            dataclasses.replace(
                DUEL,
                foes=dataclasses.replace(
                    DUEL.foes,
                    make=lambda name, block, hp: {"sheet": _foe(name, 3, {})},
                    draws_statblock=False,
                ),
            ),
            r"its foes are its own .* attack with the default d20 against AC",
        ),
    }
    return games


HOSTILE = sorted(_hostile_games())


@pytest.mark.parametrize("hostile", HOSTILE)
def test_the_kit_fails_a_game_whose_hook_is_hostile(
    hostile: str, tmp_path: Path, _isolated_saves: Path
) -> None:
    """Before: the kit passed a hurt returning None, tags of 42, a turn order that raises, a
    raising preset or health line, nonsense attack results, a broken action, and a game with
    no attack of its own on the default d20."""
    game, words = _hostile_games()[hostile]
    withdraw = registry.register(game)
    try:
        with pytest.raises(AssertionError, match=words):
            check_play("duel", tmp_path)
    finally:
        withdraw()


def test_the_toy_game_as_it_is_passes_the_kit(tmp_path: Path, _isolated_saves: Path) -> None:
    withdraw = registry.register(DUEL)
    try:
        check_play("duel", tmp_path)
    finally:
        withdraw()

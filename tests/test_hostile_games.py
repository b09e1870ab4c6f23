"""A game whose hooks return nonsense or raise costs one message, never the session.

Each hostile game here is the toy Duel game (tests/test_toy_game.py) with one hook replaced by
one a sixth game's author wrote wrong: a ``hurt`` that returns ``None``, ``tags`` that are 42,
a turn order whose column or ``next_turn`` raises, odds of the wrong type or summing to 1.5, an
odds hook that takes far too long, a ``preset`` that raises. Played by keys: the action is
refused with one message naming the game, the hook and what was wrong, nothing is saved of it,
and the panel and its Footer stay as they were.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app.state import Campaign
from app.store import CampaignStore, read_campaign
from app.tui import TablesideApp
from rulesets import encounter as er
from rulesets import registry
from rulesets.checks import CheckSpec, Preset, Setup
from rulesets.fight import Hit
from rulesets.game import Game
from rulesets.table import Action
from rulesets.turn_orders import TurnOrder
from tests.apphelpers import SIZE, footer_words, screen_text
from tests.conftest import FIXED_NOW
from tests.test_toy_game import DUEL, DuelCheck

Opener = Callable[[Game], TablesideApp]


@pytest.fixture
def play(tmp_path: Path) -> Iterator[Opener]:
    """Register a hostile toy game; a campaign of it in the TUI, with Robin in the party."""
    withdrawn: list[Callable[[], None]] = []

    def open_game(game: Game) -> TablesideApp:
        withdrawn.append(registry.register(game))
        store = CampaignStore.open(tmp_path / "duel.json", ruleset=game.id)
        campaign = Campaign(store, rng=random.Random(3), clock=lambda: FIXED_NOW)
        return TablesideApp(campaign)

    yield open_game
    for withdraw in withdrawn:
        withdraw()


def told(app: TablesideApp) -> list[str]:
    """Every message the app shows from now on (its public notify, recorded)."""
    said: list[str] = []
    show = app.notify

    def record(message: str, **kwargs: Any) -> None:
        said.append(message)
        show(message, **kwargs)

    app.notify = record  # type: ignore[method-assign]
    return said


def _saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


def _duel(**changes: Any) -> Game:
    return dataclasses.replace(DUEL, **changes)


async def _fight(pilot: Any, *foes: str) -> None:
    """Robin in the party, a new encounter with Robin and the foes, the tracker shown."""
    await pilot.press("4", "a", *"Robin", "enter")
    await pilot.pause()
    await pilot.press("1", "ctrl+n", "enter", "p")
    for foe in foes:
        await pilot.press("q", *foe, "tab", "tab", "3", "enter")
    await pilot.pause()


async def test_a_hurt_that_returns_none_refuses_the_damage_and_the_session_goes_on(
    play: Opener,
) -> None:
    """Before: ``t 9 enter`` ended the app (TypeError: cannot unpack non-iterable NoneType)."""

    def hurt(hit: Hit, sheet: dict[str, Any], amount: int) -> Any:
        sheet["resources"]["grit"]["current"] -= amount
        return None

    app = play(_duel(fight=dataclasses.replace(DUEL.fight, hurt=hurt)))
    async with app.run_test(size=SIZE) as pilot:
        said = told(app)
        await _fight(pilot)
        log_before = len(_saved(app)["log"])
        await pilot.press("t", "9", "enter")
        await pilot.pause()
        assert app.is_running
        wrong = [s for s in said if "fight.hurt" in s]
        assert wrong == [
            "The game Duel failed in fight.hurt (it returned None, not (sheet, log lines))"
        ]
        saved = _saved(app)
        assert saved["party"]["1"]["resources"]["grit"]["current"] == 6
        assert len(saved["log"]) == log_before
        await pilot.press("i", "alt+r")  # the session goes on
        await pilot.pause()
        assert app.is_running and _saved(app)["encounters"]["1"]["round"] == 1
    app.campaign.store.close()


async def test_tags_of_42_show_a_question_mark_and_the_campaign_opens(play: Opener) -> None:
    """Before: the campaign could not be opened (TypeError: can only join an iterable)."""
    def tags(c: er.Combatant) -> Any:
        return 42

    app = play(_duel(fight=dataclasses.replace(DUEL.fight, tags=tags)))
    async with app.run_test(size=SIZE) as pilot:
        said = told(app)
        await _fight(pilot, "Slime")
        assert app.is_running
        rows = [line for line in screen_text(app) if "Robin" in line or "Slime" in line]
        assert len(rows) >= 2, screen_text(app)
        assert (
            said.count("The game Duel failed in fight.tags (it returned 42, not a list of lines)")
            == 1
        )
    app.campaign.store.close()


class Raising(TurnOrder):
    """A turn order whose column, or whose next turn, raises (the author's bug)."""

    id = "raising"
    name = "raising"
    heading = "Card"

    def __init__(self, broken: str) -> None:
        super().__init__()
        self.broken = broken

    def cell(self, enc: er.Encounter, c: er.Combatant) -> str:
        if self.broken == "cell":
            raise KeyError(c.name)
        return "K♠"

    def next_turn(self, enc: er.Encounter) -> list[str]:
        if self.broken == "next_turn":
            raise ZeroDivisionError("no card dealt")
        return super().next_turn(enc)


def _ordered(broken: str) -> Game:
    ruleset = dataclasses.replace(DUEL.ruleset, turn_model="raising")
    return _duel(ruleset=ruleset, turn_orders=(Raising(broken),), api_version="1.1")


async def test_a_turn_order_column_that_raises_keeps_every_row(play: Opener) -> None:
    """Before: every row disappeared while the fight went on."""
    app = play(_ordered("cell"))
    async with app.run_test(size=SIZE) as pilot:
        said = told(app)
        await _fight(pilot, "Slime")
        await pilot.press("i", "alt+r", "n")
        await pilot.pause()
        text = screen_text(app)
        assert any("Robin" in line for line in text) and any("Slime" in line for line in text)
        faults = [s for s in said if "turn_orders[raising].cell" in s]
        assert faults == ["The game Duel failed in turn_orders[raising].cell (KeyError: 'Robin')"]
    app.campaign.store.close()


async def test_a_next_turn_that_raises_is_refused_naming_the_game_and_the_hook(
    play: Opener,
) -> None:
    """Before: "Not done — next_turn crashed", naming no game and no hook."""
    app = play(_ordered("next_turn"))
    async with app.run_test(size=SIZE) as pilot:
        said = told(app)
        await _fight(pilot, "Slime")
        await pilot.press("i", "alt+r")
        await pilot.pause()
        before = _saved(app)["encounters"]["1"]
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running
        wrong = "The game Duel failed in turn_orders[raising].next_turn (ZeroDivisionError: no card dealt)"
        assert [s for s in said if "next_turn" in s] == [wrong]
        after = _saved(app)["encounters"]["1"]
        assert (after["round"], after["current"]) == (before["round"], before["current"])
    app.campaign.store.close()


def _with_odds(odds: Callable[[], Any]) -> Game:
    check = DUEL.checks.checks[0]

    def spec(setup: Setup) -> CheckSpec:
        return dataclasses.replace(check.spec(setup), odds=odds)

    checks = dataclasses.replace(DUEL.checks, checks=(dataclasses.replace(check, spec=spec),))
    return _duel(checks=checks)


def _setup_text(app: TablesideApp) -> str:
    return str(app.screen.query_one("#check-setup", Static).render())


@pytest.mark.parametrize(
    ("odds", "wrong"),
    [
        (lambda: ["Hit"], "its odds are ['Hit'], not chances by band"),
        (
            lambda: {"Hit": Fraction(1), "Miss": Fraction(1, 2)},
            "its odds sum to 150.0%, not 100%",
        ),
        (lambda: {"Hit": "most"}, "its odds give Hit 'most', not a chance"),
    ],
    ids=["a list", "summing to 1.5", "words"],
)
async def test_odds_that_are_not_chances_are_said_in_the_tray_never_charted(
    play: Opener, odds: Callable[[], Any], wrong: str
) -> None:
    """Before: "dictionary update sequence element #0 has length 1; 2 is required", no game
    named, and odds summing to 1.5 were charted as ``Success 150.0%``."""
    app = play(_with_odds(odds))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        text = " ".join(_setup_text(app).split())
        assert f"The game Duel failed in checks.checks[duel].spec().odds ({wrong})" in text
        assert "150.0%" not in str(app.screen.query_one("#odds-chart").render())
        await pilot.press("c")  # the roll itself still works
        await pilot.pause()
        assert app.is_running
        assert [e["kind"] for e in _saved(app)["log"].values()] == ["roll"]
    app.campaign.store.close()


def test_odds_floats_within_rounding_of_one_are_chances() -> None:
    from rulesets.guard import odds_problem

    assert odds_problem({"Hit": 0.1, "Miss": 0.2, "Maybe": 0.7}) == ""
    assert odds_problem({"Hit": Fraction(1, 3), "Miss": Fraction(2, 3)}) == ""
    assert (
        odds_problem({"Hit": 1.5, "Miss": -0.5})
        == "its odds give Hit 150.0%, not a chance from 0 to 1"
    )


async def test_a_slow_odds_hook_never_freezes_the_tray(
    play: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: an odds hook that took 20 s froze the whole app; the tray showed 80 s after
    ``2``. Now the odds are worked out off the UI thread: the tray answers keys at once, and
    past the time limit says the game took too long."""
    from screens import tray

    monkeypatch.setattr(tray, "ODDS_LIMIT", 1.0, raising=False)
    release = threading.Event()

    def slow() -> Mapping[str, Fraction]:
        release.wait(20)
        return {"Hit": Fraction(1, 2), "Miss": Fraction(1, 2)}

    app = play(_with_odds(slow))
    try:
        async with app.run_test(size=SIZE) as pilot:
            started = time.monotonic()
            await pilot.press("2", "right_square_bracket")
            await pilot.pause()
            assert time.monotonic() - started < 5
            assert "d6+1 vs 4" in _setup_text(app)  # the key was handled while it works
            assert "working out the odds" in str(app.screen.query_one("#odds-chart").render())
            await pilot.pause(1.5)
            text = " ".join(_setup_text(app).split())
            assert "The game Duel failed in checks.checks[duel].spec().odds" in text
            assert "took longer than 1 s" in text
    finally:
        release.set()
    app.campaign.store.close()


async def test_a_preset_that_raises_leaves_the_tray_and_its_footer_working(play: Opener) -> None:
    """Before: the first ``2`` did nothing, then the log was empty, ``p`` stayed on the GM and
    the game's keys vanished from the Footer."""

    def preset(encounter: Any, who: Any) -> Preset | None:
        raise AttributeError("'NoneType' object has no attribute 'get'")

    rally = Action("rally", "tray", "g", "Rally", lambda ctx, values: DuelCheck(ctx.pc_id, 0))
    checks = dataclasses.replace(DUEL.checks, preset=preset)
    app = play(_duel(checks=checks, actions=(rally,)))
    async with app.run_test(size=SIZE) as pilot:
        said = told(app)
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert "Rally" in footer_words(app)  # the game's own tray key
        await pilot.press("p")
        await pilot.pause()
        assert "Robin" in _setup_text(app)
        await pilot.press("c")
        await pilot.pause()
        rolls = [e for e in _saved(app)["log"].values() if e["kind"] == "roll"]
        assert [e["who"] for e in rolls] == ["Robin"]
        faults = [s for s in said if "checks.preset" in s]
        assert faults == [
            "The game Duel failed in checks.preset (AttributeError: 'NoneType' object has no attribute 'get')"
        ]
    app.campaign.store.close()

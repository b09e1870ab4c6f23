"""A sixth game, defined here and nowhere else, played through the TUI by keys (issue 11).

"Duel" has one resource (Grit), one check (d6 + bonus, 4 or more succeeds), and a foe sheet of
its own (Grit, out at 0). The test registers it, opens a new campaign of it and plays: a PC,
a foe, a round of combat, its check with its odds in the tray, damage, undo. Nothing outside
this file knows the game: the shell renders what the declaration says.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app.launch import open_campaign
from app.store import read_campaign
from app.tui import TablesideApp
from rulesets import registry
from rulesets.base import CheckResult, ResourceSpec, Ruleset, SheetSpec
from rulesets.checks import Check, CheckInput, CheckRules, CheckSpec, Setup
from rulesets.fight import FightRules, FoeSheet, Hit
from rulesets.game import DemoPC, Game
from rulesets.table import Tx
from tests.apphelpers import SIZE
from widgets.combat_table import CombatTable

GAME_ID = "duel"
TARGET = 4


def duel_check(rng: random.Random, bonus: int = 0) -> CheckResult:
    die = rng.randint(1, 6)
    total = die + bonus
    return CheckResult(
        f"d6{bonus:+d} vs {TARGET}", total, (die,), "Hit" if total >= TARGET else "Miss"
    )


def duel_odds(bonus: int) -> dict[str, Fraction]:
    hits = sum(1 for die in range(1, 7) if die + bonus >= TARGET)
    return {"Hit": Fraction(hits, 6), "Miss": Fraction(6 - hits, 6)}


@dataclass(frozen=True)
class DuelCheck:
    who: int | None
    bonus: int

    @property
    def label(self) -> str:
        return "Duel check"

    def run(self, tx: Tx) -> list[str]:
        pc = tx.find("party", self.who) if self.who is not None else None
        name = str(pc["name"]) if pc else "GM"
        return [tx.log_roll(name, duel_check(tx.rng, self.bonus))]


def _spec(setup: Setup) -> CheckSpec:
    bonus = int(setup.values["bonus"])
    return CheckSpec(
        summary=f"d6{bonus:+d} vs {TARGET}",
        odds=lambda: duel_odds(bonus),
        command=DuelCheck(setup.who, bonus),
        odds_title="d6",
    )


def _grit(sheet: Mapping[str, Any]) -> dict[str, int]:
    grit: dict[str, int] = sheet["resources"]["grit"]
    return grit


def _lose_grit(hit: Hit, sheet: dict[str, Any], amount: int) -> tuple[dict[str, Any], list[str]]:
    grit = _grit(sheet)
    grit["current"] = max(0, grit["current"] - amount)
    return sheet, [f"{sheet['name']} loses {amount} Grit: {grit['current']}/{grit['max']}"]


def _gain_grit(hit: Hit, sheet: dict[str, Any], amount: int) -> tuple[dict[str, Any], list[str]]:
    grit = _grit(sheet)
    grit["current"] = min(grit["max"], grit["current"] + amount)
    return sheet, [f"{sheet['name']} has {grit['current']}/{grit['max']} Grit"]


def _foe(name: str, health: int, answers: object) -> dict[str, Any]:
    return {
        "sheet": {
            "name": name,
            "resources": {"grit": {"current": health, "max": health}},
            "status": "alive",
        }
    }


RULESET = Ruleset(
    id=GAME_ID,
    name="Duel",
    turn_model="initiative",
    sheet=SheetSpec(resources=(ResourceSpec("grit", "Grit", 6),)),
    check=duel_check,
)
DUEL = Game(
    ruleset=RULESET,
    demo_party=(DemoPC("Robin"),),
    fight=FightRules(
        foe=FoeSheet(
            health_label="Grit",
            health_default=3,
            fields=(),
            make=_foe,
            health=lambda sheet: f"{_grit(sheet)['current']}/{_grit(sheet)['max']} Grit",
            hurt=_lose_grit,
            heal=_gain_grit,
            out=lambda sheet: _grit(sheet)["current"] <= 0,
        ),
        hurt=_lose_grit,
        heal=_gain_grit,
    ),
    checks=CheckRules(
        checks=(
            Check(
                id="duel",
                name="Duel check",
                inputs=(
                    CheckInput(
                        "bonus",
                        "Bonus",
                        "number",
                        default=0,
                        steps=("right_square_bracket", "left_square_bracket"),
                        minimum=-3,
                        maximum=3,
                    ),
                ),
                spec=_spec,
                legend=f"{TARGET}+ Hit · below Miss",
            ),
        )
    ),
    summary="a toy game of one check and one resource",
    api_version="1.0",
)


@pytest.fixture
def duel() -> Iterator[Game]:
    withdraw = registry.register(DUEL)
    yield DUEL
    withdraw()


def _saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


def _encounter(app: TablesideApp) -> dict[str, Any]:
    encounters: list[dict[str, Any]] = list(_saved(app)["encounters"].values())
    assert len(encounters) == 1
    return encounters[0]


def _foe_grit(app: TablesideApp) -> dict[str, int]:
    foe = next(c for c in _encounter(app)["combatants"] if c["side"] != "pc")
    return _grit(foe["stats"]["sheet"])


def _text(app: TablesideApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_a_game_declared_in_a_test_is_played_by_keys(tmp_path: Path, duel: Game) -> None:
    campaign = open_campaign(tmp_path / "duel.json", ruleset=GAME_ID, seed=7)
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        assert _saved(app)["meta"]["1"]["ruleset"] == GAME_ID

        # A PC, on the party sheet: the game's one resource, full.
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        party = list(_saved(app)["party"].values())
        assert [p["name"] for p in party] == ["Robin"]
        assert party[0]["resources"]["grit"] == {"current": 6, "max": 6}

        # An encounter, the party and a foe with the game's own foe sheet.
        await pilot.press("1", "ctrl+n", "enter")
        await pilot.pause()
        await pilot.press("p")
        await pilot.press("q", *"Slime", "tab", "tab", "3", "enter")
        await pilot.pause()
        enc = _encounter(app)
        assert [c["name"] for c in enc["combatants"]] == ["Robin", "Slime"]
        assert _foe_grit(app) == {"current": 3, "max": 3}

        # A round: initiative, start, every turn once, back to the first.
        await pilot.press("i", "alt+r")
        await pilot.pause()
        first = _encounter(app)
        assert first["round"] == 1 and first["current"] is not None
        await pilot.press("n", "n")
        await pilot.pause()
        again = _encounter(app)
        assert (again["round"], again["current"]) == (2, first["current"])

        # The tray states the game's check: the bonus by its key, the exact odds, the roll.
        await pilot.press("2", "right_square_bracket", "right_square_bracket")
        await pilot.pause()
        setup = _text(app, "#check-setup")
        assert "d6+2 vs 4" in setup
        chart = str(app.screen.query_one("#odds-chart").render())
        assert "Hit" in chart and "83" in chart  # 5 of 6 faces hit with +2
        await pilot.press("c")
        await pilot.pause()
        rolls = [e for e in _saved(app)["log"].values() if e.get("kind") == "roll"]
        duel_rolls = [e for e in rolls if str(e["expression"]).startswith("d6+2 vs 4")]
        assert len(duel_rolls) == 1 and duel_rolls[0]["band"] in ("Hit", "Miss")

        # Damage to the foe through its foe sheet, then undo.
        await pilot.press("1")
        await pilot.pause()
        order = [c["name"] for c in _encounter(app)["combatants"]]
        await pilot.press("k", "k", *["j"] * order.index("Slime"))
        table = app.screen.query_one("#combatants", CombatTable)
        assert table.selected_id == _encounter(app)["combatants"][order.index("Slime")]["id"]
        await pilot.press("t", "2", "enter")
        await pilot.pause()
        assert _foe_grit(app) == {"current": 1, "max": 3}
        row = " ".join(str(cell) for cell in table.get_row_at(order.index("Slime")))
        assert "1/3 Grit" in row
        await pilot.press("u")
        await pilot.pause()
        assert _foe_grit(app) == {"current": 3, "max": 3}
        assert _saved(app)["party"]["1"]["resources"]["grit"]["current"] == 6
    campaign.store.close()

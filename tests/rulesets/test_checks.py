"""The checks each game declares for the tray (rulesets.checks) and their hooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesets import registry
from rulesets.base import RuleError
from rulesets.checks import Check, CheckInput, CheckRules, CheckSpec, Setup
from tests.apphelpers import open_demo
from tests.games import BUILT_IN

GAMES = BUILT_IN


def main_check(game_id: str) -> Check:
    check = registry.game(game_id).checks.main
    assert check is not None, f"{game_id} states no check"
    return check


def test_cycle_wraps_and_a_stepped_cycle_stops_at_its_ends() -> None:
    edge = CheckInput("edge", "Edge", "cycle", default=0, press="a", choices=(0, 1, -1))
    assert [edge.step(v, 1, None) for v in (0, 1, -1)] == [1, -1, 0]
    level = CheckInput("level", "Level", "cycle", default="b", steps=("plus", "minus"),
                       choices=("a", "b", "c"))  # fmt: skip
    assert level.step("c", 1, None) == "c" and level.step("a", -1, None) == "a"
    assert level.step("a", 1, None) == "b"


def test_number_steps_through_its_stops_and_a_typed_value_between_them() -> None:
    dc = CheckInput("dc", "DC", "number", default=8, steps=("plus", "minus"), minimum=1,
                    maximum=30, stops=(6, 8, 10))  # fmt: skip
    assert dc.step(8, 1, None) == 10 and dc.step(10, 1, None) == 10
    assert dc.step(9, 1, None) == 10 and dc.step(9, -1, None) == 8
    assert dc.from_text("23") == 23
    with pytest.raises(ValueError, match="DC: 1 to 30"):
        dc.from_text("31")
    with pytest.raises(ValueError, match="type a whole number"):
        dc.from_text("x")


def test_pick_cycles_the_sheets_options_and_none() -> None:
    skill = CheckInput("skill", "Skill", "pick", default="", press="k",
                       options=lambda pc: sorted((pc or {}).get("skills", {})))  # fmt: skip
    pc = {"skills": {"swords": 2, "lore": 1}}
    assert skill.step("", 1, pc) == "lore"
    assert skill.step("swords", 1, pc) == ""
    assert skill.shown("") == "none"
    with pytest.raises(ValueError, match="Skill: one of none, lore, swords"):
        skill.from_text("axes", pc)


def test_a_check_whose_inputs_share_a_key_is_refused() -> None:
    twice = Check(
        "c", "c",
        (CheckInput("x", "X", "cycle", press="a", choices=(1,)),
         CheckInput("y", "Y", "cycle", press="a", choices=(1,))),
        spec=lambda setup: CheckSpec("", dict, command=None),  # type: ignore[arg-type]
    )  # fmt: skip
    with pytest.raises(ValueError, match="a used twice"):
        CheckRules(checks=(twice,))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_states_a_check_whose_odds_sum_to_one(game_id: str) -> None:
    check = main_check(game_id)
    spec = check.spec(Setup(check.defaults()))
    odds = spec.odds()
    assert odds and sum(odds.values()) == 1
    assert spec.summary and spec.command.label


@pytest.mark.parametrize("game_id", GAMES)
def test_the_check_rolled_lands_in_a_band_its_odds_give_a_chance(
    tmp_path: Path, game_id: str
) -> None:
    """The roller and the odds come from one spec: every logged band is one the chart shows."""
    campaign = open_demo(tmp_path, game_id)
    check = main_check(game_id)
    pid, pc = campaign.rows("party")[0]
    for _ in range(12):
        spec = check.spec(Setup(check.defaults(), pid, pc, campaign.rows))
        odds = spec.odds()
        campaign.apply(spec.command)
        entry = [e for e in campaign.log_entries() if e.get("kind") == "roll"][-1]
        assert odds.get(entry["band"], 0) > 0, (entry["band"], odds)
    campaign.store.close()


def test_flags_set_the_inputs_and_a_bad_value_is_refused() -> None:
    shadows = main_check("shadows")
    values = shadows.values_from_flags({"draw": "three", "bonus": 12, "difficulty": "hard"})
    assert values["draw"] == "three" and values["bonus"] == 12 and values["difficulty"] == "Hard"
    with pytest.raises(RuleError, match="Difficulty: one of Mundane"):
        shadows.values_from_flags({"difficulty": "wild"})
    assert main_check("somnihil").values_from_flags({"adv": True})["edge"] == 1


def test_only_shadows_puts_cards_on_the_table() -> None:
    with_cards = [g for g in GAMES if registry.game(g).checks.cards is not None]
    assert with_cards == ["shadows"]


def test_a_skill_picked_for_one_character_is_not_carried_to_another() -> None:
    nemron = main_check("nemron")
    values = {**nemron.defaults(), "skill": "swords"}
    with_it = {"name": "A", "attributes": {"power": 2}, "skills": {"swords": 3}}
    without = {"name": "B", "attributes": {"power": 2}, "skills": {}}
    assert "swords" in nemron.spec(Setup(values, 1, with_it)).summary
    spec = nemron.spec(Setup(values, 2, without))
    assert "swords" not in spec.summary and "Power: d8 keep" in spec.summary
    assert sum(spec.odds().values()) == 1

"""Resolution rules: DC table, checks, opposed checks, Grip, Deliria, vitality (RR-01..RR-05)."""

from __future__ import annotations

import inspect
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets import npc
from rulesets.base import CheckResult
from rulesets.registry import get
from rulesets.resolution import rules as resolution


def _pc(**attributes: int) -> dict[str, Any]:
    return resolution.RULESET.make_character("Ada", **attributes)


def test_rr01_dc_table_rows() -> None:
    rows = {row.swn_dc: row for row in resolution.DC_TABLE}
    assert rows[None].ce_dm is None and rows[None].dnd_dc is None
    assert [(r.swn_dc, r.ce_label, r.dnd_dc) for r in resolution.DC_TABLE[1:]] == [
        (6, "Routine (+2)", 10),
        (8, "Average (0)", 15),
        (10, "Difficult (-2)", 20),
        (12, "Very difficult (-4)", 25),
        (14, "Formidable (-6)", 30),
    ]
    assert resolution.dc_row(10).description.startswith("A challenge even a skilled expert")
    with pytest.raises(resolution.RuleError):
        resolution.dc_row(7)


@pytest.mark.parametrize(
    "swn, ce, dnd", [(6, 2, 10), (8, 0, 15), (10, -2, 20), (12, -4, 25), (14, -6, 30)]
)
def test_rr01_convert_either_way(swn: int, ce: int, dnd: int) -> None:
    assert resolution.convert_dc(swn, "swn", "5e") == dnd
    assert resolution.convert_dc(swn, "swn", "ce") == ce
    assert resolution.convert_dc(dnd, "5e", "swn") == swn
    assert resolution.convert_dc(ce, "ce", "swn") == swn
    assert resolution.convert_dc(dnd, "5e", "ce") == ce
    assert resolution.convert_dc(ce, "Cepheus Engine", "5e") == dnd


def test_rr01_in_between_values_round_toward_harder() -> None:
    assert resolution.convert_dc(13, "5e", "swn") == 7  # 7.2
    assert resolution.convert_dc(12, "5e", "swn") == 7  # 6.8
    assert resolution.convert_dc(7, "swn", "5e") == 13  # 12.5 -> harder
    assert resolution.convert_dc(1, "ce", "5e") == 13
    assert resolution.convert_dc(9, "swn", "ce") == -1
    with pytest.raises(resolution.RuleError):
        resolution.convert_dc(8, "gurps", "5e")


def test_rr01_check_2d6_and_d20() -> None:
    for seed in range(40):
        result = resolution.check(random.Random(seed), dc=8, modifier=1)
        assert result.total == sum(result.dice) + 1
        assert len(result.dice) == 2
        assert result.band == ("success" if result.total >= 8 else "failure")
    d20 = resolution.check(random.Random(3), 15, modifier=2, dice="d20", dc_system="5e")
    assert d20.natural is not None and d20.total == d20.natural + 2
    assert d20.expression == "1d20+2 vs 5e DC 15"
    assert resolution.RULESET.check is not None
    assert resolution.RULESET.check(random.Random(1)).expression == "2d6+0 vs DC 8"
    with pytest.raises(resolution.RuleError):
        resolution.check(random.Random(1), 8, dice="3d6")


def test_rr01_odds_exact() -> None:
    assert resolution.odds(8) == {"success": Fraction(15, 36), "failure": Fraction(21, 36)}
    assert resolution.odds(7, modifier=0)["success"] == Fraction(21, 36)
    assert resolution.odds(15, modifier=2, dice="d20", dc_system="5e")["success"] == Fraction(8, 20)
    assert resolution.odds(2)["success"] == 1
    assert resolution.odds(14, modifier=-1)["success"] == 0


def test_rr01_d20_check_is_against_the_5e_column() -> None:
    """Issue 14: the tray rolled d20+2 vs DC 14 and showed 45%; its own line says 5e DC 30."""
    assert resolution.odds(14, 2, "d20") == {"success": 0, "failure": 1}
    assert resolution.odds(8, 2, "d20")["success"] == Fraction(8, 20)  # 5e DC 15
    assert resolution.odds(9, 0, "d20")["success"] == Fraction(3, 20)  # off the table: 5e 18
    rolled = resolution.check(random.Random(1), 14, 2, "d20")
    assert rolled.expression == "1d20+2 vs 5e DC 30 (SWN DC 14)"
    assert rolled.band == "failure"
    assert resolution.check(random.Random(1), 14, 2, "2d6").expression == "2d6+2 vs DC 14"


@given(st.integers(-10, 30), st.integers(-5, 10), st.sampled_from(["2d6", "d20"]))
def test_rr01_odds_sum_to_one(dc: int, modifier: int, dice: str) -> None:
    chances = resolution.odds(dc, modifier, dice)
    assert sum(chances.values()) == 1
    assert all(0 <= p <= 1 for p in chances.values())


def test_rr02_opposed_npc_roll_sets_dc() -> None:
    for seed in range(40):
        result = resolution.opposed_check(random.Random(seed), modifier=1, npc_modifier=2)
        assert result.dc == result.npc_roll.total == sum(result.npc_roll.dice) + 2
        assert result.band == ("success" if result.pc_roll.total >= result.dc else "failure")


def test_rr02_minimum_dc_is_npc_morale() -> None:
    morale = npc.build(1, 1, 2).morale
    assert morale == 9
    for seed in range(40):
        result = resolution.opposed_check(random.Random(seed), npc_modifier=0, minimum_dc=morale)
        assert result.dc == max(morale, result.npc_roll.total)
    plain = resolution.opposed_odds()
    assert plain["success"] == Fraction(721, 1296)  # ties go to the PC
    floored = resolution.opposed_odds(minimum_dc=9)
    assert floored["success"] < plain["success"]
    assert sum(floored.values()) == 1


def test_rr03_grip_max_clamped() -> None:
    assert resolution.grip_max({"int": 7, "wis": 8}) == 10
    assert resolution.grip_max({"int": 15, "wis": 12}) == 15
    assert resolution.grip_max({"int": 9, "wis": 13}) == 13
    assert resolution.grip_max({"int": 18, "wis": 18}) == 18
    assert resolution.grip_max({"int": 25, "wis": 3}) == 18
    pc = _pc(int=14, wis=16)
    assert pc["resources"]["grip"] == {"current": 16, "max": 16}


def test_rr03_grip_check_roll_under() -> None:
    for seed in range(60):
        result = resolution.grip_check(random.Random(seed), 11)
        assert result.natural is not None
        assert result.band == ("success" if result.natural < 11 else "failure")
    assert resolution.grip_odds(11) == {"success": Fraction(10, 20), "failure": Fraction(10, 20)}
    failure = CheckResult("1d20", 15, (15,), band="failure")
    assert resolution.grip_loss(failure) == 1
    assert resolution.grip_loss(failure, major=True) == 2
    assert resolution.grip_loss(CheckResult("1d20", 3, (3,), band="success")) == 0


def test_rr03_grip_check_applies_loss_and_zero_is_lost() -> None:
    pc = _pc(int=10, wis=10)
    pc["resources"]["grip"]["current"] = 1  # any d20 >= 1 fails
    result, lines = resolution.make_grip_check(random.Random(2), pc, major=True)
    assert result.band == "failure"
    assert pc["resources"]["grip"]["current"] == 0
    assert pc["status"] == "lost"
    assert resolution.is_lost(pc)
    assert any("lost" in line for line in lines)


def test_rr03_grip_failure_costs_one_or_two() -> None:
    for major, cost in ((False, 1), (True, 2)):
        for seed in range(30):
            pc = _pc(int=12, wis=10)
            result, _ = resolution.make_grip_check(random.Random(seed), pc, major=major)
            expected = 12 - (cost if result.band == "failure" else 0)
            assert pc["resources"]["grip"]["current"] == expected


def test_rr04_delirium_roll_counts_new_delirium() -> None:
    for seed in range(60):
        pc = _pc(int=14, wis=10)
        pc["resources"]["grip"]["current"] = 10
        pc["lists"]["deliria"] = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        result, _ = resolution.accept_delirium(random.Random(seed), pc, "Fear of mirrors")
        assert len(pc["lists"]["deliria"]) == 10
        assert result.natural is not None
        assert result.band == ("success" if result.natural >= 10 else "failure")
        assert pc["resources"]["grip"]["current"] == (12 if result.band == "success" else 8)
    assert resolution.delirium_odds(10) == {
        "success": Fraction(11, 20),
        "failure": Fraction(9, 20),
    }
    assert resolution.delirium_odds(1)["success"] == 1


def test_rr04_recovered_grip_capped_and_deliria_permanent() -> None:
    pc = _pc(int=12, wis=10)
    result, _ = resolution.accept_delirium(random.Random(0), pc, "Compulsive counting")
    assert result.band == "success"  # 1 delirium held: any d20 succeeds
    assert pc["resources"]["grip"]["current"] == 12
    spec = resolution.SHEET.lists[0]
    assert (spec.key, spec.removable) == ("deliria", False)
    with pytest.raises(resolution.RuleError):
        resolution.remove_delirium(pc, "Compulsive counting")
    assert pc["lists"]["deliria"] == ["Compulsive counting"]


def test_rr04_resisting_a_compulsion_costs_one_grip() -> None:
    pc = _pc(int=13, wis=10)
    resolution.resist_compulsion(pc)
    assert pc["resources"]["grip"]["current"] == 12
    pc["resources"]["grip"]["current"] = 0
    with pytest.raises(resolution.RuleError):
        resolution.resist_compulsion(pc)


def test_rr05_hp_and_system_strain_per_pc() -> None:
    pc = resolution.new_character("Bo", hp=9, con=14)
    assert pc["resources"]["hp"] == {"current": 9, "max": 9}
    assert pc["resources"]["system_strain"] == {"current": 0, "max": 14}
    resolution.damage(pc, 4)
    assert pc["resources"]["hp"]["current"] == 5
    resolution.damage(pc, 40)
    assert pc["resources"]["hp"]["current"] == 0
    resolution.heal(pc, 50)
    assert pc["resources"]["hp"]["current"] == 9
    resolution.add_system_strain(pc, 10)
    with pytest.raises(resolution.RuleError):
        resolution.add_system_strain(pc, 5)
    assert pc["resources"]["system_strain"]["current"] == 10
    resolution.recover_system_strain(pc, 3)
    assert pc["resources"]["system_strain"]["current"] == 7
    assert resolution.RULESET.health(pc) == "9/9 HP · Grip 10/10 · strain 7/14"


def test_rr05_sheet_and_ruleset_contract() -> None:
    ruleset = get("resolution")
    # The registry hands out the declaration guarded (rulesets.guard): the same rules, wrapped.
    assert ruleset.name == resolution.RULESET.name
    assert inspect.unwrap(ruleset.health_summary) is resolution.RULESET.health_summary  # type: ignore[arg-type]
    assert ruleset.turn_model == "initiative"
    keys = [a.key for a in ruleset.sheet.attributes]
    # the six scores, and the AC a foe's d20 attack is against (issue 21)
    assert keys == ["str", "dex", "con", "int", "wis", "cha", "ac"]
    assert [r.key for r in ruleset.sheet.resources] == ["hp", "system_strain", "grip"]
    grip = ruleset.sheet.resources[2]
    assert grip.derive_max is not None and grip.derive_max({"int": 16, "wis": 9}) == 16


def test_rr05_initiative_d8_plus_dex_modifier() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        value = resolution.initiative_roll(rng, 1)
        assert 2 <= value <= 9
    assert resolution.attribute_modifier(3) == -2
    assert resolution.attribute_modifier(7) == -1
    assert resolution.attribute_modifier(13) == 0
    assert resolution.attribute_modifier(14) == 1
    assert resolution.attribute_modifier(18) == 2
    pc = _pc(dex=18)
    assert resolution.initiative_for(random.Random(4), pc) == resolution.initiative_roll(
        random.Random(4), 2
    )

"""NPC statblocks, rolls and conversions (NPC-01..NPC-10)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets import npc

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "srd5e-monsters-sample.json"

STATBLOCK_KEYS = {
    "hd", "ac", "hit_die", "hp", "hp_roll", "move", "effort", "save", "shock", "attacks",
    "powers", "atk_mod", "atk_dmg", "morale",
}  # fmt: skip
QUICK_KEYS = {
    "hd", "ac", "hit_die", "hp", "hp_roll", "move", "effort", "save", "shock", "attacks",
    "powers", "stats", "atk_mod", "atk_dmg",
}  # fmt: skip


def test_npc01_hd_from_attributes_and_concepts() -> None:
    block = npc.build(3, 1, 2, name="Cult enforcer", concepts=("Fanatic", "Iron"))
    assert block.hd == 5
    assert block.concepts == ("Fanatic", "Iron")
    assert npc.build(0, 0, 0).hd == 0
    assert npc.build(-3, -3, -3).hd == 0
    assert npc.build(-3, -3, -3).hp == 1
    with pytest.raises(npc.NPCError):
        npc.build(1, 1, 1, concepts=("a", "b", "c", "d"))
    with pytest.raises(npc.NPCError):
        npc.build(1.5, 1, 1)  # type: ignore[arg-type]


def test_npc02_derived_stats_of_one_npc() -> None:
    block = npc.build(4, 3, -1)
    assert block.hd == 5
    assert block.ac == 15
    assert block.hit_die == 10
    assert block.hp == 30  # 5 x (4 + 4/2)
    assert block.move == 40
    assert block.effort == "0"
    assert block.save == 15
    assert block.shock == "4/18"
    assert block.attacks == 2
    assert block.atk_mod == {"brawl": 9, "wit": 7, "will": 0}
    assert block.atk_dmg == {"brawl": "4d6", "will": "1d4"}
    assert block.morale == 6


def test_npc02_to_json_keys_exact() -> None:
    data = npc.build(2, 1, 0).to_json()
    assert set(data) == STATBLOCK_KEYS
    assert json.loads(json.dumps(data)) == data
    assert isinstance(data["atk_mod"]["brawl"], int)
    quick = npc.quick_build(7).to_json()
    assert set(quick) == QUICK_KEYS
    assert json.loads(json.dumps(quick)) == quick
    assert quick["hit_die"] == "d10" and quick["hp_roll"] == "7d10"
    assert quick["move"] == 40


def test_npc03_quick_build_range() -> None:
    assert npc.quick_build(0).atk_mod == 0
    assert npc.quick_build(20).hp == 150
    for bad in (-1, 21):
        with pytest.raises(npc.NPCError):
            npc.quick_build(bad)


def test_npc04_hp_fixed_and_rolled() -> None:
    block = npc.build(2, 2, 2)
    assert (block.hp, block.hp_roll) == (25, "5d8")
    result = npc.roll_hp(block, random.Random(3))
    assert len(result.dice) == 5
    assert all(1 <= d <= 8 for d in result.dice)
    assert result.total == sum(result.dice)
    assert npc.roll_hp(npc.build(0, 0, 0), random.Random(1)).total == 1
    assert npc.roll_hp(npc.quick_build(3), random.Random(2)).expression == "3d8"


@given(st.integers(min_value=0, max_value=20), st.integers(min_value=0, max_value=10_000))
def test_npc04_rolled_hp_within_dice(hd: int, seed: int) -> None:
    build = npc.quick_build(hd)
    total = npc.roll_hp(build, random.Random(seed)).total
    assert max(1, hd) <= total <= max(1, hd * build.hit_die)


def test_npc05_effort_usage_die() -> None:
    assert npc.effort_use(random.Random(0), "0") == npc.EffortUse(False, None, "0", True)
    assert npc.effort_use(random.Random(0), "1") == npc.EffortUse(True, None, "0", True)
    rolls = {}
    for seed in range(200):
        use = npc.effort_use(random.Random(seed), "1d6")
        assert use.used
        assert use.roll is not None
        rolls[use.roll] = use
        assert use.exhausted == (use.roll <= 2)
        assert use.remaining == ("0" if use.roll <= 2 else "1d6")
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    with pytest.raises(npc.NPCError):
        npc.effort_use(random.Random(0), "lots")


def test_npc06_power_slots_half_hd() -> None:
    assert npc.build(3, 3, 3).powers == 4
    assert npc.build(2, 1, 1).powers == 1
    assert npc.quick_build(0).powers == 0
    assert npc.quick_build(7).powers == 3


def test_npc07_saving_throw_and_skill_check() -> None:
    block = npc.build(2, 1, 0)  # HD 2, Save 16
    assert block.save == 16
    saves = [npc.saving_throw(random.Random(s), block, "brawl") for s in range(50)]
    for save in saves:
        assert save.natural is not None and save.total == save.natural + 2
        assert save.band == ("success" if save.total >= 16 else "failure")
    pen = npc.saving_throw(random.Random(1), block, "brawl", penalty=3)
    assert pen.natural is not None and pen.total == pen.natural - 1
    two = npc.skill_check(random.Random(4), block, "wit", dc=8)
    assert two.total == sum(two.dice) + 1
    d20 = npc.skill_check(random.Random(4), npc.build(3, 0, 0), "brawl", dc=15, system="d20")
    assert d20.total == d20.dice[0] + 6
    unskilled = npc.skill_check(random.Random(4), block, "brawl", dc=8, skilled=False)
    assert unskilled.total == sum(unskilled.dice)
    assert npc.skill_modifier(3, "2d6") == 3 and npc.skill_modifier(3, "d20") == 6


def test_npc02_attack_roll_damage_and_shock() -> None:
    block = npc.build(3, 0, 2)
    for seed in range(30):
        hit = npc.attack(random.Random(seed), block, "brawl", target_ac=14)
        assert hit.natural is not None and hit.total == hit.natural + 7
        assert hit.damage_expression == "3d6"
        assert 3 <= hit.damage <= 18
        assert hit.band == ("hit" if hit.total >= 14 else "miss")
        assert hit.shock == (4 if hit.band == "miss" else 0)  # Shock 4/15 vs AC 14
    assert npc.attack(random.Random(1), block, "will").damage_expression == "2d6"
    assert npc.attack(random.Random(1), block, "wit").damage_expression == "1d4"
    assert npc.attack(random.Random(1), block, "wit", weapon_damage="1d8").damage_expression == (
        "1d8"
    )
    quick = npc.attack(random.Random(1), npc.quick_build(8))
    assert quick.natural is not None
    assert quick.total == quick.natural + 7 and quick.damage == 11
    assert npc.shock_damage("4/15", 16) == 0
    assert npc.shock_damage("4/-", 30) == 4
    assert npc.shock_damage("-", 10) == 0


def test_npc08_morale_bands() -> None:
    assert npc.morale_result(3) == "Will is broken, they flee immediately"
    assert npc.morale_result(-1) == npc.FLEE
    assert npc.morale_result(4) == "They retreat strategically"
    assert npc.morale_result(6) == npc.RETREAT
    assert npc.morale_result(7) == (
        "They continue to fight, but consider improved strategic positions"
    )
    assert npc.morale_result(9) == npc.REPOSITION
    assert npc.morale_result(10) == "They continue, undeterred"
    result = npc.morale_check(random.Random(5), will=2)
    assert result.total == sum(result.dice) + 2
    assert result.band == npc.morale_result(result.total)
    assert len(npc.MORALE_TRIGGERS) == 3


def test_npc08_morale_odds_exact() -> None:
    chances = npc.morale_odds(0)
    assert chances[npc.FLEE] == Fraction(3, 36)
    assert chances[npc.RETREAT] == Fraction(12, 36)
    assert chances[npc.REPOSITION] == Fraction(15, 36)
    assert chances[npc.UNDETERRED] == Fraction(6, 36)
    assert sum(npc.morale_odds(-4).values()) == 1


def _sample() -> list[dict[str, Any]]:
    return cast(list[dict[str, Any]], json.loads(SAMPLE.read_text(encoding="utf-8")))


def test_npc09_whole_sample_converts() -> None:
    conversions, errors = npc.import_5e_file(_sample())
    assert errors == []
    assert len(conversions) == 25
    for conversion in conversions:
        assert conversion.statblock.hd >= 0
        assert conversion.power_slots >= 1
        assert json.loads(json.dumps(conversion.to_json()))


def test_npc09_chain_devil_conversion() -> None:
    devil = next(m for m in _sample() if m["name"] == "Chain Devil")
    conversion = npc.from_5e(devil)
    # STR 18 (+4) / CON 18 (+4); DEX 15 (+2) / INT 11 (0); WIS 12 (+1) / CHA 14 (+2)
    assert (conversion.statblock.brawl, conversion.statblock.wit, conversion.statblock.will) == (
        4,
        2,
        2,
    )
    assert conversion.statblock.hd == 7
    assert conversion.source_cr == 8
    assert conversion.hd_target == 16
    assert conversion.hd_off == -9
    assert not conversion.acceptable
    assert "9 under" in conversion.report()
    assert conversion.power_slots == 8
    assert conversion.powers[:3] == ("Devil's Sight", "Magic Resistance", "Animate Chains")
    assert "Multiattack" not in conversion.powers
    assert conversion.source_ac == 16
    assert conversion.source_name == "Chain Devil"


def test_npc09_fractional_cr_and_multiple_ac() -> None:
    snake = next(m for m in _sample() if m["name"] == "Giant Poisonous Snake")
    conversion = npc.from_5e(snake)
    assert conversion.source_cr == Fraction(1, 4)
    assert conversion.cr_text == "1/4"
    assert conversion.hd_target == Fraction(1, 2)
    assert conversion.power_slots == 1
    tiny = dict(snake, challenge_rating=0.125, name="Tiny")
    assert npc.from_5e(tiny).cr_text == "1/8"
    dryad = next(m for m in _sample() if m["name"] == "Dryad")
    dryad_conv = npc.from_5e(dryad)
    assert dryad_conv.source_ac == 11
    assert "5e AC 16 with Barkskin" in dryad_conv.notes
    assert npc.from_5e(dict(dryad, armor_class=13)).source_ac == 13


def test_npc09_malformed_entries_reported() -> None:
    good = _sample()[0]
    no_str = {k: v for k, v in good.items() if k not in ("strength", "challenge_rating")}
    bad_score = dict(good, dexterity="fast")
    with pytest.raises(npc.ConversionError, match="missing fields: strength, challenge_rating"):
        npc.from_5e(no_str)
    with pytest.raises(npc.ConversionError, match="dexterity"):
        npc.from_5e(bad_score)
    with pytest.raises(npc.ConversionError):
        npc.from_5e(dict(good, challenge_rating="lots"))
    conversions, errors = npc.import_5e_file([good, no_str, "junk", bad_score, {}])
    assert len(conversions) == 1
    assert [(i, name) for i, name, _ in errors] == [
        (1, "Chain Devil"),
        (2, ""),
        (3, "Chain Devil"),
        (4, ""),
    ]
    assert "missing fields" in errors[3][2] and "name" in errors[3][2]
    assert issubclass(npc.ConversionError, ValueError)
    with pytest.raises(npc.ConversionError):
        npc.import_5e_file({"not": "a list"})  # type: ignore[arg-type]


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 40),
    st.text(max_size=4),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(
        st.one_of(st.integers(), st.dictionaries(st.text(max_size=5), st.integers())), max_size=3
    ),
)


@given(
    st.dictionaries(
        st.sampled_from(
            [
                *npc.ABILITIES_5E,
                "name",
                "challenge_rating",
                "armor_class",
                "actions",
                "special_abilities",
                "hit_points",
                "hit_dice",
            ]
        ),
        JUNK,
        max_size=4,
    )
)
def test_npc09_any_junk_is_a_conversion_error_or_a_conversion(overrides: dict[str, Any]) -> None:
    monster = dict(_sample()[5], **overrides)
    try:
        conversion = npc.from_5e(monster)
    except npc.ConversionError as exc:
        assert str(exc)
    else:
        assert conversion.power_slots >= 1
        assert conversion.statblock.hp >= 1
        json.dumps(conversion.to_json())


def test_npc10_without_number_conversion() -> None:
    conversion = npc.from_without_number(attack_bonus=5, skill=2, morale=9, hp=22, hd=4)
    block = conversion.statblock
    assert (block.brawl, block.wit, block.will) == (2, 2, 2)
    assert block.atk_mod["brawl"] == 5
    assert block.hd == 5
    assert block.save == 15
    assert block.hp == 25
    assert block.morale == 9
    assert "WN HD 4 became HD 5" in conversion.notes
    even = npc.from_without_number(attack_bonus=4, skill=1, morale=8)
    assert even.statblock.brawl == 2
    d8 = npc.from_without_number(attack_bonus=7, skill=1, morale=7, standard_d8=True)
    assert d8.statblock.hit_die == 8
    assert d8.statblock.hp == 14  # HD 3 x 4.5, half up
    with pytest.raises(npc.ConversionError):
        npc.from_without_number(attack_bonus="+3", skill=1, morale=8)  # type: ignore[arg-type]

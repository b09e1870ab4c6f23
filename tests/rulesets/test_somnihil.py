"""Somnihil rules (SOM-01..SOM-11) against /work/shared/rules/000_173dee1bdff1ef25.txt."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.base import CheckResult
from rulesets.somnihil import rules as som
from rulesets.somnihil.checks import preset
from rulesets.somnihil.fight import anomaly_note
from rulesets.somnihil.rules import RULESET, RuleError


class StubRng(random.Random):
    """Hands out fixed d20 faces in order (d20 draws a face as ``randrange(size) + 1``)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self.faces.pop(0) - 1


def cipher(name: str = "Ash") -> dict[str, Any]:
    return RULESET.make_character(name)


# --- SOM-01 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "band"),
    [
        (20, "Triumph"),
        (19, "Success"),
        (11, "Success"),
        (10, "Tough Choice"),
        (6, "Tough Choice"),
        (5, "Failure"),
        (2, "Failure"),
        (1, "Catastrophe"),
    ],
)
def test_som01_outcome_bands(face: int, band: str) -> None:
    assert som.band_for(face) == band
    result = som.check(StubRng(face))
    assert result.band == band
    assert result.total == result.natural == face
    assert result.expression == "1d20"


def test_som01_band_refuses_impossible_face() -> None:
    with pytest.raises(RuleError):
        som.band_for(21)


def test_som01_exact_odds_plain() -> None:
    assert som.odds(0) == {
        "Triumph": Fraction(1, 20),
        "Success": Fraction(9, 20),
        "Tough Choice": Fraction(5, 20),
        "Failure": Fraction(4, 20),
        "Catastrophe": Fraction(1, 20),
    }


def test_som01_seeded_check_is_reproducible() -> None:
    first = [som.check(random.Random(7)).total for _ in range(3)]
    assert len(set(first)) == 1


# --- SOM-02 ---------------------------------------------------------------------------------


def test_som02_advantage_keeps_highest_disadvantage_lowest() -> None:
    high = som.check(StubRng(3, 17), advantage=1)
    assert (high.expression, high.dice, high.total, high.band) == (
        "2d20kh1",
        (3, 17),
        17,
        "Success",
    )
    low = som.check(StubRng(3, 17), disadvantage=1)
    assert (low.expression, low.total, low.band) == ("2d20kl1", 3, "Failure")


def test_som02_advantage_and_disadvantage_cancel() -> None:
    assert som.edge(1, 1) == 0
    assert som.edge(2, 1) == 0
    assert som.edge(-1, 0) == -1
    result = som.check(StubRng(12), advantage=1, disadvantage=1)
    assert result.expression == "1d20"
    assert result.dice == (12,)


def test_som02_every_roll_cancels_advantage_with_the_anomalys_disadvantage() -> None:
    """Cheat Death and a cast spell take sources of each, as the check does: one d20."""
    ash = cipher()
    ash["resources"]["vitality"]["current"] = 0
    out = som.apply_damage(ash, 5, StubRng(9), advantage=1, disadvantage=1)
    assert out.cheat_death is not None and out.cheat_death.expression == "1d20"
    ash = cipher()
    ash["lists"]["spells"] = [{"name": "Ward"}]
    ash["resources"]["ap"]["current"] = 5
    cast = som.cast_spell(ash, "Ward", 1, StubRng(9), rolled=True, advantage=1, disadvantage=1)
    assert cast.check is not None and cast.check.expression == "1d20"


def test_som02_the_trays_advantage_and_the_anomaly_cancel() -> None:
    """The GM's advantage for a roller inside the Anomaly rolled 2d20kh1: it is one d20."""
    from rulesets.checks import Setup
    from rulesets.somnihil.checks import CHECK

    def spec(edge: int, inside: bool) -> tuple[str, int]:
        made = CHECK.spec(Setup({"edge": edge, "anomaly": inside}))
        return made.summary, made.command.edge  # type: ignore[attr-defined]

    assert spec(1, True) == ("d20", 0)
    assert spec(0, True) == ("2d20 keep lowest", -1)
    assert spec(-1, True) == ("2d20 keep lowest", -1)
    assert spec(1, False) == ("2d20 keep highest", 1)
    made = CHECK.spec(Setup({"edge": 1, "anomaly": True}))
    assert dict(made.odds()) == som.odds(0)
    assert "cancel (SOM-02)" in made.notes[0]


def test_som02_exact_odds_with_edge() -> None:
    adv = som.odds(1)
    dis = som.odds(-1)
    assert adv["Triumph"] == Fraction(39, 400)
    assert adv["Catastrophe"] == Fraction(1, 400)
    assert dis["Catastrophe"] == Fraction(39, 400)
    assert dis["Triumph"] == Fraction(1, 400)
    assert sum(adv.values()) == sum(dis.values()) == 1


@given(st.integers(min_value=-1, max_value=1))
def test_som02_odds_sum_to_one_and_name_every_band(advantage: int) -> None:
    table = som.odds(advantage)
    assert list(table) == list(som.BANDS)
    assert sum(table.values()) == 1


@given(st.integers(0, 2**32), st.integers(0, 3), st.integers(0, 3))
def test_som02_kept_die_is_within_rolled_dice(seed: int, adv: int, dis: int) -> None:
    result = som.check(random.Random(seed), advantage=adv, disadvantage=dis)
    assert result.total in result.dice
    mode = som.edge(adv, dis)
    if mode == 1:
        assert result.total == max(result.dice)
    elif mode == -1:
        assert result.total == min(result.dice)
    else:
        assert len(result.dice) == 1


# --- SOM-03 ---------------------------------------------------------------------------------


def test_som03_triumph_doubles_attack_damage() -> None:
    assert som.attack_damage(4, "Triumph") == 8
    assert som.attack_damage(4, som.check(StubRng(20))) == 8
    assert som.attack_damage(4, "Success") == 4
    assert som.attack_damage(4, "Tough Choice") == 4
    assert som.attack_damage(4, "Failure") == 0
    assert som.attack_damage(4, "Catastrophe") == 0


# --- SOM-04 ---------------------------------------------------------------------------------


def test_som04_ap_pool_spend_and_new_session_restores() -> None:
    ash = cipher()
    assert ash["resources"]["ap"] == {"current": 10, "max": 10}
    som.spend_ap(ash, 7)
    assert ash["resources"]["ap"]["current"] == 3
    with pytest.raises(RuleError, match="has 3 AP"):
        som.spend_ap(ash, 4)
    log = som.new_session(ash)
    assert ash["resources"]["ap"]["current"] == 10
    assert any("AP restored to 10" in line for line in log)


def test_som04_natural_one_restores_one_ap() -> None:
    ash = cipher()
    som.spend_ap(ash, 5)
    one = som.check(StubRng(1))
    assert "recover 1 AP" in one.detail
    som.recover_ap_from_roll(ash, one)
    assert ash["resources"]["ap"]["current"] == 6
    assert som.recover_ap_from_roll(ash, som.check(StubRng(2))) == []
    assert ash["resources"]["ap"]["current"] == 6


def test_som04_gm_award_capped_at_max() -> None:
    ash = cipher()
    som.spend_ap(ash, 2)
    som.award_ap(ash, 5)
    assert ash["resources"]["ap"]["current"] == 10
    with pytest.raises(RuleError):
        som.award_ap(ash, 0)


def test_som04_spirit_pool_is_fifteen() -> None:
    ash = cipher()
    ash["resources"]["vitality"]["current"] = 0
    som.apply_damage(ash, 5, StubRng(2))
    som.choose_fate(ash, "spirit")
    som.new_session(ash)
    assert ash["resources"]["ap"] == {"current": 15, "max": 15}


# --- SOM-05 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("cost", "turns"), [(1, 2), (2, 4), (3, 6), (4, 8), (7, 8)])
def test_som05_anomaly_duration_by_ap_cost(cost: int, turns: int) -> None:
    effect = som.anomaly(cost)
    assert effect["name"] == "Anomaly"
    assert effect["remaining"] == turns
    assert "disadvantage" in effect["effect"]
    assert set(effect) == {"name", "remaining", "tick", "effect"}


def test_som05_catastrophe_on_spell_creates_anomaly() -> None:
    ash = cipher()
    som.learn_spell(ash, "Rot Touch", "decay")
    cast = som.cast_spell(ash, "rot touch", 3, StubRng(1), rolled=True)
    assert cast.check is not None and cast.check.band == "Catastrophe"
    assert cast.anomaly is not None and cast.anomaly["remaining"] == 6
    # 10 - 3 paid + 1 back for the natural 1
    assert ash["resources"]["ap"]["current"] == 8
    calm = som.cast_spell(ash, "Rot Touch", 1, StubRng(14), rolled=True)
    assert calm.anomaly is None


# --- SOM-06 ---------------------------------------------------------------------------------


def test_som06_setbacks_per_band() -> None:
    assert som.SETBACKS["Tough Choice"][:2] == (2, 1)
    assert som.SETBACKS["Failure"][:2] == (1, 1)
    assert som.SETBACKS["Catastrophe"][:2] == (2, 2)
    assert som.SETBACKS["Success"][:2] == (0, 0)
    assert "2 offered, 1 taken" in som.check(StubRng(8)).detail
    assert "1 offered, 1 taken" in som.check(StubRng(4)).detail
    assert "2 offered, 2 taken" in som.check(StubRng(1)).detail


# --- SOM-07 ---------------------------------------------------------------------------------


def test_som07_vitality_damage_regroup_rest() -> None:
    ash = cipher()
    assert ash["resources"]["vitality"] == {"current": 10, "max": 10}
    out = som.apply_damage(ash, 8, random.Random(0))
    assert (out.dealt, out.vitality, out.cheat_death) == (8, 2, None)
    som.regroup(ash)
    assert ash["resources"]["vitality"]["current"] == 5
    assert "no change" in som.regroup(ash)[0]
    som.rest(ash)
    assert ash["resources"]["vitality"]["current"] == 10
    with pytest.raises(RuleError):
        som.apply_damage(ash, -1, random.Random(0))


@given(st.lists(st.integers(0, 15), max_size=12), st.integers(0, 2**16))
def test_som07_vitality_stays_within_zero_and_max(hits: list[int], seed: int) -> None:
    ash = cipher()
    rng = random.Random(seed)
    for hit in hits:
        if ash["status"] not in ("alive", "spirit"):
            break
        som.apply_damage(ash, hit, rng)
        assert 0 <= ash["resources"]["vitality"]["current"] <= 10


# --- SOM-08 ---------------------------------------------------------------------------------


def test_som08_overflow_to_zero_does_not_trigger_cheat_death() -> None:
    ash = cipher()
    out = som.apply_damage(ash, 25, StubRng())
    assert (out.dealt, out.vitality, out.perished) == (10, 0, False)


def test_som08_cheat_death_roll_equal_prevents_damage() -> None:
    ash = cipher()
    ash["resources"]["vitality"]["current"] = 0
    out = som.apply_damage(ash, 6, StubRng(6))
    assert out.cheat_death is not None and out.cheat_death.total == 6
    assert (out.perished, out.fate_choice_needed, out.dealt) == (False, False, 0)
    assert ash["status"] == "alive"


def test_som08_cheat_death_failure_perishes_and_asks_for_fate() -> None:
    ash = cipher()
    ash["resources"]["vitality"]["current"] = 0
    out = som.apply_damage(ash, 6, StubRng(5))
    assert out.perished and out.fate_choice_needed
    assert ash["status"] == "perished"
    assert any("perishes" in line for line in out.log)
    with pytest.raises(RuleError):
        som.apply_damage(ash, 1, StubRng(20))


# --- SOM-09 ---------------------------------------------------------------------------------


def _perished(name: str = "Ash") -> dict[str, Any]:
    c = cipher(name)
    c["resources"]["vitality"]["current"] = 0
    som.apply_damage(c, 20, StubRng(1))
    assert c["status"] == "perished"
    return c


def test_som09_seditious_spirit_void_only_ap_fifteen() -> None:
    ash = cipher()
    som.learn_spell(ash, "Null", "Void")
    som.learn_spell(ash, "Wither", "Decay")
    ash["resources"]["vitality"]["current"] = 0
    som.apply_damage(ash, 20, StubRng(1))
    log = som.choose_fate(ash, "Seditious Spirit")
    assert ash["status"] == "spirit"
    assert ash["resources"]["ap"]["max"] == 15
    assert ash["lists"]["spells"] == [{"name": "Null", "protocol": "Void"}]
    assert any("Wither" in line for line in log)
    with pytest.raises(RuleError, match="Void"):
        som.learn_spell(ash, "Blink", "Spatial")


def test_som09_spirit_failing_cheat_death_again_is_erased() -> None:
    ash = _perished()
    som.choose_fate(ash, "spirit")
    out = som.apply_damage(ash, 3, StubRng(2))
    assert out.perished and not out.fate_choice_needed
    assert ash["status"] == "passed"


def test_som09_shill_and_void() -> None:
    shill = _perished("Bo")
    som.choose_fate(shill, "shill")
    assert shill["status"] == "shill" and shill["npc"] is True
    gone = _perished("Cy")
    som.choose_fate(gone, "Passing into the Void")
    assert gone["status"] == "passed"
    with pytest.raises(RuleError, match="not perished"):
        som.choose_fate(cipher(), "spirit")
    with pytest.raises(RuleError, match="not a fate"):
        som.choose_fate(_perished(), "zombie")


# --- SOM-10 ---------------------------------------------------------------------------------


def test_som10_spells_limit_grows_per_session_to_twenty() -> None:
    assert [som.spells_known_limit(n) for n in (0, 1, 2, 3, 11, 30)] == [10, 10, 11, 12, 20, 20]
    ash = cipher()
    for i in range(10):
        som.learn_spell(ash, f"Spell {i}", "Timing")
    with pytest.raises(RuleError, match="limit"):
        som.learn_spell(ash, "Eleventh", "Timing")
    som.new_session(ash)  # first session
    som.new_session(ash)  # second session: 11 spells
    som.learn_spell(ash, "Eleventh", "Timing")
    assert len(ash["lists"]["spells"]) == 11


def test_som10_at_most_two_protocols() -> None:
    ash = cipher()
    som.learn_spell(ash, "Rot", "Decay")
    som.learn_spell(ash, "Bloom", "Creation")
    with pytest.raises(RuleError, match="at most two Protocols"):
        som.learn_spell(ash, "Blink", "Spatial")
    with pytest.raises(RuleError, match="not a Protocol"):
        som.learn_spell(ash, "Fire", "Pyromancy")
    with pytest.raises(RuleError, match="already knows"):
        som.learn_spell(ash, "rot", "Decay")
    som.forget_spell(ash, "Bloom")
    som.learn_spell(ash, "Blink", "Spatial")
    assert som.protocols_known(ash) == ["Decay", "Spatial"]
    assert issubclass(RuleError, ValueError)


def test_som10_protocol_list() -> None:
    assert som.PROTOCOLS == (
        "Decay",
        "Creation",
        "Formation",
        "Spatial",
        "Timing",
        "Cognition",
        "Sequence",
        "Void",
    )


# --- SOM-11 ---------------------------------------------------------------------------------


def test_som11_distance_bands_and_moves() -> None:
    assert som.DISTANCE_BANDS == ("In Reach", "Nearby", "In Range", "Too Far")
    assert som.move_closer("Too Far") == "In Range"
    assert som.move_closer("In Range") == "Nearby"
    assert som.move_closer("Nearby") == "In Reach"
    assert som.move_closer("In Reach") == "In Reach"
    assert som.move_farther("In Reach") == "Nearby" and som.move_farther("Too Far") == "Too Far"
    assert som.can_shoot("In Range") and not som.can_shoot("Too Far")
    assert som.can_reach("In Reach") and not som.can_reach("Nearby")
    with pytest.raises(RuleError):
        som.move_closer("Far away")


# --- the ruleset object ---------------------------------------------------------------------


def test_ruleset_shape() -> None:
    assert RULESET.id == "somnihil"
    assert RULESET.turn_model == "initiative"
    ash = cipher()
    assert ash["sessions"] == 0 and ash["lists"]["spells"] == []
    assert RULESET.health(ash) == "10/10 vit 10/10 AP"
    assert RULESET.check is not None
    assert isinstance(RULESET.check(random.Random(3)), CheckResult)
    assert set(RULESET.sheet.statuses) >= {"alive", "spirit", "shill", "passed"}


# --------------------------------------------------------------------------- SOM-05 at the table


def test_som05_tray_preset_and_tracker_note_read_the_fight_document() -> None:
    anomaly = {"name": "Anomaly", "remaining": 3, "tick": "turn_end", "owner": "c1"}
    doc = {
        "current": "c5",
        "combatants": [
            {"id": "c1", "name": "Vesna", "side": "pc", "ref": "1", "conditions": [anomaly]},
            {"id": "c2", "name": "Orrin", "side": "pc", "ref": "2", "conditions": []},
            {"id": "c5", "name": "Goblin", "side": "npc", "ref": "1", "conditions": [anomaly]},
        ],
    }
    found = preset(doc, 1)
    assert found is not None and found.values == {"anomaly": True}
    assert preset(doc, 2) is None
    gm = preset(doc, None)  # the GM rolls for the Goblin, whose turn it is
    assert gm is not None and "Goblin is inside" in gm.why
    assert preset(None, 1) is None
    assert anomaly_note(doc, {}) == [
        "Anomaly: 3 turns left · inside (disadvantage): Vesna, Goblin"
    ]
    assert anomaly_note({"combatants": []}, {}) == []

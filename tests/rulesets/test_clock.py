"""The campaign clock's rules: durations, effects, encounter checks, rests by length,
and each game's time rules (NEM-10, NEM-11, ASP-07, SOM-04, SOM-07, SOM-10, RR-05), pure, on a
campaign held in dicts with a seeded random.Random."""

from __future__ import annotations

import random

import pytest

from rulesets import clock
from rulesets.clock import DAY, HOUR, MINUTE, REST, TIME, Clock, ClockError, TimeRules
from rulesets.game import DemoPC, Game
from rulesets.nemron import rules as nemron
from tests.rulesets.memory_tx import MemoryTx


# --- durations, chances, tables ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("10m", 10 * MINUTE),
        ("1h", HOUR),
        ("8h", 8 * HOUR),
        ("2d", 2 * DAY),
        ("1h30m", 90 * MINUTE),
        ("3 days", 3 * DAY),
        ("1w", 7 * DAY),
        ("6s", 6),
        (" 1H 30 Min ", 90 * MINUTE),
    ],
)
def test_durations_as_a_gm_types_them(text: str, seconds: int) -> None:
    assert clock.parse_duration(text) == seconds


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "a duration is needed"),
        ("10x", "is not a duration"),
        ("ten minutes", "is not a duration"),
        ("-1h", "is not a duration"),
        ("0m", "no time at all"),
        ("400d", "longer than"),
        ("1h 5", "is not a duration"),
        ("١h", "is not a duration"),  # digits 0-9 only, as a dice expression
    ],
)
def test_a_bad_duration_says_why(text: str, words: str) -> None:
    with pytest.raises(ClockError, match=words):
        clock.parse_duration(text)


def test_durations_read_back_as_a_gm_says_them() -> None:
    assert [clock.duration_text(s) for s in (6, 600, 5400, 3 * DAY + 4 * HOUR)] == [
        "6 s", "10 min", "1 h 30 min", "3 days 4 h",
    ]  # fmt: skip


def test_chances_and_tables() -> None:
    assert clock.parse_chance("1 in 6") == (1, 6)
    assert clock.parse_chance("2-in-6") == (2, 6)
    assert clock.parse_chance("15%") == (15, 100)
    with pytest.raises(ClockError, match="not a chance"):
        clock.parse_chance("often")
    with pytest.raises(ClockError, match="n in d"):
        clock.parse_chance("7 in 6")
    table = clock.parse_table("Goblin 2d4; Hedge Witch; Wolf x3; 1d4+1 Cult Fanatic")
    assert [(e.name, e.count) for e in table] == [
        ("Goblin", "2d4"), ("Hedge Witch", "1"), ("Wolf", "3"), ("Cult Fanatic", "1d4+1"),
    ]  # fmt: skip
    with pytest.raises(ClockError, match="needs a name"):
        clock.parse_table("2d4")
    with pytest.raises(ClockError, match="Goblin"):
        clock.parse_table("Goblin 2d0")


# --- the calendar -------------------------------------------------------------------------------
def test_the_campaign_starts_on_day_1_at_eight_in_the_morning() -> None:
    rules = TimeRules()
    start = Clock()
    assert start.text(rules) == "Day 1 08:00 morning"
    later = Clock(seconds=14 * HOUR + 6)
    assert later.text(rules) == "Day 1 22:00:06 night"
    assert later.text(rules, seconds=False) == "Day 1 22:00 night"
    assert Clock(seconds=DAY).date(rules) == "Day 2"
    assert clock.day_number("Day 12") == 12
    assert clock.day_number("2024-05-01") is None


# --- advancing ---------------------------------------------------------------------------------
def test_an_advance_ticks_a_torch_and_says_when_the_light_is_gone() -> None:
    tx = MemoryTx("somnihil")
    lit, line = clock.add_effect(clock.read(tx), "Torch", HOUR, light=True)
    clock.write(tx, lit)
    assert line == "Torch (light) lasts 1 h"
    clock.advance(tx, 40 * MINUTE)
    assert clock.read(tx).effects_left()[0][1] == 20 * MINUTE
    done = clock.advance(tx, 30 * MINUTE)
    assert "Torch burns out at 09:00" in done.lines
    assert "No light is left" in done.lines
    assert clock.read(tx).effects == ()


def test_effects_of_days_and_a_party_members_own() -> None:
    tx = MemoryTx.with_demo_party("aspects")
    now, _ = clock.add_effect(clock.read(tx), "Curse of the Tower", 3 * DAY, on="Ada Wren")
    clock.write(tx, now)
    clock.advance(tx, 2 * DAY)
    ((effect, left),) = clock.read(tx).effects_left()
    assert (effect.label, left) == ("Curse of the Tower (Ada Wren)", DAY)
    with pytest.raises(ClockError, match="needs a name"):
        clock.add_effect(clock.read(tx), "  ", HOUR)


def test_an_encounter_check_comes_up_and_time_stops_there() -> None:
    tx = MemoryTx("resolution", seed=3)
    table = clock.parse_table("Goblin 2d4")
    checked, _ = clock.set_check(clock.read(tx), HOUR, (1, 1), table)  # always comes up
    clock.write(tx, checked)
    done = clock.advance(tx, 8 * HOUR)
    assert done.end == HOUR  # the first check, an hour in
    came = clock.read(tx).came_up
    assert came is not None and came.foes[0].name == "Goblin" and 2 <= came.foes[0].count <= 8
    assert "Time stops there: 7 h did not pass" in done.lines


def test_an_encounter_check_that_never_comes_up_lets_all_the_time_pass() -> None:
    tx = MemoryTx("resolution")
    checked, _ = clock.set_check(clock.read(tx), 10 * MINUTE, (0, 6), ())
    clock.write(tx, checked)
    done = clock.advance(tx, DAY)
    assert (done.end, done.encounter) == (DAY, None)


def test_checks_fall_every_n_from_when_they_were_set_and_in_time_order() -> None:
    check = clock.Check(1, HOUR, (1, 6), (), since=30 * MINUTE)
    assert list(check.due_between(0, 3 * HOUR)) == [30 * MINUTE + HOUR, 30 * MINUTE + 2 * HOUR]
    rolls: list[int] = []

    class Counting(random.Random):
        def randint(self, a: int, b: int) -> int:
            rolls.append(b)
            return b  # never comes up

    tx = MemoryTx("somnihil")
    tx._rng = Counting()
    now = clock.read(tx)
    now, _ = clock.set_check(now, HOUR, (1, 6), ())
    now, _ = clock.set_check(now, 30 * MINUTE, (1, 20), ())
    clock.write(tx, now)
    clock.advance(tx, 2 * HOUR)
    assert rolls == [20, 6, 20, 20, 6, 20]  # 0:30, 1:00 (both, the older first), 1:30, 2:00


def test_a_rest_is_the_longest_named_rest_that_fits() -> None:
    rules = TimeRules(rest_hours={"regroup": 1, "rest": 8})
    offered = ("regroup", "rest")
    assert rules.rest_for(30 * MINUTE, offered) == ""
    assert rules.rest_for(HOUR, offered) == "regroup"
    assert rules.rest_for(7 * HOUR, offered) == "regroup"
    assert rules.rest_for(8 * HOUR, offered) == "rest"
    asked = TimeRules(rest_hours={"rest": 8})  # regroup: the game asks the hours
    assert asked.rest_for(3 * HOUR, offered) == "regroup"


def test_a_sixth_game_that_declares_no_time_gets_a_clock() -> None:
    from rulesets.somnihil.rules import RULESET

    plain = Game(ruleset=RULESET, demo_party=(DemoPC("Ann"),))
    assert plain.time == TimeRules()
    assert plain.time.passing is None and plain.time.round_seconds == 6


def test_a_saved_clock_is_checked_field_by_field() -> None:
    assert clock.clock_problem(Clock().to_dict()) is None
    assert (
        clock.clock_problem({"seconds": -1})
        == "'seconds' must be a whole number from 0 to 9007199254740992"
    )
    assert "'effects'[0]" in str(
        clock.clock_problem({"effects": [{"id": 1, "name": 3, "ends": 1}]})
    )
    assert "'chance'" in str(
        clock.clock_problem({"checks": [{"id": 1, "every": 60, "chance": [7, 6], "table": []}]})
    )
    assert clock.clock_problem([]) == "must be an object"


# --- the games' time rules ---------------------------------------------------------------------
def _hurt(tx: MemoryTx, pc_id: int, limb: str, amount: int) -> None:
    pc = tx.pc(pc_id)
    nemron.limbs_of(pc)[limb]["hp"] -= amount
    tx.put("party", pc_id, pc)


def test_nem11_eight_hours_of_rest_heal_each_damaged_limb_by_a_constitution_roll() -> None:
    tx = MemoryTx.with_demo_party("nemron", seed=5)
    _hurt(tx, 1, "torso", 6)
    _hurt(tx, 1, "left_arm", 4)
    done = clock.advance(tx, 8 * HOUR, REST)
    pc = tx.pc(1)
    sides = nemron.rank_die(pc["attributes"]["constitution"])
    roll = random.Random(5).randint(1, sides)  # the same seeded draw the rest made
    limbs = nemron.limbs_of(pc)
    assert limbs["torso"]["hp"] == limbs["torso"]["max"] - 6 + roll
    assert limbs["left_arm"]["hp"] == min(
        limbs["left_arm"]["max"], limbs["left_arm"]["max"] - 4 + roll
    )
    assert f"Kesh Varn: Constitution d{sides} heals {roll} per limb" in done.lines


def test_nem10_nem11_an_hour_of_plain_time_heals_nothing_and_restores_no_energy() -> None:
    tx = MemoryTx.with_demo_party("nemron")
    _hurt(tx, 1, "torso", 6)
    pc = tx.pc(1)
    pc["resources"]["energy"]["current"] = 1
    tx.put("party", 1, pc)
    clock.advance(tx, HOUR)
    clock.advance(tx, 8 * HOUR)  # plain time: not rest
    pc = tx.pc(1)
    assert nemron.limbs_of(pc)["torso"]["hp"] == nemron.limbs_of(pc)["torso"]["max"] - 6
    assert pc["resources"]["energy"]["current"] == 1


def test_nem10_rest_restores_an_energy_an_hour_and_hard_effort_spends_one() -> None:
    tx = MemoryTx.with_demo_party("nemron")
    top = tx.pc(1)["resources"]["energy"]["max"]
    clock.advance(tx, 3 * HOUR, clock.EFFORT)
    assert tx.pc(1)["resources"]["energy"]["current"] == top - 3
    clock.advance(tx, 30 * MINUTE, clock.EFFORT)  # under an hour: nothing
    assert tx.pc(1)["resources"]["energy"]["current"] == top - 3
    clock.advance(tx, 2 * HOUR, REST)
    assert tx.pc(1)["resources"]["energy"]["current"] == top - 1
    done = clock.advance(tx, 40 * HOUR, clock.EFFORT)
    assert tx.pc(1)["resources"]["energy"]["current"] == 0
    assert any("out of Energy" in line for line in done.lines)


def test_asp07_a_consequence_received_on_day_1_is_offered_after_three_weeks() -> None:
    from rulesets.aspects import clock as aspects_clock

    tx = MemoryTx.with_demo_party("aspects")
    pc = tx.pc(1)
    pc["lists"]["consequences"] = [{"name": "Broken arm", "received": clock.campaign_date(tx)}]
    tx.put("party", 1, pc)
    assert tx.pc(1)["lists"]["consequences"][0]["received"] == "Day 1"
    clock.advance(tx, 20 * DAY)
    assert "due" not in tx.pc(1)["lists"]["consequences"][0]
    done = clock.advance(tx, DAY)  # Day 22: three weeks on
    assert tx.pc(1)["lists"]["consequences"][0]["due"] is True
    assert any("Broken arm (received Day 1) has had 21 days to heal" in line for line in done.lines)
    again = clock.advance(tx, DAY)
    assert not any("Broken arm" in line for line in again.lines)  # offered once
    assert aspects_clock.HEALING_DAYS == 21


def test_asp07_a_wound_from_before_the_clock_counts_from_day_1() -> None:
    from rulesets.aspects import rules as aspects

    tx = MemoryTx.with_demo_party("aspects")
    pc = tx.pc(1)
    pc["lists"]["consequences"] = [{"name": "Old scar", "received": "2024-03-01"}, "Bare name"]
    tx.put("party", 1, pc)
    clock.advance(tx, 21 * DAY)
    assert [c["due"] for c in tx.pc(1)["lists"]["consequences"]] == [True, True]
    assert aspects.days_since("Day 1", "Day 22") == 21
    with pytest.raises(aspects.RuleError, match="both read Day N or YYYY-MM-DD"):
        aspects.days_since("Day 1", "2024-03-01")


def test_som07_som04_som10_rest_restores_vitality_but_not_ap_or_spells() -> None:
    tx = MemoryTx.with_demo_party("somnihil")
    pc = tx.pc(1)
    pc["resources"]["vitality"]["current"] = 2
    pc["resources"]["ap"]["current"] = 3
    tx.put("party", 1, pc)
    clock.advance(tx, 2 * HOUR, REST)  # a Regroup: up to half
    assert tx.pc(1)["resources"]["vitality"]["current"] == 5
    done = clock.advance(tx, 8 * HOUR, REST)  # a Rest: all of it
    assert tx.pc(1)["resources"]["vitality"]["current"] == 10
    assert tx.pc(1)["resources"]["ap"]["current"] == 3  # AP move with sessions
    assert any("move with sessions" in line for line in done.lines)
    clock.advance(tx, 7 * DAY)
    assert tx.pc(1)["resources"]["ap"]["current"] == 3
    assert tx.pc(1).get("sessions", 0) == 0  # nor do spells known grow with time


def test_rr05_a_nights_rest_restores_hp_and_sheds_system_strain() -> None:
    tx = MemoryTx.with_demo_party("resolution")
    pc = tx.pc(1)
    pc["resources"]["hp"]["current"] = 2
    pc["resources"]["system_strain"]["current"] = 3
    tx.put("party", 1, pc)
    clock.advance(tx, 7 * HOUR, REST)  # short of a night: nothing
    assert tx.pc(1)["resources"]["hp"]["current"] == 2
    clock.advance(tx, 16 * HOUR, REST)  # two nights
    assert tx.pc(1)["resources"]["hp"]["current"] == 4
    assert tx.pc(1)["resources"]["system_strain"]["current"] == 1
    clock.advance(tx, 2 * DAY)  # time without rest heals nothing
    assert tx.pc(1)["resources"]["hp"]["current"] == 4


def test_shadows_round_is_fifteen_seconds() -> None:
    tx = MemoryTx("shadows")
    assert clock.rounds_passed(tx, 4) == []
    assert clock.read(tx).seconds == 60


def test_rounds_move_the_clock_by_the_games_round() -> None:
    tx = MemoryTx("somnihil")
    now, _ = clock.add_effect(clock.read(tx), "Bless", 20)
    clock.write(tx, now)
    assert clock.rounds_passed(tx, 1) == []
    assert clock.rounds_passed(tx, 1) == ["Bless ends at 08:00:20"]
    assert clock.read(tx).seconds == 20  # Somnihil's round is ten seconds


def test_players_see_the_time_of_day_and_the_light_left() -> None:
    rules = TimeRules()
    now = Clock(
        seconds=10 * HOUR, effects=(clock.Effect(1, "Torch", 10 * HOUR + 40 * MINUTE, True),)
    )
    assert clock.players_line(now, rules) == "Day 1, evening · Torch 40 min left"
    assert clock.players_line(Clock(), rules) == "Day 1, morning · no light burning"


def test_time_passing_is_refused_past_a_year() -> None:
    tx = MemoryTx("somnihil")
    with pytest.raises(ClockError, match="from a second to"):
        clock.advance(tx, 400 * DAY, TIME)

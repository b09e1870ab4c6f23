"""Danger: the fight played out by its game's rules, held against an exact count of a duel
written here, against the demo party's plain sense (a lone HD 1 foe, six HD 10 foes), and the
``tableside danger`` contract."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.commands.combat import QuickAdd
from app.demo import write_demo
from app.store import read_campaign
from rulesets import danger, registry
from rulesets.fight import Fight

GAMES = ("resolution", "nemron", "shadows", "aspects", "somnihil")
Run = Callable[..., tuple[int, str, str]]
Data = dict[str, Any]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def go(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return go


def demo_data(tmp_path: Path, game: str) -> Data:
    return read_campaign(write_demo(game, tmp_path / f"{game}.json", seed=3))


def the_encounter(data: Data) -> dict[str, Any]:
    found: dict[str, Any] = next(iter(data["encounters"].values()))
    return found


def fight_of(data: Data, seed: int = 1) -> Fight:
    game = registry.game(str(next(iter(data["meta"].values()))["ruleset"]))
    eid = int(next(iter(data["encounters"])))
    return danger.encounter_fight(data, game, eid, random.Random(seed))


def with_foes(data: Data, hd: int, count: int) -> Data:
    """The demo party alone in its encounter, then ``count`` quick builds of ``hd`` added as the
    tracker's quick add adds them."""
    enc = the_encounter(data)
    enc["combatants"] = [c for c in enc["combatants"] if c["side"] == "pc"]
    game = registry.game(str(next(iter(data["meta"].values()))["ruleset"]))
    tx = danger.Scratch(data, game, random.Random(0))
    eid = int(next(iter(data["encounters"])))
    QuickAdd(eid, name=f"HD {hd}", count=count, health=None, hd=hd).run(tx)
    return tx.data


# --------------------------------------------------------------------------- the duel, exactly


def d8_plus(mod: int) -> dict[int, Fraction]:
    return {face + mod: Fraction(1, 8) for face in range(1, 9)}


def exact_duel(pc_hp: int, foe_hp: int, will: int) -> Fraction:
    """The chance the PC wins the duel below, by dynamic programming over both sides' HP.

    Mara: d20 + 2 (STR 14: +1, bonus +1) vs the Goblin's AC 12, 1d8 + 1 on a hit. The Goblin:
    d20 + 3 vs Mara's AC 10, 1d6 on a hit, Shock 2 on a miss (2/15: AC 10 is within 15).
    Initiative 1d8 each (Mara's DEX 12 adds 0), Mara first on a tie. The Goblin checks morale
    (2d6 + Will, 3 or less: it flees) after a round that took it from above half its HP to
    half or under. 30 rounds at most."""
    pc_hit = Fraction(11, 20)
    pc_deals = {0: 1 - pc_hit, **{k: pc_hit * p for k, p in d8_plus(1).items()}}
    foe_hit = Fraction(14, 20)
    foe_deals = {2: 1 - foe_hit}
    for face in range(1, 7):
        foe_deals[face] = foe_deals.get(face, Fraction(0)) + foe_hit / 6
    flee = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + will <= 3), 36)
    pc_first = Fraction(sum(1 for a in range(1, 9) for b in range(1, 9) if a >= b), 64)
    won = Fraction(0)
    for first, weight in (("pc", pc_first), ("foe", 1 - pc_first)):
        order = ("pc", "foe") if first == "pc" else ("foe", "pc")
        states: dict[tuple[int, int], Fraction] = {(pc_hp, foe_hp): weight}
        for _ in range(30):
            after: dict[tuple[int, int], Fraction] = {}
            for (mine, theirs), p in states.items():
                paths = [((mine, theirs), p)]
                for actor in order:
                    step = []
                    for (a, b), q in paths:
                        if a <= 0 or b <= 0:
                            step.append(((a, b), q))
                        elif actor == "pc":
                            step += [((a, max(0, b - d)), q * r) for d, r in pc_deals.items()]
                        else:
                            step += [((max(0, a - d), b), q * r) for d, r in foe_deals.items()]
                    paths = step
                for (a, b), q in paths:
                    if b <= 0:
                        won += q
                    elif a <= 0:
                        continue
                    else:
                        if theirs * 2 > foe_hp >= b * 2:
                            won += q * flee
                            q *= 1 - flee
                        after[(a, b)] = after.get((a, b), Fraction(0)) + q
            states = after
    return won


def duel_data(tmp_path: Path, foe_hp: int) -> Data:
    data = demo_data(tmp_path, "resolution")
    enc = the_encounter(data)
    mara = next(c for c in enc["combatants"] if c["name"] == "Mara Quell")
    goblin = next(c for c in enc["combatants"] if c["name"] == "Goblin 1")
    goblin["stats"] = {"hp": foe_hp, "hp_max": foe_hp}
    enc["combatants"] = [mara, goblin]
    sheet = next(p for p in data["party"].values() if p["name"] == "Mara Quell")
    sheet["attack"] = {"attribute": "str", "bonus": 1, "damage": "1d8"}
    return data


def test_a_duel_s_estimate_holds_the_exact_chance_within_its_99_percent_interval(
    tmp_path: Path,
) -> None:
    data = duel_data(tmp_path, foe_hp=12)
    block = next(iter(data["npcs"].values()))
    exact = exact_duel(8, 12, int(block["will"]))
    found = danger.estimate(fight_of(data), 6000, random.Random(11))
    low, high = found.interval(found.party_wins, danger.Z99)
    assert 0.2 < float(exact) < 0.8  # a duel either side may win: the test can tell
    assert low <= float(exact) <= high, (float(exact), low, high)


# --------------------------------------------------------------------------- plain sense


def test_a_lone_hd_1_foe_against_the_demo_party_is_low_danger_and_six_hd_10_deadly(
    tmp_path: Path,
) -> None:
    lone = danger.estimate(fight_of(with_foes(demo_data(tmp_path, "resolution"), 1, 1)), 1000,
                           random.Random(2))  # fmt: skip
    six = danger.estimate(fight_of(with_foes(demo_data(tmp_path, "resolution"), 10, 6)), 1000,
                          random.Random(2))  # fmt: skip
    assert danger.band(lone) == "easy"
    assert lone.win_chance > 0.95
    assert danger.band(six) == "deadly"
    assert six.win_chance < 0.05


@pytest.mark.parametrize("game", GAMES)
def test_adding_a_foe_never_raises_the_party_s_chance_beyond_the_interval(
    tmp_path: Path, game: str
) -> None:
    data = demo_data(tmp_path, game)
    before = danger.estimate(fight_of(data), 800, random.Random(4))
    more = with_foes(data, 2, 1)
    enc = the_encounter(more)
    assert sum(c["side"] == "npc" for c in enc["combatants"]) == 1  # with_foes keeps the party
    # The demo's own foes back, and one more.
    original = the_encounter(demo_data(tmp_path / "again", game))
    enc["combatants"] = original["combatants"] + [
        {**enc["combatants"][-1], "id": "c99", "name": "One more"}
    ]
    after = danger.estimate(fight_of(more), 800, random.Random(4))
    assert after.win_chance <= before.interval(before.party_wins)[1]


def test_the_same_seed_gives_the_same_figures_and_a_wounded_foe_fights_wounded(
    tmp_path: Path,
) -> None:
    data = duel_data(tmp_path, foe_hp=12)
    first = danger.estimate(fight_of(data), 500, random.Random(7))
    again = danger.estimate(fight_of(data), 500, random.Random(7))
    assert danger.report(first) == danger.report(again)
    the_encounter(data)["combatants"][1]["stats"]["hp"] = 2  # 2 of 12 HP left
    wounded = danger.estimate(fight_of(data), 500, random.Random(7))
    assert wounded.win_chance > first.win_chance + 0.2


def test_a_running_fight_goes_on_from_its_turn_with_the_damage_as_it_stands(
    tmp_path: Path,
) -> None:
    data = duel_data(tmp_path, foe_hp=12)
    enc = the_encounter(data)
    enc.update(started=True, round=3, current=enc["combatants"][1]["id"])
    sheet = next(p for p in data["party"].values() if p["name"] == "Mara Quell")
    sheet["resources"]["hp"]["current"] = 1
    found = danger.estimate(fight_of(data), 500, random.Random(7))
    # The Goblin's turn in round 3: at 1 HP Mara drops to its hit or to its Shock on a miss.
    assert found.chance(found.drops["Mara Quell"]) == 1.0
    assert (found.rounds_at(0.0), found.rounds_at(1.0)) == (3, 3)


def test_target_choice_is_a_stated_rule_and_what_is_not_modelled_is_listed(
    tmp_path: Path,
) -> None:
    fight = fight_of(demo_data(tmp_path, "resolution"))
    weakest = danger.estimate(fight, 300, random.Random(3), danger.Choices(foes="weakest"))
    assert weakest.choices.foes == "weakest"
    assert any("positioning" in line for line in weakest.not_modelled)
    with pytest.raises(ValueError, match="A target rule is one of: random, weakest, last"):
        danger.Choices(foes="nearest")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_gives_an_estimate_of_its_demo_fight(tmp_path: Path, game: str) -> None:
    found = danger.estimate(fight_of(demo_data(tmp_path, game)), 200, random.Random(5))
    assert set(found.drops) == {p["name"] for p in demo_data(tmp_path, game)["party"].values()}
    assert sum(found.rounds) > 0
    assert danger.meter(found).startswith("Danger: party wins ")


@pytest.mark.parametrize("game", GAMES)
def test_the_party_spends_what_its_default_exchange_spends_and_health_is_never_negative(
    tmp_path: Path, game: str
) -> None:
    found = danger.estimate(fight_of(demo_data(tmp_path, game)), 300, random.Random(5))
    assert set(found.spends) == set(danger.SPENDS)
    # The aspects game's consequences mount as it is hurt: spent all the same, not gained.
    assert found.health_spent > 0
    # By default only Shadows spends: each attack a card from the attacker's hand (a PC
    # defends with none unless its player says); no bonus reaction, no fate reroll.
    expected = {"cards"} if game == "shadows" else set()
    assert {name for name, mean in found.spends.items() if mean > 0} == expected
    assert all(mean >= 0 for mean in found.spends.values())


def test_shadows_the_party_spends_a_card_for_each_attack_it_makes(tmp_path: Path) -> None:
    data = demo_data(tmp_path, "shadows")
    enc = the_encounter(data)
    # One PC against one goblin: the PC's attacks are the fight's rounds it saw through.
    pc = next(c for c in enc["combatants"] if c["side"] == "pc")
    foe = next(c for c in enc["combatants"] if c["side"] != "pc")
    enc["combatants"] = [pc, foe]
    fight = fight_of(data)
    prepared = danger.prepare(fight)
    found = danger.simulate(prepared, 400, random.Random(2))
    assert found is not None
    # PCs first on a tie, foes' initiative rolled: the PC attacks once a round while up, so
    # its cards lie between the rounds it was down in (one fewer) and the rounds fought.
    rounds = sum(n * k for n, k in enumerate(found.rounds, start=1)) / sum(found.rounds)
    assert rounds - 1 <= found.spends["cards"] <= rounds + 1e-9


# --------------------------------------------------------------------------- the command


def write(tmp_path: Path, data: Data, name: str = "save.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_danger_json_has_the_contract_s_keys_and_the_same_seed_repeats_it(
    tmp_path: Path, run: Run
) -> None:
    path = write(tmp_path, demo_data(tmp_path, "resolution"))
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run("danger", str(path), "--runs", "300", "--seed", "9", "--json")
    assert (code, err) == (0, "")
    found = json.loads(out)
    assert list(found) == [
        "runs", "party_wins", "party_wins_ci", "foes_flee", "rounds", "drops", "not_modelled",
        "spends",  # beyond the contract's keys, after them
    ]  # fmt: skip
    assert list(found["spends"]) == ["health", "cards", "fate_points", "energy"]
    assert found["spends"]["health"] > 0
    assert found["spends"]["cards"] == found["spends"]["fate_points"] == 0  # Resolution: none
    assert found["runs"] == 300
    low, high = found["party_wins_ci"]
    assert 0 <= low <= found["party_wins"] <= high <= 1
    assert set(found["rounds"]) == {"median", "p90"}
    assert found["rounds"]["median"] <= found["rounds"]["p90"]
    assert set(found["drops"]) == {"Mara Quell", "Dov Ashgrove", "Sefa Ironwood", "Lio Marchetti"}
    assert found["not_modelled"]
    assert run("danger", str(path), "--runs", "300", "--seed", "9", "--json")[1] == out
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing beside the save


def test_danger_of_an_unknown_encounter_is_exit_2_and_one_line(tmp_path: Path, run: Run) -> None:
    path = write(tmp_path, demo_data(tmp_path, "resolution"))
    code, out, err = run("danger", str(path), "--encounter", "Dragon", "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no encounter named 'Dragon'" in err


def test_danger_picks_the_running_encounter_else_the_last_one(tmp_path: Path, run: Run) -> None:
    data = demo_data(tmp_path, "resolution")
    enc = the_encounter(data)
    solo = {**json.loads(json.dumps(enc)), "id": "e2", "name": "Solo"}
    solo["combatants"] = [c for c in solo["combatants"] if c["name"] in ("Mara Quell", "Goblin 1")]
    data["encounters"]["2"] = solo
    path = write(tmp_path, data)
    last = json.loads(run("danger", str(path), "--runs", "50", "--seed", "1", "--json")[1])
    assert list(last["drops"]) == ["Mara Quell"]  # the last one: Solo
    enc["started"], enc["round"] = True, 1
    enc["current"] = enc["combatants"][0]["id"]
    path = write(tmp_path, data)
    running = json.loads(run("danger", str(path), "--runs", "50", "--seed", "1", "--json")[1])
    assert len(running["drops"]) == 4  # the running one: the ambush
    named = json.loads(
        run("danger", str(path), "--encounter", "so", "--runs", "50", "--seed", "1", "--json")[1]
    )
    assert list(named["drops"]) == ["Mara Quell"]


# --------------------------------------------------------------------------- build to a danger


def test_propose_finds_the_count_in_the_band_nearest_its_middle(tmp_path: Path) -> None:
    data = demo_data(tmp_path, "resolution")
    fights: dict[int, danger.Estimate] = {}

    def at(count: int) -> danger.Estimate:
        fights[count] = danger.estimate(fight_of(with_foes(data, 1, count)), 400, random.Random(1))
        return fights[count]

    found = danger.propose(at, 1, 12, "hard")
    assert found.value is not None and found.found is not None
    assert danger.band(found.found) == "hard"
    assert len(fights) <= 6  # by halves, not one by one
    assert set(found.tried) == set(fights)
    deadly = danger.propose(at, 1, 12, "deadly")
    assert deadly.value is not None and deadly.value > found.value
    with pytest.raises(ValueError, match="A band is one of: easy, hard, deadly"):
        danger.propose(at, 1, 12, "brutal")


def test_propose_says_none_fits_and_which_came_nearest() -> None:
    def at(hd: int) -> danger.Estimate:
        # Every value wins all the time: nothing is deadly.
        return danger.Estimate(100, 100, 0, (100,), {"Mara": 0}, 0.0, danger.Choices())

    found = danger.propose(at, 0, 20, "deadly")
    assert found.value is None and found.found is not None
    assert danger.band(found.found) == "easy"


def test_a_game_declares_how_its_foes_pick_targets(tmp_path: Path) -> None:
    from dataclasses import replace

    data = demo_data(tmp_path, "resolution")
    game = registry.game("resolution")
    declared = replace(game, exchange=replace(game.exchange, foe_targets="weakest"))
    eid = int(next(iter(data["encounters"])))
    fight = danger.encounter_fight(data, declared, eid, random.Random(1))
    found = danger.estimate(fight, 100, random.Random(1))
    assert found.choices == danger.Choices(party="random", foes="weakest")
    mine = danger.estimate(fight, 100, random.Random(1), danger.Choices(foes="last"))
    assert mine.choices.foes == "last"  # the GM's choice over the game's


def test_a_morale_check_due_now_is_rolled_at_the_round_s_end(tmp_path: Path) -> None:
    data = duel_data(tmp_path, foe_hp=12)
    enc = the_encounter(data)
    goblin = enc["combatants"][1]
    enc.update(started=True, round=1, current=enc["combatants"][0]["id"])
    block = next(iter(data["npcs"].values()))
    block["will"] = -3  # 2d6 - 3: flees on 6 or less, 15 in 36
    calm = danger.estimate(fight_of(data), 3000, random.Random(2))
    enc["morale_due"] = [{"id": goblin["id"], "why": "Goblin 2 dropped"}]
    due = danger.estimate(fight_of(data), 3000, random.Random(2))
    assert due.chance(due.foes_flee) > calm.chance(calm.foes_flee) + 0.2


@pytest.mark.parametrize("game", GAMES)
def test_danger_json_in_every_game_names_its_party(tmp_path: Path, run: Run, game: str) -> None:
    data = demo_data(tmp_path, game)
    path = write(tmp_path, data)
    code, out, err = run("danger", str(path), "--runs", "200", "--seed", "3", "--json")
    assert (code, err) == (0, "")
    found = json.loads(out)
    assert set(found["drops"]) == {p["name"] for p in data["party"].values()}
    assert found["runs"] == 200 and 0 <= found["party_wins"] <= 1


@pytest.mark.parametrize("game", GAMES)
def test_build_to_a_danger_in_every_game_lands_in_the_band_or_says_none(
    tmp_path: Path, game: str
) -> None:
    data = demo_data(tmp_path, game)
    found = danger.propose(
        lambda hd: danger.estimate(fight_of(with_foes(data, hd, 2)), 200, random.Random(1)),
        0,
        20,
        "deadly",
    )
    assert found.tried and found.found is not None
    if found.value is not None:
        assert danger.band(found.found) == "deadly"
        assert found.found.win_chance < 0.5 or (found.found.worst or ("", 0.0))[1] > 0.5


def test_a_pc_already_down_is_named_in_the_drops_as_dropped(tmp_path: Path, run: Run) -> None:
    data = demo_data(tmp_path, "resolution")
    enc = the_encounter(data)
    enc.update(started=True, round=2, current=enc["combatants"][0]["id"])
    mara = next(c for c in enc["combatants"] if c["name"] == "Mara Quell")
    mara["defeated"] = True
    next(p for p in data["party"].values() if p["name"] == "Mara Quell")["resources"]["hp"][
        "current"
    ] = 0
    found = json.loads(run("danger", str(write(tmp_path, data)), "--runs", "100", "--json")[1])
    assert found["drops"]["Mara Quell"] == 1.0
    assert set(found["drops"]) == {"Mara Quell", "Dov Ashgrove", "Sefa Ironwood", "Lio Marchetti"}


def test_shadows_the_demo_party_attacks_with_its_remembered_skill_and_can_win(
    tmp_path: Path,
) -> None:
    """SOH-14: the attack card plus the attack skill. The sheet holds no skills: a PC's is the
    one it remembers, and the demo's PCs remember one, so their attacks land on a goblin."""
    from rulesets import exchange as ex

    fight = fight_of(demo_data(tmp_path, "shadows"))
    agnes = next(c for c in fight.enc.combatants if c.name == "Agnes Thorne")
    goblin = next(c for c in fight.enc.combatants if c.side != "pc")
    found = ex.odds(fight.tx.game.exchange, ex.setup_of(fight, agnes.id, goblin.id))
    assert "+ skill 10 =" in found.steps[0]
    estimate = danger.estimate(fight, 400, random.Random(4))
    assert estimate.win_chance > 0.2  # with skill 0 the party all but never won


def test_asp06_the_weakest_is_the_one_nearest_taken_out_not_the_least_hurt(
    tmp_path: Path,
) -> None:
    """ASP-06: in the aspects game hurt adds injuries and consequences, so the sum of the
    pools grows; the foes' `weakest` target is the PC with the fewest consequences left before
    Taken Out (Ada Wren, at one of two), not the one holding the fewest (the unhurt)."""
    data = demo_data(tmp_path, "aspects")
    ada = next(p for p in data["party"].values() if p["name"] == "Ada Wren")
    ada["lists"]["consequences"] = [
        {"name": "cracked ribs", "overlap": 4, "kind": "physical", "received": "2026-01-01"}
    ]
    assert weakest_pc(data) == ("Ada Wren", [2, 2, 2, 1])


def test_nem08_the_weakest_is_the_one_whose_head_or_torso_is_lowest(tmp_path: Path) -> None:
    """NEM-08: a major limb (torso, head) at 0 downs a character; minor limbs do not. Kesh
    Varn with his head at 2 HP is nearer downed than Tomas Ert, whose limbs sum less."""
    data = demo_data(tmp_path, "nemron")
    kesh = next(p for p in data["party"].values() if p["name"] == "Kesh Varn")
    kesh["tracks"]["limbs"]["head"]["hp"] = 2
    assert weakest_pc(data) == ("Kesh Varn", [2, 9, 7, 8])


def weakest_pc(data: Data) -> tuple[str, list[int]]:
    """The PC a foe's `weakest` rule picks at the start, and each PC's room as counted."""
    bodies = danger.prepare(fight_of(data), danger.Choices(foes="weakest")).bodies
    party = [i for i, b in enumerate(bodies) if b.party]
    foe = next(i for i, b in enumerate(bodies) if not b.party)
    states, last = [0] * len(bodies), [-1] * len(bodies)
    picked = danger._target("weakest", foe, party, states, bodies, last, random.Random(1))
    return bodies[picked].name, [bodies[i].track.left(0) for i in party]


def test_a_count_no_longer_wanted_stops_while_the_odds_are_counted(tmp_path: Path) -> None:
    """A large fight's odds take seconds before its first fight is played: the tracker's
    meter cancels a count a newer change made stale, and that count stops within a few of
    the odds' steps instead of running them all beside the GM's keys."""
    data = with_foes(demo_data(tmp_path, "resolution"), 1, 12)
    game = registry.game("resolution")
    eid = int(next(iter(data["encounters"])))
    asked: list[int] = []

    def between() -> bool:
        asked.append(1)
        return False

    stopped = danger.estimate_encounter(data, game, eid, 100, random.Random(1), None, between)
    assert stopped is None and asked == [1]
    # Counted whole, the same fight asks every few steps: 16 combatants, 96 pairs.
    asked.clear()

    def going_on() -> bool:
        asked.append(1)
        return True

    whole = danger.estimate_encounter(data, game, eid, 100, random.Random(1), None, going_on)
    assert whole is not None
    assert len(asked) >= (16 + 96) // danger.STEPS

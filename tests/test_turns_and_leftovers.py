"""The turn order and what a fight leaves behind, in every turn model: a round ends once and
the next begins with the first combatant still up; stepping back and forward passes a round's
time once; what belongs to a fight ends with it (the GM told what ended); a failed morale
check takes the foe out as fled; ``B`` changes the selected foe only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.commands import combat as cmd
from app.state import Campaign
from rulesets import encounter as er
from rulesets.turn_orders import TurnOrder, declare
from tests.apphelpers import open_demo
from tests.test_combat_commands import enc


@pytest.fixture
def demo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Campaign]:
    """The demo campaign of the game named by the test's ``demo`` parameter."""
    campaign = open_demo(tmp_path, str(request.param))
    yield campaign
    campaign.store.close()


def acting(campaign: Campaign) -> tuple[int, str]:
    _, fight = enc(campaign)
    cur = er.current_combatant(fight)
    assert cur is not None
    return fight.round, cur.name


def seconds(campaign: Campaign) -> int:
    return int(campaign.meta["clock"]["seconds"])


def fight(model: str, *names: str) -> er.Encounter:
    made = er.Encounter(name="Test", model=model)
    er.add_combatants(
        made, [er.Combatant(name=n, side="pc" if n[0] in "AB" else "npc") for n in names]
    )
    return made


def name_of(e: er.Encounter) -> str | None:
    cur = er.current_combatant(e)
    return cur.name if cur is not None else None


# --------------------------------------------------------------------------- a round ends once


def test_initiative_a_defeated_last_row_gets_no_round_of_its_own() -> None:
    """Before: past the last one still up, the turn went to the defeated last row in a new
    round, and its next turn began yet another round: two rounds per round."""
    e = fight("initiative", "Ann", "Orc", "Elf")
    elf = e.combatants[2]
    er.add_effect(e, elf.id, er.Effect("Blessed", 3, "round"))
    er.start(e)
    er.set_defeated(e, elf.id, True)
    walked = []
    for _ in range(4):
        er.next_turn(e)
        walked.append((e.round, name_of(e)))
    assert walked == [(1, "Orc"), (2, "Ann"), (2, "Orc"), (3, "Ann")]
    assert [x.label() for x in elf.conditions] == ["Blessed 1"]  # ticked once per round


def test_chosen_next_a_new_round_opens_with_the_first_still_up() -> None:
    e = fight("chosen_next", "Orc", "Ann", "Elf")
    orc, ann, elf = e.combatants
    er.start(e)
    er.choose_next(e, ann.id)
    er.set_defeated(e, orc.id, True)
    er.next_turn(e)
    assert name_of(e) == "Elf"
    er.next_turn(e)  # everyone still up has acted: round 2 opens with Ann, not the fallen Orc
    assert (e.round, name_of(e)) == (2, "Ann")
    with pytest.raises(er.EncounterError, match="Orc is out of the fight"):
        er.choose_next(e, orc.id)


def test_ap_rounds_a_defeated_combatant_never_holds_the_turn() -> None:
    e = fight("ap_rounds", "Ann", "Orc", "Elf")
    er.start_ap_round(e, {c.id: 2 for c in e.combatants})
    er.set_defeated(e, e.combatants[2].id, True)
    seen = set()
    for _ in range(6):
        er.next_turn(e)
        seen.add(name_of(e))
    assert seen == {"Ann", "Orc"} and e.round == 4


def test_a_defeated_combatant_never_holds_the_turn() -> None:
    """Before: the acting one, marked defeated, kept the turn until n (its title, its keys)."""
    e = fight("initiative", "Ann", "Orc", "Elf")
    er.start(e)
    er.next_turn(e)
    assert er.set_defeated(e, e.combatants[1].id, True) == ["Orc is defeated", "Elf's turn"]
    assert (e.round, name_of(e)) == (1, "Elf")
    chosen = fight("chosen_next", "Ann", "Orc")
    er.start(chosen)
    er.choose_next(chosen, chosen.combatants[1].id)
    er.set_defeated(chosen, chosen.combatants[1].id, True)
    assert name_of(chosen) is None and chosen.combatants[1].acted
    grouped = fight("initiative", "Ann", "Orc 1", "Orc 2")
    grouped.group_initiative = True
    for orc in grouped.combatants[1:]:
        orc.group = "name:orc"
    er.start(grouped)
    er.next_turn(grouped)  # the Orcs' turn, both of them
    er.set_defeated(grouped, grouped.combatants[1].id, True)
    assert name_of(grouped) == "Orc 2"  # the rest of the group acts on
    er.next_turn(grouped)
    assert (grouped.round, name_of(grouped)) == (2, "Ann")


def test_initiative_stepping_back_without_a_record_skips_the_defeated() -> None:
    e = fight("initiative", "Ann", "Orc", "Elf")
    er.start(e)
    er.set_defeated(e, e.combatants[2].id, True)
    er.next_turn(e)
    er.next_turn(e)
    assert (e.round, name_of(e)) == (2, "Ann")
    e.rewind = []
    er.previous_turn(e)
    assert (e.round, name_of(e)) == (1, "Orc")


@pytest.mark.parametrize("demo", ["resolution"], indirect=True)
def test_resolution_demo_six_rounds_with_the_last_row_down(demo: Campaign) -> None:
    """The issue's case: roll initiative, start, the last row down, then n down the order: one
    round at a time, six of them end "after 6 rounds", and the clock passed six rounds."""
    campaign = demo
    eid, _ = enc(campaign)
    campaign.apply(cmd.RollInitiative(eid))
    campaign.apply(cmd.StartEncounter(eid))
    _, fight0 = enc(campaign)
    last = fight0.combatants[-1]
    campaign.apply(cmd.Damage(eid, last.id, "99"))
    up = sum(1 for c in enc(campaign)[1].combatants if not c.defeated)
    walked = []
    for _ in range(up * 6 - 1):
        campaign.apply(cmd.NextTurn(eid))
        walked.append(acting(campaign))
    assert last.name not in {name for _, name in walked}
    assert walked[up - 1] == (2, fight0.combatants[0].name)
    assert enc(campaign)[1].round == 6
    assert seconds(campaign) == 5 * 6
    assert campaign.apply(cmd.EndEncounter(eid))[0].endswith("ends after 6 rounds")


# --------------------------------------------------------------------------- time passes once


@pytest.mark.parametrize(
    ("demo", "round_seconds"), [("resolution", 6), ("shadows", 15)], indirect=["demo"]
)
def test_back_and_forward_again_passes_a_rounds_time_once(
    demo: Campaign, round_seconds: int
) -> None:
    campaign = demo
    eid, _ = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    while enc(campaign)[1].round < 2:
        campaign.apply(cmd.NextTurn(eid))
    assert seconds(campaign) == round_seconds
    campaign.apply(cmd.PreviousTurn(eid))
    assert enc(campaign)[1].round == 1
    campaign.apply(cmd.NextTurn(eid))
    assert enc(campaign)[1].round == 2
    assert seconds(campaign) == round_seconds
    while enc(campaign)[1].round < 3:
        campaign.apply(cmd.NextTurn(eid))
    assert seconds(campaign) == 2 * round_seconds


# --------------------------------------------------------------------------- what a fight leaves


def named(campaign: Campaign, name: str) -> er.Combatant:
    return next(c for c in enc(campaign)[1].combatants if c.name == name)


@pytest.mark.parametrize("demo", ["resolution"], indirect=True)
def test_poisoned_ends_with_the_fight_and_the_gm_is_told(demo: Campaign) -> None:
    campaign = demo
    eid, fight0 = enc(campaign)
    sefa, goblin = named(campaign, "Sefa Ironwood"), fight0.combatants[-1]
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(cmd.AddEffect(eid, sefa.id, "Poisoned"))
    campaign.apply(cmd.AddEffect(eid, goblin.id, "Blessed", turns=3, tick="round"))
    lines = campaign.apply(cmd.EndEncounter(eid))
    assert f"Ended with the fight: Poisoned on Sefa Ironwood; Blessed on {goblin.name}" in lines
    assert all(not c.conditions for c in enc(campaign)[1].combatants)
    campaign.undo()
    assert [e.name for e in named(campaign, "Sefa Ironwood").conditions] == ["Poisoned"]


def test_a_game_may_keep_an_effect_past_the_fight() -> None:
    e = fight("initiative", "Ann", "Orc")
    ann, orc = e.combatants
    er.add_effect(e, ann.id, er.Effect("Cursed"))
    er.add_effect(e, orc.id, er.Effect("Stunned", 2))
    er.start(e)
    er.end(e)
    lines = er.end_effects(e, lambda c, effect: effect.name == "Cursed")
    assert lines == ["Ended with the fight: Stunned on Orc"]
    assert [x.name for x in ann.conditions] == ["Cursed"] and orc.conditions == []


@pytest.mark.parametrize("demo", ["somnihil"], indirect=True)
def test_an_anomaly_collapses_on_its_count_with_its_caster_down(demo: Campaign) -> None:
    """Before: it counted on its caster's turns only, skipped once the caster was down: it
    never collapsed, and after the fight the tray still said the foe was inside it."""
    from rulesets.somnihil import fight as somnihil_fight

    campaign = demo
    eid, fight0 = enc(campaign)
    caster = next(c for c in fight0.combatants if c.side == "pc")
    foe = next(c for c in fight0.combatants if c.side == "npc")
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(somnihil_fight.AddAnomaly(eid, caster.id, 1))  # 2 turns
    campaign.apply(somnihil_fight.ToggleInAnomaly(eid, foe.id))
    campaign.apply(cmd.ToggleDefeated(eid, caster.id))
    start = enc(campaign)[1].round
    while enc(campaign)[1].round < start + 2:
        campaign.apply(cmd.NextTurn(eid))
    assert not any(c.conditions for c in enc(campaign)[1].combatants)


@pytest.mark.parametrize("demo", ["somnihil"], indirect=True)
def test_an_anomaly_ends_with_the_fight(demo: Campaign) -> None:
    from rulesets.somnihil import fight as somnihil_fight
    from rulesets.somnihil.checks import preset

    campaign = demo
    eid, fight0 = enc(campaign)
    foe = next(c for c in fight0.combatants if c.side == "npc")
    pc = next(c for c in fight0.combatants if c.side == "pc")
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(somnihil_fight.AddAnomaly(eid, foe.id, 4))
    campaign.apply(somnihil_fight.ToggleInAnomaly(eid, pc.id))
    assert preset(campaign.doc("encounters", eid), int(str(pc.ref))) is not None
    lines = campaign.apply(cmd.EndEncounter(eid))
    assert f"Ended with the fight: Anomaly on {pc.name} and {foe.name}" in lines
    assert somnihil_fight.inside_anomaly(named(campaign, foe.name).to_dict()) is None
    # The tray no longer rolls that PC "inside the Anomaly" after the fight.
    assert preset(campaign.doc("encounters", eid), int(str(pc.ref))) is None


@pytest.mark.parametrize("demo", ["aspects"], indirect=True)
def test_the_scenes_aspects_end_with_the_fight_and_with_a_new_scene(demo: Campaign) -> None:
    from app.commands.party import PartyAction
    from rulesets.aspects.advantage import SCENE_KEY, CreateAdvantage

    campaign = demo
    eid, fight0 = enc(campaign)
    by = next(c for c in fight0.combatants if c.side == "pc").name
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(CreateAdvantage(eid, "the scene", "Smoke-filled mill", by))
    assert (campaign.doc("encounters", eid) or {}).get(SCENE_KEY)
    lines = campaign.apply(cmd.EndEncounter(eid))
    assert "The scene's aspects end: Smoke-filled mill" in lines
    assert not (campaign.doc("encounters", eid) or {}).get(SCENE_KEY)
    # Between fights, a new scene ends the aspects put on the scene since.
    campaign.apply(CreateAdvantage(eid, "the scene", "Wet floor", by))
    lines = campaign.apply(PartyAction("scene"))
    assert "The scene's aspects end: Wet floor" in lines
    assert not (campaign.doc("encounters", eid) or {}).get(SCENE_KEY)


def hands(campaign: Campaign) -> dict[str, int]:
    from rulesets.shadows.tarot import find_deck

    return dict(find_deck(campaign.rows("decks"), "minor")[1].hand_counts())


@pytest.mark.parametrize("demo", ["shadows"], indirect=True)
def test_shadows_a_fallen_foes_hand_and_every_hand_at_the_end_go_to_the_discards(
    demo: Campaign,
) -> None:
    campaign = demo
    eid, fight0 = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    foe = next(c for c in fight0.combatants if c.side == "npc")
    held = hands(campaign)
    assert held.get(f"foe:{foe.id}")
    lines = campaign.apply(cmd.ToggleDefeated(eid, foe.id))
    assert f"To the discards: {foe.name}'s {held[f'foe:{foe.id}']} cards (out of the fight)" in (
        lines
    )
    assert f"foe:{foe.id}" not in hands(campaign)
    lines = campaign.apply(cmd.EndEncounter(eid))
    assert any(line.startswith("Combat hands to the discards: ") for line in lines)
    assert hands(campaign) == {}


# --------------------------------------------------------------------------- fled


def fleeing_seed(will: int) -> int:
    """A seed whose first morale roll for that Will is "they flee"."""
    from rulesets import npc

    return next(s for s in range(500) if npc.morale_check(random.Random(s), will).band == npc.FLEE)


@pytest.mark.parametrize("demo", ["resolution"], indirect=True)
def test_a_failed_morale_check_takes_the_foe_out_as_fled(demo: Campaign) -> None:
    """Before: "Will is broken, they flee" was logged and the foe stayed in the order, acting."""
    from rulesets import npc
    from rulesets.fight import FLED

    campaign = demo
    eid, fight0 = enc(campaign)
    foes = [c for c in fight0.combatants if c.side == "npc"]
    campaign.apply(cmd.StartEncounter(eid))
    for other in foes[1:]:
        campaign.apply(cmd.ToggleDefeated(eid, other.id))
    block = npc.statblock_of(foes[0].stats, None)
    will = block.attribute("will") if block is not None else 0
    campaign.rng.seed(fleeing_seed(will))
    lines = campaign.apply(cmd.MoraleCheck(eid, foes[0].id))
    assert f"{foes[0].name} flees: out of the fight" in lines
    assert er.every_foe_out(enc(campaign)[1])  # the tracker says the fight can end
    fled = named(campaign, foes[0].name)
    assert fled.defeated and fled.stats[FLED]
    for _ in range(len(fight0.combatants) + 1):
        campaign.apply(cmd.NextTurn(eid))
        assert er.current_combatant(enc(campaign)[1]).name != fled.name  # type: ignore[union-attr]
    campaign.apply(cmd.ToggleDefeated(eid, fled.id))  # X: back in
    back = named(campaign, fled.name)
    assert not back.defeated and FLED not in back.stats


def test_shadows_no_log_line_names_the_turn_of_one_the_attack_took_out(tmp_path: Path) -> None:
    """Before: the attacker's AP were spent before its card landed, so the spend handed the
    turn to the target ("Goblin 2's turn") and the log said so after Goblin 2 had died."""
    from rulesets.shadows.fight import PlayAttackCard
    from tests.test_shadows_attack import StackMinor, _by_name, _started

    campaign, eid = _started(tmp_path)
    one, two = _by_name(campaign, "Goblin 1"), _by_name(campaign, "Goblin 2")
    assert enc(campaign)[1].current == one["id"]  # and its spend hands the turn to Goblin 2
    campaign.apply(
        StackMinor(((f"foe:{one['id']}", ("King Swords",)),), top=("Queen Wands", "Knight Swords"))
    )
    answers = {"fumble": 2, "critical": "Swords", "skill": 3, "defence_cards": "none"}
    lines = campaign.apply(PlayAttackCard(eid, one["id"], two["id"], "King Swords", 2, answers))
    assert _by_name(campaign, "Goblin 2")["defeated"]
    assert "Goblin 2's turn" not in " ".join(lines)
    assert acting(campaign)[1] == "Goblin 3" and lines[-1].startswith("Goblin 3's turn")
    campaign.store.close()


# --------------------------------------------------------------------------- a game's own order


class Dealt(TurnOrder):
    """Each round deals: every combatant gets a new card (its initiative and a stat) and the
    order is sorted by it, highest first; the turn walks the order."""

    id = "dealt"
    name = "Dealt"

    def _deal(self, e: er.Encounter) -> list[str]:
        for c in e.combatants:
            c.initiative = (len(c.name) * 7 + e.round * 5) % 13
            c.stats["card"] = f"card {c.initiative}"
        e.combatants.sort(key=lambda c: -(c.initiative or 0))
        return ["Dealt"]

    def start(self, e: er.Encounter) -> list[str]:
        return self._deal(e) + er.begin_turn(e, e.combatants[0])

    def next_turn(self, e: er.Encounter) -> list[str]:
        cur = er.current_combatant(e)
        lines = er.end_turn(e, cur) if cur is not None else []
        at = e.combatants.index(cur) + 1 if cur is not None else 0
        if at >= len(e.combatants):
            lines += er.new_round(e) + self._deal(e)
            at = 0
        return lines + er.begin_turn(e, e.combatants[at])


def test_going_back_across_a_games_own_round_end_restores_what_the_round_changed() -> None:
    """Before: alt+n put back the round and the turn but kept the new deal (initiatives, the
    order, a stat); u restored them. Going forward again deals again."""
    declare(Dealt())
    e = fight("dealt", "Ann", "Orcish", "Elf")
    er.start(e)
    for _ in range(2):
        er.next_turn(e)
    before = [(c.name, c.initiative, dict(c.stats)) for c in e.combatants]
    er.next_turn(e)  # the round ends: a new deal
    assert e.round == 2
    assert [(c.name, c.initiative, dict(c.stats)) for c in e.combatants] != before
    er.previous_turn(e)
    assert [(c.name, c.initiative, dict(c.stats)) for c in e.combatants] == before
    assert e.round == 1 and name_of(e) == before[-1][0]
    er.next_turn(e)
    assert e.round == 2 and name_of(e) == e.combatants[0].name


@pytest.mark.parametrize("demo", ["somnihil"], indirect=True)
def test_a_pc_a_game_command_brings_back_is_back_in_the_fight(demo: Campaign) -> None:
    """Before: a perished Cipher who became a Seditious Spirit (a game's own command that
    does not clear the flag) stayed defeated and skipped."""
    from rulesets.somnihil import fight as somnihil_fight
    from rulesets.somnihil import rules as somnihil

    campaign = demo
    eid, fight0 = enc(campaign)
    pc = next(c for c in fight0.combatants if c.side == "pc")
    campaign.apply(cmd.StartEncounter(eid))
    sheet = campaign.doc("party", int(str(pc.ref)))
    assert sheet is not None
    vitality = sheet["resources"]["vitality"]["current"]
    campaign.apply(cmd.Damage(eid, pc.id, str(vitality)))
    campaign.apply(cmd.Damage(eid, pc.id, "5", {"cheat_death": 1}))
    assert (campaign.doc("party", int(str(pc.ref))) or {})["status"] == somnihil.PERISHED
    assert named(campaign, pc.name).defeated
    lines = campaign.apply(somnihil_fight.ChooseFate(eid, pc.id, somnihil.FATES[somnihil.SPIRIT]))
    assert f"{pc.name} is back in the fight" in lines
    assert not named(campaign, pc.name).defeated

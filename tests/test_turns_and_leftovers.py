"""The turn order and what a fight leaves behind, in every turn model: a round ends once and
the next begins with the first combatant still up; stepping back and forward passes a round's
time once; what belongs to a fight ends with it (the GM told what ended); a failed morale
check takes the foe out as fled; ``B`` changes the selected foe only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.commands import combat as cmd
from app.state import Campaign
from rulesets import encounter as er
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

"""Turn orders are objects (issue 25): the built-in three through their objects, and a game's
own turn order played in the tracker by keys.

The test game "Sides" is the toy Duel game (tests/test_toy_game.py) with a turn order of its
own, declared in this file and nowhere else: all PCs act, then all NPCs, whatever the list's
order; its column is headed "Side". The tracker must walk it with ``n``, show its column and its
status, and not offer initiative-only keys, knowing nothing of it but the object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import schema
from app.launch import open_campaign
from app.store import read_campaign
from app.tui import TablesideApp
from rulesets import encounter as er
from rulesets import registry
from rulesets.base import RuleError
from rulesets.game import Game
from rulesets.turn_orders import (
    AP_ROUNDS,
    BUILT_IN,
    CHOSEN_NEXT,
    INITIATIVE,
    TurnOrder,
    UnknownTurnOrder,
    ap_rounds,
    chosen_next,
    declare,
    initiative,
    known,
    turn_order,
)
from rulesets.turn_orders.ap_rounds import APRounds
from tests.apphelpers import SIZE, screen_text
from tests.test_toy_game import DUEL, RULESET


def pc(name: str, **kw: Any) -> er.Combatant:
    return er.Combatant(name=name, side="pc", **kw)


def npc(name: str, **kw: Any) -> er.Combatant:
    return er.Combatant(name=name, side="npc", **kw)


def fight(model: str, *cs: er.Combatant) -> er.Encounter:
    enc = er.Encounter(name="Test", model=model)
    er.add_combatants(enc, list(cs), position=0)
    return enc


def current_name(enc: er.Encounter) -> str | None:
    c = er.current_combatant(enc)
    return c.name if c is not None else None


# --------------------------------------------------------------------------- the built-in three


def test_the_built_ins_are_found_by_id_and_say_what_differs() -> None:
    assert BUILT_IN == {
        "initiative": INITIATIVE,
        "ap_rounds": AP_ROUNDS,
        "chosen_next": CHOSEN_NEXT,
    }
    assert [turn_order(i).heading for i in BUILT_IN] == ["Init", "AP", ""]
    assert [turn_order(i).name for i in BUILT_IN] == [
        "Initiative order",
        "AP rounds",
        "Chosen-next",
    ]
    assert INITIATIVE.uses_initiative and not AP_ROUNDS.uses_initiative
    assert AP_ROUNDS.uses_ap and AP_ROUNDS.uses_quickness and not CHOSEN_NEXT.uses_ap
    assert {"delay", "hold", "use_held", "roll_initiative"} <= INITIATIVE.actions
    assert AP_ROUNDS.actions == {"spend_ap", "counter"}
    assert CHOSEN_NEXT.actions == {"choose_next"}
    # No action belongs to two orders: each key is offered in exactly one.
    assert not (INITIATIVE.actions & AP_ROUNDS.actions) and not (
        AP_ROUNDS.actions & CHOSEN_NEXT.actions
    )


def test_an_unknown_turn_order_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(UnknownTurnOrder, match="Unknown turn model 'tides'.*initiative"):
        turn_order("tides")
    assert issubclass(UnknownTurnOrder, RuleError)


def test_initiative_column_walk_and_step_back() -> None:
    enc = fight("initiative", pc("Ann", initiative=15), npc("Orc"))
    ann, orc = enc.combatants
    assert INITIATIVE.cell(enc, ann) == "15" and INITIATIVE.cell(enc, orc) == "–"
    er.start(enc)
    assert current_name(enc) == "Ann"
    assert INITIATIVE.turn_state(enc, ann) == ""
    er.next_turn(enc)
    assert (current_name(enc), INITIATIVE.turn_state(enc, ann)) == ("Orc", "acted")
    er.next_turn(enc)
    assert (enc.round, current_name(enc)) == (2, "Ann")
    enc.rewind = []  # no record: the initiative order still steps the pointer back
    assert INITIATIVE.previous_turn(enc) == ["Back to Orc's turn (round 1)"]
    # delay/hold/use_held live with their order and are still where callers found them.
    assert er.delay is initiative.delay and er.hold is initiative.hold
    assert er.use_held is initiative.use_held


def test_ap_rounds_column_status_and_pass() -> None:
    enc = fight("ap_rounds", pc("Ann", quickness=3), npc("Orc"))
    ann, orc = enc.combatants
    assert AP_ROUNDS.status(enc) == ""
    er.start_ap_round(enc, {ann.id: 2, orc.id: 1})
    assert AP_ROUNDS.cell(enc, ann) == "2/2 AP" and AP_ROUNDS.cell(enc, orc) == "1/1 AP"
    assert "spend AP" in AP_ROUNDS.status(enc)
    # The faster first at a tie of AP spent: Ann; n passes, spending the rest.
    assert current_name(enc) == "Ann"
    er.next_turn(enc)
    assert AP_ROUNDS.turn_state(enc, ann) == "spent" and current_name(enc) == "Orc"
    assert er.spend_ap is ap_rounds.spend_ap and er.next_ap_actor is ap_rounds.next_ap_actor
    # Defeat in AP rounds spends the rest and hands the turn on (a new round refills).
    lines = er.set_defeated(enc, orc.id, True)
    assert lines[0] == "Orc is defeated" and orc.ap == 0
    assert (enc.round, current_name(enc)) == (2, "Ann")


def test_chosen_next_status_and_turn_state() -> None:
    enc = fight("chosen_next", pc("Ann"), npc("Orc"), npc("Elf"))
    ann, orc, elf = enc.combatants
    assert er.start(enc)[-1] == "Choose who acts first"
    assert current_name(enc) is None
    er.choose_next(enc, orc.id)
    assert CHOSEN_NEXT.status(enc) == "Not yet acted: 2; select one and press c"
    assert [CHOSEN_NEXT.turn_state(enc, c) for c in (ann, orc, elf)] == [
        "to act",
        "acting",
        "to act",
    ]
    er.next_turn(enc)  # the first in order who may still act
    assert current_name(enc) == "Ann" and CHOSEN_NEXT.turn_state(enc, orc) == "acted"
    assert er.choosable is chosen_next.choosable


# --------------------------------------------------------------------------- a game's own order


class Sides(TurnOrder):
    """All PCs act, then all NPCs; within a side, in the list's order."""

    id = "sides"
    name = "Sides"
    heading = "Side"

    def _queue(self, enc: er.Encounter) -> list[er.Combatant]:
        up = [c for c in enc.combatants if not c.defeated]
        return [c for c in up if c.side == "pc"] + [c for c in up if c.side != "pc"]

    def cell(self, enc: er.Encounter, c: er.Combatant) -> str:
        return "PCs" if c.side == "pc" else "NPCs"

    def status(self, enc: er.Encounter) -> str:
        cur = er.current_combatant(enc)
        if not enc.started or cur is None:
            return ""
        return f"The {self.cell(enc, cur)} side acts"

    def start(self, enc: er.Encounter) -> list[str]:
        return er.begin_turn(enc, self._queue(enc)[0])

    def next_turn(self, enc: er.Encounter) -> list[str]:
        queue = self._queue(enc)
        cur = er.current_combatant(enc)
        lines = er.end_turn(enc, cur) if cur is not None else []
        at = queue.index(cur) + 1 if cur in queue else 0
        if at >= len(queue):
            lines += er.new_round(enc)
            at = 0
        return lines + er.begin_turn(enc, queue[at])


SIDES = Sides()
SIDES_GAME = dataclasses.replace(
    DUEL,
    ruleset=dataclasses.replace(RULESET, id="sides", name="Sides", turn_model="sides"),
    turn_orders=(SIDES,),
)


@pytest.fixture
def sides() -> Iterator[Game]:
    withdraw = registry.register(SIDES_GAME)
    yield SIDES_GAME
    withdraw()


def test_a_game_names_its_own_order_and_the_core_plays_it(sides: Game) -> None:
    assert known(sides) == ["initiative", "ap_rounds", "chosen_next", "sides"]
    assert turn_order("sides", sides) is SIDES
    enc = fight("sides", npc("Orc"), pc("Ann"), npc("Elf"), pc("Bo"))
    er.start(enc)
    walked = [current_name(enc)]
    for _ in range(4):
        er.next_turn(enc)
        walked.append(current_name(enc))
    assert walked == ["Ann", "Bo", "Orc", "Elf", "Ann"] and enc.round == 2


def test_a_game_whose_turn_model_is_nowhere_does_not_load() -> None:
    lost = dataclasses.replace(
        DUEL, ruleset=dataclasses.replace(RULESET, id="lost", turn_model="tides")
    )
    with pytest.raises(registry.GameUnavailable, match="turn model 'tides'"):
        registry.register(lost)


def _encounter(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    encounters: list[dict[str, Any]] = list(
        read_campaign(app.campaign.store.path)["encounters"].values()
    )
    assert len(encounters) == 1
    return encounters[0]


def _name_of(enc: dict[str, Any]) -> str:
    return next(str(c["name"]) for c in enc["combatants"] if c["id"] == enc["current"])


async def test_a_games_own_turn_order_is_played_in_the_tracker_by_keys(
    tmp_path: Path, sides: Game
) -> None:
    campaign = open_campaign(tmp_path / "sides.json", ruleset="sides", seed=3)
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        # The foe first, the party after: the list puts Slime on top, the order puts Robin first.
        await pilot.press("1", "ctrl+n", "enter")
        await pilot.pause()
        await pilot.press("q", *"Slime", "tab", "tab", "3", "enter")
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        enc = _encounter(app)
        assert enc["model"] == "sides"
        assert [c["name"] for c in enc["combatants"]] == ["Slime", "Robin"]

        await pilot.press("alt+r")
        await pilot.pause()
        assert _name_of(_encounter(app)) == "Robin"
        text = "\n".join(screen_text(app))
        header = next(line for line in screen_text(app) if " Name " in line)
        assert " Side " in header and " Init " not in header
        robin = next(line for line in screen_text(app) if "▶" in line)  # the acting row
        assert " Robin " in robin and " PCs " in robin
        assert "The PCs side acts" in text
        assert "Sides" in text  # the order's name in the title

        # Initiative-only keys are neither offered nor working: d is not delay here (it falls
        # through to the dice roller, as in every order without delay) and the order stays.
        screen = app.screen
        assert screen.check_action("delay", ()) is False
        assert screen.check_action("roll_initiative", ()) is False
        before = _encounter(app)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert _encounter(app)["combatants"] == before["combatants"]
        assert _name_of(_encounter(app)) == "Robin"

        # n walks the game's order: the NPC side, then round 2 back to the PCs.
        await pilot.press("n")
        await pilot.pause()
        assert _name_of(_encounter(app)) == "Slime"
        assert "The NPCs side acts" in "\n".join(screen_text(app))
        await pilot.press("n")
        await pilot.pause()
        after = _encounter(app)
        assert (after["round"], _name_of(after)) == (2, "Robin")
    campaign.store.close()


def test_a_save_may_name_its_games_order_and_no_other(sides: Game) -> None:
    doc = er.Encounter(id="e1", name="Bridge", model="sides").to_dict()
    schema.check_document("encounters", "1", doc, "sides")
    with pytest.raises(schema.SchemaError, match=r"encounters\[1\].*Unknown turn model 'sides'"):
        schema.check_document("encounters", "1", doc, "somnihil")


class Hurried(APRounds):
    """A game's own AP order: the built-in's rules under another name and heading."""

    id = "hurried"
    name = "hurried rounds"
    heading = "AP!"


def test_a_games_own_action_point_order_spends_and_refills_ap() -> None:
    """Before: spending AP was refused in any order but the built-in "ap_rounds" by name, so a
    game's own AP order could not even start its fight."""
    hurried = Hurried()
    declare(hurried)
    enc = fight("hurried", pc("Ann", quickness=4), npc("Orc", quickness=2))
    er.start_ap_round(enc, {c.id: 2 for c in enc.combatants})
    actor = er.current_combatant(enc)
    assert actor is not None and actor.name == "Ann" and enc.round == 1
    er.spend_ap(enc, actor.id, 2)
    assert [c.ap for c in enc.combatants] == [0, 2]
    assert hurried.cell(enc, enc.combatants[1]) == AP_ROUNDS.cell(enc, enc.combatants[1])
    with pytest.raises(er.EncounterError, match="works in a turn order with action points"):
        er.spend_ap(fight("initiative", pc("Bo")), "c1", 1)


def test_a_games_quickness_comes_from_its_own_rule(tmp_path: Path) -> None:
    """The AP of an AP-rounds fight come from the game's Quickness rule (here a "speed"
    attribute), not from a sheet attribute the shell assumed was called "quickness"."""
    from app.commands.combat import AddParty, NewEncounter, StartEncounter
    from app.commands.party import AddPC
    from rulesets.base import AttributeSpec
    from rulesets.fight import FightRules, standard_ap

    def speed(sheet: dict[str, Any] | None) -> int:
        return int(sheet["attributes"].get("speed", 0)) if sheet else 0

    swift = dataclasses.replace(
        DUEL,
        ruleset=dataclasses.replace(
            RULESET,
            id="swift",
            turn_model="ap_rounds",
            sheet=dataclasses.replace(
                RULESET.sheet, attributes=(AttributeSpec("speed", "Speed", 9),)
            ),
        ),
        fight=dataclasses.replace(DUEL.fight, quickness=speed),
    )
    withdraw = registry.register(swift)
    try:
        campaign = open_campaign(tmp_path / "swift.json", ruleset="swift", seed=3)
        campaign.apply(AddPC("Ann"))
        campaign.apply(NewEncounter("Race"))
        eid = next(doc_id for doc_id, _ in campaign.rows("encounters"))
        campaign.apply(AddParty(eid))
        campaign.apply(StartEncounter(eid))
        (ann,) = campaign.doc("encounters", eid)["combatants"]  # type: ignore[index]
        assert ann["quickness"] == 9 and ann["ap"]["max"] == standard_ap(9) == 10
        campaign.store.close()
    finally:
        withdraw()
    assert FightRules().quickness({"attributes": {"quickness": 4}}) == 4  # the default rule

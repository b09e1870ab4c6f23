"""Combat tracker model: GEN-04 roster and turns, GEN-05 timed effects, SOH-09/SOH-10 AP rounds,
chosen-next rounds (aspects)."""

from __future__ import annotations

import contextlib
import json
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.encounter import (
    Combatant,
    Effect,
    Encounter,
    EncounterError,
    add_combatant,
    add_combatants,
    add_effect,
    add_group,
    choosable,
    choose_next,
    counter_action,
    current_combatant,
    delay,
    duplicate_combatant,
    end,
    hold,
    move_combatant,
    move_down,
    move_up,
    next_ap_actor,
    next_turn,
    order_view,
    pass_turn,
    place_by_initiative,
    previous_turn,
    remove_combatant,
    remove_effect,
    rename_combatant,
    set_ap,
    set_defeated,
    set_hidden,
    set_initiative,
    sort_by_initiative,
    spend_ap,
    start,
    start_ap_round,
    use_economy,
    use_held,
)


def npc(name: str) -> Combatant:
    return Combatant(name=name, side="npc")


def make(names: str = "ABCD", model: str = "initiative") -> Encounter:
    enc = Encounter(id="e1", name="Ambush", model=model)
    add_combatants(enc, [Combatant(id=n, name=n, side="npc") for n in names])
    return enc


def cur(enc: Encounter) -> str | None:
    c = current_combatant(enc)
    return None if c is None else c.name


def names(enc: Encounter) -> list[str]:
    return [c.name for c in enc.combatants]


# --------------------------------------------------------------------------- GEN-04 roster


def test_gen04_groups_are_numbered() -> None:
    enc = Encounter()
    add_group(enc, "Goblin", 3, npc)
    assert names(enc) == ["Goblin 1", "Goblin 2", "Goblin 3"]
    add_group(enc, "Goblin", 2, npc)
    assert names(enc)[-2:] == ["Goblin 4", "Goblin 5"]
    assert len({c.id for c in enc.combatants}) == 5


def test_gen04_group_continues_after_bare_name_and_gaps() -> None:
    enc = Encounter()
    add_combatant(enc, npc("Orc"))
    add_combatant(enc, npc("Orc 7"))
    add_combatant(enc, npc("Orcish Shaman 9"))
    lines = add_group(enc, "Orc", 2, npc)
    assert names(enc)[-2:] == ["Orc 8", "Orc 9"]
    assert lines == ["Orc 8 joins the encounter", "Orc 9 joins the encounter"]


def test_gen04_group_rejects_empty() -> None:
    with pytest.raises(EncounterError):
        add_group(Encounter(), "Goblin", 0, npc)
    with pytest.raises(EncounterError):
        add_group(Encounter(), "  ", 2, npc)


def test_gen04_duplicate_is_numbered_and_placed_after_original() -> None:
    enc = make("AB")
    add_combatant(enc, npc("Ghoul"), position=1)
    enc.combatants[1].stats = {"hp": {"current": 7, "max": 9}}
    add_effect(enc, enc.combatants[1].id, Effect("Burning", 2))
    duplicate_combatant(enc, enc.combatants[1].id)
    assert names(enc) == ["A", "Ghoul", "Ghoul 2", "B"]
    copy = enc.combatants[2]
    assert copy.stats == {"hp": {"current": 7, "max": 9}}
    assert copy.stats is not enc.combatants[1].stats
    assert copy.conditions[0].owner == copy.id
    duplicate_combatant(enc, copy.id)
    assert names(enc) == ["A", "Ghoul", "Ghoul 2", "Ghoul 3", "B"]


def test_gen04_ids_stay_unique_when_given_colliding_ids() -> None:
    enc = make("AB")
    add_combatant(enc, Combatant(id="A", name="Other A"))
    assert len({c.id for c in enc.combatants}) == 3


def test_gen04_move_up_and_down_keep_current() -> None:
    enc = make("ABCD")
    start(enc)
    move_down(enc, "A")
    assert names(enc) == ["B", "A", "C", "D"]
    assert cur(enc) == "A"
    move_up(enc, "D")
    assert names(enc) == ["B", "A", "D", "C"]
    assert move_up(enc, "B") == []  # already first
    assert move_down(enc, "C") == []


def test_gen04_sort_by_initiative_pcs_win_ties_then_stable() -> None:
    enc = Encounter()
    add_combatants(
        enc,
        [
            Combatant(id="n1", name="Wolf", side="npc", initiative=5),
            Combatant(id="n2", name="Bandit", side="npc", initiative=None),
            Combatant(id="p1", name="Ana", side="pc", initiative=5),
            Combatant(id="n3", name="Crow", side="npc", initiative=9),
            Combatant(id="n4", name="Wolf 2", side="npc", initiative=5),
        ],
    )
    sort_by_initiative(enc)
    assert names(enc) == ["Crow", "Ana", "Wolf", "Wolf 2", "Bandit"]
    set_initiative(enc, "n2", 12)
    sort_by_initiative(enc, tiebreak=lambda c: -c.quickness)
    assert names(enc)[0] == "Bandit"


def test_gen04_custom_tiebreak_is_used() -> None:
    enc = Encounter()
    add_combatants(
        enc,
        [
            Combatant(id="a", name="Slow", initiative=3, quickness=1),
            Combatant(id="b", name="Quick", initiative=3, quickness=8),
        ],
    )
    sort_by_initiative(enc, tiebreak=lambda c: -c.quickness)
    assert names(enc) == ["Quick", "Slow"]


def test_gen04_start_next_wraps_and_counts_rounds() -> None:
    enc = make("ABC")
    with pytest.raises(EncounterError):
        next_turn(enc)
    lines = start(enc)
    assert enc.round == 1 and cur(enc) == "A" and "A's turn" in lines
    next_turn(enc)
    next_turn(enc)
    assert cur(enc) == "C" and enc.round == 1
    assert [c.acted for c in enc.combatants] == [True, True, False]
    lines = next_turn(enc)
    assert cur(enc) == "A" and enc.round == 2
    assert "Round 2" in lines
    assert not any(c.acted for c in enc.combatants)


def test_gen04_start_needs_combatants_and_not_twice() -> None:
    with pytest.raises(EncounterError, match="Add combatants"):
        start(Encounter())
    enc = make("A")
    start(enc)
    with pytest.raises(EncounterError, match="already"):
        start(enc)


def test_gen04_previous_unwraps_round() -> None:
    enc = make("ABC")
    start(enc)
    with pytest.raises(EncounterError, match="first turn"):
        previous_turn(enc)
    for _ in range(3):
        next_turn(enc)
    assert (enc.round, cur(enc)) == (2, "A")
    previous_turn(enc)
    assert (enc.round, cur(enc)) == (1, "C")
    assert [c.acted for c in enc.combatants] == [True, True, False]
    next_turn(enc)
    assert (enc.round, cur(enc)) == (2, "A")


def test_gen04_end_resets_round() -> None:
    enc = make("AB")
    start(enc)
    next_turn(enc)
    next_turn(enc)
    lines = end(enc)
    assert lines == ["Ambush ends after 2 rounds"]
    assert (enc.started, enc.round, enc.current) == (False, 0, None)
    assert len(enc.combatants) == 2


def test_gen04_remove_current_passes_turn() -> None:
    enc = make("ABC")
    start(enc)
    next_turn(enc)  # B
    remove_combatant(enc, "B")
    assert cur(enc) == "C" and enc.round == 1
    remove_combatant(enc, "C")  # last in order: wraps
    assert cur(enc) == "A" and enc.round == 2
    remove_combatant(enc, "A")
    assert enc.current is None and enc.combatants == []


def test_gen04_remove_other_keeps_current_and_add_mid_fight() -> None:
    enc = make("ABC")
    start(enc)
    next_turn(enc)  # B
    remove_combatant(enc, "A")
    assert cur(enc) == "B"
    add_group(enc, "Goblin", 2, npc)
    next_turn(enc)
    next_turn(enc)
    assert cur(enc) == "Goblin 1" and enc.round == 1
    with pytest.raises(EncounterError, match="No combatant"):
        remove_combatant(enc, "zzz")


def test_gen04_delay_moves_down_and_passes_turn() -> None:
    enc = make("ABCD")
    start(enc)
    lines = delay(enc, 2)
    assert names(enc) == ["B", "C", "A", "D"]
    assert cur(enc) == "B"
    assert lines[0] == "A delays until after C"
    next_turn(enc)
    next_turn(enc)
    assert cur(enc) == "A" and enc.round == 1
    next_turn(enc)
    assert cur(enc) == "D"
    with pytest.raises(EncounterError, match="last"):
        delay(enc, 1)


def test_gen04_delay_clamps_to_last_place() -> None:
    enc = make("ABC")
    start(enc)
    delay(enc, 10)
    assert names(enc) == ["B", "C", "A"]


def test_gen04_hold_and_use_held_inserts_turn() -> None:
    enc = make("ABCD")
    start(enc)
    next_turn(enc)  # B
    hold(enc)  # B holds, C acts
    assert cur(enc) == "C"
    assert enc.combatants[1].held
    next_turn(enc)  # D
    lines = use_held(enc, "B")
    assert lines[0] == "B acts on a held action before D"
    assert names(enc) == ["A", "C", "B", "D"]
    assert cur(enc) == "B" and not enc.get("B").held
    assert enc.get("B").economy["action"] is True
    next_turn(enc)
    assert cur(enc) == "D" and enc.round == 1
    next_turn(enc)
    assert cur(enc) == "A" and enc.round == 2


def test_gen04_use_held_requires_a_held_action() -> None:
    enc = make("ABC")
    start(enc)
    with pytest.raises(EncounterError, match="not holding"):
        use_held(enc, "B")


def test_gen04_held_action_lapses_at_own_next_turn() -> None:
    enc = make("AB")
    start(enc)
    hold(enc)  # A holds, B acts
    next_turn(enc)  # round 2, A
    assert cur(enc) == "A"
    assert not enc.get("A").held


def test_gen04_held_action_lapses_when_the_round_ends() -> None:
    # A hold from round 1 showed "holding" all through round 2 until the holder's turn.
    enc = make("AB")
    start(enc)
    next_turn(enc)  # B
    lines = hold(enc)  # B holds; round 2 begins with A
    assert enc.round == 2 and cur(enc) == "A"
    assert not enc.get("B").held
    assert "B's held action lapses" in lines
    with pytest.raises(EncounterError, match="not holding"):
        use_held(enc, "B")


def test_gen04_hidden_still_take_turns_but_not_in_players_view() -> None:
    enc = make("ABC")
    set_hidden(enc, "B", True)
    start(enc)
    next_turn(enc)
    assert cur(enc) == "B"
    assert [r.name for r in order_view(enc, players=True)] == ["A", "C"]
    rows = order_view(enc)
    assert [r.name for r in rows] == ["A", "B", "C"]
    assert rows[1].is_current and rows[1].hidden and rows[0].acted


def test_gen04_not_started_actions_fail_clearly() -> None:
    enc = make("AB")
    for op in (next_turn, previous_turn, hold):
        with pytest.raises(EncounterError, match="not started"):
            op(enc)
    with pytest.raises(EncounterError):
        Combatant(name="x", side="ally")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- GEN-05 effects


def test_gen05_turn_end_effect_expires_with_log_line() -> None:
    enc = make("XY")
    start(enc)
    add_effect(enc, "X", Effect("Anomaly", remaining=2, tick="turn_end"))
    assert next_turn(enc) == ["Y's turn"]
    assert enc.get("X").conditions[0].remaining == 1
    next_turn(enc)  # round 2, X
    lines = next_turn(enc)
    assert "Anomaly on X expires" in lines
    assert enc.get("X").conditions == []


def test_gen05_turn_start_effect_ticks_on_owner_turn_only() -> None:
    enc = make("ABC")
    start(enc)
    # on C, ticked by B's turn start
    add_effect(enc, "C", Effect("Stunned", remaining=1, tick="turn_start", owner="B"))
    lines = next_turn(enc)
    assert lines == ["B's turn", "Stunned on C expires"]


def test_gen05_round_effect_ticks_each_new_round() -> None:
    enc = make("AB")
    start(enc)
    add_effect(enc, "B", Effect("Fog", remaining=2, tick="round"))
    next_turn(enc)
    assert enc.get("B").conditions[0].remaining == 2
    next_turn(enc)  # round 2
    assert enc.get("B").conditions[0].remaining == 1
    next_turn(enc)
    lines = next_turn(enc)  # round 3
    assert "Fog on B expires" in lines


def test_gen05_indefinite_effects_never_tick_and_remove_by_name() -> None:
    enc = make("AB")
    start(enc)
    add_effect(enc, "A", Effect("Prone"))
    for _ in range(10):
        next_turn(enc)
    assert [e.name for e in enc.get("A").conditions] == ["Prone"]
    assert remove_effect(enc, "A", "prone") == ["Prone removed from A"]
    with pytest.raises(EncounterError, match="no effect"):
        remove_effect(enc, "A", "Prone")
    with pytest.raises(EncounterError):
        add_effect(enc, "A", Effect("Bad", remaining=0))
    with pytest.raises(EncounterError):
        Effect("Bad", tick="sometimes")  # type: ignore[arg-type]


def test_gen05_previous_turn_takes_back_the_ticks_and_next_ticks_them_once_again() -> None:
    enc = make("AB")
    start(enc)
    add_effect(enc, "A", Effect("Bleed", remaining=3, tick="turn_end"))
    add_effect(enc, "B", Effect("Fog", remaining=3, tick="round"))
    next_turn(enc)  # A's end ticks: 2
    next_turn(enc)  # round 2: Fog 2
    lines = previous_turn(enc)  # back to B, round 1: Fog 3 again, A's turn end stands
    assert lines == ["Back to B's turn (round 1)", "Counting again: Fog 3 on B"]
    assert enc.get("A").conditions[0].remaining == 2
    assert enc.get("B").conditions[0].remaining == 3
    next_turn(enc)  # round 2 again: Fog ticks once
    assert enc.get("A").conditions[0].remaining == 2
    assert enc.get("B").conditions[0].remaining == 2
    previous_turn(enc)
    previous_turn(enc)  # back to A's turn: Bleed 3, and A has not acted
    assert (enc.round, cur(enc)) == (1, "A")
    assert [e.remaining for c in enc.combatants for e in c.conditions] == [3, 3]
    assert [c.acted for c in enc.combatants] == [False, False]


def test_gen05_an_effect_that_expired_on_the_turn_comes_back_in_its_place() -> None:
    enc = make("AB")
    start(enc)
    add_effect(enc, "A", Effect("Stunned", remaining=1, tick="turn_end"))
    add_effect(enc, "A", Effect("Prone"))
    add_effect(enc, "A", Effect("Anomaly", remaining=8, tick="turn_end", note="disadvantage"))
    assert "Stunned on A expires" in next_turn(enc)
    assert [e.label() for e in enc.get("A").conditions] == ["Prone", "Anomaly 7"]
    previous_turn(enc)
    assert [e.label() for e in enc.get("A").conditions] == ["Stunned 1", "Prone", "Anomaly 8"]
    assert enc.get("A").conditions[2].note == "disadvantage"


def test_gen05_going_back_leaves_what_changed_since_the_turn_change() -> None:
    """alt+n takes back the turn change only: a count the GM reset by hand stays, and so does
    an effect added since."""
    enc = make("AB")
    start(enc)
    add_effect(enc, "A", Effect("Burn", remaining=3, tick="turn_end"))
    add_effect(enc, "A", Effect("Hex", remaining=5, tick="turn_end"))
    next_turn(enc)  # Burn 2, Hex 4
    enc.get("A").conditions[0].remaining = 9  # changed by hand since
    add_effect(enc, "A", Effect("Blessed", remaining=2, tick="round"))
    previous_turn(enc)
    assert [e.label() for e in enc.get("A").conditions] == ["Burn 9", "Hex 5", "Blessed 2"]


def test_soh10_previous_turn_gives_back_the_ap_a_pass_spent() -> None:
    enc = make("AB", model="ap_rounds")
    start_ap_round(enc, {"A": 6, "B": 5})
    spend_ap(enc, "A", 2)  # A 4, B 5: B acts
    assert cur(enc) == "B"
    next_turn(enc)  # B passes: its 5 AP are gone, A acts
    assert (cur(enc), enc.get("B").ap) == ("A", 0)
    assert previous_turn(enc)[0] == "Back to B's turn (round 1)"
    assert (cur(enc), enc.get("B").ap, enc.get("A").ap, enc.get("B").acted) == ("B", 5, 4, False)
    with pytest.raises(EncounterError, match="Nothing to go back to"):
        previous_turn(enc)  # the spend that gave B the turn is u's to undo
    # A pass that ends the round (everyone spent, AP refilled) goes back whole.
    next_turn(enc)
    next_turn(enc)
    assert (enc.round, enc.get("A").ap, enc.get("B").ap) == (2, 6, 5)
    previous_turn(enc)
    assert (enc.round, cur(enc), enc.get("A").ap, enc.get("B").ap) == (1, "A", 4, 0)


def test_gen04_previous_turn_takes_back_a_hold_and_chosen_next() -> None:
    enc = make("ABC")
    start(enc)
    hold(enc)
    assert (cur(enc), enc.get("A").held) == ("B", True)
    previous_turn(enc)
    assert (cur(enc), enc.get("A").held, enc.get("A").acted) == ("A", False, False)
    chosen = make("ABC", model="chosen_next")
    start(chosen)
    choose_next(chosen, "B")
    next_turn(chosen)  # B -> A (the first who may act)
    assert (cur(chosen), chosen.get("B").acted) == ("A", True)
    previous_turn(chosen)
    assert (cur(chosen), chosen.get("B").acted) == ("B", False)


def test_gen04_a_turn_moved_another_way_steps_the_pointer_back_as_before() -> None:
    enc = make("ABC")
    start(enc)
    add_effect(enc, "A", Effect("Burn", remaining=3, tick="turn_end"))
    next_turn(enc)  # Burn 2, B acts
    delay(enc)  # B waits: C acts, not recorded
    previous_turn(enc)  # no record for this turn: the pointer only
    assert cur(enc) == "A" and enc.get("A").conditions[0].remaining == 2
    assert enc.rewind == []


@settings(max_examples=80, deadline=None)
@given(
    names=st.integers(1, 6),
    model=st.sampled_from(["initiative", "ap_rounds", "chosen_next"]),
    before=st.lists(st.sampled_from(["next", "hold", "effect"]), max_size=12),
    ticks=st.lists(st.sampled_from(["turn_start", "turn_end", "round"]), max_size=4),
)
def test_gen04_property_next_then_previous_gives_back_the_same_fight(
    names: int, model: str, before: list[str], ticks: list[str]
) -> None:
    """Whatever happened before, n then alt+n leaves the fight as it was (but for the record)."""
    enc = make("ABCDEF"[:names], model=model)
    if model == "ap_rounds":
        start_ap_round(enc, {c.id: 2 + k % 3 for k, c in enumerate(enc.combatants)})
    else:
        start(enc)
    for k, tick in enumerate(ticks):
        owner = enc.combatants[k % names].id
        add_effect(enc, enc.combatants[-1].id, Effect("E", 1 + k % 3, tick, owner))  # type: ignore[arg-type]
    for op in before:
        with contextlib.suppress(EncounterError):
            if op == "next":
                next_turn(enc)
            elif op == "hold":
                hold(enc)
            else:
                add_effect(enc, "A", Effect("Dazed", remaining=2, tick="turn_start"))
    if enc.current is None and model == "chosen_next":
        choose_next(enc, "A")
    was = {**enc.to_dict(), "rewind": None}
    next_turn(enc)
    enc = Encounter.from_dict(json.loads(json.dumps(enc.to_dict())))  # saved between the keys
    previous_turn(enc)
    assert {**enc.to_dict(), "rewind": None} == was


def test_gen05_delay_does_not_tick_twice() -> None:
    enc = make("ABC")
    start(enc)
    add_effect(enc, "A", Effect("Haste", remaining=5, tick="turn_start"))
    add_effect(enc, "A", Effect("Burn", remaining=5, tick="turn_end"))
    next_turn(enc)
    next_turn(enc)
    next_turn(enc)  # round 2: A's turn start ticks Haste (added after round 1's start)
    haste, burn = enc.get("A").conditions
    assert (haste.remaining, burn.remaining) == (4, 4)
    delay(enc, 2)  # no end tick
    assert burn.remaining == 4
    next_turn(enc)
    next_turn(enc)  # A again: no second start tick
    assert cur(enc) == "A" and haste.remaining == 4
    next_turn(enc)  # A's turn ends now
    assert burn.remaining == 3


def test_gen05_hold_ticks_turn_end_once_even_with_use_held() -> None:
    enc = make("ABC")
    start(enc)
    add_effect(enc, "A", Effect("Burn", remaining=5, tick="turn_end"))
    hold(enc)  # A's turn ends: 4
    use_held(enc, "A")  # inserted before B
    next_turn(enc)  # A's inserted turn ends: no second tick this round
    assert enc.get("A").conditions[0].remaining == 4
    assert cur(enc) == "B"


def test_gen05_effects_of_removed_owner_pass_to_bearer() -> None:
    enc = make("ABC")
    start(enc)
    add_effect(enc, "C", Effect("Hexed", remaining=1, tick="turn_start", owner="B"))
    remove_combatant(enc, "B")
    assert enc.get("C").conditions[0].owner == "C"
    lines = next_turn(enc)
    assert "Hexed on C expires" in lines


# --------------------------------------------------------------------------- AP rounds


def ap_enc() -> Encounter:
    enc = Encounter(model="ap_rounds")
    add_combatants(
        enc,
        [
            Combatant(id="fast", name="Fast", side="npc", quickness=8),
            Combatant(id="slow", name="Slow", side="pc", quickness=2),
        ],
    )
    return enc


def test_soh10_fast_acts_first_and_acts_on_after_slow_is_spent() -> None:
    """SOH-10: the faster acts first at each step, and its extra AP come "towards the end of
    each round", after the slower one is spent (they once all came first)."""
    enc = ap_enc()
    start_ap_round(enc, {"fast": 9, "slow": 6})
    assert enc.round == 1
    assert (enc.get("fast").ap, enc.get("slow").ap) == (9, 6)
    actors = []
    while enc.round == 1:
        actor = current_combatant(enc)
        assert actor is not None
        actors.append(actor.id)
        spend_ap(enc, actor.id)
    # They alternate, the faster first (ties: higher Quickness), then Fast acts on alone.
    assert actors == ["fast", "slow"] * 6 + ["fast"] * 3
    assert enc.round == 2
    assert (enc.get("fast").ap, enc.get("slow").ap) == (9, 6)


def test_soh10_the_fights_end_leaves_no_spent_ap_for_the_next() -> None:
    """AP are a round's: once the fight ends nobody has spent any (a defeated one has none)."""
    enc = ap_enc()
    add_combatants(enc, [Combatant(id="down", name="Down", side="npc", quickness=4)])
    start_ap_round(enc, {"fast": 9, "slow": 6, "down": 7})
    spend_ap(enc, "fast", 2)
    set_defeated(enc, "down", True)
    end(enc)
    assert [(c.ap, c.ap_max) for c in enc.combatants] == [(9, 9), (6, 6), (0, 7)]


def test_soh10_ties_go_to_quickness_then_pcs_then_order() -> None:
    enc = Encounter(model="ap_rounds")
    add_combatants(
        enc,
        [
            Combatant(id="n", name="N", side="npc", quickness=4),
            Combatant(id="p", name="P", side="pc", quickness=4),
            Combatant(id="q", name="Q", side="pc", quickness=4),
        ],
    )
    start_ap_round(enc, {"n": 7, "p": 7, "q": 7})
    assert next_ap_actor(enc) is enc.get("p")
    spend_ap(enc, "p")
    assert cur(enc) == "Q"
    spend_ap(enc, "q")
    assert cur(enc) == "N"


def test_soh10_pass_spends_rest_and_round_refills() -> None:
    enc = ap_enc()
    start_ap_round(enc, {"fast": 7, "slow": 6})
    lines = pass_turn(enc, "fast")
    assert "Fast passes: gives up the 7 AP left this round" in lines
    assert enc.get("fast").acted and cur(enc) == "Slow"
    with pytest.raises(EncounterError, match="no AP"):
        pass_turn(enc, "fast")
    lines = next_turn(enc)  # next_turn in AP rounds = the actor passes
    assert "Round 2" in lines
    assert enc.round == 2 and cur(enc) == "Fast"
    assert not any(c.acted for c in enc.combatants)


def test_soh10_cannot_overspend_and_manual_ap() -> None:
    enc = ap_enc()
    start_ap_round(enc, {"fast": 7, "slow": 6})
    with pytest.raises(EncounterError, match="only 6 AP"):
        spend_ap(enc, "slow", 7)
    with pytest.raises(EncounterError):
        spend_ap(enc, "slow", 0)
    set_ap(enc, "slow", current=10)
    assert cur(enc) == "Slow"


def test_soh10_new_round_forced_and_turn_effects() -> None:
    enc = ap_enc()
    add_effect(enc, "slow", Effect("Dazed", remaining=1, tick="turn_end"))
    start_ap_round(enc, {"fast": 7, "slow": 6})
    spend_ap(enc, "slow", 5)
    assert enc.get("slow").conditions  # not spent yet
    lines = spend_ap(enc, "slow", 1)
    assert "Dazed on Slow expires" in lines
    start_ap_round(enc, {"fast": 8})
    assert enc.round == 2 and enc.get("fast").ap == 8 and enc.get("slow").ap == 6


def test_soh09_counter_costs_one_ap() -> None:
    enc = ap_enc()
    start_ap_round(enc, {"fast": 9, "slow": 6})
    lines = counter_action(enc, "slow")
    assert enc.get("slow").ap == 5
    assert lines[0] == "Slow spends 1 AP on a counter action (5 left)"
    counter_action(enc, "slow", cost=2)
    assert enc.get("slow").ap == 3
    with pytest.raises(EncounterError, match="initiative|ap_rounds"):
        counter_action(make("AB"), "A")


def test_soh10_remove_actor_passes_to_next() -> None:
    enc = ap_enc()
    start_ap_round(enc, {"fast": 9, "slow": 6})
    remove_combatant(enc, "fast")
    assert cur(enc) == "Slow"


# --------------------------------------------------------------------------- chosen-next


def test_chosen_next_round_ends_when_all_acted() -> None:
    enc = make("ABC", model="chosen_next")
    start(enc)
    assert enc.current is None and enc.round == 1
    choose_next(enc, "B")
    with pytest.raises(EncounterError, match="is acting now"):
        choose_next(enc, "B")
    choose_next(enc, "A")
    with pytest.raises(EncounterError, match="already acted"):
        choose_next(enc, "B")
    assert [c.id for c in choosable(enc)] == ["C"]
    choose_next(enc, "C")
    assert enc.round == 1 and choosable(enc) == []
    lines = choose_next(enc, "C")  # last actor may open the next round, itself included
    assert "Round 2" in lines
    assert enc.round == 2 and cur(enc) == "C"
    assert [c.acted for c in enc.combatants] == [False, False, False]


def test_chosen_next_next_turn_picks_first_available() -> None:
    enc = make("ABC", model="chosen_next")
    start(enc)
    next_turn(enc)
    assert cur(enc) == "A"
    choose_next(enc, "C")
    next_turn(enc)
    assert cur(enc) == "B"
    next_turn(enc)
    assert enc.round == 2 and cur(enc) == "A"


def test_chosen_next_effects_tick_on_turns() -> None:
    enc = make("AB", model="chosen_next")
    start(enc)
    add_effect(enc, "A", Effect("Shaken", remaining=1, tick="turn_end"))
    choose_next(enc, "A")
    lines = choose_next(enc, "B")
    assert "Shaken on A expires" in lines


# --------------------------------------------------------------------------- persistence & speed


def test_gen04_round_trip_mid_fight_json() -> None:
    enc = make("ABC")
    add_effect(enc, "B", Effect("Stunned", 2, "turn_start", rank=2, note="mace"))
    enc.get("A").stats = {"vitality": {"current": 4, "max": 10}}
    start(enc)
    hold(enc)
    data = json.loads(json.dumps(enc.to_dict()))
    again = Encounter.from_dict(data)
    assert again == enc
    assert again.to_dict() == enc.to_dict()
    next_turn(again)
    assert cur(again) == "C"


def test_gen04_three_hundred_combatants_turn_through_ten_rounds() -> None:
    # How fast is bench/encounter.py's to measure: a test asserts what the turns come to.
    enc = Encounter()
    add_group(enc, "Rat", 300, npc)
    for i, c in enumerate(enc.combatants):
        if i % 3 == 0:
            add_effect(enc, c.id, Effect("Poison", remaining=None))
    start(enc)
    for _ in range(3000):
        next_turn(enc)
    assert enc.round == 11 and enc.current == enc.combatants[0].id


# --------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 12), start_at=st.integers(0, 11), laps=st.integers(1, 3))
def test_gen04_property_n_laps_return_to_same_combatant(n: int, start_at: int, laps: int) -> None:
    enc = make("".join(chr(65 + i) for i in range(n)))
    start(enc)
    for _ in range(start_at % n):
        next_turn(enc)
    who, rnd = enc.current, enc.round
    for _ in range(laps * n):
        next_turn(enc)
    assert enc.current == who
    assert enc.round == rnd + laps


OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["next", "prev", "remove", "add", "dup", "delay", "hold", "use_held", "move", "sort"]
        ),
        st.integers(0, 20),
    ),
    max_size=40,
)


def apply_op(enc: Encounter, op: str, k: int, pick: str) -> None:
    if op == "next":
        next_turn(enc)
    elif op == "prev":
        previous_turn(enc)
    elif op == "remove":
        remove_combatant(enc, pick)
    elif op == "add":
        add_combatant(enc, Combatant(name="X", initiative=k))
    elif op == "dup":
        duplicate_combatant(enc, pick)
    elif op == "delay":
        delay(enc, 1 + k % 3)
    elif op == "hold":
        hold(enc)
    elif op == "use_held":
        use_held(enc, pick)
    elif op == "move":
        move_combatant(enc, pick, k % 5 - 2)
    else:
        sort_by_initiative(enc)


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 6), ops=OPS)
def test_gen04_property_current_never_dangles(size: int, ops: list[tuple[str, int]]) -> None:
    enc = make("ABCDEF"[:size])
    if size:
        start(enc)
    for op, k in ops:
        ids = [c.id for c in enc.combatants]
        pick = ids[k % len(ids)] if ids else "none"
        with contextlib.suppress(EncounterError):
            apply_op(enc, op, k, pick)
        ids = [c.id for c in enc.combatants]
        assert enc.current is None or enc.current in ids
        assert len(set(ids)) == len(ids)
        if enc.started and enc.current is not None:
            assert enc.round >= 1
        if enc.started and ids and op in ("next", "remove", "delay", "hold"):
            assert enc.current is not None


effects = st.builds(
    Effect,
    name=st.text(min_size=1, max_size=8),
    remaining=st.none() | st.integers(1, 9),
    tick=st.sampled_from(["turn_start", "turn_end", "round"]),
    rank=st.none() | st.integers(0, 4),
    note=st.text(max_size=10),
)
combatants = st.builds(
    Combatant,
    name=st.text(min_size=1, max_size=10),
    side=st.sampled_from(["pc", "npc"]),
    ref=st.none() | st.text(max_size=6),
    initiative=st.none() | st.integers(-5, 30),
    quickness=st.integers(0, 16),
    hidden=st.booleans(),
    ap=st.integers(0, 13),
    ap_max=st.integers(0, 13),
    held=st.booleans(),
    conditions=st.lists(effects, max_size=3),
    stats=st.dictionaries(
        st.text(max_size=5), st.integers() | st.text(max_size=5) | st.none(), max_size=3
    ),
)


@settings(max_examples=80, deadline=None)
@given(
    model=st.sampled_from(["initiative", "ap_rounds", "chosen_next"]),
    people=st.lists(combatants, max_size=6),
    steps=st.integers(0, 8),
)
def test_gen04_property_to_dict_round_trips(
    model: str, people: list[Combatant], steps: int
) -> None:
    enc = Encounter(id="x", name="Fight", model=model)
    add_combatants(enc, people)
    if people and model != "ap_rounds":
        start(enc)
        for _ in range(steps):
            next_turn(enc)
    data = enc.to_dict()
    text = json.dumps(data)
    again = Encounter.from_dict(json.loads(text))
    assert again == enc
    assert again.to_dict() == data


@settings(max_examples=80, deadline=None)
@given(
    aps=st.lists(st.integers(0, 13), min_size=1, max_size=5),
    quick=st.lists(st.integers(0, 16), min_size=5, max_size=5),
    spends=st.lists(st.tuples(st.integers(0, 4), st.integers(1, 3)), max_size=40),
)
def test_soh10_property_actor_spent_fewest_and_round_ends_when_all_spent(
    aps: list[int], quick: list[int], spends: list[tuple[int, int]]
) -> None:
    enc = Encounter(model="ap_rounds")
    add_combatants(
        enc,
        [Combatant(id=f"k{i}", name=f"K{i}", quickness=quick[i]) for i in range(len(aps))],
    )
    start_ap_round(enc, {f"k{i}": ap for i, ap in enumerate(aps)})
    for who, n in spends:
        target = enc.combatants[who % len(aps)]
        rnd, total = enc.round, sum(c.ap for c in enc.combatants)
        try:
            spend_ap(enc, target.id, n)
        except EncounterError:
            assert n > target.ap
            continue
        if total == n:  # that spend used the last AP anywhere: a new, refilled round
            assert enc.round == rnd + 1
            assert [c.ap for c in enc.combatants] == aps
        else:
            assert enc.round == rnd
        actor = current_combatant(enc)
        spent = [c.ap_max - c.ap for c in enc.combatants if c.ap > 0]
        assert actor is not None and actor.ap_max - actor.ap == min(spent)
        assert actor is next_ap_actor(enc)


@settings(max_examples=80, deadline=None)
@given(size=st.integers(1, 6), picks=st.lists(st.integers(0, 10), min_size=1, max_size=30))
def test_chosen_next_property_everyone_acts_once_per_round(size: int, picks: list[int]) -> None:
    enc = make("ABCDEF"[:size], model="chosen_next")
    start(enc)
    turns: dict[int, list[str]] = {}
    for k in picks:
        options = choosable(enc) or enc.combatants
        choose_next(enc, options[k % len(options)].id)
        turns.setdefault(enc.round, []).append(enc.current or "")
    for rnd, who in turns.items():
        assert len(who) == len(set(who))
        if rnd < enc.round:
            assert sorted(who) == sorted(c.id for c in enc.combatants)


def test_gen04_economy_resets_each_turn_and_rename() -> None:
    enc = make("AB")
    start(enc)
    use_economy(enc, "A", "movement")
    assert enc.get("A").economy == {"action": False, "reaction": False, "movement": True}
    with pytest.raises(EncounterError, match="Unknown action kind"):
        use_economy(enc, "A", "bonus")
    next_turn(enc)
    next_turn(enc)  # A's round-2 turn
    assert not any(enc.get("A").economy.values())
    assert rename_combatant(enc, "B", "Brute") == ["B is now Brute"]
    with pytest.raises(EncounterError):
        rename_combatant(enc, "B", " ")


# --------------------------------------------------------------------------- bulk joining


def _one_by_one(enc: Encounter, joining: list[Combatant]) -> Encounter:
    """The reference: all join at the bottom, then each with an initiative is placed in turn
    by :func:`place_by_initiative` (how joining was done before it was one merge)."""
    enc.combatants += joining
    for c in joining:
        if c.initiative is not None:
            place_by_initiative(enc, c.id)
    return enc


_roster = st.lists(
    st.tuples(st.sampled_from(["pc", "npc"]), st.none() | st.integers(0, 6)), max_size=8
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    there=_roster,
    joining=_roster,
    shuffled=st.booleans(),
    started_at=st.none() | st.integers(0, 7),
)
def test_gen04_many_joiners_are_placed_as_one_by_one(
    there: list[tuple[Literal["pc", "npc"], int | None]],
    joining: list[tuple[Literal["pc", "npc"], int | None]],
    shuffled: bool,
    started_at: int | None,
) -> None:
    """GEN-04: adding many at once (an import of 20,000) orders them exactly as adding them one
    at a time would: after those they tie with, PCs first, the turn where it was, and one placed
    above the one acting has missed this round (linear, not one scan per joiner)."""

    def fight() -> Encounter:
        enc = Encounter(id="e1", name="Bulk", model="initiative")
        for n, (side, init) in enumerate(there):
            enc.combatants.append(Combatant(id=f"t{n}", name=f"T{n}", side=side, initiative=init))
        if not shuffled:
            sort_by_initiative(enc)
        if started_at is not None and enc.combatants:
            start(enc)
            enc.current = enc.combatants[started_at % len(enc.combatants)].id
        return enc

    def newcomers() -> list[Combatant]:
        return [
            Combatant(id=f"j{n}", name=f"J{n}", side=side, initiative=init)
            for n, (side, init) in enumerate(joining)
        ]

    together, alone = fight(), _one_by_one(fight(), newcomers())
    add_combatants(together, newcomers())
    assert [(c.id, c.acted) for c in together.combatants] == [
        (c.id, c.acted) for c in alone.combatants
    ]
    assert together.current == alone.current


# --------------------------------------------------------------------------- group initiative


def goblins() -> Encounter:
    """Ann (a PC), three Goblins of one library NPC, an Ogre: initiatives 15, 12, 12, 12, 9."""
    enc = Encounter(id="e1", name="Ambush")
    add_combatants(
        enc,
        [
            Combatant(id="a", name="Ann", side="pc", initiative=15),
            *(
                Combatant(id=f"g{n}", name=f"Goblin {n}", ref="3", initiative=init)
                for n, init in ((1, 12), (2, 7), (3, 12))
            ),
            Combatant(id="o", name="Ogre", initiative=9),
        ],
    )
    return enc


def test_gen04_group_initiative_one_number_and_one_turn_for_the_group() -> None:
    """GEN-04: a group of the same NPC shares one initiative and acts together."""
    from rulesets.encounter import acting, group_key, previous_turn, set_group_initiative

    enc = goblins()
    assert group_key(enc.get("g2")) == "npc:3" and group_key(enc.get("a")) == ""
    assert group_key(Combatant(name="Wolf 2")) == "name:wolf"
    lines = set_group_initiative(enc, True)
    assert "1 group here" in lines[0]
    # The group takes its first member's number and stands together.
    assert [(c.name, c.initiative) for c in enc.combatants] == [
        ("Ann", 15), ("Goblin 1", 12), ("Goblin 3", 12), ("Goblin 2", 12), ("Ogre", 9)
    ]  # fmt: skip
    add_effect(enc, "g2", Effect("Dazed", remaining=2, tick="turn_start"))
    start(enc)
    assert cur(enc) == "Ann" and [c.name for c in acting(enc)] == ["Ann"]
    lines = next_turn(enc)
    assert lines[0] == "Goblin 1's turn, with Goblin 3 and Goblin 2 (group initiative)"
    assert [c.name for c in acting(enc)] == ["Goblin 1", "Goblin 3", "Goblin 2"]
    assert enc.get("g2").conditions[0].remaining == 1  # its turn began with the group's
    next_turn(enc)  # one n ends the group's turn
    assert cur(enc) == "Ogre"
    assert all(enc.get(f"g{n}").acted for n in (1, 2, 3))
    previous_turn(enc)  # alt+n takes the group's turn back whole
    assert cur(enc) == "Goblin 1" and not enc.get("g3").acted
    assert enc.get("g2").conditions[0].remaining == 1
    # Saved and read back.
    again = Encounter.from_dict(json.loads(json.dumps(enc.to_dict())))
    assert again.group_initiative and again.get("g3").group == "npc:3"
    assert [c.name for c in acting(again)] == ["Goblin 1", "Goblin 3", "Goblin 2"]
    # A defeated member is skipped; off again, each acts alone.
    next_turn(enc)
    next_turn(enc)
    assert cur(enc) == "Ann" and enc.round == 2
    enc.get("g1").defeated = True
    next_turn(enc)
    assert cur(enc) == "Goblin 3" and [c.name for c in acting(enc)] == ["Goblin 3", "Goblin 2"]
    with pytest.raises(EncounterError, match="between rounds"):
        set_group_initiative(enc, False)
    next_turn(enc)
    next_turn(enc)
    assert set_group_initiative(enc, False) == ["Group initiative off: each foe takes its own turn"]
    assert cur(enc) == "Ann"
    next_turn(enc)
    assert [c.name for c in acting(enc)] == ["Goblin 3"]


def test_gen04_a_delayed_member_leaves_its_group() -> None:
    from rulesets.encounter import acting, set_group_initiative

    enc = goblins()
    set_group_initiative(enc, True)
    start(enc)
    next_turn(enc)
    delay(enc, 1)
    assert enc.get("g1").group == "" and [c.name for c in acting(enc)] == ["Goblin 3", "Goblin 2"]
    assert names(enc)[1:4] == ["Goblin 3", "Goblin 2", "Goblin 1"]  # after the rest of it
    with pytest.raises(EncounterError, match="initiative"):
        set_group_initiative(make("AB", model="chosen_next"), True)

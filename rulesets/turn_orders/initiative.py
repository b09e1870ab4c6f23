"""Initiative order (Somnihil, resolution, Nemron; GEN-04): a fixed order by initiative.

``next_turn`` walks it and wraps into a new round; delay, hold and :func:`use_held` rearrange
it; a late joiner with an initiative goes to its place. These lived in :mod:`rulesets.encounter`
behind ``enc.model == "initiative"``; they are here so the encounter core holds only what every
order shares (the readings on delay and hold stay in that module's docstring).
"""

from __future__ import annotations

from rulesets import encounter as er
from rulesets.turn_orders.base import TurnOrder


class Initiative(TurnOrder):
    id = "initiative"
    name = "Initiative order"
    heading = "Init"
    uses_initiative = True
    actions = frozenset(
        {
            "roll_initiative",
            "roll_initiative_npcs",
            "reroll_initiative",
            "party_initiative",
            "group_initiative",
            "delay",
            "hold",
            "use_held",
        }
    )

    def cell(self, enc: er.Encounter, c: er.Combatant) -> str:
        return "–" if c.initiative is None else str(c.initiative)

    def previous_turn(self, enc: er.Encounter) -> list[str]:
        """Without a record the pointer steps back one place (into the previous round from the
        first) and ``acted`` is recomputed from the order."""
        cur = er.current_combatant(enc)
        if cur is None:
            raise er.EncounterError("Nobody is acting")
        here = enc.index_of(cur.id)
        # Back to the one still up before it: a defeated row had no turn to go back to.
        up = [k for k in range(here) if not enc.combatants[k].defeated]
        if up:
            i = up[-1]
        else:
            if enc.round <= 1:
                raise er.EncounterError("This is already the first turn of the fight")
            enc.round -= 1
            last = [k for k, c in enumerate(enc.combatants) if not c.defeated]
            i = last[-1] if last else len(enc.combatants) - 1
        while (
            i > 0
            and er.group_of(enc, enc.combatants[i])
            and (er.group_of(enc, enc.combatants[i - 1]) == er.group_of(enc, enc.combatants[i]))
        ):
            i -= 1  # a group's turn is taken back whole: to its first member
        enc.current = enc.combatants[i].id
        for k, c in enumerate(enc.combatants):
            c.acted = k < i
        return [f"Back to {enc.combatants[i].name}'s turn (round {enc.round})"]

    def joined(self, enc: er.Encounter, new: list[er.Combatant], placed: bool) -> list[str]:
        if not placed:
            # A late joiner with an initiative goes to its place in the order, not to the bottom.
            er._place_all(enc, [c for c in new if c.initiative is not None])
        return super().joined(enc, new, placed)


INITIATIVE = Initiative()


def delay(enc: er.Encounter, places: int = 1) -> list[str]:
    """GEN-04: the current combatant steps ``places`` down the order and the turn passes on.

    Its turn is paused, not ended: no turn-end tick now, and no second turn-start tick when
    its new place comes up. It cannot be delayed past the last place of the round.
    """
    er.require_order(enc, "initiative")
    er._require_started(enc)
    if places < 1:
        raise er.EncounterError("Delay by at least one place")
    cur = er.current_combatant(enc)
    if cur is None:
        raise er.EncounterError("Nobody is acting")
    i = enc.index_of(cur.id)
    # One of a group steps out of it: the rest of the group first, then ``places - 1`` more.
    with_it = len(er.group_run(enc, cur)) - 1
    j = min(i + places + (with_it - 1 if with_it else 0), len(enc.combatants) - 1)
    if j == i:
        raise er.EncounterError(f"{cur.name} is last in the order; end the turn or hold instead")
    cur.group = ""  # a delay takes it out of its group: the rest of the group acts on
    enc.combatants.insert(j, enc.combatants.pop(i))
    after = enc.combatants[j - 1].name
    return [f"{cur.name} delays until after {after}"] + er.begin_turn(enc, enc.combatants[i])


def hold(enc: er.Encounter) -> list[str]:
    """GEN-04 / NEM-06: the current combatant holds its action; its turn ends and passes on.

    The held action can be used later this round with :func:`use_held`; it lapses when the round
    ends.
    """
    er.require_order(enc, "initiative")
    er._require_started(enc)
    cur = er.current_combatant(enc)
    if cur is None:
        raise er.EncounterError("Nobody is acting")

    def held() -> list[str]:
        er._touch(enc, cur)
        cur.held = True
        return [f"{cur.name} holds an action"] + er._next_turn(enc)

    return er._recorded(enc, held)


def use_held(enc: er.Encounter, combatant_id: str) -> list[str]:
    """GEN-04: a holder acts now: it moves just before the current combatant and takes the turn.

    The interrupted combatant resumes when the holder's turn ends (no second turn-start tick).
    """
    er.require_order(enc, "initiative")
    er._require_started(enc)
    holder = enc.get(combatant_id)
    if not holder.held:
        raise er.EncounterError(f"{holder.name} is not holding an action")
    cur = er.current_combatant(enc)
    if cur is None or cur.id == holder.id:
        raise er.EncounterError(f"{holder.name} cannot interrupt now")
    enc.combatants.pop(enc.index_of(holder.id))
    enc.combatants.insert(enc.index_of(cur.id), holder)
    holder.held = False
    lines = [f"{holder.name} acts on a held action before {cur.name}"]
    lines += er.begin_turn(enc, holder)
    holder.economy["action"] = True
    return lines

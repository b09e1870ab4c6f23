"""Chosen-next (the 2d6 aspects game): the acting character names who acts next.

Only those who have not acted this round may be chosen; when everyone has acted the round ends
and anyone may open the next. Moved out of :mod:`rulesets.encounter` so the core holds only
what every turn order shares.
"""

from __future__ import annotations

from rulesets import encounter as er
from rulesets.turn_orders.base import TurnOrder


def choosable(enc: er.Encounter) -> list[er.Combatant]:
    """Who may be chosen to act next this round (not acted, not acting); empty = round over."""
    return [c for c in enc.combatants if not c.acted and not c.defeated and c.id != enc.current]


def choose_next(enc: er.Encounter, combatant_id: str) -> list[str]:
    """Aspects (chosen-next): the acting character names who acts next.

    Only someone who has not acted this round may be chosen; when everyone has acted the round
    ends and anyone (the last actor included) may open the next one.
    """
    if not isinstance(er.turn_order_of(enc), ChosenNext):
        raise er.EncounterError(
            f"Choosing who acts next works in the chosen-next order; this one is {enc.model}"
        )
    er._require_started(enc)
    target = enc.get(combatant_id)
    cur = er.current_combatant(enc)
    done = {c.id for c in enc.combatants if c.acted or c.defeated}
    if cur is not None:
        done.add(cur.id)
    round_over = len(done) >= len(enc.combatants)
    if target.defeated:
        raise er.EncounterError(f"{target.name} is out of the fight")
    if not round_over and cur is not None and target.id == cur.id:
        raise er.EncounterError(f"{target.name} is acting now: select who acts next, then c")
    if not round_over and target.id in done:
        raise er.EncounterError(f"{target.name} has already acted this round")
    lines: list[str] = []
    if cur is not None:
        lines += er.end_turn(enc, cur)
        lines.append(f"{cur.name} chooses {target.name}")
    if round_over:
        lines += er.new_round(enc)
    return lines + er.begin_turn(enc, target)


class ChosenNext(TurnOrder):
    id = "chosen_next"
    name = "Chosen-next"
    heading = ""
    actions = frozenset({"choose_next"})
    nobody_acting = "choose who acts (c)"

    def status(self, enc: er.Encounter) -> str:
        if not enc.started:
            return ""
        return f"Not yet acted: {len(choosable(enc))}; select one and press c"

    def turn_state(self, enc: er.Encounter, c: er.Combatant) -> str:
        return "acted" if c.acted else ("acting" if c.id == enc.current else "to act")

    def start(self, enc: er.Encounter) -> list[str]:
        return ["Choose who acts first"]

    def next_turn(self, enc: er.Encounter) -> list[str]:
        # The first in order who may still act is chosen (the GM chooses with c otherwise).
        # A new round opens with the first one still up.
        candidates = choosable(enc) or [er.first_up(enc, 0)]
        return choose_next(enc, candidates[0].id)

    def defeated(self, enc: er.Encounter, c: er.Combatant) -> list[str]:
        # A defeated one never holds the turn: its turn ends and the GM chooses who acts.
        if enc.current != c.id:
            return []
        enc.current = None
        return [*er.end_turn(enc, c), "Choose who acts next (c)"]

    def joined(self, enc: er.Encounter, new: list[er.Combatant], placed: bool) -> list[str]:
        return []  # nobody acting waits for the GM's choice

    def left(self, enc: er.Encounter, i: int) -> list[str]:
        return []  # nobody is current until the GM chooses


CHOSEN_NEXT = ChosenNext()

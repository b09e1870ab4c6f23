"""AP rounds (Shadows of Humanity, SOH-10): whoever has spent the fewest AP this round acts.

Each round every combatant gets its AP; spending moves the turn; the round ends when everyone
is spent and the next refills the AP (the readings are in :mod:`rulesets.encounter`'s
docstring). Moved out of the encounter core so the core holds only what every order shares.
"""

from __future__ import annotations

from rulesets import encounter as er
from rulesets.turn_orders.base import TurnOrder


def next_ap_actor(enc: er.Encounter) -> er.Combatant | None:
    """SOH-10: who acts now: fewest AP spent this round, then higher Quickness, then PCs, then
    order. Everyone's first action comes before anyone's second; a faster character's extra AP
    come at the end of the round, once the slower ones are spent."""
    best: er.Combatant | None = None
    best_key: tuple[int, int, bool] | None = None
    for c in enc.combatants:
        if c.ap <= 0 or c.defeated:
            continue
        key = (c.ap - c.ap_max, c.quickness, c.side == "pc")
        if best_key is None or key > best_key:
            best, best_key = c, key
    return best


def _refill_ap(enc: er.Encounter) -> list[str]:
    for c in enc.combatants:
        er._touch(enc, c)
        c.ap = 0 if c.defeated else c.ap_max
        c.acted = c.ap <= 0
    return []


def _refresh_ap_actor(enc: er.Encounter) -> list[str]:
    """Hand the turn to the SOH-10 actor; when everyone is spent a new round refills the AP."""
    lines: list[str] = []
    actor = next_ap_actor(enc)
    if actor is None and any(c.ap_max > 0 and not c.defeated for c in enc.combatants):
        lines += er.new_round(enc) + _refill_ap(enc)
        actor = next_ap_actor(enc)
    if actor is None:
        enc.current = None
        return lines
    if actor.id != enc.current:
        turn = er.begin_turn(enc, actor)
        turn[0] += f" ({actor.ap} AP left)"
        lines += turn
    return lines


def start_ap_round(enc: er.Encounter, ap_max_by_id: dict[str, int]) -> list[str]:
    """SOH-10: set AP maxes (from shadows.py: 5 + ceil(Quickness / 2)) and begin a round.

    Starts the fight if needed (round 1); otherwise forces a new round now, ending every
    unfinished turn. Combatants not in the mapping keep their current max.
    """
    er.require_order(enc, "ap")
    for cid, ap_max in ap_max_by_id.items():
        if ap_max < 0:
            raise er.EncounterError("AP cannot be negative")
        enc.get(cid).ap_max = int(ap_max)
    if not enc.started:
        return er.start(enc)
    lines: list[str] = []
    for c in enc.combatants:
        if not c.acted and c.turn_round == enc.round:
            lines += er.end_turn(enc, c)
    enc.current = None
    return lines + er.new_round(enc) + _refill_ap(enc) + _refresh_ap_actor(enc)


def set_ap(
    enc: er.Encounter, combatant_id: str, current: int | None = None, maximum: int | None = None
) -> list[str]:
    """Adjust a combatant's AP by hand (a late joiner, a GM ruling); the actor is re-picked."""
    c = enc.get(combatant_id)
    if maximum is not None:
        if maximum < 0:
            raise er.EncounterError("AP cannot be negative")
        c.ap_max = maximum
    if current is not None:
        if current < 0:
            raise er.EncounterError("AP cannot be negative")
        c.ap = current
    lines = [f"{c.name} has {c.ap}/{c.ap_max} AP"]
    if enc.started and enc.model == "ap_rounds":
        c.acted = c.ap <= 0
        lines += _refresh_ap_actor(enc)
    return lines


def spend_ap(enc: er.Encounter, combatant_id: str, n: int = 1, what: str = "") -> list[str]:
    """SOH-10: spend ``n`` AP of any combatant; at 0 its turn ends; then the actor is re-picked.

    When everyone is spent the round ends: the round counter goes up and AP refills.
    """
    er.require_order(enc, "ap")
    er._require_started(enc)
    c = enc.get(combatant_id)
    if n < 1:
        raise er.EncounterError("Spend at least 1 AP")
    if n > c.ap:
        raise er.EncounterError(f"{c.name} has only {c.ap} AP left")
    er._touch(enc, c)
    c.ap -= n
    lines = [f"{c.name} spends {n} AP{' on ' + what if what else ''} ({c.ap} left)"]
    if c.ap == 0:
        lines.append(f"{c.name} is spent")
        lines += er.end_turn(enc, c)
    return lines + _refresh_ap_actor(enc)


def counter_action(enc: er.Encounter, combatant_id: str, cost: int = 1) -> list[str]:
    """SOH-09: a counter action costs the counterer 1 AP (more if the GM rules so)."""
    return spend_ap(enc, combatant_id, cost, "a counter action")


def pass_turn(enc: er.Encounter, combatant_id: str) -> list[str]:
    """SOH-10: a combatant gives up the rest of its AP this round."""
    er.require_order(enc, "ap")
    er._require_started(enc)
    c = enc.get(combatant_id)
    if c.ap <= 0:
        raise er.EncounterError(f"{c.name} has no AP left this round")
    left = c.ap
    # Said as what it is: passing gives up every AP left this round, not one turn's worth.
    lines = spend_ap(enc, combatant_id, left, "passing")
    return [f"{c.name} passes: gives up the {left} AP left this round", *lines[1:]]


class APRounds(TurnOrder):
    id = "ap_rounds"
    name = "AP rounds"
    heading = "AP"
    uses_quickness = True
    uses_ap = True
    actions = frozenset({"spend_ap", "counter"})
    next_word = "Pass all AP"

    def cell(self, enc: er.Encounter, c: er.Combatant) -> str:
        return f"{c.ap}/{c.ap_max} AP"

    def status(self, enc: er.Encounter) -> str:
        return "a spend AP · x counter (1 AP) · n pass" if enc.started else ""

    def turn_state(self, enc: er.Encounter, c: er.Combatant) -> str:
        return "spent" if c.ap <= 0 else ""

    def start(self, enc: er.Encounter) -> list[str]:
        return _refill_ap(enc) + _refresh_ap_actor(enc)

    def next_turn(self, enc: er.Encounter) -> list[str]:
        cur = er.current_combatant(enc)
        if cur is None:
            raise er.EncounterError("Nobody has AP left; start a new AP round")
        return pass_turn(enc, cur.id)

    def joined(self, enc: er.Encounter, new: list[er.Combatant], placed: bool) -> list[str]:
        if not enc.started:
            return []
        for c in new:
            c.acted = c.ap <= 0
        cur = er.current_combatant(enc)
        # A reinforcement never takes the turn from whoever is acting: it acts once the
        # actor's spend hands the turn on (SOH-10's "fewest AP spent" is asked again then).
        if cur is None or cur.ap <= 0 or cur.defeated:
            return _refresh_ap_actor(enc)
        return []

    def left(self, enc: er.Encounter, i: int) -> list[str]:
        return _refresh_ap_actor(enc)

    def defeated(self, enc: er.Encounter, c: er.Combatant) -> list[str]:
        c.ap = 0
        c.acted = True
        if enc.current == c.id:
            return er.end_turn(enc, c) + _refresh_ap_actor(enc)
        return []


AP_ROUNDS = APRounds()


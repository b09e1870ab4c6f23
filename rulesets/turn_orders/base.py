"""What a turn order is, as one object a game can declare.

The tracker used to know three turn orders by name and asked ``enc.model == "..."`` wherever
one differed. A :class:`TurnOrder` says everything that differs instead: its column in the
tracker (heading and each combatant's cell), its part of the status line, each combatant's turn
state, the tracker actions that only make sense in it, and how the fight moves in it (start,
next turn, back, a combatant joining, leaving or falling). A game may declare its own
(``Game.turn_orders``) and play it in the tracker without the app learning its name.

The defaults are a fixed order walked top to bottom, wrapping into a new round: a subclass
changes only what differs. Pure Python like the rest of :mod:`rulesets`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets import encounter as er

if TYPE_CHECKING:
    from rulesets.turn_orders.table import Table


class TurnOrder:
    """One turn order. Subclass it (or instantiate it: the defaults walk the list in order)."""

    id: str = "fixed"
    name: str = "fixed order"
    """What the GM reads: ``"initiative"``, ``"AP rounds"``."""
    heading: str = ""
    """The tracker's order column title ("Init", "AP"); "" leaves the column empty."""
    actions: frozenset[str] = frozenset()
    """Tracker action ids that only make sense in this order: hidden and inert in the others."""
    uses_initiative: bool = False
    """Combatants have an initiative that places them (the forms ask for one)."""
    uses_quickness: bool = False
    """Combatants have a Quickness that the order reads (the forms ask for one)."""
    uses_ap: bool = False
    """Combatants spend action points that refill each round (each joins with its max)."""
    next_word: str = "Next turn"
    """What ``n`` (:meth:`next_turn`) does in this order, in the GM's words on the Footer."""
    nobody_acting: str = "n hands out the turn"
    """The title's words while nobody acts in a running fight: how the GM goes on."""

    def __init__(self, id: str | None = None, name: str | None = None) -> None:
        if id is not None:
            self.id = id
        if name is not None:
            self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"

    @property
    def table(self) -> Table:
        """The campaign's random source (``table.rng``) and its game's decks
        (``table.deck(id)``, ``table.keep(id)``) during the change that calls this turn order
        (``tableside_api.Table``): a card-initiative order deals from it."""
        from rulesets.turn_orders.table import current

        return current()

    # --- what the tracker shows ---------------------------------------------------------------
    def cell(self, enc: er.Encounter, c: er.Combatant) -> str:
        """The order column's text for ``c``."""
        return ""

    def status(self, enc: er.Encounter) -> str:
        """This order's part of the tracker's status line ("" for none)."""
        return ""

    def turn_state(self, enc: er.Encounter, c: er.Combatant) -> str:
        """The Turn column for ``c`` in a running fight, apart from holding and game notes."""
        return "acted" if c.acted and not c.held else ""

    # --- how the fight moves ------------------------------------------------------------------
    def start(self, enc: er.Encounter) -> list[str]:
        """Round 1 has begun (its effects ticked): hand out the first turn."""
        return er.begin_turn(enc, er.first_up(enc, 0))

    def next_turn(self, enc: er.Encounter) -> list[str]:
        """End the turn on screen and pass it on (recorded for going back by the core)."""
        cur = er.current_combatant(enc)
        if cur is None:
            return er.begin_turn(enc, er.first_up(enc, 0))
        run = er.group_run(enc, cur)
        lines: list[str] = []
        for member in run:  # a group's turn ends together (GEN-04 group initiative)
            lines += er.end_turn(enc, member)
        i = enc.index_of(run[-1].id)
        n = len(enc.combatants)
        up = [k for k in range(i + 1, n) if not enc.combatants[k].defeated]
        if up:
            return lines + er.begin_turn(enc, enc.combatants[up[0]])
        # The round ends once, here, and the next begins with the first one still up: a
        # defeated row at the bottom never takes a turn of its own (nor a round of its own).
        return lines + er.new_round(enc) + er.begin_turn(enc, er.first_up(enc, 0))

    def previous_turn(self, enc: er.Encounter) -> list[str]:
        """Back one turn when the core has no record of the turn change (default: refused)."""
        raise er.EncounterError(
            "Nothing to go back to: alt+n takes back a turn n passed (u undoes)"
        )

    def joined(self, enc: er.Encounter, new: list[er.Combatant], placed: bool) -> list[str]:
        """``new`` were just inserted (``placed``: at a place the GM chose)."""
        if enc.started and enc.current is None and new:
            # A fight emptied mid-round resumes with whoever joins first, not with nobody acting.
            return er.begin_turn(enc, er.first_up(enc, 0))
        return []

    def left(self, enc: er.Encounter, i: int) -> list[str]:
        """The acting combatant left from place ``i`` of a running fight; nobody is current."""
        if all(c.defeated for c in enc.combatants[i:]):
            lines = er.new_round(enc)
            i = 0
        else:
            lines = []
        return lines + er.begin_turn(enc, er.first_up(enc, i))

    def defeated(self, enc: er.Encounter, c: er.Combatant) -> list[str]:
        """``c`` was just marked defeated in a running fight. A defeated combatant never holds
        the turn: if it was acting, the rest of its group acts on, else the turn passes on."""
        if enc.current != c.id:
            return []
        rest = [m for m in er.group_run(enc, c)[1:] if not m.defeated]
        if rest:  # its group's turn began with it: the next of them takes it on
            enc.current = rest[0].id
            return [f"{rest[0].name}'s turn goes on (its group)"]
        return self.next_turn(enc)

"""What a turn order may use besides the encounter: the campaign's random source and its
game's decks (a card-initiative game deals every round from its own deck).

The encounter core hands a turn order the :class:`~rulesets.encounter.Encounter` alone, and it
is called from deep inside the core (a combatant joining, one falling), so the table is not
threaded through every call: the campaign's one change path (``Campaign.apply``) seats each
change at the table (:func:`seated`) and :attr:`TurnOrder.table
<rulesets.turn_orders.base.TurnOrder.table>` reads it. The random source is still the one
injected into the change (``tx.rng``): a seeded campaign deals the same cards again, and a deck
changed by a turn order is written in the same change, so one undo takes back the turn and the
deal together. Outside a change (a unit test of a turn order) there is no table: a test seats
its own.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from rulesets.base import RuleError

if TYPE_CHECKING:
    # Only a game with cards reads the deck rules: a game without starts without them.
    from rulesets.decks import DeckState
    from rulesets.table import Tx


class Table:
    """The campaign as a turn order may use it, during one change."""

    def __init__(self, tx: Tx) -> None:
        self.tx = tx
        self._decks: dict[str, tuple[int | None, DeckState[Any]]] = {}

    @property
    def rng(self) -> random.Random:
        """The campaign's seeded random source (the change's)."""
        return self.tx.rng

    def deck(self, deck_id: str) -> DeckState[Any]:
        """The game's deck of that id as it stands in this change (shuffled new if never
        used); change it (``draw``, ``give``, ``reshuffle_discards``) and :meth:`keep` it."""
        from rulesets.decks import load_deck

        if deck_id not in self._decks:
            self._decks[deck_id] = load_deck(self.tx, deck_id)
        return self._decks[deck_id][1]

    def keep(self, deck_id: str) -> None:
        """Write the deck back, in the same change (undone with it)."""
        from rulesets.decks import save_deck

        doc_id, state = self._decks[deck_id]
        save_deck(self.tx, doc_id, state)
        if doc_id is None:  # the new deck's document: found again by its kind next time
            del self._decks[deck_id]


_SEATED: ContextVar[Table | None] = ContextVar("turn_order_table", default=None)


@contextlib.contextmanager
def seated(tx: Tx) -> Iterator[Table]:
    """Every turn order called inside uses this change's table."""
    table = Table(tx)
    token = _SEATED.set(table)
    try:
        yield table
    finally:
        _SEATED.reset(token)


def current() -> Table:
    """The table of the change under way; a refusal outside one."""
    table = _SEATED.get()
    if table is None:
        raise RuleError("a turn order deals and rolls only inside a change (Campaign.apply)")
    return table

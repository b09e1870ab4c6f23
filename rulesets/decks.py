"""Tarot decks kept in the campaign: each deck is one document of the ``decks`` table.

``{"kind": "minor", **DeckState.to_dict()}``, created by the first command that needs it
(shuffled with the transaction's rng). A command loads the :class:`~rulesets.tarot.DeckState`,
lets the rules act on it and puts it back, so deck order, discards and hands are part of the
campaign and of undo.

A Major Arcana card a PC holds (listed on its sheet under :data:`HELD`, SOH-04) is out of the
Major deck: every read of that deck (:func:`load_deck`, :func:`find_deck` with the party) puts
it in that PC's hand first, so it is neither counted to draw nor drawn again, and a card a PC
no longer lists goes back to the discards. The sheet is the record; the deck follows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesets.table import Tx
from rulesets.tarot import Card, DeckError, DeckKind, DeckState, as_card, full_deck

DECKS: tuple[DeckKind, ...] = ("minor", "major")
HELD = "major_arcana"
"""The sheet list of the Major Arcana a PC holds."""

Rows = Sequence[tuple[int, dict[str, Any]]]


def held_by(party: Rows) -> dict[str, list[Card]]:
    """Each PC's held Major Arcana by party id (text); a card listed twice counts once."""
    listed: dict[str, list[Card]] = {}
    claimed: set[str] = set()
    for pid, pc in party:
        lists = pc.get("lists") if isinstance(pc, dict) else None
        entries = lists.get(HELD) if isinstance(lists, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            try:
                card = as_card(entry)
            except (DeckError, ValueError, KeyError, TypeError, AttributeError):
                continue  # a hand-edited entry that is no card holds nothing
            if card.deck == "major" and card.key not in claimed:
                claimed.add(card.key)
                listed.setdefault(str(pid), []).append(card)
    return listed


def _take_out(state: DeckState, key: str) -> None:
    for pile in (state.draw_pile, state.discard, *state.hands.values()):
        for i, card in enumerate(pile):
            if card.key == key:
                del pile[i]
                state.hands = {h: cards for h, cards in state.hands.items() if cards}
                return


def hold_listed(state: DeckState, party: Rows) -> None:
    """SOH-04: the Major Arcana the party's sheets list go to their holders' hands; a card in a
    PC's hand that its sheet no longer lists goes back to the discards."""
    if state.deck != "major":
        return
    listed = held_by(party)
    pcs = {str(pid) for pid, _ in party}
    for holder in [h for h in state.hands if h in pcs or h.isdigit()]:
        keep = {c.key for c in listed.get(holder, [])}
        for card in state.hand(holder):
            if card.key not in keep:
                state.discard.append(state.remove_from_hand(holder, card))
    for holder, cards in listed.items():
        have = {c.key for c in state.hand(holder)}
        for card in cards:
            if card.key not in have:
                _take_out(state, card.key)
                state.give(holder, [card])


def find_deck(rows: Rows, kind: str, party: Rows = ()) -> tuple[int | None, DeckState]:
    """Read a deck from the "decks" rows (no write); a fresh unshuffled one if none yet. With
    the party's rows, the Major Arcana its PCs hold are out of the deck (:func:`hold_listed`)."""
    deck: DeckKind = "major" if kind == "major" else "minor"
    found: tuple[int | None, DeckState] = (None, DeckState(deck, full_deck(deck)))
    for doc_id, doc in rows:
        if doc.get("kind") == kind:
            found = doc_id, DeckState.from_dict(doc)
            break
    hold_listed(found[1], party)
    return found


def load_deck(tx: Tx, kind: DeckKind) -> tuple[int | None, DeckState]:
    """The campaign's deck of that kind, or a new shuffled one (saved by :func:`save_deck`)."""
    if kind not in DECKS:
        raise DeckError(f"unknown deck {kind!r}; use minor or major")
    for doc_id, doc in tx.all("decks"):
        if doc.get("kind") == kind:
            try:
                state = DeckState.from_dict(doc)
            except DeckError as exc:
                raise DeckError(f"the saved {kind} deck is damaged: {exc}") from None
            hold_listed(state, tx.all("party"))
            return doc_id, state
    state = DeckState.new(kind, tx.rng)
    hold_listed(state, tx.all("party"))
    return None, state


def save_deck(tx: Tx, doc_id: int | None, state: DeckState) -> None:
    state.validate()
    doc = {"kind": state.deck, **state.to_dict()}
    if doc_id is None:
        tx.insert("decks", doc)
    else:
        tx.put("decks", doc_id, doc)


@dataclass(frozen=True)
class DrawCards:
    """SOH-01: draw cards face up onto the discards (a reshuffle, if needed, is logged)."""

    deck: DeckKind = "minor"
    count: int = 1

    @property
    def label(self) -> str:
        return f"Draw {self.count} {self.deck}"

    def run(self, tx: Tx) -> list[str]:
        if not 1 <= self.count <= 78:
            raise DeckError("draw between 1 and 78 cards")
        doc_id, state = load_deck(tx, self.deck)
        result = state.draw(tx.rng, self.count)
        save_deck(tx, doc_id, state)
        lines = list(result.events)
        meanings = [
            f"{c.label} — {c.meaning()}" if c.deck == "major" else c.label for c in result.cards
        ]
        lines.append(f"{state.title} drawn: " + "; ".join(meanings))
        return lines

"""Tarot decks kept in the campaign: each deck is one document of the ``decks`` table.

``{"kind": "minor", **DeckState.to_dict()}``, created by the first command that needs it
(shuffled with the transaction's rng). A command loads the :class:`~rulesets.tarot.DeckState`,
lets the rules act on it and puts it back, so deck order, discards and hands are part of the
campaign and of undo.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesets.table import Tx
from rulesets.tarot import DeckError, DeckKind, DeckState, full_deck

DECKS: tuple[DeckKind, ...] = ("minor", "major")


def find_deck(rows: list[tuple[int, dict[str, Any]]], kind: str) -> tuple[int | None, DeckState]:
    """Read a deck from the "decks" rows (no write); a fresh unshuffled one if none yet."""
    for doc_id, doc in rows:
        if doc.get("kind") == kind:
            return doc_id, DeckState.from_dict(doc)
    deck: DeckKind = "major" if kind == "major" else "minor"
    return None, DeckState(deck, full_deck(deck))


def load_deck(tx: Tx, kind: DeckKind) -> tuple[int | None, DeckState]:
    """The campaign's deck of that kind, or a new shuffled one (saved by :func:`save_deck`)."""
    if kind not in DECKS:
        raise DeckError(f"unknown deck {kind!r}; use minor or major")
    for doc_id, doc in tx.all("decks"):
        if doc.get("kind") == kind:
            try:
                return doc_id, DeckState.from_dict(doc)
            except DeckError as exc:
                raise DeckError(f"the saved {kind} deck is damaged: {exc}") from None
    return None, DeckState.new(kind, tx.rng)


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

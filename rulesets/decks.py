"""Tarot decks kept in the campaign: each deck is one document of the ``decks`` table.

``{"kind": "minor", **DeckState.to_dict()}``, created by the first command that needs it
(shuffled with the transaction's rng). A command loads the :class:`~rulesets.tarot.DeckState`,
lets the rules act on it and puts it back, so deck order, discards and hands are part of the
campaign and of undo.
"""

from __future__ import annotations

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

"""What the table may see of the cards: deck counts, one hand shown, the others counted.

Any game's decks read the same way: the deck's own :class:`~rulesets.decks.CardText` says how a
card reads, and the decks whose hands the tray shows say so (``DeckSpec.hand``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import OptionList

from rulesets.decks import CardText, DeckState
from widgets.literal import clean


class HandList(OptionList):
    """The shown hand: ``j`` and ``k`` move along its cards, as along every list (a card
    game's keys never take them: a slip must not draw or burn a card)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]


def card_text(card: CardText) -> Text:
    """A card for a list: ``Queen of Cups (13) face``, ``The Tower — Sudden change …``."""
    text = Text()
    text.append(card.name, style=f"bold {card.colour or 'magenta'}")
    if card.short:
        text.append(f" {card.short}", style="dim")
    for mark in card.marks:
        text.append(f" {mark}", style="italic")
    if card.meaning:
        text.append(f" — {card.meaning}", style="dim")
    return text


def hand_counts(decks: Sequence[DeckState[Any]]) -> dict[str, int]:
    """How many cards each holder holds of the decks whose hands the tray shows."""
    counts: dict[str, int] = {}
    for state in decks:
        if state.spec.hand:
            for holder, count in state.hand_counts().items():
                counts[holder] = counts.get(holder, 0) + count
    return counts


def deck_status(
    decks: Sequence[DeckState[Any]],
    names: Mapping[str, str],
    shown: str | None,
    empty: str = "No hands dealt",
    compact: bool = False,
    others: Mapping[str, str] | None = None,
) -> Text:
    """Draw pile and discard counts of each deck, then every hand as a count (the shown one
    marked). ``compact``: the decks on one line, without the top discard (a short screen,
    where the row goes to a card of the shown hand; the log names every discard), and the
    hands of ``others`` (foes, by holder) as their counts alone, after the characters'."""
    text = Text()
    for index, state in enumerate(decks):
        text.append(f"{state.title}: ", style="bold")
        text.append(f"{len(state.draw_pile)} to draw, {len(state.discard)} discarded")
        if compact:
            text.append(" · " if index < len(decks) - 1 else "\n")
            continue
        if state.discard:
            top = state.spec.read(state.discard[-1]).name
            text.append(f" (top: {clean(top, 60)})", style="dim")
        text.append("\n")
    counts = hand_counts(decks)
    if not counts:
        text.append(empty, style="dim")
    else:
        text.append("Hands: ", style="bold")
        parts = []
        grouped = []
        for holder, count in counts.items():
            if compact and others and holder in others and holder != shown:
                grouped.append(str(count))
                continue
            marker = "▶ " if holder == shown else ""
            name = names.get(holder) or (others or {}).get(holder, holder)
            parts.append(f"{marker}{clean(name, 24)} {count}")
        if grouped:
            parts.append("foes " + "/".join(grouped))
        text.append(" · ".join(parts))
    return text

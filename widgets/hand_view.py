"""What the table may see of the cards: deck counts, one hand shown, the others counted."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from rulesets.tarot import Card, DeckState
from widgets.literal import clean


def card_text(card: Card) -> Text:
    """A card for a list: ``Queen of Cups (13)``; a Major Arcana with its meaning."""
    text = Text()
    suit_style = {"Cups": "cyan", "Coins": "yellow", "Swords": "white", "Wands": "red"}
    text.append(card.label, style=f"bold {suit_style.get(card.suit or '', 'magenta')}")
    if card.deck == "minor":
        text.append(f" ({card.value})", style="dim")
        if card.is_face:
            text.append(" face", style="italic")
    else:
        text.append(f" — {card.meaning()}", style="dim")
    return text


def deck_status(
    minor: DeckState,
    major: DeckState,
    names: Mapping[str, str],
    shown: str | None,
    empty: str = "No hands dealt",
    compact: bool = False,
    others: Mapping[str, str] | None = None,
) -> Text:
    """Draw pile and discard counts, then every hand as a count (the shown one marked).
    ``compact``: both decks on one line, without the top discard (a short screen, where the
    row goes to a card of the shown hand; the log names every discard), and the hands of
    ``others`` (foes, by holder) as their counts alone, after the characters'."""
    text = Text()
    for index, state in enumerate((minor, major)):
        text.append(f"{state.title}: ", style="bold")
        text.append(f"{len(state.draw_pile)} to draw, {len(state.discard)} discarded")
        if compact:
            text.append(" · " if index == 0 else "\n")
            continue
        if state.discard:
            text.append(f" (top: {state.discard[-1].label})", style="dim")
        text.append("\n")
    counts = minor.hand_counts()
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

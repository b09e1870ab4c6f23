"""A hand of cards a player holds privately, and anything else the game shows of their PC."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from rulesets.players import Hand
from widgets.literal import clean


def hand_text(owner: str, hands: Sequence[Hand]) -> Text:
    """``Agnes Thorne — Hand: Queen of Hearts (12), …`` one hand a line."""
    text = Text()
    for hand in hands:
        text.append(f"{clean(owner, 40)} — {hand.title}: ", style="bold")
        text.append(", ".join(clean(card, 120) for card in hand.cards) or "none", style="cyan")
        text.append("\n")
    return text


class CardHand(Static):
    """The unlocked PC's hands; empty until a player has typed their code."""

    def show(self, owner: str, hands: Sequence[Hand]) -> None:
        self.update(hand_text(owner, hands) if hands else "")

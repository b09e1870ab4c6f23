"""The tray's cards: every deck's counts and the hands as counts, and one hand shown.

The tray calls :meth:`HandBox.show` with the decks as they lie and whose hand is shown; the
shown hand's list (``#hand-cards``) posts Textual's ``OptionList.OptionSelected`` when the GM
plays a card (enter), which the tray turns into the game's play command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from rulesets.checks import CardTable, Rows
from rulesets.decks import DeckState
from widgets.hand_view import HandList, card_text, deck_status
from widgets.literal import clean


def short_names(names: dict[str, str]) -> dict[str, str]:
    """First names where they tell the holders apart (a short screen's hand counts, with the
    foes' beside them, fit one line at 80 columns); full names where two share one."""
    first = {key: name.split()[0] if name.split() else name for key, name in names.items()}
    taken = list(first.values())
    return {
        key: first[key] if taken.count(first[key]) == 1 else name for key, name in names.items()
    }


class HandBox(Vertical):
    """The deck status line and the shown hand's box."""

    def compose(self) -> ComposeResult:
        yield Static("", id="deck-status", markup=False)
        yield HandList(id="hand-cards")

    @property
    def hand(self) -> OptionList:
        return self.query_one("#hand-cards", OptionList)

    def show(
        self,
        table: CardTable,
        decks: Sequence[DeckState[Any]],
        party: Sequence[tuple[int, dict[str, Any]]],
        rows: Rows,
        shown: str | None,
        *,
        short: bool,
        show_key: str,
    ) -> None:
        """The decks and hands as they lie; ``shown``: whose hand is shown (None: hidden)."""
        named = table.holder or (lambda doc: str(doc.get("name", "?")))
        others = dict(table.others(rows))  # a foe's hand: the GM sees its count
        names = {**others, **{str(pid): named(doc) for pid, doc in party}}
        # Short: the holders' plain names (the shown hand's title says its holder in full), so
        # every hand's count fits one line and the rows go to the shown hand's cards.
        counted = short_names({str(pid): str(doc.get("name", "?")) for pid, doc in party})
        status = deck_status(
            decks,
            counted if short else names,
            shown,
            empty=table.empty,
            compact=short,
            others=others,
        )
        for line in table.status(rows):
            status.append("\n" + clean(line, 200))
        self.query_one("#deck-status", Static).update(status)
        hand = self.hand
        highlighted = hand.highlighted
        hand.clear_options()
        with_hands = [state for state in decks if state.spec.hand]
        if shown is not None:
            cards = [(s.spec, c) for s in with_hands for c in s.hand(shown)]
            what = with_hands[0].spec.hand if with_hands else "Hand"
            hand.border_title = f"{what}: {names.get(shown, '?')} · enter plays"
            hand.add_options([Option(card_text(spec.read(c)), id=c.key) for spec, c in cards])
            if cards:
                hand.highlighted = min(highlighted or 0, len(cards) - 1)
        else:
            hand.border_title = f"Hand hidden ({show_key} shows the chosen character's hand)"
        # Short: an empty hand's box gives way (the deck status says whether hands are dealt).
        hand.set_class(hand.option_count == 0, "-empty")

    def count_hand(self) -> None:
        """A hand longer than its box says how many cards it shows of how many."""
        hand = self.hand
        rows, count = hand.scrollable_content_region.height, hand.option_count
        more = hand.display and 0 < rows < count
        hand.border_subtitle = f"{rows} of {count} cards · j k or ↑ ↓ for the rest" if more else ""

    def highlighted_card(self) -> str | None:
        """The highlighted card's key in the shown hand, if any."""
        hand = self.hand
        if hand.highlighted is None or not hand.option_count:
            return None
        return hand.get_option_at_index(hand.highlighted).id

"""What the GM's last change did, under the panel's data instead of a toast over it."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Static

from widgets.literal import literal

SHOWN = 3
"""Rows the last change's lines may take on screen; the rest are in the log."""


def fitted(lines: list[str], rows_of: Callable[[str], int], rows: int = SHOWN) -> str:
    """The newest of ``lines`` that fit ``rows`` rows whole (``rows_of`` says how many rows a
    text wraps to), joined after ``›``; those left out are counted, never cut mid-word:
    ``› 2 more in the roll log · Goblin 4: …; Goblin 5: …``."""
    shown = [line for line in lines if line]
    if not shown:
        return ""
    for k in range(len(shown), 0, -1):
        more = len(shown) - k
        text = ("› " if not more else f"› {more} more in the roll log · ") + "; ".join(shown[-k:])
        if rows_of(text) <= rows:
            return text
    return text  # even the newest line alone is longer: it wraps and the rest is cut


class EventLine(Static):
    """The last change's lines, wrapped to the width, whole (never cut mid-word); hidden when
    empty.

    Toasts stacked over the Health column for seconds at a time; a line under the
    data says the same without covering it, and stays until the next change.
    """

    DEFAULT_CSS = """
    EventLine {
        height: auto; max-height: 3; padding: 0 1; color: $text; background: $boost;
        display: none;
    }
    EventLine.-said { display: block; }
    """

    def say(self, lines: list[str]) -> None:
        """Show the last few lines of a change (an empty list clears the line)."""
        text = fitted(lines, self.rows_of)
        self.set_class(bool(text), "-said")
        self.update(literal(text, limit=1000) if text else "")

    def rows_of(self, text: str) -> int:
        """Rows ``text`` wraps to at this line's width (the screen's, before it is shown)."""
        width = self.content_size.width or max(1, self.app.size.width - 2)
        return len(literal(text, limit=1000).wrap(self.app.console, width))

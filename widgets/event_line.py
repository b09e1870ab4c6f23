"""What the GM's last change did, under the panel's data instead of a toast over it."""

from __future__ import annotations

from textual.widgets import Static

from widgets.literal import literal

SHOWN = 3
"""How many lines of the last change stay on screen; the rest are in the log."""


class EventLine(Static):
    """The last change's lines, wrapped in full (never cut to an ellipsis); hidden when empty.

    Toasts stacked over the Health column for seconds at a time (issue 15); a line under the
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
        shown = [line for line in lines if line][-SHOWN:]
        self.set_class(bool(shown), "-said")
        self.update(literal("› " + "; ".join(shown), limit=1000) if shown else "")

"""The app's text field: Textual's ``Input``, drawn without any hidden character."""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import Input

from rulesets.text import has_hidden, without_hidden


def drawn_safe(strip: Strip) -> Strip:
    """``strip`` with every control, bidi and zero-width character removed from its text
    (never from the cursor moves and styles Textual adds), as wide as it was."""
    if not has_hidden(strip.text):
        return strip
    segments = [
        segment if control else Segment(without_hidden(text), style, control)
        for segment in strip
        for text, style, control in (segment,)
    ]
    return Strip(segments).adjust_cell_length(strip.cell_length)


class TextField(Input):
    """An ``Input`` for every text the GM types or edits in Tableside.

    A field being edited holds its text as it is (a name from the save is saved back
    unchanged), so it cannot be made visible the way shown text is (``rulesets.text.visible``):
    the field draws it without the hidden characters instead, so a name or a paste laced with
    terminal escapes cannot run one. Use it wherever an ``Input`` would go.
    """

    def render_line(self, y: int) -> Strip:
        return drawn_safe(super().render_line(y))

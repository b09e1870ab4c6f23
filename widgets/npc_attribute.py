"""A Brawl / Wit / Will field the GM changes with + and - (NPC-01), without typing digits.

Digits stay free for panel switching because this is not an Input: it takes focus, shows
``Brawl  +2`` and posts :class:`AttributeField.Changed` when the value moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.widgets import Static


class AttributeField(Static, can_focus=True):
    """One NPC attribute between ``minimum`` and ``maximum``; + raises it, - lowers it."""

    DEFAULT_CSS = """
    AttributeField { height: 1; width: 1fr; padding: 0 1; }
    AttributeField:focus { background: $accent; color: $text; text-style: bold; }
    AttributeField.-disabled { color: $text-disabled; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign,right", "step(1)", "+1", id="npc.attribute.up"),
        Binding("minus,left", "step(-1)", "-1", id="npc.attribute.down"),
    ]

    value: Reactive[int] = reactive(0)
    """The attribute's value."""

    @dataclass
    class Changed(Message):
        """The GM moved the value."""

        field: AttributeField
        value: int

    def __init__(
        self, label: str, value: int = 0, minimum: int = -3, maximum: int = 8, **kwargs: str
    ) -> None:
        super().__init__(markup=False, **kwargs)  # type: ignore[arg-type]
        self.label = label
        self.minimum = minimum
        self.maximum = maximum
        self.set_reactive(AttributeField.value, value)

    def on_mount(self) -> None:
        self.update(self._text())

    def _text(self) -> str:
        return f"{self.label:<6} {self.value:+d}   (- / +)"

    def watch_value(self, value: int) -> None:
        self.update(self._text())

    def action_step(self, delta: int) -> None:
        """Move by ``delta``; a stored value outside the range is kept, only moving inwards."""
        new = self.value + delta
        if (delta > 0 and new > self.maximum) or (delta < 0 and new < self.minimum):
            self.app.bell()
            return
        self.value = new
        self.post_message(self.Changed(self, new))

"""The tray's dice line: any dice expression, checked as it is typed, rolled on enter.

It says what is wrong with an expression under itself while the GM types (no blank row when
nothing is); enter posts :class:`DiceLine.Rolled`, and the tray clears the line once the roll
is in the log.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from rulesets import dice
from widgets.text_field import TextField


class DiceLine(Vertical):
    """The expression field (``#dice-input``) and its error line (``#dice-error``)."""

    class Rolled(Message):
        """The GM entered an expression to roll."""

        def __init__(self, expression: str) -> None:
            super().__init__()
            self.expression = expression

    def compose(self) -> ComposeResult:
        yield TextField(
            placeholder="dice expression: 4d6kh3, 2d20kl1+2, (1d6,1d10,1d8)kh1, 1d6e6",
            id="dice-input",
            max_length=dice.MAX_EXPRESSION_LENGTH,
        )
        yield Static("", id="dice-error", markup=False)

    def clear(self) -> None:
        """The roll is in: the line is empty and says nothing wrong."""
        self.query_one("#dice-input", Input).clear()
        self.query_one("#dice-error", Static).update("")

    def focus_line(self) -> None:
        self.query_one("#dice-input", Input).focus()

    @on(Input.Submitted, "#dice-input")
    def entered(self, event: Input.Submitted) -> None:
        self.post_message(self.Rolled(event.value))

    @on(Input.Changed, "#dice-input")
    def typed(self, event: Input.Changed) -> None:
        problem = dice.validate(event.value) if event.value.strip() else None
        error = self.query_one("#dice-error", Static)
        error.update(problem or "")
        error.set_class(bool(problem), "-shown")  # no blank row under the dice line

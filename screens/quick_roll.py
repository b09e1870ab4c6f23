"""The quick-roll prompt (`d` anywhere): any dice expression into the roll log."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from app.commands.dice import RollDice
from rulesets import dice
from screens.prompt_input import PromptInput

if TYPE_CHECKING:
    from app.host import TableHost


class QuickRollScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    QuickRollScreen { align: center middle; }
    QuickRollScreen > Vertical { width: 64; height: auto; border: thick $accent; background: $panel; padding: 0 1; }
    QuickRollScreen #quick-roll-result { height: auto; min-height: 1; }
    QuickRollScreen Label { width: 100%; }
    QuickRollScreen #quick-roll-error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="quick_roll.close")
    ]
    TYPE_AHEAD = "quick-roll-input"
    """The id of the field that gets keys typed after ``d`` before it has focus (app.tui)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Roll (e.g. 2d20kh1+3, 4d6kh3, 1d6e6; enter rolls, escape closes)")
            yield PromptInput(
                placeholder="dice expression",
                id="quick-roll-input",
                max_length=dice.MAX_EXPRESSION_LENGTH,
            )
            yield Static("", id="quick-roll-error", markup=False)
            yield Static("", id="quick-roll-result", markup=False)

    @on(Input.Changed, "#quick-roll-input")
    def _check(self, event: Input.Changed) -> None:
        problem = dice.validate(event.value) if event.value.strip() else None
        self.query_one("#quick-roll-error", Static).update(problem or "")

    @on(Input.Submitted, "#quick-roll-input")
    def _roll(self, event: Input.Submitted) -> None:
        app = cast("TableHost", self.app)
        lines = app.apply(RollDice(event.value))
        if lines:
            self.query_one("#quick-roll-result", Static).update("\n".join(lines))
            self.query_one("#quick-roll-error", Static).update("")
        else:
            self.query_one(PromptInput).restore(event.value)

    def action_close(self) -> None:
        self.dismiss(None)

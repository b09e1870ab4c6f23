"""Panel 2: the dice and card tray."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from app.commands.dice import RollDice
from rulesets import dice
from screens.panel import PanelScreen
from widgets.roll_log import RollLog


class TrayScreen(PanelScreen):
    PANEL_ID = "tray"
    PANEL_TITLE = "Tray"
    CSS_PATH = "tray.tcss"
    # The dice line must not take focus on arrival: digits switch panels until the GM enters it.
    AUTO_FOCUS = "#roll-log"
    WATCHES = frozenset({"log", "decks"})
    BINDINGS: ClassVar[list[BindingType]] = []

    def compose_body(self) -> ComposeResult:
        with Vertical(id="tray-body"):
            yield Label("Dice", classes="panel-title")
            yield Input(
                placeholder="dice expression: 4d6kh3, 2d20kl1+2, (1d6,1d10,1d8)kh1, 1d6e6",
                id="dice-input",
                max_length=dice.MAX_EXPRESSION_LENGTH,
            )
            yield Static("", id="dice-error", markup=False)
            yield RollLog(id="roll-log")

    @on(Input.Submitted, "#dice-input")
    def _roll(self, event: Input.Submitted) -> None:
        if self.tableside.apply(RollDice(event.value)):
            event.input.clear()
            self.query_one("#dice-error", Static).update("")

    @on(Input.Changed, "#dice-input")
    def _validate(self, event: Input.Changed) -> None:
        problem = dice.validate(event.value) if event.value.strip() else None
        self.query_one("#dice-error", Static).update(problem or "")

    def refresh_data(self) -> None:
        self.query_one(RollLog).show_entries(self.campaign.log_entries())

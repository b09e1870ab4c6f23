"""A player picks their PC and types the code the GM's party sheet shows for it."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from widgets.literal import literal


class HandCodeScreen(ModalScreen[tuple[int, str] | None]):
    """Dismisses with ``(pc_id, typed code)``; the app checks the code."""

    DEFAULT_CSS = """
    HandCodeScreen { align: center middle; }
    HandCodeScreen > Vertical {
        width: 60; height: auto; max-height: 90%; border: round $accent; padding: 0 1;
        background: $surface;
    }
    HandCodeScreen OptionList { height: auto; max-height: 12; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, party: list[tuple[int, str]]) -> None:
        super().__init__()
        self.party = party

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal("Your hand: pick your PC, then type its code", style="bold"))
            yield OptionList(
                *(Option(literal(name, limit=40), id=str(pc_id)) for pc_id, name in self.party),
                id="hand-pc",
            )
            yield Input(placeholder="code from the GM's party sheet", id="hand-code", password=True)
            yield Static("enter: show my hand · tab: next · escape: cancel", classes="hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if options.option_count:
            options.highlighted = 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _picked(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        option_id = options.get_option_at_index(options.highlighted).id
        self.dismiss((int(str(option_id)), event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)

"""Modal: the campaign log with every entry in full, wrapped (the tray's log lines are clipped)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from widgets.roll_log import format_entry

SHOWN = 200
"""Newest entries listed; older ones are in the session log (L) and the save."""


class LogViewScreen(ModalScreen[None]):
    """Every recent log entry whole (all dice, the whole detail), newest highlighted."""

    DEFAULT_CSS = """
    LogViewScreen { align: center middle; }
    LogViewScreen > Vertical {
        width: 90%; height: 90%; border: thick $primary; background: $panel; padding: 0 1;
    }
    LogViewScreen OptionList { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "close", "Close", id="log_view.close"),
        Binding("j", "move(1)", "Down", show=False, id="log_view.down"),
        Binding("k", "move(-1)", "Up", show=False, id="log_view.up"),
    ]

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        super().__init__()
        self.entries = entries[-SHOWN:]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("The log in full (j/k or arrows move, escape closes)")
            yield OptionList(
                *(Option(format_entry(e, full=True)) for e in self.entries), id="log-entries"
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if self.entries:
            options.highlighted = len(self.entries) - 1
        options.focus()

    def action_move(self, delta: int) -> None:
        options = self.query_one(OptionList)
        (options.action_cursor_down if delta > 0 else options.action_cursor_up)()

    def action_close(self) -> None:
        self.dismiss(None)

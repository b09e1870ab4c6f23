"""One roll-log entry read whole: every character and every die a log line cuts with ``…``."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from widgets.roll_log import format_entry


class LogLineScreen(ModalScreen[None]):
    """The chosen log entry, unabridged; escape or enter closes it."""

    DEFAULT_CSS = """
    LogLineScreen { align: center middle; }
    LogLineScreen > VerticalScroll { width: 90%; height: auto; max-height: 80%;
                                     border: thick $primary; padding: 1 2; background: $surface; }
    LogLineScreen #log-line-hint { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Close", id="log_line.close"),
    ]

    def __init__(self, entry: dict[str, Any]) -> None:
        super().__init__()
        self.entry = entry

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(format_entry(self.entry, full=True), id="log-line", markup=False)
            yield Label("escape closes", id="log-line-hint")

    def action_close(self) -> None:
        self.dismiss(None)

"""Shown when saving cannot go on (the file was changed by another program, the disk failed)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from rulesets.text import visible


class StoreErrorScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    StoreErrorScreen { align: center middle; }
    StoreErrorScreen > Vertical { width: 80; height: auto; border: thick $error; background: $panel; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q,q,escape", "app.quit", "Quit", id="store_error.quit")
    ]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Saving stopped", classes="panel-title")
            yield Static(visible(self.message), markup=False)
            yield Static(
                "Tableside will not overwrite the file. Quit (q), look at the file, and reopen it.",
                markup=False,
            )

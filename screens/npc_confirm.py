"""Modal: a yes/no question before something a GM would not want by accident (delete an NPC)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from widgets.literal import literal


class NpcConfirm(ModalScreen[bool]):
    """Dismisses with True on y, False on n or escape."""

    DEFAULT_CSS = """
    NpcConfirm { align: center middle; }
    NpcConfirm > Vertical { width: 60; height: auto; border: thick $warning; background: $panel; padding: 0 1; }
    """
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="npc_confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="npc_confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(self.question, style="bold"), id="npc-confirm-question")
            yield Label("y: yes   n / escape: no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

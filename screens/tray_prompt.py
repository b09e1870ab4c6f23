"""A one-line prompt for the tray: a typed input of the check (helpers' skills, a GM's pool).

The prompt runs the input's own parser as its ``check``, so bad input is answered inside the
prompt (it stays open, the game's message under the field) instead of after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from widgets.text_field import TextField


class TrayPrompt(ModalScreen[str | None]):
    """Ask for one line of text; enter gives it back (stripped), escape gives None.

    ``check`` (text → error message or None) refuses bad input with the message shown under
    the field; ``password`` hides what is typed (the contest's secret margin).
    """

    DEFAULT_CSS = """
    TrayPrompt { align: center middle; }
    TrayPrompt > Vertical { width: 70; height: auto; border: thick $primary; padding: 1 2;
                            background: $surface; }
    TrayPrompt Label { width: 100%; }
    TrayPrompt #tray-prompt-error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="tray_prompt.cancel"),
    ]

    def __init__(
        self,
        question: str,
        placeholder: str = "",
        *,
        value: str = "",
        check: Callable[[str], str | None] | None = None,
        password: bool = False,
    ) -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.initial = value
        self.checker = check
        self.password = password

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, markup=False)
            yield TextField(
                self.initial,
                placeholder=self.placeholder,
                id="tray-prompt-input",
                max_length=80,
                password=self.password,
                select_on_focus=False,  # the GM adds to a suggested value, not retypes it
            )
            yield Static("", id="tray-prompt-error", markup=False)

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        problem = self.checker(value) if self.checker is not None else None
        if not value and problem is None:
            problem = "Type something, or press escape"
        if problem:
            self.query_one("#tray-prompt-error", Static).update(problem)
            self.notify(problem, severity="warning", markup=False)
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)

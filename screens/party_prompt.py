"""The party sheet's small modals: a one-line prompt, a pick-one list and a yes/no confirm.

Each dismisses with its result (None when the GM presses escape), so the party screen decides
which command the answer becomes; modals never write to the campaign.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from widgets.literal import literal
from widgets.text_field import TextField

_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 64; height: auto; max-height: 24; border: thick $accent; background: $panel;
    padding: 0 1;
}}
{name} OptionList {{ height: auto; max-height: 16; }}
{name} > Vertical > Label {{ width: 1fr; }}
"""


class PartyPrompt(ModalScreen[str | None]):
    """Ask for one line of text (a name, a number, ``current/max``); enter answers."""

    DEFAULT_CSS = _CSS.format(name="PartyPrompt")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="party_prompt.cancel")
    ]

    def __init__(self, question: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(self.question))
            yield Label("enter accepts, escape cancels", classes="hint")
            yield TextField(value=self.value, placeholder=self.placeholder, id="party-prompt-input")

    @on(Input.Submitted, "#party-prompt-input")
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PartyChoice(ModalScreen[str | None]):
    """Pick one of a few options (a status)."""

    DEFAULT_CSS = _CSS.format(name="PartyChoice")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="party_choice.cancel")
    ]

    def __init__(self, question: str, options: list[tuple[str, str]]) -> None:
        """``options`` are (id returned, text shown)."""
        super().__init__()
        self.question = question
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(self.question))
            yield OptionList(
                *(Option(literal(text), id=oid) for oid, text in self.options),
                id="party-choice-list",
            )

    @on(OptionList.OptionSelected, "#party-choice-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PartyConfirm(ModalScreen[bool]):
    """Yes or no before something hard to take back (removing a PC)."""

    DEFAULT_CSS = _CSS.format(name="PartyConfirm")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="party_confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="party_confirm.no"),
    ]

    def __init__(self, question: str, doing: str = "removes") -> None:
        super().__init__()
        self.question = question
        self.doing = doing

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(self.question))
            yield Label(f"y {self.doing}, n or escape does not")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

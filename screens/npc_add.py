"""Modal: how many copies of a library NPC go into the encounter, and rolled or fixed HP."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.validation import Integer
from textual.widgets import Input, Label, Static

from app.commands.npcs import HP_MODES, MAX_GROUP
from widgets.literal import literal
from widgets.text_field import TextField


class AddToEncounterScreen(ModalScreen[tuple[int, str] | None]):
    """Dismisses with ``(count, hp_mode)`` or None; enter adds, escape cancels."""

    DEFAULT_CSS = """
    AddToEncounterScreen { align: center middle; }
    AddToEncounterScreen > Vertical { width: 60; height: auto; border: thick $accent; background: $panel; padding: 0 1; }
    AddToEncounterScreen #npc-add-error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="npc_add.cancel"),
        Binding("up,down,ctrl+t", "toggle_hp", "Rolled/fixed HP", id="npc_add.hp"),
    ]

    def __init__(
        self,
        npc_name: str,
        encounter_name: str,
        hp_mode: str = "rolled",
        count: int = 1,
        note: str = "",
    ) -> None:
        super().__init__()
        self.npc_name = npc_name
        self.encounter_name = encounter_name
        self.hp_mode = hp_mode if hp_mode in HP_MODES else "rolled"
        self.count = count
        self.note = note
        """Why this many (a build to a danger's proposal); blank: nothing."""

    def compose(self) -> ComposeResult:
        with Vertical():
            title = literal(f"Add {self.npc_name} to {self.encounter_name}", style="bold")
            yield Static(title, id="npc-add-title")
            if self.note:
                yield Static(literal(self.note), id="npc-add-note")
            yield Label("How many? (enter adds, escape cancels)")
            yield TextField(
                str(self.count),
                id="npc-add-count",
                type="integer",
                validators=[Integer(minimum=1, maximum=MAX_GROUP)],
            )
            yield Static("", id="npc-add-hp", markup=False)
            yield Static("", id="npc-add-error", markup=False)

    def on_mount(self) -> None:
        self._show_hp()
        self.query_one(Input).focus()

    def _show_hp(self) -> None:
        other = "fixed" if self.hp_mode == "rolled" else "rolled"
        self.query_one("#npc-add-hp", Static).update(
            f"HP: {self.hp_mode} for each (up/down: {other})"
        )

    def action_toggle_hp(self) -> None:
        self.hp_mode = "fixed" if self.hp_mode == "rolled" else "rolled"
        self._show_hp()

    @on(Input.Submitted, "#npc-add-count")
    def _submit(self, event: Input.Submitted) -> None:
        result = event.validation_result
        if result is not None and not result.is_valid:
            self.query_one("#npc-add-error", Static).update(f"Type a number from 1 to {MAX_GROUP}")
            return
        self.dismiss((int(event.value), self.hp_mode))

    def action_cancel(self) -> None:
        self.dismiss(None)

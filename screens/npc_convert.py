"""Modal: convert a Without Number statblock into the builder's Brawl / Wit / Will (NPC-10).

The GM copies five numbers off a WN statblock (attack bonus, skill, morale, and optionally HP
and HD); ``rulesets.npc.from_without_number`` does the conversion and the form shows, as the
GM types, the new attributes and what was recalculated (Save and HP, and an HD that moved).
Enter on the last field (or ctrl+s anywhere) hands the conversion to the builder, where the
GM reviews it and saves with ctrl+s; nothing is written from here.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from app.commands.npcs import beyond_table
from rulesets import npc as npc_rules
from rulesets.npc import CONVERTED_RANGE
from widgets.literal import literal
from widgets.text_field import TextField

FIELDS: tuple[tuple[str, str, str, bool], ...] = (
    ("wn-attack", "Attack", "WN attack bonus, e.g. 4", True),
    ("wn-skill", "Skill", "WN skill bonus, e.g. 1", True),
    ("wn-morale", "Morale", "WN morale score, e.g. 8", True),
    ("wn-hp", "HP", "WN HP (optional, for comparison)", False),
    ("wn-hd", "HD", "WN HD (optional, for comparison)", False),
)
"""(id, label, placeholder, required) of the form's fields, in typing order."""


class WithoutNumberForm(ModalScreen[npc_rules.WNConversion | None]):
    """Dismisses with the conversion (the builder takes it) or None (escape)."""

    DEFAULT_CSS = """
    WithoutNumberForm { align: center middle; }
    WithoutNumberForm > Vertical { width: 72; height: auto; border: thick $accent; background: $panel; padding: 0 1; }
    WithoutNumberForm .wn-row { height: 1; }
    WithoutNumberForm .wn-label { width: 9; text-style: bold; }
    WithoutNumberForm Input { padding: 0 1; width: 1fr; background: $boost; }
    WithoutNumberForm Input:focus { background: $accent 30%; }
    WithoutNumberForm #wn-result { height: auto; margin: 1 0 0 0; }
    WithoutNumberForm #wn-error { height: auto; color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="npc_convert.cancel"),
        Binding("ctrl+s", "use", "Fill the builder", id="npc_convert.use", priority=True),
        # a binding, not Input.Submitted: focus moves before the next key typed fast arrives
        Binding("enter", "next_field", "Next field", id="npc_convert.next", priority=True),
    ]

    def __init__(self, npc_name: str = "") -> None:
        super().__init__()
        self.npc_name = npc_name
        self.conversion: npc_rules.WNConversion | None = None
        """The conversion of the numbers typed now; None while they are incomplete or bad."""

    def compose(self) -> ComposeResult:
        with Vertical():
            title = f"Without Number statblock → {self.npc_name or 'the builder'}"
            yield Static(literal(title, style="bold"), id="wn-title")
            for field_id, label, placeholder, _ in FIELDS:
                with Horizontal(classes="wn-row"):
                    yield Label(label, classes="wn-label")
                    yield TextField(
                        placeholder=placeholder,
                        id=field_id,
                        type="integer",
                        max_length=4,
                        valid_empty=True,
                        compact=True,
                    )
            yield Static("", id="wn-result")
            yield Static("", id="wn-error", markup=False)
            yield Label("enter: next field, on HD fills the builder · ctrl+s fills · escape")

    def on_mount(self) -> None:
        self._convert()
        self.query_one("#wn-attack", Input).focus()

    def _numbers(self) -> dict[str, int | None]:
        """The numbers typed, by field id; ValueError with the GM's message when one is bad."""
        values: dict[str, int | None] = {}
        for field_id, label, _, required in FIELDS:
            text = self.query_one(f"#{field_id}", Input).value.strip()
            if not text:
                if required:
                    raise ValueError(f"Type the WN {label.lower()}")
                values[field_id] = None
                continue
            try:
                number = int(text)
            except ValueError:
                raise ValueError(f"{label} must be a whole number, not {text!r}") from None
            if not required and number < 0:
                raise ValueError(f"{label} cannot be negative")
            values[field_id] = number
        return values

    def _convert(self) -> str:
        """Run the conversion on the form; show it, or the reason there is none."""
        self.conversion = None
        result = self.query_one("#wn-result", Static)
        try:
            n = self._numbers()
            attack, skill, morale = n["wn-attack"], n["wn-skill"], n["wn-morale"]
            assert attack is not None and skill is not None and morale is not None
            made = npc_rules.from_without_number(
                attack, skill, morale, hp=n["wn-hp"], hd=n["wn-hd"], name=self.npc_name
            )
        except (ValueError, npc_rules.ConversionError, npc_rules.NPCError) as exc:
            result.update(Text("Brawl = attack / 2, Wit = skill, Will = morale - 7", "dim"))
            return str(exc)
        block = made.statblock
        for key in npc_rules.ATTRIBUTES:
            value = block.attribute(key)
            if value not in CONVERTED_RANGE:
                low, high = CONVERTED_RANGE.start, CONVERTED_RANGE.stop - 1
                result.update(Text(""))
                return (
                    f"{key.capitalize()} would be {value:+d}: the builder keeps {low:+d}..{high:+d}"
                )
        self.conversion = made
        text = Text()
        text.append(
            f"Brawl {block.brawl:+d}  Wit {block.wit:+d}  Will {block.will:+d}"
            f"  →  HD {block.hd}  AC {block.ac}\n",
            style="bold",
        )
        text.append(f"Save {block.save}+ ", style="bold")
        text.append(f"recalculated from HD {block.hd}\n")
        text.append(f"HP {block.hp_text()} ", style="bold")
        hp = n["wn-hp"]
        text.append(f"recalculated (WN HP {hp})" if hp is not None else "recalculated")
        for note in made.notes:
            if note.startswith("WN HD"):
                text.append(f"\n{note}")
        if warning := beyond_table(block.brawl, block.wit, block.will):
            text.append(f"\n{warning}", style="italic")
        result.update(text)
        return ""

    @on(Input.Changed)
    def _changed(self) -> None:
        self.query_one("#wn-error", Static).update("")
        self._convert()

    def action_next_field(self) -> None:
        field = self.focused
        if not isinstance(field, Input):
            return
        text = field.value.strip()
        if text and not text.lstrip("-").isdigit():  # stay on a field that is not a number
            label = next(label for fid, label, _, _ in FIELDS if fid == field.id)
            self.query_one("#wn-error", Static).update(
                f"{label} must be a whole number, not {text!r}"
            )
            return
        if field.id == FIELDS[-1][0]:
            self.action_use()
        else:
            self.focus_next(Input)

    def action_use(self) -> None:
        problem = self._convert()
        if self.conversion is None:
            self.query_one("#wn-error", Static).update(problem)
            return
        self.dismiss(self.conversion)

    def action_cancel(self) -> None:
        self.dismiss(None)

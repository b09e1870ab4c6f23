"""A small keyboard form for the combat tracker: damage, heal, quick add, effects, edits.

One modal serves every prompt so each key of the tracker asks in the same way: type, tab to
the next field, enter to confirm, escape to cancel. Fields are validated here (a clear message
under the field, never a traceback); the result is a dict of cleaned strings and ints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, Static

from widgets.literal import literal

Kind = Literal["text", "int", "optint", "amount", "choice"]


@dataclass(frozen=True)
class Field:
    """One prompt. ``kind``: text (non-empty), int (whole, ≥ minimum), optint (blank = None),
    amount (a number or dice expression), choice (one of ``choices``, case-insensitive)."""

    key: str
    label: str
    default: str = ""
    kind: Kind = "text"
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 1_000_000
    required: bool = True
    suggestions: tuple[str, ...] = field(default=())


WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
"""A whole number as a GM types it; more than nine digits is never a sensible value here."""


class FieldError(ValueError):
    """A field's value is not acceptable; the message says why."""


def clean(spec: Field, raw: str) -> Any:
    """Check one field's text and return its value (str, int or None)."""
    text = raw.strip()
    if spec.kind == "text":
        if spec.required and not text:
            raise FieldError(f"{spec.label}: type something")
        return text
    if spec.kind in ("int", "optint"):
        if not text:
            if spec.kind == "optint" or not spec.required:
                return None
            raise FieldError(f"{spec.label}: type a whole number")
        if not WHOLE.fullmatch(text):
            # ASCII digits only: int() would take "١٢" or "1_000" and choke on "²" or on a
            # 5,000-digit paste; the GM's input is not quoted back (it may be that paste).
            raise FieldError(f"{spec.label}: type a whole number (digits 0-9)")
        value = int(text)
        if value < spec.minimum:
            raise FieldError(f"{spec.label}: at least {spec.minimum}")
        if value > spec.maximum:
            raise FieldError(f"{spec.label}: at most {spec.maximum:,}")
        return value
    if spec.kind == "amount":
        if not text and not spec.required:
            return ""
        if not text:
            raise FieldError(f"{spec.label}: type a number or dice (2d6+1)")
        if WHOLE.fullmatch(text):
            if text.startswith("-"):
                raise FieldError(f"{spec.label}: cannot be negative")
            return text
        from rulesets import dice

        problem = dice.validate(text)
        if problem:
            raise FieldError(f"{spec.label}: {problem}")
        return text
    for choice in spec.choices:
        if choice.casefold() == text.casefold():
            return choice
    matches = [c for c in spec.choices if c.casefold().startswith(text.casefold())]
    if text and len(matches) == 1:
        return matches[0]
    if not text and not spec.required:
        return ""
    raise FieldError(f"{spec.label}: one of {', '.join(spec.choices)}")


class CombatForm(ModalScreen[dict[str, Any] | None]):
    """Ask a few fields; dismiss with ``{key: value}`` or None on escape."""

    CSS_PATH = "combat.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="combat_form.cancel"),
    ]

    def __init__(self, title: str, fields: list[Field], hint: str = "") -> None:
        super().__init__(classes="combat-form")
        self.title_text = title
        self.fields = fields
        self.hint = hint

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="combat-form-box"):
            yield Static(literal(self.title_text, style="bold"), id="combat-form-title")
            for spec in self.fields:
                label = spec.label
                if spec.kind == "choice":
                    label += f" ({' / '.join(spec.choices)})"
                yield Label(literal(label), classes="combat-form-label")
                suggest = spec.suggestions or spec.choices
                yield Input(
                    value=spec.default,
                    id=f"field-{spec.key}",
                    suggester=SuggestFromList(suggest, case_sensitive=False) if suggest else None,
                    select_on_focus=True,
                )
            yield Static(
                literal(self.hint or "enter: confirm · tab: next field · escape: cancel"),
                id="combat-form-hint",
            )
            yield Static("", id="combat-form-error")

    def on_mount(self) -> None:
        if self.fields:
            self.query_one(f"#field-{self.fields[0].key}", Input).focus()

    def values(self) -> dict[str, Any]:
        """Every field cleaned; FieldError on the first bad one."""
        return {
            spec.key: clean(spec, self.query_one(f"#field-{spec.key}", Input).value)
            for spec in self.fields
        }

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            result = self.values()
        except FieldError as exc:
            self.query_one("#combat-form-error", Static).update(literal(str(exc)))
            return
        self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)

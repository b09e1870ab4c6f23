"""The one keyboard form every panel asks with: damage, heal, quick add, a game's own actions.

One modal serves every prompt, so every key asks in the same way: type, tab to the next field,
enter to confirm, escape to cancel. The fields are what a game or a panel declares
(:class:`rulesets.table.Field`); they are validated here (a clear message under the field, never
a traceback), and the result is a dict of cleaned strings and ints.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, Static

from rulesets.table import Field
from widgets.literal import literal

__all__ = ["Field", "FieldError", "FormScreen", "clean"]


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


class FormScreen(ModalScreen[dict[str, Any] | None]):
    """Ask a few fields; dismiss with ``{key: value}`` or None on escape."""

    CSS_PATH = "form.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
    ]

    def __init__(
        self,
        title: str,
        fields: Sequence[Field],
        hint: str = "",
        start: int = 0,
        submit: Callable[[dict[str, Any]], str | None] | None = None,
    ) -> None:
        super().__init__(classes="form")
        self.title_text = title
        self.fields = tuple(fields)
        self.hint = hint
        self.start = start
        """The field focused first (a form opened from an inline prompt goes on from there)."""
        self.submit = submit
        """Takes the answers while the form is still open: a refusal's message keeps it open
        with what was typed and the message shown; None closes it."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form-box"):
            yield Static(literal(self.title_text, style="bold"), id="form-title")
            for spec in self.fields:
                label = spec.label
                if spec.kind == "choice":
                    label += f" ({' / '.join(spec.choices)})"
                yield Label(literal(label), classes="form-label")
                suggest = spec.suggestions or spec.choices
                yield Input(
                    value=spec.default,
                    id=f"field-{spec.key}",
                    password=spec.secret,
                    suggester=SuggestFromList(suggest, case_sensitive=False) if suggest else None,
                    select_on_focus=True,
                )
            yield Static(
                literal(self.hint or "enter: confirm · tab: next field · escape: cancel"),
                id="form-hint",
            )
            yield Static("", id="form-error")

    def on_mount(self) -> None:
        if self.fields:
            first = self.fields[min(self.start, len(self.fields) - 1)]
            self.query_one(f"#field-{first.key}", Input).focus()

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
            self.show_error(str(exc))
            return
        problem = self.submit(result) if self.submit is not None else None
        if problem:
            self.show_error(problem)
            return
        self.dismiss(result)

    def show_error(self, message: str) -> None:
        """The message under the fields; the typed values stay as they are."""
        self.query_one("#form-error", Static).update(literal(message))

    def action_cancel(self) -> None:
        self.dismiss(None)

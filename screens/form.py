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

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, Static

from rulesets.table import Field
from rulesets.text import too_long
from widgets.literal import literal
from widgets.text_field import TextField

__all__ = ["Field", "FieldError", "FormScreen", "clean"]


WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
"""A whole number as a GM types it; more than nine digits is never a sensible value here."""


class FieldError(ValueError):
    """A field's value is not acceptable; the message says why (``key``: which field)."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key


def clean(spec: Field, raw: str) -> Any:
    """Check one field's text and return its value (str, int or None)."""
    text = raw.strip()
    if spec.kind == "text":
        if spec.required and not text:
            raise FieldError(f"{spec.label}: type something")
        if (problem := too_long(spec.label, text)) is not None:
            raise FieldError(problem)
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


LABEL_CHOICES = 40
"""Choices are named in a field's label while the label stays this short (one line beside its
input at 80 columns); the focused field's choices are always on the line under the form."""


UNBOUNDED = Field("", "").maximum
"""A field's maximum when it states none."""


def choices_text(spec: Field) -> str:
    """What a field takes, for the line under the form: its choices, or its range."""
    if spec.kind == "choice":
        # A label that says what blank means is not contradicted here.
        blank = "" if spec.required or "blank:" in spec.label else " (blank: none)"
        return " / ".join(spec.choices) + blank
    if spec.kind in ("int", "optint") and spec.maximum < UNBOUNDED:
        return f"a whole number, {spec.minimum} to {spec.maximum:,}"
    if spec.kind in ("int", "optint") and spec.minimum > 0:
        return f"a whole number, at least {spec.minimum}"
    if spec.kind == "amount":
        return "a number or dice (2d6+1)"
    return ""


class FormScreen(ModalScreen[dict[str, Any] | None]):
    """Ask a few fields; dismiss with ``{key: value}`` or None on escape.

    Each field is one row, its label beside its input, so a dozen fit 80x24 whole. A refusal
    is said where the GM is looking: under the field it is about (focused again), or, for the
    game's own refusal of the whole form, at the top, and scrolled into view either way.
    """

    CSS_PATH = "form.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        Binding("down", "step(1)", "Next choice", show=False, id="form.next_choice"),
        Binding("up", "step(-1)", "Previous choice", show=False, id="form.previous_choice"),
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
            yield Static("", id="form-error")
            for spec in self.fields:
                label = spec.label
                named = f"{label} ({' / '.join(spec.choices)})"
                if spec.kind == "choice" and len(named) <= LABEL_CHOICES:
                    label = named
                suggest = spec.suggestions or spec.choices
                with Horizontal(classes="form-row", id=f"row-{spec.key}"):
                    yield Label(literal(label), classes="form-label")
                    yield TextField(
                        value=spec.default,
                        id=f"field-{spec.key}",
                        password=spec.secret,
                        suggester=(
                            SuggestFromList(suggest, case_sensitive=False) if suggest else None
                        ),
                        select_on_focus=True,
                    )
            yield Static("", id="form-hint")

    def on_mount(self) -> None:
        # The keys ride on the box's lower border: every row inside is the form's own.
        box = self.query_one("#form-box")
        box.border_subtitle = self.hint or "enter: confirm · tab: next field · escape: cancel"
        if self.fields:
            first = self.fields[min(self.start, len(self.fields) - 1)]
            self.query_one(f"#field-{first.key}", Input).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The line under the form says what the focused field takes (its choices)."""
        key = (event.widget.id or "").removeprefix("field-")
        spec = next((f for f in self.fields if f.key == key), None)
        takes = choices_text(spec) if spec is not None else ""
        said = f"{spec.label.split(' (')[0]}: {takes}" if spec is not None and takes else ""
        if said and spec is not None and spec.kind == "choice":
            said += " · ↑↓ steps through them"
        hint = self.query_one("#form-hint", Static)
        hint.update(literal(said, limit=1000))
        hint.set_class(bool(said), "-shown")
        # The whole row in sight, its label too (a long one wraps under the input).
        row = next(iter(self.query(f"#row-{key}")), None) if spec is not None else None
        if row is not None:
            self.call_after_refresh(row.scroll_visible, animate=False)

    def _focused_field(self) -> tuple[Field, Input] | None:
        focused = self.focused
        key = (focused.id or "").removeprefix("field-") if focused is not None else ""
        spec = next((f for f in self.fields if f.key == key), None)
        return (spec, focused) if spec is not None and isinstance(focused, Input) else None

    def action_step(self, by: int) -> None:
        """Up and down step a choice field through its choices (around); elsewhere they move
        to the field above or below, as shift+tab and tab do."""
        found = self._focused_field()
        if found is None or found[0].kind != "choice" or not found[0].choices:
            if by > 0:
                self.focus_next()
            else:
                self.focus_previous()
            return
        spec, field = found
        names = [c.casefold() for c in spec.choices]
        typed = field.value.strip().casefold()
        at = names.index(typed) if typed in names else (-1 if by > 0 else 0)
        field.value = spec.choices[(at + by) % len(spec.choices)]
        field.cursor_position = len(field.value)

    def values(self) -> dict[str, Any]:
        """Every field cleaned; FieldError (naming the field) on the first bad one."""
        found: dict[str, Any] = {}
        for spec in self.fields:
            try:
                found[spec.key] = clean(spec, self.query_one(f"#field-{spec.key}", Input).value)
            except FieldError as exc:
                raise FieldError(str(exc), spec.key) from None
        return found

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            result = self.values()
        except FieldError as exc:
            self.show_error(str(exc), exc.key)
            return
        problem = self.submit(result) if self.submit is not None else None
        if problem:
            self.show_error(problem)
            return
        self.dismiss(result)

    def show_error(self, message: str, key: str = "") -> None:
        """The message under the field it is about (focused again), or under the title; the
        typed values stay as they are, and the message is scrolled into view."""
        error = self.query_one("#form-error", Static)
        box = self.query_one("#form-box", VerticalScroll)
        self.query(".form-row").remove_class("-invalid")
        about = next(iter(self.query(f"#row-{key}")), None) if key else None
        if about is not None:
            about.add_class("-invalid")
            box.move_child(error, after=about)
            self.query_one(f"#field-{key}", Input).focus()
        else:
            box.move_child(error, after=self.query_one("#form-title"))
        error.update(literal(message))
        error.add_class("-shown")
        self.call_after_refresh(error.scroll_visible, animate=False)

    def action_cancel(self) -> None:
        self.dismiss(None)

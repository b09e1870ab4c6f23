"""Modal: pick a library NPC for the running encounter by typing part of its name.

The tracker's ``b`` opened a form that took only an NPC's exact name (``No NPC called 'Ogr'``).
Here the library is listed under a filter line and narrowed as the GM types (a name or a
concept, anywhere in it; names that start with the text first); up/down move along the list,
enter picks the highlighted NPC, escape cancels. A large library lists only its first matches
and says how many more there are, so a keypress costs the same at 10 NPCs and at 10,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from rulesets.text import MAX_TEXT
from widgets.literal import clean, literal
from widgets.text_field import TextField

SHOWN = 100
"""Matches listed at once; typing more narrows a larger library."""


def matches(
    library: Sequence[tuple[int, dict[str, Any]]], typed: str
) -> list[tuple[int, dict[str, Any]]]:
    """The NPCs whose name or a concept holds ``typed`` (any case), those whose name starts
    with it first, each group in library order."""
    needle = typed.strip().casefold()
    if not needle:
        return list(library)
    starts, inside = [], []
    for doc_id, doc in library:
        name = str(doc.get("name", "")).casefold()
        concepts = " ".join(str(c) for c in doc.get("concepts") or ()).casefold()
        if name.startswith(needle):
            starts.append((doc_id, doc))
        elif needle in name or needle in concepts:
            inside.append((doc_id, doc))
    return starts + inside


def _line(doc: dict[str, Any]) -> str:
    concepts = ", ".join(str(c) for c in doc.get("concepts") or ())
    name = clean(str(doc.get("name", "?")), 40)
    return f"{name} · {clean(concepts, 40)}" if concepts else name


class NpcPickScreen(ModalScreen[int | None]):
    """Dismisses with the picked NPC's library id, or None on escape."""

    CSS_PATH = "npc_pick.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="npc_pick.cancel"),
        Binding("down", "move(1)", "Next", show=False, id="npc_pick.down"),
        Binding("up", "move(-1)", "Previous", show=False, id="npc_pick.up"),
    ]

    def __init__(self, library: Sequence[tuple[int, dict[str, Any]]], title: str) -> None:
        super().__init__()
        self.library = list(library)
        self.title_text = title
        self.shown: list[int] = []
        """The library ids listed, in the list's order."""

    def compose(self) -> ComposeResult:
        with Vertical(id="npc-pick-box"):
            yield Static(literal(self.title_text, style="bold"), id="npc-pick-title")
            yield TextField(
                placeholder="type part of a name or a concept",
                id="npc-pick-filter",
                max_length=MAX_TEXT,
            )
            yield OptionList(id="npc-pick-list")
            yield Static("", id="npc-pick-count")

    def on_mount(self) -> None:
        box = self.query_one("#npc-pick-box")
        box.border_subtitle = "type to filter · up/down · enter: add · escape: cancel"
        self._filter("")
        self.query_one(Input).focus()

    @on(Input.Changed, "#npc-pick-filter")
    def _changed(self, event: Input.Changed) -> None:
        self._filter(event.value)

    def _filter(self, typed: str) -> None:
        found = matches(self.library, typed)
        listed = found[:SHOWN]
        self.shown = [doc_id for doc_id, _ in listed]
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(literal(_line(doc)), id=str(i)) for i, doc in listed])
        if listed:
            options.highlighted = 0
        more = len(found) - len(listed)
        count = f"{len(found):,} of {len(self.library):,} NPCs"
        if more:
            count += f" · {more:,} more: type more of the name"
        elif not found:
            count = f"No NPC in the library holds {clean(typed, 40)!r}"
        self.query_one("#npc-pick-count", Static).update(literal(count))

    def action_move(self, delta: int) -> None:
        options = self.query_one(OptionList)
        if options.option_count:
            at = options.highlighted if options.highlighted is not None else -delta
            options.highlighted = max(0, min(at + delta, options.option_count - 1))

    @on(Input.Submitted, "#npc-pick-filter")
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        self._pick(self.query_one(OptionList).highlighted)

    @on(OptionList.OptionSelected, "#npc-pick-list")
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(event.option_index)

    def _pick(self, index: int | None) -> None:
        if index is None or not 0 <= index < len(self.shown):
            self.app.bell()
            return
        self.dismiss(self.shown[index])

    def action_cancel(self) -> None:
        self.dismiss(None)

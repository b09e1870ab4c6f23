"""The tracker's list of the campaign's encounters (``[`` and ``]`` step through them).

The list's table is built the first time the list shows: at most widths the statblock pane or
the narrow layout folds it away, and a DataTable (its import, a dozen styled parts) was a cost
on every start that never showed it. Enter on a row posts Textual's ``DataTable.RowSelected``
(the row's key is the encounter's id), which the tracker turns into selecting it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from widgets.literal import clean, literal

if TYPE_CHECKING:
    from textual.widgets import DataTable


class EncounterList(Vertical):
    """The encounters, the running one marked ▶, with their round and size."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown_rows: list[tuple[str, str, str, str, str]] = []
        """The rows as last shown: the same again redraws nothing."""

    def compose(self) -> ComposeResult:
        yield Label("Encounters  [ ]  ctrl+n", classes="panel-title")
        # the list itself: built when it first shows (follow)

    @property
    def table(self) -> DataTable[Text] | None:
        found = self.query("#encounter-list")
        return found.first() if found else None  # type: ignore[return-value]

    def follow(self, encounters: Sequence[tuple[int, dict[str, Any]]], current: int | None) -> None:
        """Build the table if the list shows now and has none yet, with its rows."""
        if not self.display or self.table is not None:
            return
        from textual.widgets import DataTable

        table: DataTable[Text] = DataTable(
            id="encounter-list", cursor_type="row", zebra_stripes=True
        )
        # Text, not str: a str heading is parsed as markup with emoji codes (Rich loads its
        # emoji table for it, a cost on every start).
        table.add_columns(Text(""), Text("Encounter"), Text("Rnd"), Text("Size"))
        self.mount(table)
        self.shown_rows = []
        self.show(encounters, current)

    def show(self, encounters: Sequence[tuple[int, dict[str, Any]]], current: int | None) -> None:
        """The encounters as they are (nothing while the table is not built)."""
        table = self.table
        if table is None:
            return  # not built yet: built with its rows when it first shows
        rows = [
            (
                "▶" if doc_id == current else "",
                clean(doc.get("name", ""), 40),
                str(doc.get("round", 0)),
                str(len(doc.get("combatants", []))),
                str(doc_id),
            )
            for doc_id, doc in encounters
        ]
        if rows == self.shown_rows:
            return
        self.shown_rows = rows
        table.clear()
        for row in rows:
            table.add_row(*(literal(v) for v in row[:4]), key=row[4])

"""The party panel's sheet of one PC: a summary line, then its rows (:mod:`widgets.party_fields`)
in a table whose highlighted row is what the panel's keys act on.

The panel calls :meth:`PcSheet.show` with the selected PC; the highlighted row's key is
:attr:`PcSheet.selected_field`.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from rulesets.game import Game
from widgets.literal import literal
from widgets.party_fields import field_rows


def wrap_column(table: DataTable[Any], key: str, rows: list[tuple[Text, ...]]) -> bool:
    """Where the rows would run past the table's right edge, the column ``key`` takes the width
    the others leave and its text wraps (rows are added with ``height=None``): a health line or
    a spell list was cut at the edge with nothing to say so. False when even that
    would break a word of it or run past the edge."""
    keys = [str(k.value) for k in table.columns]
    widest = {
        k: max(
            [
                len(k) if table.show_header else 0,
                *(max(map(cell_len, row[x].plain.split("\n"))) for row in rows),
            ]
        )
        for x, k in enumerate(keys)
    }
    at = keys.index(key)
    word = max((cell_len(w) for row in rows for w in row[at].plain.split()), default=1)
    # The vertical scrollbar counts as there: wrapping can make the rows taller than the table.
    room = table.size.width - table.styles.scrollbar_size_vertical
    room -= 2 * table.cell_padding * len(keys)
    others = sum(width for k, width in widest.items() if k != key)
    column = table.columns[ColumnKey(key)]
    column.auto_width = room <= 0 or others + widest[key] <= room
    if not column.auto_width:
        column.width = max(word, room - others)
    return column.auto_width or others + word <= room


class PcSheet(Vertical):
    """One PC's summary line and sheet rows."""

    def compose(self) -> ComposeResult:
        yield Static("", id="party-summary", markup=False)
        yield DataTable(id="party-fields", cursor_type="row", show_header=False)

    @property
    def selected_field(self) -> str:
        """The key of the highlighted sheet row ("" with none)."""
        fields = self.query_one("#party-fields", DataTable)
        if fields.row_count == 0:
            return ""
        return str(
            fields.coordinate_to_cell_key(Coordinate(fields.cursor_row, 0)).row_key.value or ""
        )

    def show(self, game: Game, pc: dict[str, Any] | None, health: str, code: str | None) -> None:
        """``pc``'s sheet (None: no PC selected), the highlighted row kept where it was."""
        fields = self.query_one("#party-fields", DataTable)
        summary = self.query_one("#party-summary", Static)
        if not fields.columns:
            fields.add_column("Field", key="Field")
            fields.add_column("Value", key="Value")
        keep_key, keep_row = self.selected_field, fields.cursor_row
        fields.clear()
        if pc is None:
            summary.update("No PC selected — press a to add one")
            return
        header = literal(pc.get("name", ""), style="bold")
        header.append_text(literal(f"  ·  {health}", style="dim"))
        if code:
            header.append(f"  ·  player code {code}", style="bold")
        summary.update(header)
        rows = field_rows(game, pc)
        wrap_column(fields, "Value", [(row.label, row.value) for row in rows])
        for row in rows:
            fields.add_row(row.label, row.value, key=row.key, height=None)
        if keep_key and keep_key in fields.rows:
            fields.move_cursor(row=fields.get_row_index(keep_key), animate=False)
        elif fields.row_count:
            fields.move_cursor(row=min(keep_row, fields.row_count - 1), animate=False)

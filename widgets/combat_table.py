"""The tracker's combatant table: repaints only the cells that changed.

A GM presses ``n`` or ``t`` and expects the table to answer at once even with 300 combatants,
so :meth:`CombatTable.show` compares each new row with what is on screen and calls
``update_cell_at`` for the cells that differ; it rebuilds the table only when the number of
rows changes. Rows are addressed by position (the turn order), so moving a combatant up the
order repaints two rows, not three hundred.
"""

from __future__ import annotations

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable

Cell = tuple[str, str]
"""The plain text of a cell and its Rich style; text is shown as is, never as markup."""
Row = tuple[Cell, ...]

COLUMNS: tuple[str, ...] = ("", "#", "Init", "Name", "Health", "Conditions", "Turn")


class CombatTable(DataTable[Text]):
    """A DataTable of combatants in turn order, fed whole rows, repainted cell by cell."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self._shown: list[Row] = []
        self.ids: list[str] = []
        """Combatant id of each row, in order."""

    def on_mount(self) -> None:
        self.add_columns(*COLUMNS)

    def show(self, ids: list[str], rows: list[Row], init_label: str = "Init") -> None:
        """Display these rows; rebuild only if the row count changed, else patch cells."""
        self.ids = list(ids)
        if len(rows) != len(self._shown):
            cursor = self.cursor_row
            self.clear()
            self.add_rows([tuple(Text(t, style=s) for t, s in row) for row in rows])
            self._shown = list(rows)
            if rows:
                self.move_cursor(row=max(0, min(cursor, len(rows) - 1)), animate=False)
            return
        for y, (old, new) in enumerate(zip(self._shown, rows, strict=True)):
            if old == new:
                continue
            for x, (before, after) in enumerate(zip(old, new, strict=True)):
                if before != after:
                    widen = len(after[0]) > len(before[0])
                    self.update_cell_at(
                        Coordinate(y, x), Text(after[0], style=after[1]), update_width=widen
                    )
        self._shown = list(rows)

    @property
    def selected_id(self) -> str | None:
        """The combatant under the cursor (the GM's selection), or None."""
        if not self.ids or not 0 <= self.cursor_row < len(self.ids):
            return None
        return self.ids[self.cursor_row]

    def select_id(self, combatant_id: str) -> None:
        if combatant_id in self.ids:
            self.move_cursor(row=self.ids.index(combatant_id), animate=False)

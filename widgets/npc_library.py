"""The NPC library list: a virtual view that renders only the rows on screen.

A DataTable builds every row up front, which blocked the UI on the first visit to a panel
holding ten thousand NPCs. This :class:`~widgets.line_table.LineTable` keeps the library
documents as they are and formats a row only when it scrolls into view, each once until the
library changes, so the first paint costs the same for ten NPCs or ten thousand. Columns have
fixed widths, so nothing has to be measured across the whole library either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip

from rulesets.text import visible
from widgets.line_table import PAD, Cell, LineTable

COLUMNS: tuple[tuple[str, int], ...] = (
    ("Name", 18),
    ("Concepts", 12),
    ("HD", 3),
    ("AC", 3),
    ("HP", 4),
)
CONCEPTS = 1
"""The Concepts column takes the width the others leave; with less than its own width in
COLUMNS it gives way altogether (the selected NPC's statblock below the list names them)."""

Entry = tuple[int, dict[str, Any]]
"""A library NPC: its document id and document (read-only)."""


def row_cells(doc: dict[str, Any]) -> tuple[str, ...]:
    """The text of each column for one NPC, every control character made visible."""
    block = doc.get("statblock", {}) or {}
    concepts = doc.get("concepts", [])
    return (
        visible(doc.get("name", ""), 40),
        visible(", ".join(map(str, concepts)), 30),
        visible(block.get("hd", ""), 8),
        visible(block.get("ac", ""), 8),
        visible(block.get("hp", ""), 8),
    )


def fit_concepts(concepts: Sequence[object], width: int) -> str:
    """As many whole concepts as fit, and how many more: ``sneaky +1``, never ``sneaky, cowa``
    (a concept cut at the column's edge). The statblock under the list has them all."""
    names = [visible(c, 30) for c in concepts]
    for count in range(len(names), 0, -1):
        more = len(names) - count
        shown = ", ".join(names[:count]) + (f" +{more}" if more else "")
        if cell_len(shown) <= width:
            return shown
    return ", ".join(names)


class NpcLibrary(LineTable[int]):
    """Library NPCs, one line each; only the lines in view are ever formatted."""

    class Highlighted(LineTable.CursorMoved):
        """The cursor moved to another NPC (or the library changed under it)."""

    class Selected(LineTable.Selected):
        """The GM pressed enter or double-clicked an NPC."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._entries: list[Entry] = []
        self._width = self.set_columns([w for _, w in COLUMNS])
        self.concepts_shown = True

    _fitted_to = -1
    """The width the columns were last fitted to (see :meth:`_fit_columns`)."""

    def _fit_columns(self) -> None:
        """On the first line drawn at a new width: no row is formatted for a width it will
        not be shown at (a 10,000-NPC library formats a screenful, once)."""
        if self._fitted_to == self.size.width:
            return
        self._fitted_to = self.size.width
        fixed = sum(w for x, (_, w) in enumerate(COLUMNS) if x != CONCEPTS)
        room = self.size.width - fixed - 2 * PAD * len(COLUMNS)
        widths = [w for _, w in COLUMNS]
        shown = room >= widths[CONCEPTS]
        widths[CONCEPTS] = max(widths[CONCEPTS], room)
        if (widths, shown) != (self._widths, self.concepts_shown):
            self.concepts_shown = shown
            self._width = self.set_columns(widths, frozenset() if shown else frozenset({CONCEPTS}))
            self.virtual_size = Size(self._width, len(self._entries) + 1)

    # --- feeding -------------------------------------------------------------------------------
    def show(self, entries: Sequence[Entry]) -> None:
        """Show these NPCs (in order), keeping the cursor on the same NPC where it still is."""
        keep = self.selected_id
        self._entries = list(entries)
        self.ids = [doc_id for doc_id, _ in self._entries]
        self._lines.clear()
        self.virtual_size = Size(self._width, len(self._entries) + 1)
        row = self.ids.index(keep) if keep in self.ids else None
        self.cursor_row = max(0, min(self.cursor_row if row is None else row, self.row_count - 1))
        self.refresh()
        self._cursor_moved()

    def get_row_at(self, row: int) -> list[Text]:
        """The cells of a row as Rich Text, every concept named (the column may show fewer)."""
        return [Text(cell) for cell in row_cells(self._entries[row][1])]

    def _cursor_moved(self) -> None:
        self.post_message(self.Highlighted(self))

    # --- what the base asks ----------------------------------------------------------------------
    def header_cells(self) -> Sequence[str]:
        return [name for name, _ in COLUMNS]

    def cells(self, row: int) -> Sequence[Cell]:
        doc = self._entries[row][1]
        texts = list(row_cells(doc))
        texts[CONCEPTS] = fit_concepts(doc.get("concepts", []), self._widths[CONCEPTS])
        return [(text, "") for text in texts]

    def render_line(self, y: int) -> Strip:
        self._fit_columns()
        return super().render_line(y)

"""The NPC library list: a virtual view that renders only the rows on screen.

A DataTable builds every row up front: the first visit to a panel holding 10,000 NPCs blocked
the UI for seconds. This Line API widget keeps the library documents as they are
and formats a row only when it scrolls into view, each once until the library changes, so the
first paint costs the same for ten NPCs or ten thousand. Columns have fixed widths, so nothing
has to be measured across the whole library either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from rulesets.text import visible
from widgets.cursor_list import CursorList

COLUMNS: tuple[tuple[str, int], ...] = (
    ("Name", 18),
    ("Concepts", 12),
    ("HD", 3),
    ("AC", 3),
    ("HP", 4),
)
PAD = 1
CONCEPTS = 1
"""The Concepts column takes the width the others leave; with less than its own width in
COLUMNS it gives way altogether (the selected NPC's statblock below the list names them)."""
STYLE_NAMES = ("npc-library--header", "npc-library--even-row", "npc-library--cursor")

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


class NpcLibrary(CursorList):
    """Library NPCs, one line each; only the lines in view are ever formatted."""

    DEFAULT_CSS = """
    NpcLibrary {
        background: $surface;
        color: $foreground;
        & > .npc-library--header { text-style: bold; background: $panel; color: $foreground; }
        & > .npc-library--even-row { background: $surface-lighten-1 50%; }
        &:dark > .npc-library--even-row { background: $surface-darken-1 40%; }
        & > .npc-library--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .npc-library--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = set(STYLE_NAMES)
    class Highlighted(Message):
        """The cursor moved to another NPC (or the library changed under it)."""

    class Selected(Message):
        """The GM pressed enter or double-clicked an NPC."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._entries: list[Entry] = []
        self._header: Strip | None = None
        self._widths = [w for _, w in COLUMNS]
        self._width = sum(self._widths) + 2 * PAD * len(COLUMNS)
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
            self._widths, self.concepts_shown = widths, shown
            self._width = sum(widths) + 2 * PAD * len(COLUMNS)
            self._width -= 0 if shown else widths[CONCEPTS] + 2 * PAD
            self.virtual_size = Size(self._width, len(self._entries) + 1)
            self._lines.clear()
            self._header = None

    # --- feeding -------------------------------------------------------------------------------
    def show(self, entries: Sequence[Entry]) -> None:
        """Show these NPCs (in order), keeping the cursor on the same NPC where it still is."""
        keep = self.selected_id
        self._entries = list(entries)
        self._lines.clear()
        self.virtual_size = Size(self._width, len(self._entries) + 1)
        row = next((i for i, (doc_id, _) in enumerate(self._entries) if doc_id == keep), None)
        self.cursor_row = max(0, min(self.cursor_row if row is None else row, self.row_count - 1))
        self.refresh()
        self.post_message(self.Highlighted())

    @property
    def row_count(self) -> int:
        return len(self._entries)

    @property
    def ids(self) -> list[int]:
        return [doc_id for doc_id, _ in self._entries]

    def get_row_at(self, row: int) -> list[Text]:
        """The cells of a row as Rich Text (what a test or a screen reader would read)."""
        return [Text(cell) for cell in row_cells(self._entries[row][1])]

    @property
    def selected_id(self) -> int | None:
        if not 0 <= self.cursor_row < len(self._entries):
            return None
        return self._entries[self.cursor_row][0]

    def select_id(self, npc_id: int) -> bool:
        """Put the cursor on that NPC; False when it is not in the list (filtered out)."""
        for row, (doc_id, _) in enumerate(self._entries):
            if doc_id == npc_id:
                self.move_cursor(row)
                return True
        return False

    def _cursor_moved(self) -> None:
        self.post_message(self.Highlighted())

    # --- keys ------------------------------------------------------------------------------------
    def action_select(self) -> None:
        if self.selected_id is not None:
            self.post_message(self.Selected())

    # --- rendering -----------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()
        self._header = None

    def on_focus(self) -> None:
        self._forget(self.cursor_row)

    def on_blur(self) -> None:
        self._forget(self.cursor_row)

    def _cells(self, cells: Sequence[str], style: Style) -> Strip:
        pad = " " * PAD
        return Strip(
            [
                Segment(pad + set_cell_size(text, width) + pad, style)
                for x, (text, width) in enumerate(zip(cells, self._widths, strict=True))
                if x != CONCEPTS or self.concepts_shown
            ]
        )

    def render_line(self, y: int) -> Strip:
        self._fit_columns()
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self.rich_style
        if y == 0:
            if self._header is None:
                header = base + self.get_component_rich_style("npc-library--header", partial=True)
                self._header = self._cells([name for name, _ in COLUMNS], header)
            return self._header.crop_extend(scroll_x, scroll_x + width, base)
        row = scroll_y + y - 1
        if row >= len(self._entries):
            return Strip.blank(width, base)
        strip = self._lines.get(row)
        if strip is None:
            style = base
            if row % 2:
                style += self.get_component_rich_style("npc-library--even-row", partial=True)
            if row == self.cursor_row:
                style += self.get_component_rich_style("npc-library--cursor", partial=True)
            doc = self._entries[row][1]
            cells = list(row_cells(doc))
            cells[CONCEPTS] = fit_concepts(doc.get("concepts", []), self._widths[CONCEPTS])
            strip = self._cells(cells, style)
            self._lines[row] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base)

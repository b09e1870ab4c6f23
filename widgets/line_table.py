"""A keyboard table drawn line by line: the base of the combat tracker's table and the NPC library.

Textual's DataTable builds every row up front and drops its whole render cache on any cell
update. A GM's tables are long (three hundred combatants, ten thousand NPCs) and change a row or
two per key, so these are Line API views instead: only the rows in view are ever drawn, each
once until it changes, and a change forgets and repaints only its own lines.

This base holds what such a table is, whatever its rows mean: a pinned header, a row cursor with
its keys, scrolling and clicks, rows that may take several lines, columns of given widths (some
left out), the drawn lines cached by row, the styles read once per theme or focus change, and
the messages a screen follows. A subclass names its rows (:meth:`LineTable.cells`), fits its
columns to the room (:meth:`LineTable.set_columns`) and says how a cell too long for its column
is shown (:meth:`LineTable.cell_lines`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar

from rich.cells import set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

RowId = TypeVar("RowId")
"""What names a row for the screen: a combatant id, an NPC's document id."""

Cell = tuple[str, str]
"""The plain text of a cell and its Rich style; text is shown as is, never as markup."""

CONTEXT = 3
"""Rows kept in view above the cursor when it runs off the bottom of the list."""
PAD = 1
"""Blank cells either side of every column, as in a DataTable."""
HEADER, EVEN_ROW, CURSOR = "line-table--header", "line-table--even-row", "line-table--cursor"
STYLE_NAMES = (HEADER, EVEN_ROW, CURSOR)


@lru_cache(maxsize=256)
def parse_style(spec: str) -> Style:
    """Cells name their styles as strings; parsing one is slow enough to matter per line."""
    return Style.parse(spec) if spec else Style.null()


class LineTable(ScrollView, Generic[RowId], can_focus=True):
    """Rows under one pinned header line, a cursor on one of them; ``ids`` names each row."""

    DEFAULT_CSS = """
    LineTable {
        background: $surface;
        color: $foreground;
        & > .line-table--header { text-style: bold; background: $panel; color: $foreground; }
        & > .line-table--even-row { background: $surface-lighten-1 50%; }
        &:dark > .line-table--even-row { background: $surface-darken-1 40%; }
        & > .line-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .line-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = set(STYLE_NAMES)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move_cursor(-1)", "Up", show=False),
        Binding("down", "move_cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "First", show=False),
        Binding("end", "edge(1)", "Last", show=False),
        Binding("enter", "select", "Select", show=False),
    ]

    class CursorMoved(Message):
        """The cursor is on another row, or the row under it changed: whoever follows the
        selection reads it again."""

        def __init__(self, table: LineTable[Any]) -> None:
            super().__init__()
            self.table = table

        @property
        def control(self) -> LineTable[Any]:
            return self.table

    class Selected(Message):
        """The GM pressed enter or double-clicked a row."""

        def __init__(self, table: LineTable[Any], row_id: object) -> None:
            super().__init__()
            self.table = table
            self.row_id = row_id

        @property
        def control(self) -> LineTable[Any]:
            return self.table

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cursor_row = 0
        self.ids: list[RowId] = []
        """What each row shows, in order."""
        self._lines: dict[int, tuple[Strip, ...]] = {}
        """Each drawn row's lines: a move of the cursor forgets two rows, not the table."""
        self._header: Strip | None = None
        self._widths: list[int] = []
        """Each column as shown."""
        self._hidden: frozenset[int] = frozenset()
        """Columns left out because the table is too narrow."""
        self._heights: list[int] = []
        """Lines each row takes (empty: every row is one line)."""
        self._tops: list[int] = []
        """Each row's first line under the header (empty: every row is one line)."""
        self._styles: dict[str, Style] = {}
        self._restyled = True
        """Styles may have changed since they were last read (see :meth:`_check_styles`)."""

    # --- what a subclass says ----------------------------------------------------------------
    def header_cells(self) -> Sequence[str]:
        """The header's text, a cell a column (hidden ones included)."""
        raise NotImplementedError

    def cells(self, row: int) -> Sequence[Cell]:
        """A row's cells as drawn at the widths shown (hidden ones included)."""
        raise NotImplementedError

    def cell_lines(self, text: str, width: int) -> tuple[str, ...]:
        """A cell's lines in a column ``width`` wide: one line, cut at the edge, unless a
        subclass wraps (each line is padded or cut to the width when drawn)."""
        return (text,)

    def set_columns(self, widths: list[int], hidden: frozenset[int] = frozenset()) -> int:
        """Show the columns at these widths, leaving out ``hidden``; every line is drawn again.
        Returns the columns' width on screen."""
        self._widths, self._hidden = widths, hidden
        self._lines.clear()
        self._header = None
        return sum(w + 2 * PAD for x, w in enumerate(widths) if x not in hidden)

    # --- rows and the cursor -----------------------------------------------------------------
    @property
    def row_count(self) -> int:
        return len(self.ids)

    def get_row_at(self, row: int) -> list[Text]:
        """The cells of a row as Rich Text (what a test or a screen reader would read)."""
        return [Text(text, style=style) for text, style in self.cells(row)]

    @property
    def selected_id(self) -> RowId | None:
        """What the row under the cursor shows (the GM's selection), or None."""
        if not 0 <= self.cursor_row < len(self.ids):
            return None
        return self.ids[self.cursor_row]

    def select_id(self, row_id: RowId) -> bool:
        """Put the cursor on that row; False when it is not in the table (filtered out)."""
        if row_id not in self.ids:
            return False
        self.move_cursor(self.ids.index(row_id))
        return True

    def _cursor_moved(self) -> None:
        self.post_message(self.CursorMoved(self))

    def move_cursor(self, row: int, animate: bool = False) -> None:
        """Put the cursor on a row (clamped) and scroll it into view below the header."""
        if not self.row_count:
            return
        row = max(0, min(row, self.row_count - 1))
        if row != self.cursor_row:
            self._forget(self.cursor_row)
            self.cursor_row = row
            self._forget(row)
            self._cursor_moved()
        body = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        first, height = self.row_top(row), self.row_height(row)
        if first < top:
            self.scroll_to(y=first, animate=animate)
        elif first + height > top + body:
            # Past the bottom: a page on, with a few rows above it kept in view, rather than one
            # row at a time; the next turns then move the cursor without scrolling (a scroll
            # repaints the scrollbar a frame after the rows).
            context = min(CONTEXT, max(0, body - height))
            self.scroll_to(y=max(first - context, 0), animate=animate)

    def _forget(self, row: int) -> None:
        """Draw this row again when it is next shown, and repaint its lines."""
        self._lines.pop(row, None)
        self.refresh_lines(self.row_top(row) + 1, self.row_height(row))

    # --- rows of several lines ---------------------------------------------------------------
    def row_top(self, row: int) -> int:
        """The row's first line under the header."""
        return self._tops[row] if self._tops and row < len(self._tops) else row

    def row_height(self, row: int) -> int:
        return self._heights[row] if self._heights and row < len(self._heights) else 1

    def row_at(self, line: int) -> int:
        """The row drawn on this line under the header."""
        return bisect_right(self._tops, line) - 1 if self._tops else line

    def _set_height(self, row: int, height: int) -> None:
        if not self._heights:
            if height == 1:
                return
            self._heights = [1] * self.row_count
        self._heights[row] = height

    def _place_rows(self) -> None:
        """Each row's first line, from the heights (none kept when every row is one line)."""
        if not self._heights or all(h == 1 for h in self._heights):
            self._heights, self._tops = [], []
            return
        tops, y = [], 0
        for height in self._heights:
            tops.append(y)
            y += height
        self._tops = tops

    def _body_lines(self) -> int:
        return self._tops[-1] + self._heights[-1] if self._tops else self.row_count

    # --- keys and mouse ------------------------------------------------------------------------
    def action_move_cursor(self, delta: int) -> None:
        self.move_cursor(self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        body = max(1, self.scrollable_content_region.height - 1)
        self.move_cursor(self.cursor_row + direction * body)

    def action_edge(self, last: int) -> None:
        self.move_cursor(self.row_count - 1 if last else 0)

    def action_select(self) -> None:
        if (row_id := self.selected_id) is not None:
            self.post_message(self.Selected(self, row_id))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        row = self.row_at(round(self.scroll_y) + offset.y - 1)
        if 0 <= row < self.row_count:
            self.move_cursor(row)
            if event.chain > 1:
                self.action_select()

    # --- styles --------------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._restyled = True

    def on_focus(self) -> None:
        self._restyled = True
        self.refresh()

    def on_blur(self) -> None:
        self._restyled = True
        self.refresh()

    def _check_styles(self) -> None:
        """After a theme, focus or class change, forget only the lines whose style changed.

        Closing a prompt gives the focus back, which restyles the cursor: one line, not the
        thirty in view (so the table has no focus tint of its own, unlike a DataTable).
        """
        self._restyled = False
        old = self._styles
        new = {name: self.get_component_rich_style(name, partial=True) for name in STYLE_NAMES}
        new[""] = self.rich_style
        self._styles = new
        changed = {name for name in new if old.get(name) != new[name]}
        if changed & {"", EVEN_ROW}:
            self._lines.clear()
            self._header = None
            return
        if HEADER in changed:
            self._header = None
        if CURSOR in changed:
            self._lines.pop(self.cursor_row, None)

    def _component(self, name: str) -> Style:
        if self._restyled:
            self._check_styles()
        return self._styles[name]

    # --- drawing -------------------------------------------------------------------------------
    def _draw(self, cells: Sequence[Cell], base: Style, over: Style | None) -> tuple[Strip, ...]:
        """A row's lines: each shown cell in its column, the shorter ones padded below."""
        pad = " " * PAD
        hidden = self._hidden
        shown: list[tuple[tuple[str, ...], int, Style]] = []
        for x, ((text, spec), width) in enumerate(zip(cells, self._widths, strict=True)):
            if x in hidden:
                continue
            style = base + parse_style(spec)
            if over is not None:
                style += over
            shown.append((self.cell_lines(text, width), width, style))
        height = max((len(lines) for lines, _, _ in shown), default=1)
        strips = []
        for k in range(height):
            segments = [
                Segment(pad + set_cell_size(lines[k] if k < len(lines) else "", width) + pad, style)
                for lines, width, style in shown
            ]
            strips.append(Strip(segments))
        return tuple(strips)

    def _row_strips(self, row: int) -> tuple[Strip, ...]:
        strips = self._lines.get(row)
        if strips is None:
            base = self._component("")
            if row % 2:
                base += self._component(EVEN_ROW)
            over = self._component(CURSOR) if row == self.cursor_row else None
            strips = self._draw(self.cells(row), base, over)
            self._lines[row] = strips
        return strips

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        # Widget.rich_style walks every ancestor; per line that is most of the drawing.
        base = self._component("")
        if y == 0:
            if self._header is None:
                header = tuple((text, "") for text in self.header_cells())
                self._header = self._draw(header, base + self._component(HEADER), None)[0]
            return self._header.crop_extend(scroll_x, scroll_x + width, base)
        line = scroll_y + y - 1
        row = self.row_at(line)
        if not 0 <= row < self.row_count:
            return Strip.blank(width, base)
        strips = self._row_strips(row)
        part = line - self.row_top(row)
        if not 0 <= part < len(strips):
            return Strip.blank(width, base)
        return strips[part].crop_extend(scroll_x, scroll_x + width, base)

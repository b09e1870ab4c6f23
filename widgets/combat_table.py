"""The tracker's combatant table: a virtual view that repaints only the lines that changed.

A GM presses ``n`` or ``t`` and expects the table to answer at once even with 300 combatants.
Textual's DataTable drops its whole render cache on any cell update and re-renders every
visible cell, so this is a Line API widget instead: :meth:`CombatTable.show` compares each new
row with the one on screen, forgets the cached line of the rows that differ and refreshes just
those lines. Only the rows in view are ever rendered, each once until it changes.

Rows are addressed by position (the turn order), so moving a combatant up the order repaints
two lines, not three hundred. The header stays pinned while the rows scroll under it.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from typing import ClassVar

from rich.cells import cell_len, chop_cells, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from widgets.cursor_list import CursorList
from widgets.literal import clean

Cell = tuple[str, str]
"""The plain text of a cell and its Rich style; text is shown as is, never as markup."""
Row = tuple[Cell, ...]

COLUMNS: tuple[str, ...] = ("", "#", "Init", "Name", "Health", "Conditions", "Turn")
GIVE_WAY: tuple[int, ...] = (1, 6, 2, 5)
"""Columns a narrow table leaves out, first to last: the position, the turn state, the
initiative, and only where even name, health and conditions do not fit at their narrowest (80
columns with the statblock pane beside it) the conditions. The marker, name and health always
stay; what is left out of the selected row is read in :meth:`CombatTable.detail` instead.
A long cell never takes a column away: it wraps in its own row (see :data:`FLEX`)."""
FLEX: tuple[int, ...] = (3, 4, 5, 6)
"""Columns that narrow to fit before any column gives way: a long cell then wraps onto more
lines of its own row. Each keeps its header, its longest word (at most :data:`WORD`) and
:data:`READABLE` cells (or all it needs, if less): narrower than that, a column gives way."""
READABLE: dict[int, int] = {3: 10, 4: 16, 5: 10, 6: 6}
"""The narrowest a flexible column still reads well at (a PC's health on two lines, not six)."""
WORD = 12
"""The longest word a column keeps whole when it narrows; a longer one is broken."""
CELL_LINES = 3
"""Lines one cell may take; the rest is cut with … (the detail line has it whole)."""
PAD = 1
"""Blank cells either side of every column, as in a DataTable."""
LIMIT = 500
"""Longest cell shown; the screen caps names far below this."""


@lru_cache(maxsize=4096)
def _measure(text: str) -> tuple[int, int]:
    """A cell's width on one line, and its longest word (capped at :data:`WORD`)."""
    shown = clean(text, LIMIT)
    longest = max((cell_len(word) for word in shown.split()), default=0)
    return cell_len(shown), min(longest, WORD)


def _measure_cells(row: Row) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each cell's width on one line, and each one's longest word (see :func:`_measure`)."""
    measured = [_measure(text) for text, _style in row]
    return tuple(width for width, _ in measured), tuple(word for _, word in measured)


@lru_cache(maxsize=4096)
def wrap_cell(text: str, width: int) -> tuple[tuple[str, ...], bool]:
    """A cell's lines at ``width`` (words kept whole where they fit), at most
    :data:`CELL_LINES`, and whether some of it was cut (the last line then ends with …)."""
    shown = clean(text, LIMIT)
    if width <= 0 or cell_len(shown) <= width:
        return (shown,), False
    lines: list[str] = []
    line = ""
    for word in shown.split():
        while cell_len(word) > width:  # a word wider than the column is broken
            if line:
                lines.append(line)
            head = chop_cells(word, width)[0]
            lines.append(head)
            line, word = "", word[len(head) :]
        if line and cell_len(line) + 1 + cell_len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    if len(lines) <= CELL_LINES:
        return tuple(lines), False
    last = set_cell_size(lines[CELL_LINES - 1], width - 1).rstrip() + "…"
    return (*lines[: CELL_LINES - 1], last), True


def fit_widths(
    natural: list[int], floors: list[int], room: int, hidden: frozenset[int] = frozenset()
) -> list[int]:
    """Column widths that fit ``room``: each as wide as its widest cell, the :data:`FLEX`
    columns narrowed to one common cap (never under their floor) when that is too wide."""
    fixed = sum(w + 2 * PAD for x, w in enumerate(natural) if x not in hidden and x not in FLEX)
    flex = [x for x in FLEX if x not in hidden and x < len(natural)]
    budget = room - fixed - 2 * PAD * len(flex)

    def total(cap: int) -> int:
        return sum(max(floors[x], min(natural[x], cap)) for x in flex)

    widths = list(natural)
    if room <= 0 or total(max(natural, default=0)) <= budget:
        return widths
    low, high = 0, max(natural[x] for x in flex) if flex else 0
    while low < high:  # the widest common cap that fits
        mid = (low + high + 1) // 2
        if total(mid) <= budget:
            low = mid
        else:
            high = mid - 1
    for x in flex:
        widths[x] = max(floors[x], min(natural[x], low))
    return widths


STYLE_NAMES = ("combat-table--header", "combat-table--even-row", "combat-table--cursor")


@lru_cache(maxsize=256)
def _style(spec: str) -> Style:
    """Rows name their styles as strings; parsing one is slow enough to matter per line."""
    return Style.parse(spec) if spec else Style.null()


class CombatTable(CursorList):
    """Combatants in turn order, fed whole rows, repainted line by line."""

    DEFAULT_CSS = """
    CombatTable {
        background: $surface;
        color: $foreground;
        & > .combat-table--header { text-style: bold; background: $panel; color: $foreground; }
        & > .combat-table--even-row { background: $surface-lighten-1 50%; }
        &:dark > .combat-table--even-row { background: $surface-darken-1 40%; }
        & > .combat-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .combat-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = set(STYLE_NAMES)

    class Selected(Message):
        """The GM pressed enter or clicked on a combatant."""

        def __init__(self, table: CombatTable, combatant_id: str) -> None:
            super().__init__()
            self.table = table
            self.combatant_id = combatant_id

        @property
        def control(self) -> CombatTable:
            return self.table

    class CursorMoved(Message):
        """The selection (or the columns a narrow table leaves out) changed: the detail
        line under the table reads :meth:`CombatTable.detail` again."""

        def __init__(self, table: CombatTable) -> None:
            super().__init__()
            self.table = table

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._shown: list[Row] = []
        self.ids: list[str] = []
        """Combatant id of each row, in order."""
        self._natural: list[int] = [cell_len(c) for c in COLUMNS]
        """Each column as wide as its widest cell (and its header)."""
        self._floors: list[int] = list(self._natural)
        """How narrow each column may get: its header or its longest word."""
        self._widths: list[int] = list(self._natural)
        """Each column as shown (see :func:`fit_widths`)."""
        self._header: Strip | None = None
        self._columns = COLUMNS
        self._hidden: frozenset[int] = frozenset()
        """Columns left out because the table is too narrow (see :data:`GIVE_WAY`)."""
        self._heights: list[int] = []
        """Lines each row takes (a long cell wraps in its own row)."""
        self._tops: list[int] = []
        """Each row's first line under the header (empty: every row is one line)."""
        self._cut: set[int] = set()
        """Rows with a cell cut short (the detail line reads it whole when selected)."""
        self._measured: dict[Row, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        """Each row shown: its cells' widths and longest words (a keypress changes a row or two
        of three hundred, and measuring every cell again was most of :meth:`show`)."""
        self._styles: dict[str, Style] = {}
        self._restyled = True
        """Styles may have changed since they were last read (see :meth:`_check_styles`)."""

    # --- feeding -------------------------------------------------------------------------------
    @property
    def row_count(self) -> int:
        return len(self._shown)

    def get_row_at(self, row: int) -> list[Text]:
        """The cells of a row as Rich Text (what a test or a screen reader would read)."""
        return [Text(text, style=style) for text, style in self._shown[row]]

    def show(self, ids: list[str], rows: list[Row], init_label: str = "Init") -> None:
        """Display these rows, re-rendering only the lines whose row differs from before.

        ``init_label`` heads the turn-order column: the turn model's word for it.
        """
        self.ids = list(ids)
        columns = (*COLUMNS[:2], init_label, *COLUMNS[3:])
        if columns != self._columns:
            self._columns, self._header = columns, None
            self.refresh_lines(0)
        natural = [cell_len(c) for c in columns]
        floors = list(natural)
        measured = {row: self._measured.get(row) or _measure_cells(row) for row in rows}
        self._measured = measured
        if rows:
            widths = zip(*(measured[row][0] for row in rows), strict=True)
            words = zip(*(measured[row][1] for row in rows), strict=True)
            natural = [max(n, *column) for n, column in zip(natural, widths, strict=True)]
            floors = [max(f, *column) for f, column in zip(floors, words, strict=True)]
        for x, readable in READABLE.items():
            floors[x] = max(floors[x], min(natural[x], readable))
        old = self._shown
        self._shown = list(rows)
        if (natural, floors) != (self._natural, self._floors) or len(rows) != len(old):
            self._natural, self._floors = natural, floors
            self.cursor_row = max(0, min(self.cursor_row, len(rows) - 1))
            self._relayout()
            self.post_message(self.CursorMoved(self))
            return
        taller = False
        for y, (before, after) in enumerate(zip(old, rows, strict=True)):
            if before != after:
                height = self._measure_row(y)
                taller = taller or height != self.row_height(y)
                self._set_height(y, height)
                self._forget(y)
                if y == self.cursor_row and (self._hidden or self._cut):
                    self.post_message(self.CursorMoved(self))
        if taller:  # the rows below moved: every line from the first change down is redrawn
            self._place_rows()
            self.refresh()

    def _measure_row(self, y: int) -> int:
        """The lines row ``y`` takes at the widths shown (noting whether a cell is cut)."""
        height, cut = 1, False
        for x, ((text, _), width) in enumerate(zip(self._shown[y], self._widths, strict=True)):
            if x in self._hidden or len(text) <= width and "\n" not in text:
                continue
            lines, cut_here = wrap_cell(text, width)
            height, cut = max(height, len(lines)), cut or cut_here
        if cut:
            self._cut.add(y)
        else:
            self._cut.discard(y)
        return height

    def _set_height(self, y: int, height: int) -> None:
        if not self._heights:
            if height == 1:
                return
            self._heights = [1] * len(self._shown)
        self._heights[y] = height

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

    def row_top(self, row: int) -> int:
        return self._tops[row] if self._tops and row < len(self._tops) else row

    def row_height(self, row: int) -> int:
        return self._heights[row] if self._heights and row < len(self._heights) else 1

    def row_at(self, line: int) -> int:
        return bisect_right(self._tops, line) - 1 if self._tops else line

    def _body_lines(self) -> int:
        return self._tops[-1] + self._heights[-1] if self._tops else len(self._shown)

    def _relayout(self) -> None:
        """Fit the columns to the width (narrowing the :data:`FLEX` ones, and only where even
        their narrowest does not fit leaving columns out by :data:`GIVE_WAY`), measure every
        row at those widths and redraw everything."""
        room = self.size.width
        hidden: set[int] = set()
        for column in GIVE_WAY:
            floors = [self._floors[x] if x in FLEX else w for x, w in enumerate(self._natural)]
            needed = sum(w + 2 * PAD for x, w in enumerate(floors) if x not in hidden)
            if room <= 0 or needed <= room:
                break
            hidden.add(column)
        self._hidden = frozenset(hidden)
        self._widths = fit_widths(self._natural, self._floors, room, self._hidden)
        self._cut = set()
        self._heights = []
        for y in range(len(self._shown)):
            self._set_height(y, self._measure_row(y))
        self._place_rows()
        self._lines.clear()
        self._header = None
        width = sum(w + 2 * PAD for x, w in enumerate(self._widths) if x not in self._hidden)
        # A table narrower than its room scrolls nowhere: held at the room's width (less the
        # vertical scrollbar's, shown or not), a column growing by a cell as the turn moves
        # changes nothing outside the table, where a new virtual width laid the whole screen
        # out again.
        inside = room - self.styles.scrollbar_size_vertical
        self.virtual_size = Size(max(width, inside), self._body_lines() + 1)
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        before = (self._hidden, self._cut)
        self._relayout()
        if (self._hidden, self._cut) != before:
            self.post_message(self.CursorMoved(self))

    def detail(self) -> str:
        """The selected row's cells that a narrow table leaves out or cuts short:
        ``Turn: holding · Init: 14``."""
        if not 0 <= self.cursor_row < len(self._shown):
            return ""
        row = self._shown[self.cursor_row]
        wanted = set(self._hidden)
        if self.cursor_row in self._cut:
            wanted |= {
                x
                for x, ((text, _), width) in enumerate(zip(row, self._widths, strict=True))
                if x not in self._hidden and wrap_cell(text, width)[1]
            }
        said = [
            f"{self._columns[x] or 'Order'}: {clean(row[x][0], LIMIT)}"
            for x in sorted(wanted)
            if x < len(row) and row[x][0] and x != 1
        ]
        return " · ".join(said)

    @property
    def selected_id(self) -> str | None:
        """The combatant under the cursor (the GM's selection), or None."""
        if not self.ids or not 0 <= self.cursor_row < len(self.ids):
            return None
        return self.ids[self.cursor_row]

    def select_id(self, combatant_id: str) -> None:
        if combatant_id in self.ids:
            self.move_cursor(row=self.ids.index(combatant_id))

    @property
    def gives_way(self) -> bool:
        """Some columns are left out or a cell is cut short (the detail line reads them)."""
        return bool(self._hidden or self._cut)

    def _cursor_moved(self) -> None:
        # Always: whoever follows the selection (the detail line, the statblock pane, the game's
        # keys on offer) reads it again.
        self.post_message(self.CursorMoved(self))

    def action_select(self) -> None:
        if (cid := self.selected_id) is not None:
            self.post_message(self.Selected(self, cid))

    # --- rendering -----------------------------------------------------------------------------
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
        if changed & {"", "combat-table--even-row"}:
            self._lines.clear()
            self._header = None
            return
        if "combat-table--header" in changed:
            self._header = None
        if "combat-table--cursor" in changed:
            self._lines.pop(self.cursor_row, None)

    def _component(self, name: str) -> Style:
        if self._restyled:
            self._check_styles()
        return self._styles[name]

    def _base(self) -> Style:
        # Widget.rich_style walks every ancestor; per line that is most of the render cost.
        return self._component("")

    def _render_cells(
        self, cells: tuple[Cell, ...], base: Style, over: Style | None
    ) -> tuple[Strip, ...]:
        """A row's lines: each cell wrapped to its column, the shorter ones padded below."""
        pad = " " * PAD
        hidden = self._hidden
        shown: list[tuple[tuple[str, ...], int, Style]] = []
        for x, ((text, spec), width) in enumerate(zip(cells, self._widths, strict=True)):
            if x in hidden:
                continue
            style = base + _style(spec)
            if over is not None:
                style += over
            # Control codes are made visible, so an ESC in a name can never reach the terminal.
            shown.append((wrap_cell(text, width)[0], width, style))
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
            base = self._base()
            if row % 2:
                base += self._component("combat-table--even-row")
            over = self._component("combat-table--cursor") if row == self.cursor_row else None
            strips = self._render_cells(self._shown[row], base, over)
            self._lines[row] = strips
        return strips

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self._base()
        if y == 0:
            if self._header is None:
                header = self._component("combat-table--header")
                self._header = self._render_cells(
                    tuple((c, "") for c in self._columns), base + header, None
                )[0]
            return self._header.crop_extend(scroll_x, scroll_x + width, base)
        line = scroll_y + y - 1
        row = self.row_at(line)
        if not 0 <= row < len(self._shown):
            return Strip.blank(width, base)
        strips = self._row_strips(row)
        part = line - self.row_top(row)
        if not 0 <= part < len(strips):
            return Strip.blank(width, base)
        return strips[part].crop_extend(scroll_x, scroll_x + width, base)

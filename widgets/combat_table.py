"""The tracker's combatant table: a virtual view that repaints only the lines that changed.

A GM presses ``n`` or ``t`` and expects the table to answer at once even with 300 combatants,
so this is a :class:`~widgets.line_table.LineTable`: :meth:`CombatTable.show` compares each new
row with the one on screen, measures and forgets only the rows that differ and refreshes just
those lines. Only the rows in view are ever rendered, each once until it changes.

Rows are addressed by position (the turn order), so moving a combatant up the order repaints
two lines, not three hundred. The header stays pinned while the rows scroll under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rich.cells import cell_len, chop_cells, set_cell_size
from textual import events
from textual.geometry import Size

from widgets.line_table import PAD, Cell, LineTable
from widgets.literal import clean

Row = tuple[Cell, ...]

COLUMNS: tuple[str, ...] = ("", "#", "Init", "Name", "Health", "Conditions", "Turn")
GIVE_WAY: tuple[int, ...] = (1, 6, 2, 5)
"""Columns a narrow table leaves out, first to last: the position, the turn state, the
initiative, and only where even name, health and conditions do not fit at their narrowest (80
columns with the statblock pane beside it) the conditions. The marker, name and health always
stay; what is left out of the selected row is read in :meth:`CombatTable.detail` instead.
A long cell never takes a column away: it wraps in its own row (see :data:`FLEX`); only the
position gives way to spare a wrap, where that alone lets every cell keep one line."""
POSITION = 1
"""The position column: the least read (the marker and the order say it), first to go."""
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


class CombatTable(LineTable[str]):
    """Combatants in turn order, fed whole rows, repainted line by line."""

    class Selected(LineTable.Selected):
        """The GM pressed enter or clicked on a combatant."""

        @property
        def combatant_id(self) -> str:
            return str(self.row_id)

    class CursorMoved(LineTable.CursorMoved):
        """The selection (or the columns a narrow table leaves out) changed: the detail
        line under the table reads :meth:`CombatTable.detail` again."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._shown: list[Row] = []
        self._natural: list[int] = [cell_len(c) for c in COLUMNS]
        """Each column as wide as its widest cell (and its header)."""
        self._floors: list[int] = list(self._natural)
        """How narrow each column may get: its header or its longest word."""
        self._widths = list(self._natural)
        self._columns = COLUMNS
        self._cut: set[int] = set()
        """Rows with a cell cut short (the detail line reads it whole when selected)."""
        self._measured: dict[Row, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        """Each row shown: its cells' widths and longest words (a keypress changes a row or two
        of three hundred, and measuring every cell again was most of :meth:`show`)."""

    # --- what the base asks ----------------------------------------------------------------------
    def header_cells(self) -> Sequence[str]:
        return self._columns

    def cells(self, row: int) -> Sequence[Cell]:
        return self._shown[row]

    def cell_lines(self, text: str, width: int) -> tuple[str, ...]:
        # Control codes are made visible, so an ESC in a name can never reach the terminal.
        return wrap_cell(text, width)[0]

    # --- feeding -------------------------------------------------------------------------------
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
        # One cell too many at 80 columns (a PC's health beside an "acted") wrapped the health:
        # the position goes instead, where that is all it takes.
        if self._wraps(room, hidden) and not self._wraps(room, hidden | {POSITION}):
            hidden.add(POSITION)
        width = self.set_columns(
            fit_widths(self._natural, self._floors, room, frozenset(hidden)), frozenset(hidden)
        )
        self._cut = set()
        self._heights = []
        for y in range(len(self._shown)):
            self._set_height(y, self._measure_row(y))
        self._place_rows()
        # A table narrower than its room scrolls nowhere: held at the room's width (less the
        # vertical scrollbar's, shown or not), a column growing by a cell as the turn moves
        # changes nothing outside the table, where a new virtual width laid the whole screen
        # out again.
        inside = room - self.styles.scrollbar_size_vertical
        self.virtual_size = Size(max(width, inside), self._body_lines() + 1)
        self.refresh()

    def _wraps(self, room: int, hidden: set[int]) -> bool:
        """True if some cell would wrap at ``room`` with ``hidden`` left out."""
        return sum(w + 2 * PAD for x, w in enumerate(self._natural) if x not in hidden) > room

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
            if x < len(row) and row[x][0] and x != POSITION
        ]
        return " · ".join(said)

    @property
    def gives_way(self) -> bool:
        """Some columns are left out or a cell is cut short (the detail line reads them; the
        position it does not)."""
        return bool(self._hidden - {POSITION} or self._cut)

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

from functools import lru_cache
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
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
initiative, and only where even name, health and conditions do not fit (80 columns with the
statblock pane beside it) the conditions. The marker, name and health always stay; what is
left out of the selected row is read in :meth:`CombatTable.detail` instead of being cut."""
PAD = 1
"""Blank cells either side of every column, as in a DataTable."""
LIMIT = 500
"""Longest cell shown; the screen caps names far below this."""


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
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._shown: list[Row] = []
        self.ids: list[str] = []
        """Combatant id of each row, in order."""
        self._widths: list[int] = [cell_len(c) for c in COLUMNS]
        self._header: Strip | None = None
        self._columns = COLUMNS
        self._hidden: frozenset[int] = frozenset()
        """Columns left out because the table is too narrow (see :data:`GIVE_WAY`)."""
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
        widths = [cell_len(c) for c in columns]
        for row in rows:
            for x, (text, _style_spec) in enumerate(row):
                if len(text) > widths[x]:
                    widths[x] = max(widths[x], cell_len(clean(text, LIMIT)))
        old = self._shown
        self._shown = list(rows)
        if widths != self._widths or len(rows) != len(old):
            self._widths = widths
            self.cursor_row = max(0, min(self.cursor_row, len(rows) - 1))
            self._relayout()
            self.post_message(self.CursorMoved(self))
            return
        for y, (before, after) in enumerate(zip(old, rows, strict=True)):
            if before != after:
                self._forget(y)
                if y == self.cursor_row and self._hidden:
                    self.post_message(self.CursorMoved(self))

    def _relayout(self) -> None:
        """Leave out the columns that do not fit (by :data:`GIVE_WAY`) and redraw everything."""
        room = self.size.width
        hidden: set[int] = set()

        def needed() -> int:
            return sum(w + 2 * PAD for x, w in enumerate(self._widths) if x not in hidden)

        for column in GIVE_WAY:
            if room <= 0 or needed() <= room:
                break
            hidden.add(column)
        self._hidden = frozenset(hidden)
        self._lines.clear()
        self._header = None
        self.virtual_size = Size(needed(), len(self._shown) + 1)
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        before = self._hidden
        self._relayout()
        if self._hidden != before:
            self.post_message(self.CursorMoved(self))

    def detail(self) -> str:
        """The selected row's cells that a narrow table leaves out: ``Turn: holding · Init: 14``."""
        if not self._hidden or not 0 <= self.cursor_row < len(self._shown):
            return ""
        row = self._shown[self.cursor_row]
        said = [
            f"{self._columns[x] or 'Order'}: {row[x][0]}"
            for x in sorted(self._hidden)
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
        """Some columns are left out (the detail line reads them)."""
        return bool(self._hidden)

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

    def _render_cells(self, cells: tuple[Cell, ...], base: Style, over: Style | None) -> Strip:
        segments: list[Segment] = []
        pad = " " * PAD
        hidden = self._hidden
        for x, ((text, spec), width) in enumerate(zip(cells, self._widths, strict=True)):
            if x in hidden:
                continue
            style = base + _style(spec)
            if over is not None:
                style += over
            # Control codes are made visible, so an ESC in a name can never reach the terminal.
            shown = set_cell_size(clean(text, LIMIT), width)
            segments.append(Segment(pad + shown + pad, style))
        return Strip(segments)

    def _row_strip(self, row: int) -> Strip:
        strip = self._lines.get(row)
        if strip is None:
            base = self._base()
            if row % 2:
                base += self._component("combat-table--even-row")
            over = self._component("combat-table--cursor") if row == self.cursor_row else None
            strip = self._render_cells(self._shown[row], base, over)
            self._lines[row] = strip
        return strip

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self._base()
        if y == 0:
            if self._header is None:
                header = self._component("combat-table--header")
                self._header = self._render_cells(
                    tuple((c, "") for c in self._columns), base + header, None
                )
            return self._header.crop_extend(scroll_x, scroll_x + width, base)
        row = scroll_y + y - 1
        if row >= len(self._shown):
            return Strip.blank(width, base)
        return self._row_strip(row).crop_extend(scroll_x, scroll_x + width, base)

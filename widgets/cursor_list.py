"""What a keyboard list drawn with the Line API shares: a row cursor, its keys, scrolling it into
view, and clicks. The combat tracker's table and the NPC library are such lists; each draws
its own lines and names what a row is."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.scroll_view import ScrollView

CONTEXT = 3
"""Rows kept in view above the cursor when it runs off the bottom of the list."""


class CursorList(ScrollView, can_focus=True):
    """Rows under one header line; subclasses count rows, draw them and say what enter means.

    ``_lines`` caches each row's drawn strip: :meth:`_forget` drops one row, so moving the
    cursor repaints two lines, not the list.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move_cursor(-1)", "Up", show=False),
        Binding("down", "move_cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "First", show=False),
        Binding("end", "edge(1)", "Last", show=False),
        Binding("enter", "select", "Select", show=False),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.cursor_row = 0
        self._lines: dict[int, Any] = {}
        """Each drawn row: a Strip, or the Strips of a row that takes several lines."""

    @property
    def row_count(self) -> int:
        raise NotImplementedError

    # A row is one line unless a subclass says otherwise (the combat table wraps a long cell).
    def row_top(self, row: int) -> int:
        """The row's first line under the header."""
        return row

    def row_height(self, row: int) -> int:
        return 1

    def row_at(self, line: int) -> int:
        """The row drawn on this line under the header."""
        return line

    def action_select(self) -> None:
        """Enter or a double click on the cursor's row."""

    def _cursor_moved(self) -> None:
        """The cursor is on another row (tell whoever follows it)."""

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
            # repaints the scrollbar a frame after the rows, and the keypress settles later).
            context = min(CONTEXT, max(0, body - height))
            self.scroll_to(y=max(first - context, 0), animate=animate)

    def _forget(self, row: int) -> None:
        self._lines.pop(row, None)
        self.refresh_lines(self.row_top(row) + 1, self.row_height(row))

    # --- keys and mouse ------------------------------------------------------------------------
    def action_move_cursor(self, delta: int) -> None:
        self.move_cursor(self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        body = max(1, self.scrollable_content_region.height - 1)
        self.move_cursor(self.cursor_row + direction * body)

    def action_edge(self, last: int) -> None:
        self.move_cursor(self.row_count - 1 if last else 0)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        row = self.row_at(round(self.scroll_y) + offset.y - 1)
        if 0 <= row < self.row_count:
            self.move_cursor(row)
            if event.chain > 1:
                self.action_select()

"""The roll log (GEN-03): newest last, timestamps, who, expression, every die, total, band.

Every die (or card value) of a roll is shown; the ones that do not count, listed by position
in the entry's ``dropped`` (a die not kept, a rerolled face, a card not used), are struck
through and dimmed, and a plain-text reader sees them marked ``x`` as the roller writes them.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import OptionList

from widgets.literal import clean

DROPPED_STYLE = "dim strike"
SHOWN_DICE = 40
"""Dice listed on a log line before the rest is summed up as "+N more" (``full`` lists all)."""


def _limit(full: bool, limit: int) -> int:
    return 1_000_000 if full else limit


# A line wraps to the log's width: these only bound a pasted wall of text (a line of a few
# rows), never an ordinary band or detail ("They continue to fight, but consider im…").
WHO, EXPRESSION, BAND, DETAIL, TEXT = 60, 200, 200, 600, 1000


def _positions(value: object) -> set[int]:
    """The ``dropped`` positions of an entry; anything malformed (a hand-edited save) is none."""
    if not isinstance(value, list):
        return set()
    return {i for i in value if isinstance(i, int) and not isinstance(i, bool)}


def dice_text(entry: dict[str, Any], *, full: bool = False) -> Text:
    """``[13 x18]``-style list of every die of a roll: kept plain, dropped struck through."""
    faces = entry.get("dice")
    if not isinstance(faces, list) or not faces:
        return Text()
    dropped = _positions(entry.get("dropped"))
    shown = faces if full else faces[:SHOWN_DICE]
    text = Text("[")
    for i, face in enumerate(shown):
        if i:
            text.append(" ")
        if i in dropped:
            text.append(f"x{clean(face, 12)}", style=DROPPED_STYLE)
        else:
            text.append(clean(face, 12))
    if len(shown) < len(faces):
        text.append(f" +{len(faces) - len(shown)} more", style="dim")
    text.append("]")
    return text


def format_entry(entry: dict[str, Any], *, full: bool = False) -> Text:
    """One log entry as a line; ``full`` keeps every character and die (a long entry's view)."""
    at = clean(str(entry.get("at", ""))[11:19])
    kind = entry.get("kind", "roll")
    line = Text()
    line.append(f"{at} ", style="dim")
    if kind == "roll":
        line.append(clean(entry.get("who", "GM"), _limit(full, WHO)), style="bold")
        line.append(f"  {clean(entry.get('expression', ''), _limit(full, EXPRESSION))}  ")
        rolled = dice_text(entry, full=full)
        if rolled:
            line.append_text(rolled)
            line.append(" ")
        line.append(f"{entry.get('total', '')}", style="bold cyan")
        if entry.get("band"):
            line.append(f"  {clean(entry['band'], _limit(full, BAND))}", style="bold magenta")
        if entry.get("detail"):
            line.append(f"  {clean(entry['detail'], _limit(full, DETAIL))}", style="dim")
    elif kind in ("undo", "redo"):
        line.append(clean(entry.get("text", ""), _limit(full, TEXT)), style="italic yellow")
    else:
        line.append(clean(entry.get("text", ""), _limit(full, TEXT)))
    return line


class RollLog(OptionList):
    """A read-only view of the newest part of the campaign log; the screen feeds it rows.

    Each entry is one option, wrapped to the width, so the GM can move to a line (up/down)
    and press enter to read it whole (:class:`RollLog.Chosen` carries the entry: every die,
    and text past a few rows, which ends in ``…`` here).

    A long campaign's log holds tens of thousands of entries: the view holds only the newest
    :attr:`window` of them (the screen reads no more than that from the campaign), so showing
    the tray costs the same at 50 entries as at 20,000. ``up`` on the oldest line shown posts
    :class:`RollLog.Older`, and the screen reads :data:`PAGE` more.
    """

    DEFAULT_CSS = """
    RollLog { border: round $primary; padding: 0 1; height: 1fr; max-height: 100%; }
    RollLog:focus { border: round $primary; }
    """
    WINDOW = 100
    """Entries shown at first: several screens of lines, formatted at once."""
    PAGE = 200
    """Entries read in each time the GM moves up past the oldest one shown."""

    class Chosen(Message):
        """Enter on a log line: the whole entry, for a reader that shows every character."""

        def __init__(self, entry: dict[str, Any]) -> None:
            super().__init__()
            self.entry = entry

    class Older(Message):
        """``up`` on the oldest line shown while the log holds older ones: read more."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.border_title = "Roll log"
        self.window = self.WINDOW
        self._ids: list[int] = []
        self._entries: list[dict[str, Any]] = []
        self._more = False

    def reset(self) -> None:
        """Forget what is shown (the filter changed): the next rows are drawn afresh."""
        self.window = self.WINDOW
        self._ids, self._entries = [], []
        self.clear_options()

    def show_entries(
        self, rows: list[tuple[int, dict[str, Any]]], *, more: bool, total: int | None = None
    ) -> None:
        """Show ``rows`` (log id and entry, oldest first: the newest :attr:`window` of the log;
        ``more``: the log holds older ones, ``total`` of them in all where known). Only what changed is formatted: new rows are appended, a row
        changed in place (a fate point rerolls it) is redrawn, and anything else (an undo
        removed a row, older rows were read in) redraws the whole view."""
        ids = [doc_id for doc_id, _ in rows]
        following = self.highlighted is None or self.highlighted >= self.option_count - 1
        # The shown rows are still there in order, the oldest ``drop`` of them may have left
        # the window, and new ones may follow: drop from the front, append; else redraw.
        drop = self._ids.index(ids[0]) if ids and ids[0] in self._ids else -1
        kept = len(self._ids) - drop
        if drop < 0 or ids[:kept] != self._ids[drop:] or (drop and not following):
            self._redraw(rows, following)
        else:
            for _ in range(drop):
                self.remove_option_at_index(0)
            del self._ids[:drop], self._entries[:drop]
            for i, (_, now) in enumerate(rows[:kept]):
                if now != self._entries[i]:
                    # A shown entry changed in place (a fate point rerolls it, Good Drama makes
                    # it a success): its line is redrawn, not left stale.
                    self._entries[i] = dict(now)
                    self.replace_option_prompt_at_index(i, format_entry(now))
            new = rows[kept:]
            self._ids += [doc_id for doc_id, _ in new]
            # Copies: the campaign hands out its own documents, changed in place later.
            self._entries += [dict(entry) for _, entry in new]
            self.add_options([format_entry(entry) for _, entry in new])
            if following and self.option_count:
                self.highlighted = self.option_count - 1
        if following:
            # Its newest line's height is known, and the view's own, only after a refresh
            # (the check above may have grown by a Last: line): followed then.
            self.call_after_refresh(self._follow_newest)
        self._more = more
        of = f" of {total:,}" if total is not None else ""
        self.border_subtitle = f"newest {len(rows):,}{of} · ↑ at the top reads more" if more else ""

    def _redraw(self, rows: list[tuple[int, dict[str, Any]]], following: bool) -> None:
        anchor = (
            self._ids[self.highlighted]
            if not following and self.highlighted is not None and self.highlighted < len(self._ids)
            else None
        )
        self.clear_options()
        self._ids = [doc_id for doc_id, _ in rows]
        self._entries = [dict(entry) for _, entry in rows]
        self.add_options([format_entry(entry) for entry in self._entries])
        if not self.option_count:
            return
        # The GM reading back keeps the line they were on (older rows read in above it).
        self.highlighted = (
            self._ids.index(anchor) if anchor in self._ids else self.option_count - 1
        )

    def _follow_newest(self) -> None:
        if self.highlighted is not None and self.highlighted >= self.option_count - 1:
            self.scroll_end(animate=False, immediate=True)

    def on_resize(self) -> None:
        """A view made shorter by the check above it still ends on the newest line."""
        self._follow_newest()

    def action_cursor_up(self) -> None:
        if self._more and self.highlighted == 0:
            self.window += self.PAGE
            self.post_message(self.Older())
            return
        super().action_cursor_up()

    def entry_at(self, index: int) -> dict[str, Any]:
        return self._entries[index]

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._entries):
            self.post_message(self.Chosen(self._entries[event.option_index]))

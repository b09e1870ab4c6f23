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
        line.append(clean(entry.get("who", "GM"), _limit(full, 24)), style="bold")
        line.append(f"  {clean(entry.get('expression', ''), _limit(full, 60))}  ")
        rolled = dice_text(entry, full=full)
        if rolled:
            line.append_text(rolled)
            line.append(" ")
        line.append(f"{entry.get('total', '')}", style="bold cyan")
        if entry.get("band"):
            line.append(f"  {clean(entry['band'], _limit(full, 40))}", style="bold magenta")
        if entry.get("detail"):
            line.append(f"  {clean(entry['detail'], _limit(full, 120))}", style="dim")
    elif kind in ("undo", "redo"):
        line.append(clean(entry.get("text", ""), _limit(full, 160)), style="italic yellow")
    else:
        line.append(clean(entry.get("text", ""), _limit(full, 160)))
    return line


class RollLog(OptionList):
    """A read-only view of the campaign log; the screen feeds it entries.

    Each entry is one option, so the GM can move to a line (up/down) and press enter to read
    it whole (:class:`RollLog.Chosen` carries the entry): a long line ends in ``…`` here.
    """

    DEFAULT_CSS = """
    RollLog { border: round $primary; padding: 0 1; height: 1fr; max-height: 100%; }
    RollLog:focus { border: round $primary; }
    """
    MAX_SHOWN = 500
    """Entries kept in the view (the oldest leave first); the campaign keeps them all."""

    class Chosen(Message):
        """Enter on a log line: the whole entry, for a reader that shows every character."""

        def __init__(self, entry: dict[str, Any]) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.border_title = "Roll log"
        self._entries: list[dict[str, Any]] = []
        self._shown = 0

    def show_entries(self, entries: list[dict[str, Any]]) -> None:
        """Show the log; appends only what is new unless the log shrank (undo)."""
        if len(entries) < self._shown or self._shown == 0:
            self.clear_options()
            self._entries = []
            self._shown = 0
        following = self.highlighted is None or self.highlighted >= self.option_count - 1
        # A shown entry can change in place (a fate point rerolls it, Good Drama makes it a
        # success): its line is redrawn, not left stale.
        offset = self._shown - len(self._entries)
        for i, old in enumerate(self._entries):
            now = entries[offset + i]
            if now != old:
                self._entries[i] = dict(now)
                self.replace_option_prompt_at_index(i, format_entry(now))
        new = entries[self._shown :]
        # Copies: the campaign may hand out its own documents, changed in place later.
        self._entries += [dict(entry) for entry in new]
        self.add_options([format_entry(entry) for entry in new])
        self._shown = len(entries)
        overflow = len(self._entries) - self.MAX_SHOWN
        for _ in range(max(0, overflow)):
            self.remove_option_at_index(0)
            del self._entries[0]
        if following and self.option_count:
            # The newest line stays in view (and under the cursor) unless the GM moved up.
            self.highlighted = self.option_count - 1

    def entry_at(self, index: int) -> dict[str, Any]:
        return self._entries[index]

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._entries):
            self.post_message(self.Chosen(self._entries[event.option_index]))

"""The roll log (GEN-03): newest last, timestamps, who, expression, dice, total, band."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from widgets.literal import clean


def format_entry(entry: dict[str, Any]) -> Text:
    at = clean(str(entry.get("at", ""))[11:19])
    kind = entry.get("kind", "roll")
    line = Text()
    line.append(f"{at} ", style="dim")
    if kind == "roll":
        line.append(clean(entry.get("who", "GM"), 24), style="bold")
        line.append(f"  {clean(entry.get('expression', ''), 60)}  ")
        line.append(f"{entry.get('total', '')}", style="bold cyan")
        if entry.get("band"):
            line.append(f"  {clean(entry['band'], 40)}", style="bold magenta")
        if entry.get("detail"):
            line.append(f"  {clean(entry['detail'], 120)}", style="dim")
    elif kind in ("undo", "redo"):
        line.append(clean(entry.get("text", ""), 160), style="italic yellow")
    else:
        line.append(clean(entry.get("text", ""), 160))
    return line


class RollLog(RichLog):
    """A read-only view of the campaign log; the screen feeds it entries."""

    DEFAULT_CSS = """
    RollLog { border: round $primary; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id, classes=classes, markup=False, wrap=True, auto_scroll=True, max_lines=500
        )
        self.border_title = "Roll log"
        self._shown = 0

    def show_entries(self, entries: list[dict[str, Any]]) -> None:
        """Show the log; appends only what is new unless the log shrank (undo)."""
        if len(entries) < self._shown or self._shown == 0:
            self.clear()
            self._shown = 0
        for entry in entries[self._shown :]:
            self.write(format_entry(entry))
        self._shown = len(entries)

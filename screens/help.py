"""The `?` screen: every key of the panel it was opened from, and the global keys."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


def _rows(bindings: list[BindingType], keymap: dict[str, str]) -> list[tuple[str, str]]:
    rows = []
    for b in bindings:
        if isinstance(b, Binding) and b.description:
            # The key in effect: the GM's keymap replaces the default of that binding id.
            chosen = keymap.get(b.id or "") or b.key
            keys = ", ".join(k.strip() for k in chosen.split(","))
            rows.append((keys, b.description))
    return rows


class HelpScreen(ModalScreen[None]):
    """Lists keys from the same bindings the Footer shows, so help never drifts from the keys."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 80; height: 80%; border: thick $accent; background: $panel; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, panel: Screen[object]) -> None:
        super().__init__()
        self.panel = panel

    def compose(self) -> ComposeResult:
        title = getattr(self.panel, "PANEL_TITLE", "") or "This screen"
        table = Table(box=None, show_header=False, padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        keymap: dict[str, str] = getattr(self.app, "keymap", {})
        panel_rows = _rows(list(getattr(self.panel, "BINDINGS", [])), keymap)
        global_rows = [
            *_rows(list(self.app.BINDINGS), keymap),
            ("escape", "leave a text field (then a digit switches panel)"),
            ("ctrl+p", "command palette: every action by name"),
        ]
        self.help_rows = [(f"{title} keys", ""), *panel_rows, ("Everywhere", ""), *global_rows]
        table.add_row(Text(f"{title} keys", style="bold underline"), "")
        for keys, description in panel_rows:
            table.add_row(keys, description)
        table.add_row("", "")
        table.add_row(Text("Everywhere", style="bold underline"), "")
        for keys, description in global_rows:
            table.add_row(keys, description)
        with VerticalScroll():
            yield Static(table)

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)

"""Installed games: every game the entry points offer, the open one marked, and those that
cannot be used (broken: they fail to load; incompatible: another game API) with the reason.

Opened from the command palette ("Installed games"). Listing imports every game: a game that
raises on import is one row here, never the session.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from rulesets import registry
from rulesets.game import API_VERSION


def games_table(open_game: str, key_problems: list[str]) -> tuple[Table, list[str]]:
    """The table, and its rows as plain lines (what a test reads)."""
    table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
    table.add_column(no_wrap=True, width=2)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(ratio=1)
    lines: list[str] = []
    for entry in registry.listing():
        if entry.state == "ok":
            mark = "▶" if entry.id == open_game else " "
            about = Text(entry.name, style="bold")
            if entry.summary:
                about.append(f": {entry.summary}")
            about.append(f" (game API {entry.api_version})", style="dim")
        else:
            mark = "✗"
            about = Text(f"{entry.state}: ", style="bold red")
            about.append(entry.reason)
        table.add_row(mark, entry.id, about)
        lines.append(f"{mark} {entry.id} {about.plain}")
    for problem in key_problems:
        table.add_row("!", open_game, Text(problem, style="yellow"))
        lines.append(f"! {open_game} {problem}")
    return table, lines


class GamesScreen(ModalScreen[None]):
    """The installed games and their state; escape closes."""

    DEFAULT_CSS = """
    GamesScreen { align: center middle; }
    GamesScreen > VerticalScroll { width: 90%; max-width: 100; height: auto; max-height: 90%; border: thick $accent; background: $panel; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Close", id="games.close"),
    ]

    def __init__(self, open_game: str, key_problems: list[str]) -> None:
        super().__init__()
        self.table, self.lines = games_table(open_game, key_problems)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = f"Installed games (this Tableside: game API {API_VERSION})"
            yield Static(self.table, id="games")

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)

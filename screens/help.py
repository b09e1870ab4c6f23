"""The `?` screen: every key of the panel it was opened from that works now, and the global keys.

Help, the Footer and the command palette read the same bindings (the panel's own, the open
game's actions for it, the app's), filtered by ``check_action`` and after the GM's keymap, so
help never teaches a key another game owns or one that would only be refused.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from app.textual_compat import binding_chain
from rulesets.values import frozen


@frozen
class KeyRow:
    """One action and every key that does it, as a person types them (``"u, ^z"``)."""

    keys: str
    action: str
    description: str
    from_app: bool
    detail: str = ""
    """What the action does, where the binding says more than its description (a game's
    action text): the palette's second line."""


def key_rows(screen: Screen[object]) -> list[KeyRow]:
    """The keys that work now on ``screen``: its own and the app's, one row per action."""
    app: App[object] = screen.app
    grouped: dict[tuple[bool, str], list[Binding]] = {}
    panel_keys: set[str] = set()
    for node, bindings in binding_chain(screen):
        if node is not screen and node is not app:
            continue  # a focused table's cursor keys are the widget's, not the panel's
        for key, found in bindings.items():
            for binding in found:
                if not binding.description or not _enabled(node, binding.action):
                    continue
                if node is app and key in panel_keys and not binding.priority:
                    continue  # the panel's own binding of this key wins
                if node is screen:
                    panel_keys.add(key)
                grouped.setdefault((node is app, binding.action), []).append(
                    Binding(
                        key,
                        binding.action,
                        binding.description,
                        key_display=binding.key_display,
                        tooltip=binding.tooltip,
                    )
                )
    rows = []
    for (from_app, action), same in grouped.items():
        keys = ", ".join(dict.fromkeys(app.get_key_display(b) for b in same))
        description = same[0].description
        detail = same[0].tooltip if same[0].tooltip != description else ""
        rows.append(KeyRow(keys, action, description, from_app, detail))
    return rows


def _enabled(node: object, action: str) -> bool:
    """``check_action`` with the action's parameters (``game('grip_check')``)."""
    from textual.actions import parse

    name, args = parse(action)[1:]
    check = getattr(node, "check_action", None)
    return check is None or check(name, args) is not False


class HelpScreen(ModalScreen[None]):
    """Lists the keys the Footer draws from, so help never drifts from the keys."""

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
        rows = key_rows(self.panel)
        panel_rows = [(r.keys, r.description) for r in rows if not r.from_app]
        global_rows = [(r.keys, r.description) for r in rows if r.from_app]
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

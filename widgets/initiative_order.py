"""An initiative order as the players see it: whose turn, the order, health and conditions."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from app.player_view import PlayerView
from widgets.literal import literal


class InitiativeOrder(DataTable[Text]):
    """One row per visible combatant, the current one marked; redrawn whole (a few rows)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="none", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self._shown: PlayerView | None = None

    def show(self, view: PlayerView) -> None:
        if view == self._shown:
            return
        self._shown = view
        self.clear(columns=True)
        self.add_columns(" ", view.order_title, "Name", "Health", "Conditions")
        for row in view.rows:
            style = "bold reverse yellow" if row.current else ("bold" if row.side == "pc" else "")
            self.add_row(
                Text("▶" if row.current else "", style="bold yellow"),
                literal(row.order, limit=20),
                literal(row.name, style=style, limit=60),
                literal(row.health, limit=60),
                literal(row.conditions, style="italic", limit=80),
            )

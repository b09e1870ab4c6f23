"""Panel 4: the party sheet."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from screens.panel import PanelScreen
from widgets.literal import literal


class PartyScreen(PanelScreen):
    PANEL_ID = "party"
    PANEL_TITLE = "Party"
    CSS_PATH = "party.tcss"
    WATCHES = frozenset({"party"})
    BINDINGS: ClassVar[list[BindingType]] = []

    def compose_body(self) -> ComposeResult:
        with Vertical(id="party-body"):
            yield Label("Party", classes="panel-title")
            yield DataTable(id="party-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#party-table", DataTable).add_columns("Name", "Health", "Status")
        super().on_mount()

    def refresh_data(self) -> None:
        table = self.query_one("#party-table", DataTable)
        table.clear()
        ruleset = self.campaign.ruleset
        for doc_id, pc in self.campaign.rows("party"):
            table.add_row(
                literal(pc.get("name", "")),
                literal(ruleset.health(pc)),
                literal(pc.get("status", "")),
                key=str(doc_id),
            )

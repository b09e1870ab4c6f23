"""Panel 3: the NPC statblock builder and library."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from screens.panel import PanelScreen
from widgets.literal import literal


class NpcScreen(PanelScreen):
    PANEL_ID = "npcs"
    PANEL_TITLE = "NPCs"
    CSS_PATH = "npcs.tcss"
    WATCHES = frozenset({"npcs"})
    BINDINGS: ClassVar[list[BindingType]] = []

    def compose_body(self) -> ComposeResult:
        with Vertical(id="npc-body"):
            yield Label("NPC library", classes="panel-title")
            yield DataTable(id="npc-library", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#npc-library", DataTable).add_columns("Name", "Concepts", "HD", "AC", "HP")
        super().on_mount()

    def refresh_data(self) -> None:
        table = self.query_one("#npc-library", DataTable)
        table.clear()
        for doc_id, npc in self.campaign.rows("npcs"):
            block = npc.get("statblock", {})
            table.add_row(
                literal(npc.get("name", "")),
                literal(", ".join(npc.get("concepts", []))),
                str(block.get("hd", "")),
                str(block.get("ac", "")),
                str(block.get("hp", "")),
                key=str(doc_id),
            )

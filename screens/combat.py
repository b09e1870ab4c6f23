"""Panel 1: the combat tracker — encounters and the running encounter."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Label

from screens.panel import PanelScreen
from widgets.literal import literal


class CombatScreen(PanelScreen):
    PANEL_ID = "combat"
    PANEL_TITLE = "Combat"
    CSS_PATH = "combat.tcss"
    WATCHES = frozenset({"encounters", "party", "npcs"})
    BINDINGS: ClassVar[list[BindingType]] = []

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="combat-body"):
            with Vertical(id="encounter-list-pane"):
                yield Label("Encounters", classes="panel-title")
                yield DataTable(id="encounter-list", cursor_type="row", zebra_stripes=True)
            with Vertical(id="encounter-pane"):
                yield Label("", id="encounter-title", classes="panel-title", markup=False)
                yield DataTable(id="combatants", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        encounters = self.query_one("#encounter-list", DataTable)
        encounters.add_columns("Encounter", "Round", "Size")
        table = self.query_one("#combatants", DataTable)
        table.add_columns("", "Init", "Name", "Health", "Conditions")
        super().on_mount()

    def refresh_data(self) -> None:
        encounters = self.query_one("#encounter-list", DataTable)
        encounters.clear()
        rows = self.campaign.rows("encounters")
        for doc_id, enc in rows:
            encounters.add_row(
                literal(enc.get("name", "")),
                str(enc.get("round", 0)),
                str(len(enc.get("combatants", []))),
                key=str(doc_id),
            )
        current = rows[0][1] if rows else None
        self._show_encounter(current)

    def _show_encounter(self, enc: dict[str, Any] | None) -> None:
        title = self.query_one("#encounter-title", Label)
        table = self.query_one("#combatants", DataTable)
        table.clear()
        if enc is None:
            title.update("No encounter yet")
            return
        rnd = enc.get("round", 0)
        title.update(
            f"{enc.get('name', '')} — round {rnd}"
            if rnd
            else f"{enc.get('name', '')} — not started"
        )
        for c in enc.get("combatants", []):
            marker = (
                Text("▶", style="bold yellow") if c.get("id") == enc.get("current") else Text("")
            )
            init = c.get("initiative")
            conds = ", ".join(str(e.get("name", "")) for e in c.get("conditions", []))
            table.add_row(
                marker,
                "" if init is None else str(init),
                literal(c.get("name", "")),
                literal(self._health(c)),
                literal(conds),
                key=str(c.get("id")),
            )

    def _health(self, combatant: dict[str, Any]) -> str:
        ref = combatant.get("ref")
        if combatant.get("side") == "pc" and isinstance(ref, int):
            pc = self.campaign.doc("party", ref)
            if pc is not None:
                return self.campaign.ruleset.health(pc)
        stats = combatant.get("stats", {})
        if "hp" in stats:
            return f"{stats.get('hp')}/{stats.get('hp_max', stats.get('hp'))} HP"
        return ""

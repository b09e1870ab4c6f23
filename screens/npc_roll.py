"""Modal: a library NPC's statblock rolls, from the NPC panel (NPC-02/04/05/07/08).

A combatant in a fight rolls from the tracker's statblock pane instead, with its own Effort.

Every roll is a :class:`app.commands.npcs.RollNpc` command, so it lands in the roll log and
undo takes it back. The attribute keys (b, w, l) pick what the next attack, save or skill uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from app.commands.npcs import RefreshEffort, RollKind, RollNpc, npc_block
from widgets.footer import TablesideFooter
from widgets.statblock import StatblockView
from widgets.text_field import TextField

if TYPE_CHECKING:
    from app.host import TableHost


class NpcRollScreen(ModalScreen[None]):
    """Rolls for one library NPC; escape closes."""

    DEFAULT_CSS = """
    NpcRollScreen { align: center middle; }
    NpcRollScreen > Vertical { width: 76; height: auto; max-height: 100%; border: thick $accent; background: $panel; padding: 0 1; }
    NpcRollScreen #npc-roll-target { height: 1; border: none; padding: 0 1; }
    NpcRollScreen #npc-roll-result { height: auto; min-height: 2; color: $text; }
    """
    AUTO_FOCUS = ""  # nothing: the roll keys must work at once
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="npc_roll.close"),
        # Footer order is the order a narrow screen keeps: Effort and its refresh (f) come
        # before the attribute picks, so f shows at 80 columns.
        Binding("a", "roll('attack')", "Attack", id="npc_roll.attack"),
        Binding("s", "roll('save')", "Save", id="npc_roll.save"),
        Binding("e", "roll('effort')", "Effort", id="npc_roll.effort"),
        Binding("f", "refresh_effort", "Full Effort", id="npc_roll.refresh"),
        Binding("k", "roll('skill')", "Skill 2d6", id="npc_roll.skill"),
        Binding("m", "roll('morale')", "Morale", id="npc_roll.morale"),
        Binding("t", "target", "Target AC/DC", id="npc_roll.target"),
        Binding("b", "attribute('brawl')", "Brawl", id="npc_roll.brawl"),
        Binding("w", "attribute('wit')", "Wit", id="npc_roll.wit"),
        Binding("l", "attribute('will')", "Will", id="npc_roll.will"),
        Binding("K", "roll('skill', 'd20')", "Skill d20", id="npc_roll.skill_d20"),
        Binding("h", "roll('hp')", "HP", id="npc_roll.hp"),
    ]

    def __init__(self, npc_id: int) -> None:
        super().__init__()
        self.npc_id = npc_id
        self.attribute = "brawl"

    @property
    def tableside(self) -> TableHost:
        return cast("TableHost", self.app)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield StatblockView(id="npc-roll-statblock")
            yield Static("", id="npc-roll-attribute", markup=False)
            yield TextField(
                placeholder="target AC / DC (t; empty: none, skill DC 8 or 15)",
                id="npc-roll-target",
                type="integer",
            )
            yield Static("", id="npc-roll-result", markup=False)
            yield TablesideFooter()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        doc = self.tableside.campaign.doc("npcs", self.npc_id)
        if doc is None:
            self.dismiss(None)
            return
        self.query_one(StatblockView).show(
            npc_block(doc),
            str(doc.get("name", "")),
            doc.get("concepts", []),
            doc.get("powers", []),
            effort_left=None if doc.get("effort_left") is None else str(doc["effort_left"]),
        )
        self.query_one("#npc-roll-attribute", Static).update(
            f"Rolling with {self.attribute.capitalize()} (b Brawl, w Wit, l Will)"
        )

    def _target(self) -> int | None:
        text = self.query_one("#npc-roll-target", Input).value.strip()
        try:
            return int(text) if text else None
        except ValueError:
            return None

    def action_attribute(self, attribute: str) -> None:
        self.attribute = attribute
        self._show()

    def action_roll(self, kind: RollKind, system: str = "2d6") -> None:
        lines = self.tableside.apply(
            RollNpc(self.npc_id, kind, self.attribute, self._target(), system)
        )
        if lines is not None:
            self.query_one("#npc-roll-result", Static).update("\n".join(lines))
        self._show()

    def action_refresh_effort(self) -> None:
        lines = self.tableside.apply(RefreshEffort(self.npc_id))
        self.query_one("#npc-roll-result", Static).update(
            "\n".join(lines) if lines else "Effort is already full"
        )
        self._show()

    def action_target(self) -> None:
        self.query_one("#npc-roll-target", Input).focus()

    @on(Input.Submitted, "#npc-roll-target")
    def _leave_target(self) -> None:
        self.set_focus(None)

    def action_close(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(None)
            return
        self.dismiss(None)

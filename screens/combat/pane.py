"""The statblock pane beside the table: the selected combatant's head (health, Effort,
conditions, morale due) and its statblock with the keys that roll it, or a PC's sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding

from app.lazy import LazyModule
from rulesets import fight as fr
from rulesets.npc import NPC, statblock_of
from screens.combat.amount_line import IDLE_AMOUNT
from screens.combat.base import ROLL_WITH, _Seen
from screens.combat.exchange_view import ExchangeView
from screens.combat.rows import CombatRows
from screens.combat.statblock_pane import StatblockPane
from widgets.literal import clean

if TYPE_CHECKING:
    from app.commands import npcs
else:
    npcs = LazyModule("app.commands.npcs")


class CombatPane(CombatRows):
    """The statblock pane and the keys that roll the selected statblock."""

    ROOMY: ClassVar[int] = 150
    """From this many columns the encounter list, the table and the statblock pane fit side
    by side; below, showing the pane folds the list away (L brings it back)."""

    def _fit_pane(self) -> None:
        """The pane shows from 100 columns, or as the GM chose by alt+s at any width."""
        shown = self._pane_choice if self._pane_choice is not None else self._width >= self.NARROW
        self.set_class(shown, "-statblock", update=self.is_mounted)
        self.set_class(self._width < self.ROOMY, "-crowded", update=self.is_mounted)
        if shown and self.is_mounted:
            self._follow_selection(refresh_keys=False)
        self._follow_list()

    def action_statblock(self) -> None:
        """alt+s: show or hide the statblock pane (the table takes or gives back the room)."""
        self._pane_choice = not self.has_class("-statblock")
        self._fit_pane()

    def action_cursor(self, delta: int) -> None:
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.cursor_row + delta, table.row_count - 1)))
            self._chosen = table.selected_id
            self._show_detail()
            self._follow_selection()

    def _show_detail(self) -> None:
        """The line under the table, while no amount is typed: the game's detail about the
        selected combatant (a Nemron character's limbs), or what the keys there do. An open
        exchange keeps the line: a redraw (a form confirmed, a change from elsewhere) shows its
        odds again."""
        views = self.query(ExchangeView)
        if views and views.first().exchange is not None:
            views.first().follow(self.encounter_id, self.encounter)
            return
        if self._inline is not None or not self.amount_line.display:
            return
        text = ""
        enc, cid = self.encounter, self.table.selected_id
        if enc is not None and cid is not None:
            seen = self._seen.get(cid)
            if seen is not None:
                c = seen.combatant
                kind = fr.health_kind(c)
                sheet = self._sheet_of(c) if kind == "pc" else c.stats.get("sheet")
                try:
                    text = self.rules.detail(c, sheet if isinstance(sheet, dict) else None)
                except (KeyError, TypeError, ValueError, AttributeError):
                    text = ""
        self._set_text("#combat-amount", clean(text, 200) or IDLE_AMOUNT)

    # --- the selected combatant's statblock -----------------------------------------------------
    def _follow_selection(self, refresh_keys: bool = True) -> None:
        """The selection moved or changed: its statblock (the keys that roll it, the pane).

        One combatant's documents are read, whatever the size of the fight."""
        cid = self.table.selected_id if self.is_mounted else None
        seen = self._seen.get(cid) if cid is not None else None
        library: dict[str, Any] | None = None
        block: NPC | None = None
        if seen is not None:
            c = seen.combatant
            ref = fr.ref_id(c)
            library = self.campaign.doc("npcs", ref) if c.side == "npc" and ref else None
            made_of = (library, c.stats.get("hd"))
            if made_of[0] is self._block_of[0] and made_of[1] == self._block_of[1]:
                block = self._block  # the same library NPC (the next Goblin): built already
            else:
                try:
                    block = statblock_of(c.stats, library)
                except (TypeError, ValueError, KeyError):
                    block = None  # a hand-edited statblock the rules cannot build: no keys
                self._block_of = made_of
        self._block = block
        if refresh_keys and self.encounter is not None:
            self._offer_keys(self._keys_now(self.encounter.model))
        if self.has_class("-statblock"):
            self._show_pane(seen, library)

    def _show_pane(self, seen: _Seen | None, library: dict[str, Any] | None) -> None:
        cid = seen.combatant.id if seen is not None else None
        due = [d for d in self._doc.get("morale_due", []) if cid and d.get("id") == cid]
        self.query_one(StatblockPane).show(
            seen.combatant if seen is not None else None,
            self._block,
            library,
            due,
            self.roll_with,
            health=self._health,
            sheet_of=self._sheet_of,
            key=self._key,
        )

    def _key(self, bid: str) -> str:
        """A key of this panel as the GM's keymap has it (``sb_attack`` -> ``A``)."""
        default = next(
            b.key for b in self.BINDINGS if isinstance(b, Binding) and b.id == f"combat.{bid}"
        )
        keys = str(getattr(self.app, "keymap", {}).get(f"combat.{bid}", default))
        return self.app.get_key_display(Binding(keys.split(",")[0].strip() or default, ""))

    def action_roll_with(self) -> None:
        """B: the selected foe's statblock rolls with the next attribute (Brawl, Wit, Will);
        every other foe keeps its own."""
        cid = self.table.selected_id
        if cid is None:
            return
        now = ROLL_WITH[(ROLL_WITH.index(self.roll_with) + 1) % len(ROLL_WITH)]
        self._rolls_with[(self.encounter_id, cid)] = now
        name = self._seen[cid].combatant.name if cid in self._seen else "The statblock"
        self._set_text("#combat-last", f"{name} rolls with {now.capitalize()}")
        self._said_version = self.campaign.version
        self._follow_selection()

    def action_full_effort(self) -> None:
        """F: the selected combatant's Effort is full again (after a rest)."""
        self.for_selected(lambda e, c: npcs.RefreshInstanceEffort(e, c.id))

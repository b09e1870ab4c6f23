"""Damage, healing and areas marked with +, typed on the amount line under the table
(:class:`~screens.combat.amount_line.AmountLine` owns what is typed), the log's last roll landed
with T, and the statblock's rolls."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.lazy import LazyModule
from rulesets import exchange as ex
from rulesets import fight as fr
from rulesets import foes as fo
from screens.combat import forms
from screens.combat.amount_line import Inline
from screens.combat.pane import CombatPane
from screens.form import Field

if TYPE_CHECKING:
    from app.commands import npcs
    from app.commands.npcs import RollKind
else:
    npcs = LazyModule("app.commands.npcs")


class CombatAmounts(CombatPane):
    """Damage, healing, areas and the statblock's rolls."""

    # --- actions: damage, healing, areas, the statblock's rolls --------------------------------
    def action_damage(self) -> None:
        self._health_change("Damage", self.rules.damage_form)

    def action_heal(self) -> None:
        self._health_change("Heal", self.rules.heal_form)

    def _health_change(self, verb: str, form: Callable[[fr.HealthKind], tuple[Field, ...]]) -> None:
        """Type the amount on the line under the table, the game's form for where the selected's
        health lives behind tab (on every marked combatant when some are marked)."""
        eid, c = self._need_encounter(), self._selected()
        if eid is not None and c is not None:
            area = self._area()
            who = f"{len(area)} marked" if area else c.name
            fields = tuple(form(fr.health_kind(c)))
            self.amount_line.open_amount(Inline(verb, fields, c.id, who, eid, area))

    def action_mark(self) -> None:
        """+: mark or unmark the selected for an area; the cursor then moves down one row (the
        next foe of a group is one + away), and the line under the table says so."""
        c = self._selected()
        if c is None:
            return
        self._marked ^= {c.id}
        self.refresh_data()
        row = self.table.cursor_row
        self.action_cursor(1)
        after = self._selected() if self.table.cursor_row != row else None
        done = "marked" if c.id in self._marked else "unmarked"
        where = f"the cursor moved down to {after.name}" if after else "the cursor stays (last row)"
        count = len(self._area())
        lands = f"t or l lands on all {count} marked" if count else "nothing marked"
        self.show_result([f"{c.name} {done} · {where} · {lands}"])

    def action_damage_last_roll(self) -> None:
        """T: an attack rolled by an older Tableside and waiting to land lands on its target;
        else the log's last roll lands on the selected (or the marked), once: an attack's
        damage or a plain roll's total, never a check."""
        eid = self.encounter_id
        if eid is not None and self._strike() is not None:
            self._apply(fo.LandStrike(eid, answer="", answers={}))
            return
        c = self._selected()
        if c is None or eid is None:
            return
        rolls = self.campaign.newest("log", 1, lambda e: e.get("kind") == "roll")
        if not rolls:
            self.notify(
                "Nothing to land: no attack waiting and no damage roll in the log "
                "(A attacks; d rolls dice)",
                severity="warning",
            )
            return
        area = self._area() or (c.id,)
        if self._apply(ex.LandRoll(eid, roll_id=rolls[-1][0], combatant_ids=area)) is not None:
            self._marked = set()

    def action_temp_hp(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is not None and c is not None:
            self._form(forms.temp_hp(eid, c))

    def action_statblock_roll(self, kind: RollKind) -> None:
        """A, V, K, M, E: the selected combatant's attack (by its game's mechanic, at a named
        target: T lands it), save or defence, skill, morale or Effort roll."""
        eid, c = self._need_encounter(), self._selected()
        if eid is not None and c is not None:
            self._apply(npcs.RollStatblock(eid, c.id, kind=kind, attribute=self.roll_with))

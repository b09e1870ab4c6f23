"""The jump to a combatant by part of its name (/): typed on the line under the table, tab
to the next match, enter to stay, escape back. The line (:class:`AmountLine`) holds the jump;
the tracker moves the selection where it says."""

from __future__ import annotations

from textual import events

from screens.combat.exchange import CombatExchange


class CombatFind(CombatExchange):
    """The jump by name (/)."""

    def action_find(self) -> None:
        """/: type part of a name; the selection jumps to the first combatant holding it (tab:
        the next), enter stays there, escape goes back."""
        if self.encounter is None or not self.encounter.combatants:
            self.notify("Nobody to find: add combatants first", severity="warning")
            return
        self.close_amount()
        self.amount_line.start_find(self.table.selected_id)

    def _find_key(self, event: events.Key) -> None:
        enc = self.encounter
        step = self.amount_line.find_key(event, enc.combatants if enc is not None else ())
        if step is None:
            return
        event.stop()
        event.prevent_default()
        if step.over:
            if step.select is not None:
                self.table.select_id(step.select)
            self._show_detail()
            return
        name = None
        if step.select is not None:
            self.table.select_id(step.select)
            self._chosen = step.select
            self._follow_selection()
            seen = self._seen.get(step.select)
            name = seen.combatant.name if seen is not None else None
        self.amount_line.show_found(name)

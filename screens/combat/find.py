"""The jump to a combatant by part of its name (/): typed on the line under the table, tab
to the next match, enter to stay, escape back."""

from __future__ import annotations

from textual import events

from screens.combat.base import (
    _Find,
)
from screens.combat.exchange import CombatExchange


class CombatFind(CombatExchange):
    """The jump by name (/)."""

    # --- a jump by name (/) ----------------------------------------------------------------------
    def action_find(self) -> None:
        """/: type part of a name; the selection jumps to the first combatant holding it (tab:
        the next), enter stays there, escape goes back."""
        if self.encounter is None or not self.encounter.combatants:
            self.notify("Nobody to find: add combatants first", severity="warning")
            return
        self.close_amount()
        self._finding = _Find(self.table.selected_id)
        self._show_find([])

    def _find_matches(self, typed: str) -> list[str]:
        """Ids of the combatants whose name holds ``typed`` (any case), in turn order, those
        whose name starts with it first."""
        enc = self.encounter
        needle = typed.strip().casefold()
        if enc is None or not needle:
            return []
        starts = [c.id for c in enc.combatants if c.name.casefold().startswith(needle)]
        inside = [c.id for c in enc.combatants if needle in c.name.casefold()]
        return starts + [cid for cid in inside if cid not in starts]

    def _find_key(self, event: events.Key) -> None:
        find = self._finding
        assert find is not None
        if event.key == "escape":
            self._finding = None
            if find.start is not None:
                self.table.select_id(find.start)
            self._show_detail()
        elif event.key == "enter":
            self._finding = None
            self._show_detail()
        elif event.key == "tab":
            find.hit += 1
        elif event.key == "shift+tab":
            find.hit -= 1
        elif event.key == "backspace":
            find.typed, find.hit = find.typed[:-1], 0
        elif event.is_printable and event.character and len(find.typed) < 40:
            find.typed, find.hit = find.typed + event.character, 0
        else:
            return
        event.stop()
        event.prevent_default()
        if self._finding is find:
            found = self._find_matches(find.typed)
            if found:
                cid = found[find.hit % len(found)]
                self.table.select_id(cid)
                self._chosen = cid
                self._follow_selection()
            self._show_find(found)

    def _show_find(self, found: list[str]) -> None:
        find = self._finding
        assert find is not None
        if not find.typed:
            where = "type part of a name"
        elif not found:
            where = "no one"
        else:
            seen = self._seen.get(found[find.hit % len(found)])
            name = seen.combatant.name if seen is not None else "?"
            where = f"{name} ({find.hit % len(found) + 1} of {len(found)})"
        keys = "tab: next · enter: stay · esc: back"
        self._set_text("#combat-amount", f"Find: {find.typed}▏ → {where}  ({keys})", "bold")

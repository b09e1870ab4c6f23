"""The find bar: the jump to a combatant by part of its name (/), on the line under the table.

Tab goes to the next match, enter stays there, escape goes back where the jump began. The bar
holds the jump whole (what is typed, which match, where it began) and posts
:class:`FindBar.Jump` for the tracker to move the selection; the tracker hands it the keys
while it is open, as the focus stays on the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.message import Message

from rulesets import encounter as er
from screens.combat.amount_line import UnderTable

FIND_KEYS = "tab: next · enter: stay · esc: back"


class FindBar(UnderTable):
    """Part of a name typed, the match it leads to, and how many there are."""

    class Jump(Message):
        """The selection goes to ``combatant_id`` (None: it stays); ``over``: the jump ended."""

        def __init__(self, bar: FindBar, combatant_id: str | None, over: bool = False) -> None:
            super().__init__()
            self.bar = bar
            self.combatant_id = combatant_id
            self.over = over

        @property
        def control(self) -> FindBar:
            return self.bar

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.start: str | None = None
        """Where the selection was when the jump began (escape goes back there)."""
        self.typed: str | None = None
        """What is typed of a name (None: no jump under way)."""
        self.hit = 0
        self.found: list[str] = []

    @property
    def finding(self) -> bool:
        return self.typed is not None

    def open(self, start: str | None) -> None:
        """Begin a jump by name from the selected combatant ``start``."""
        self.start, self.typed, self.hit, self.found = start, "", 0, []
        self.display = True
        self._show(None)

    def key(self, event: events.Key, combatants: Sequence[er.Combatant]) -> bool:
        """A key typed into the jump: True when it was the jump's (the bar then posts where
        the selection goes)."""
        typed = self.typed
        if typed is None:
            return False
        if event.key in ("escape", "enter"):
            self.typed = None
            self.post_message(self.Jump(self, self.start if event.key == "escape" else None, True))
            return True
        if event.key == "tab":
            self.hit += 1
        elif event.key == "shift+tab":
            self.hit -= 1
        elif event.key == "backspace":
            self.typed, self.hit = typed[:-1], 0
        elif event.is_printable and event.character and len(typed) < 40:
            self.typed, self.hit = typed + event.character, 0
        else:
            return False
        self.found = matches(combatants, self.typed or "")
        select = self.found[self.hit % len(self.found)] if self.found else None
        names = {c.id: c.name for c in combatants}
        self._show(names.get(select) if select is not None else None)
        if select is not None:
            self.post_message(self.Jump(self, select))
        return True

    def _show(self, name: str | None) -> None:
        typed, found = self.typed or "", self.found
        if not typed:
            where = "type part of a name"
        elif not found:
            where = "no one"
        else:
            where = f"{name or '?'} ({self.hit % len(found) + 1} of {len(found)})"
        self.say(f"Find: {typed}▏ → {where}  ({FIND_KEYS})", "bold")


def matches(combatants: Sequence[er.Combatant], typed: str) -> list[str]:
    """Ids of the combatants whose name holds ``typed`` (any case), in turn order, those
    whose name starts with it first."""
    needle = typed.strip().casefold()
    if not needle:
        return []
    starts = [c.id for c in combatants if c.name.casefold().startswith(needle)]
    inside = [c.id for c in combatants if needle in c.name.casefold()]
    return starts + [cid for cid in inside if cid not in starts]

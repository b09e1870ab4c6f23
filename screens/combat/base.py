"""The combat tracker's ground floor: its state, the reads every part shares, and sending a
command. Its widgets own what they show: the table (:mod:`widgets.combat_table`), the
statblock pane (:mod:`.statblock_pane`), the line the GM types into (:mod:`.amount_line`), the
encounter list (:mod:`.encounter_list`), the find bar (:mod:`.find_bar`), the exchange view (:mod:`.exchange_view`) and the danger meter
(:mod:`.danger`). The rest is
built in floors, each a class on the one below: :mod:`.rows` (the rows, title and status line), :mod:`.pane` (following the
selection), :mod:`.amounts` (landing damage, heals and attacks),
:mod:`.screen` (the keys and the layout, the forms of :mod:`.forms`, the build to a danger of
:mod:`.danger`). Each floor calls only
its own and the floors below; the turn order's own parts are asked of the encounter's
:class:`rulesets.turn_orders.TurnOrder`.

The floors are the screen's only to a type checker: at run time they are plain classes and
:class:`~screens.combat.screen.CombatScreen` alone is a Textual screen. Textual works out each
screen class's reactives, bindings and CSS names when the class is made, over its whole
ancestry: the floors as screens cost time on every start. A floor therefore declares no
bindings, CSS or ``@on`` handlers of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import Static

from rulesets import encounter as er
from rulesets import fight as fr
from rulesets import foes as fo
from rulesets.game import Game
from rulesets.npc import NPC
from rulesets.table import Context
from rulesets.turn_orders import TurnOrder, turn_order
from rulesets.values import record
from screens.combat import forms
from screens.combat.amount_line import AmountLine, Inline, update_sized
from screens.form import Field, FormScreen
from screens.panel import PanelScreen
from widgets.combat_table import CombatTable, Row
from widgets.event_line import fitted
from widgets.literal import literal

if TYPE_CHECKING:
    _Floor = PanelScreen
else:
    _Floor = object  # see the module's docstring


ROLL_WITH = ("brawl", "wit", "will")
"""What the statblock's attack, save and skill roll with, in the order B steps through."""
STATBLOCK_KEYS: tuple[str, ...] = (
    *("sb_attack", "sb_save", "sb_skill", "sb_morale", "sb_effort"),
    *("sb_roll_with", "sb_full_effort", "damage_last"),
)
"""Binding ids of the selected combatant's statblock keys, which the pane lists."""


@record
class _Seen:
    """A combatant's document, its parse, and the row last shown for it."""

    raw: dict[str, Any]
    combatant: er.Combatant
    row_key: tuple[Any, ...] | None = None
    row: Row | None = None


class CombatBase(_Floor):
    """The tracker's state and the calls every part of it shares."""

    def __init__(self) -> None:
        super().__init__()
        self.encounter_id: int | None = None
        self.encounter: er.Encounter | None = None
        self._doc: dict[str, Any] = {}
        self._follow: str | None = None
        self._last_current: str | None = None
        self._seen: dict[str, _Seen] = {}
        """Each combatant as last read and shown, so a keypress in a 300-strong fight parses
        and lays out only the combatants it changed."""
        self._next_seen: dict[str, _Seen] = {}
        self._said_version = -1
        """Campaign version the event line speaks of."""
        self._shown_text: dict[str, object] = {}
        self._wrapped: dict[int, tuple[int, tuple[int, int]]] = {}
        """Per auto-height line: its wrapped line count and size when last shown."""
        self._has_hd = False
        """The running encounter has an HD NPC (the morale key works)."""
        self._marked: set[str] = set()
        """Combatants marked (+) for one damage or heal on all of them (an area)."""
        self._keys_for: tuple[object, ...] = ()
        """What the shell keys on offer were last worked out for (model, HD NPCs present,
        whether the selection has a statblock)."""
        self._block: NPC | None = None
        """The selected combatant's statblock (None: it has none): its keys work."""
        self._pane_choice: bool | None = None
        """The GM showed (True) or hid (False) the statblock pane by alt+s; None: by width."""
        self._width = 0
        self._block_of: tuple[object, object] = (None, None)
        """What :attr:`_block` was built from (the library document, the quick-add HD)."""
        self._rolls_with: dict[tuple[int | None, str], str] = {}
        """The attribute each foe's statblock attack, save and skill roll with, by (encounter,
        combatant): B steps the selected foe's only; Brawl until the GM steps it."""
        self.amount_line = AmountLine(id="combat-amount")
        """The line under the table the GM types into (an amount, a jump by name)."""
        self._acting: set[str] = set()
        """Whose turn it is: the current combatant and, with group initiative, its group."""
        self._orders: dict[str, TurnOrder] = {}
        """Each turn model's TurnOrder as the game declares it, looked up once: it is asked
        for every row's cells and every binding's check."""
        self._chosen: str | None = None
        """The row the GM moved the selection onto (j/k, a jump) since the last change: a
        spend of AP (a) is that one's; otherwise it is whose turn it is."""

    @property
    def _inline(self) -> Inline | None:
        """The amount being typed on the line under the table, if any."""
        return self.amount_line.inline

    def _follow_table(self) -> None:
        # What a narrow table leaves out of the selected row, on a line of its own.
        self._set_text("#combat-detail", self.table.detail(), style="italic")
        self.set_class(self.table.gives_way, "-gives-way")

    def _turn_order(self, enc: er.Encounter) -> TurnOrder:
        """The encounter's turn order: what the tracker shows and offers differently in it."""
        found = self._orders.get(enc.model)
        if found is None:
            found = self._orders[enc.model] = turn_order(enc.model, self.game)
        return found

    @property
    def table(self) -> CombatTable:
        return self.query_one("#combatants", CombatTable)

    @property
    def rules(self) -> fr.FightRules:
        return self.game.fight

    def game_context(self) -> Context:
        cid = self.table.selected_id if self.is_mounted else None
        seen = self._seen.get(cid) if cid is not None else None
        return Context(
            read=self.campaign,
            game=self.game,
            panel=self.PANEL_ID,
            encounter_id=self.encounter_id,
            encounter=self._doc or None,
            combatant=seen.raw if seen is not None and seen.raw else None,
        )

    def _set_text(self, selector: str, text: str, style: str = "") -> None:
        if selector == "#combat-amount":
            self.amount_line.say(text, style)
            return
        # A Static update costs a layout pass of the whole screen; most keypresses leave the
        # status line as it was, and the title is one line high whatever it says.
        if self._shown_text.get(selector) != (text, style):
            self._shown_text[selector] = (text, style)
            shown = literal(text, style=style, limit=1000)
            static = self.query_one(selector, Static)
            if selector == "#encounter-title":
                static.update(shown, layout=False)
            else:
                # Mostly one line; a long one wraps (to its max-height): a layout pass only
                # when its height changes.
                self._update_sized(static, shown)

    def _read_combatant(self, raw: dict[str, Any]) -> er.Combatant:
        """Parse a combatant, or reuse last refresh's parse if its document is unchanged: the
        screen only reads combatants, and a keypress changes one or two of three hundred."""
        cid = str(raw.get("id", ""))
        seen = self._seen.get(cid)
        if seen is not None and seen.raw == raw:
            self._next_seen[cid] = seen
            return seen.combatant
        combatant = er.Combatant.from_dict(raw)
        self._next_seen[cid] = _Seen(raw, combatant)
        return combatant

    # --- helpers ------------------------------------------------------------------------------
    def rolls_with(self, cid: str | None) -> str:
        """The attribute that foe's statblock rolls with (B steps it)."""
        return self._rolls_with.get((self.encounter_id, cid or ""), ROLL_WITH[0])

    @property
    def roll_with(self) -> str:
        """The attribute the selected foe's statblock rolls with."""
        return self.rolls_with(self.table.selected_id)

    def _selected(self) -> er.Combatant | None:
        enc = self.encounter
        cid = self.table.selected_id
        if enc is None or cid is None:
            self.notify("Select a combatant first (j/k)", severity="warning")
            return None
        try:
            return enc.get(cid)
        except er.EncounterError:
            return None

    def _apply(self, command: Any, follow: str | None = None) -> list[str] | None:
        self._follow = follow
        return self.send(command)

    def send(self, command: Any, refused: Callable[[str], None] | None = None) -> list[str] | None:
        # A change made on the row the GM moved to (damage on a target) uses that choice up:
        # the next spend of AP is the acting combatant's again.
        self._chosen = None
        return super().send(command, refused)

    def show_result(self, lines: list[str]) -> None:
        # What just happened goes on a line under the table, not in a toast: at the table a GM
        # presses n forty times a fight, and stacked toasts would cover the order.
        # As many of the newest lines as fit its three rows, whole: the rest are counted (S
        # over five foes cut the fifth result mid-word).
        self._set_text("#combat-last", fitted(lines, self._last_rows))
        self._said_version = self.campaign.version

    def _say_last(self, text: str) -> None:
        self._set_text("#combat-last", text)

    def _last_rows(self, text: str) -> int:
        static = self.query_one("#combat-last", Static)
        width = static.content_size.width or max(1, self.app.size.width - 2)
        return len(literal(text, limit=1000).wrap(self.app.console, width))

    def _need_encounter(self) -> int | None:
        if self.encounter_id is None:
            self.notify("No encounter yet: ctrl+n makes one", severity="warning")
        return self.encounter_id

    def _ask(
        self, title: str, fields: list[Field], then: Callable[[dict[str, Any]], object]
    ) -> None:
        def done(result: dict[str, Any] | None) -> None:
            if result is not None:
                then(result)

        self.app.push_screen(FormScreen(title, fields), done)

    def _form(self, ask: forms.Ask | str) -> None:
        """Show ``ask``'s form, its answers make the command sent; or say why there is none."""
        if isinstance(ask, str):
            self.notify(ask, severity="warning")
        else:
            self._ask(ask.title, ask.fields, lambda v: self._apply(ask.make(v)))

    def for_selected(self, make: Callable[[int, er.Combatant], Any], follow: bool = False) -> None:
        eid = self._need_encounter()
        c = self._selected() if eid is not None else None
        if eid is not None and c is not None:
            self._apply(make(eid, c), c.id if follow else None)

    def for_encounter(self, make: Callable[[int], Any]) -> None:
        eid = self._need_encounter()
        if eid is not None:
            self._apply(make(eid))

    def _attack_pair(self) -> tuple[er.Combatant | None, er.Combatant | None]:
        """Who attacks whom on A: the selected, if it has a statblock (at its default target);
        else the one acting, if it has one, at the selected on the other side."""
        enc = self.encounter
        cid = self.table.selected_id if self.is_mounted else None
        if enc is None or cid is None:
            return None, None
        seen = self._seen.get(cid)
        if seen is None:
            return None, None
        if self._block is not None:
            return seen.combatant, None
        acting = enc.current
        actor = self._seen.get(acting) if acting else None
        if (
            actor is not None
            and actor.combatant.id != cid
            and fo.has_statblock(actor.combatant)
            and actor.combatant.side != seen.combatant.side
            and not seen.combatant.defeated
        ):
            return actor.combatant, seen.combatant
        return None, None

    def _area(self) -> tuple[str, ...]:
        """The marked combatants still in the fight, in turn order."""
        enc = self.encounter
        if enc is None or not self._marked:
            return ()
        return tuple(c.id for c in enc.combatants if c.id in self._marked)

    def _strike(self) -> dict[str, Any] | None:
        """The attack waiting to land in the running encounter (an older Tableside rolled it)."""
        if self.encounter_id is None:
            return None
        doc = self.campaign.doc("encounters", self.encounter_id) or {}
        found = doc.get(fo.STRIKE_KEY)
        return found if isinstance(found, dict) else None

    def _roll_kind(self, kind: str) -> str:
        return roll_kind(self.game, kind)

    def _update_sized(self, static: Static, text: Text) -> None:
        update_sized(static, text, self._wrapped)


def roll_kind(game: Game, kind: str) -> str:
    """V is the game's answer to an attack: a save where it has one, else its defence."""
    rolls = game.foes.rolls
    if kind == "save" and "save" not in rolls and "defence" in rolls:
        return "defence"
    return kind

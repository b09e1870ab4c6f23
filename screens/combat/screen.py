"""Panel 1: the combat tracker — the encounter list and the running encounter.

The screen reads the encounter document and the party, builds one row of plain cells per
combatant and hands them to :class:`widgets.combat_table.CombatTable`, which repaints only
the cells that changed (a keypress in a 300-combatant fight touches two or three rows). Every
change is a command from :mod:`app.commands.combat` sent through ``self.tableside.apply``, so
each is undoable and the whole encounter is saved after it. The keys follow Improved
Initiative's defaults; every one is a Binding with an id (rebindable, in the Footer, in ``?``
and in the command palette).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static
from textual.worker import Worker

from app.lazy import LazyModule
from app.queries import current_encounter, timed_effect_lines
from rulesets import encounter as er
from rulesets.turn_orders import BUILT_IN
from screens.combat.amount_line import UnderTable
from screens.combat.base import _b
from screens.combat.danger import CombatDanger, DangerMeter
from screens.combat.encounter_list import EncounterList
from screens.combat.exchange_view import Exchange, ExchangeView, exchange_pair
from screens.combat.find_bar import FindBar
from screens.combat.statblock_pane import StatblockPane
from screens.panel import PanelScreen
from widgets.combat_table import CombatTable
from widgets.footer import GAME_KEYS

LineT = TypeVar("LineT", bound=UnderTable)

if TYPE_CHECKING:
    from textual.widgets import DataTable

    from app.commands import combat as cmd
else:
    cmd = LazyModule("app.commands.combat")


class CombatScreen(CombatDanger, PanelScreen):
    """The tracker: j/k select, n next turn, t damage, l heal … (``?`` lists every key)."""

    PANEL_ID = "combat"
    PANEL_TITLE = "Combat"
    CSS_PATH = "combat.tcss"
    AUTO_FOCUS = "#combatants"
    WATCHES = frozenset({"encounters", "party", "npcs"})
    EVENT_LINE = False  # its own line under the tracker (#combat-last)
    BINDINGS: ClassVar[list[BindingType]] = [
        _b("n", "next_turn", "Next turn", "next_turn"),
        _b("alt+n", "previous_turn", "Prev turn", "previous_turn"),
        _b("j", "cursor(1)", "Down", "down"),
        _b("k", "cursor(-1)", "Up", "up"),
        _b("alt+j", "move(1)", "Move down", "move_down"),
        _b("alt+k", "move(-1)", "Move up", "move_up"),
        _b("t", "damage", "Damage", "damage"),
        _b("l", "heal", "Heal", "heal"),
        _b("plus", "mark", "Mark for an area (moves down)", "mark", show=False, display="+"),
        _b("T", "damage_last_roll", "Land the attack (or the last roll)", "damage_last", False),
        _b("alt+t", "temp_hp", "Temp HP", "temp_hp"),
        _b("g", "add_effect", "Condition", "add_effect"),
        _b("h", "hide", "Hide/reveal", "hide"),
        _b("e", "edit", "Edit", "edit"),
        _b("alt+d", "duplicate", "Duplicate", "duplicate"),
        _b("delete", "remove", "Remove", "remove"),
        _b("alt+r", "start", "Start", "start"),
        _b("alt+shift+r,shift+alt+r", "end", "End", "end", display="shift+alt+r"),
        _b("a", "spend_ap", "Spend AP", "spend_ap"),
        _b("i", "roll_initiative", "Initiative", "roll_initiative"),
        _b("I", "reroll_initiative", "Re-roll everyone (between rounds)", "reroll", show=False),
        _b("alt+p", "party_initiative", "Players' initiative rolls", "party_init", show=False),
        _b("X", "defeated", "Defeated / back in", "defeated", show=False),
        _b("p", "add_party", "Add party", "add_party", show=False),
        _b("b", "add_npc", "Add NPCs from the library", "add_npc", show=False),
        _b("q", "quick_add", "Quick add a foe", "quick_add", show=False),
        _b("ctrl+n", "new_encounter", "New encounter", "new_encounter", show=False),
        _b("right_square_bracket", "switch(1)", "Next encounter", "next_enc", False, "]"),
        _b("left_square_bracket", "switch(-1)", "Previous encounter", "prev_enc", False, "["),
        _b("alt+m", "turn_model", "Switch turn model", "turn_model", show=False),
        _b("L", "fold_list", "Show/hide the encounter list", "fold_list", show=False),
        _b("alt+i", "roll_initiative_npcs", "Roll initiative for NPCs only", "init_npcs", False),
        _b("G", "group_initiative", "Group initiative on/off", "group_init", show=False),
        _b("w", "delay", "Delay (move down the order)", "delay", show=False),
        _b("o", "hold", "Hold the action", "hold", show=False),
        _b("alt+o", "use_held", "Selected uses its held action now", "use_held", show=False),
        _b("c", "choose_next", "Choose the selected to act next", "choose_next", show=False),
        _b("x", "counter", "Counter action: 1 AP", "counter", show=False),
        _b("alt+g", "remove_effect", "Remove a condition", "remove_effect", show=False),
        _b("s", "morale", "Morale check", "morale", show=False),
        _b("S", "morale_due", "Every due morale check", "morale_due", show=False),
        _b("alt+s", "statblock", "Show/hide the statblock beside the table", "statblock", False),
        _b("slash", "find", "Jump to a combatant by name", "find", display="/"),
        _b("ctrl+d", "danger", "Danger: the estimate whole", "danger", show=False),
        _b(
            "ctrl+b",
            "build_danger",
            "Build to a danger (easy, hard, deadly)",
            "build_danger",
            False,
        ),
        # Last, so the Footer's first keys stay put as the selection moves on and off a statblock.
        _b("A", "exchange", "Attack: whoever acts attacks the selected", "sb_attack"),
        _b("V", "statblock_roll('save')", "Save / defence", "sb_save"),
        _b("K", "statblock_roll('skill')", "Skill check", "sb_skill"),
        _b("M", "statblock_roll('morale')", "Morale roll", "sb_morale"),
        _b("E", "statblock_roll('effort')", "Effort", "sb_effort"),
        _b("B", "roll_with", "Roll with Brawl/Wit/Will", "sb_roll_with", show=False),
        _b("F", "full_effort", "Full Effort again", "sb_full_effort", show=False),
    ]
    SETUP_FOOTER: ClassVar[tuple[str, ...]] = (
        *("combat.start", "combat.quick_add", "combat.add_npc", "combat.add_party"),
        *("combat.roll_initiative", "app.help", GAME_KEYS, "combat.new_encounter"),
        *("combat.damage", "combat.heal", "combat.add_effect", "app.undo", "combat.edit"),
    )
    """The Footer before the fight: what sets it up (the game's keys after ``?``)."""
    FOOTER: ClassVar[tuple[str, ...]] = (
        # A foe's turn is A then enter.
        *("combat.next_turn", "combat.sb_attack", "combat.damage", "combat.heal", "app.help"),
        *("combat.damage_last", "combat.find", "combat.spend_ap", "combat.choose_next"),
        "combat.add_effect",
        GAME_KEYS,
        *("combat.previous_turn", "app.undo", "combat.counter"),
        *("combat.roll_initiative", "combat.quick_add", "combat.add_npc", "combat.edit"),
        *("combat.end",),
    )
    """The Footer in a running fight: the turn, damage and healing first, then ``?`` and the
    game's keys (they show only while they apply)."""
    FOOTER_WORDS: ClassVar[dict[str, str]] = {
        "combat.sb_attack": "Attack",
        "combat.damage_last": "Land",
        "combat.quick_add": "Quick add",
        "combat.add_npc": "NPCs",
        "combat.add_party": "Party",
        "combat.roll_initiative": "Init",
        "combat.new_encounter": "New",
        "combat.previous_turn": "Back",
        "combat.counter": "Counter",
        "combat.choose_next": "Choose next",
        "combat.find": "Find",
    }
    MODEL_KEYS: ClassVar[frozenset[str]] = frozenset().union(
        *(o.actions for o in BUILT_IN.values())
    )
    """Shell keys of one turn model (its TurnOrder's actions): hidden (and inert) in an
    encounter of another."""

    # --- layout -------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        with Horizontal(id="combat-body"):
            yield EncounterList(id="encounter-list-pane")
            with Vertical(id="encounter-pane"):
                yield Static("", id="encounter-title")
                yield DangerMeter(id="danger-meter")
                yield CombatTable(id="combatants")
                yield Static("", id="combat-detail")
                yield self.amount_line
                yield Static("", id="combat-last")
                yield Static("", id="combat-status")
            yield StatblockPane(id="statblock-pane")

    def on_combat_table_cursor_moved(self, event: CombatTable.CursorMoved) -> None:
        self._follow_table()
        self._follow_selection()  # the pane, and the keys that work on this combatant only

    def action_fold_list(self) -> None:
        """L: fold the encounter list away or bring it back (it folds by itself when narrow)."""
        shown = self.query_one("#encounter-list-pane").display
        self.set_class(not shown, "-list-shown")
        self.set_class(shown, "-list-hidden")
        self._follow_list()

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        self._width = width
        self._fit_pane()

    # --- reading ------------------------------------------------------------------------------
    def refresh_data(self) -> None:
        found = current_encounter(self.campaign)
        self._show_list(found[0] if found else None)
        if found is None:
            self.encounter_id, self.encounter, self._doc = None, None, {}
            self._set_text("#encounter-title", "No encounter yet: ctrl+n")
            self.table.show([], [])
            self._set_text("#combat-status", "  ·  ".join(timed_effect_lines(self.campaign.meta)))
            self._has_hd = False
            self._follow_selection(refresh_keys=False)
            self._offer_keys((None, False, False))
            self.danger_follow()
            return
        self.encounter_id, self._doc = found
        self._next_seen = {}
        self.encounter = er.Encounter.from_dict(self._doc, combatant=self._read_combatant)
        self._seen, self._next_seen = self._next_seen, {}
        enc = self.encounter
        self._set_text("#encounter-title", self._title(enc), style="bold")
        self.table.show(
            [c.id for c in enc.combatants],
            self._rows_of(enc),
            self._turn_order(enc).heading,
        )
        if self._follow is None and enc.current is not None and enc.current != self._last_current:
            # As in Improved Initiative, the selection jumps to whoever's turn it now is, in
            # every turn model (in AP rounds a spend typed next lands on the actor); the GM
            # then moves to the target with j/k.
            self.table.select_id(enc.current)
        self._last_current = enc.current
        if self._follow is not None:
            self.table.select_id(self._follow)
            self._follow = None
        self._set_text("#combat-status", self._status(enc))
        self._show_detail()
        # Here, not only on the table's CursorMoved message: that one arrives after the first
        # repaint, and an update there cost a second repaint a frame later.
        self._follow_table()
        self._follow_selection(refresh_keys=False)
        self._offer_keys(self._keys_now(enc.model))
        if self.campaign.version != self._said_version:
            # Undone, redone or changed from another panel: the last line no longer holds.
            self._set_text("#combat-last", "")
        self.danger_follow()

    # --- the exchange (A) ----------------------------------------------------------------------
    def action_exchange(self) -> None:
        """A: the one acting attacks the selected (or, with itself selected, its last target;
        before the fight, the selected attacks its default target)."""
        enc, eid = self.encounter, self._need_encounter()
        if enc is None or eid is None:
            return
        pair = exchange_pair(enc, self.table.selected_id if self.is_mounted else None)
        if pair is None:
            self.notify(
                "Nobody to attack: select a combatant on the other side", severity="warning"
            )
            return
        self.close_amount()
        view = self._under_table(ExchangeView, "combat-exchange")
        self.amount_line.display = False
        view.open(Exchange(*pair, self.rolls_with(pair[0])), eid, enc)

    def on_exchange_view_land(self, event: ExchangeView.Land) -> None:
        refusal: list[str] = []
        if self.send(event.command, refused=refusal.append) is None:
            event.view.refused(refusal[0] if refusal else "Not done")
        elif event.close:
            event.view.close()
            self.on_exchange_view_closed()
        elif event.view.exchange is not None:
            event.view.show()

    def on_exchange_view_closed(self, _: ExchangeView.Closed | None = None) -> None:
        self.query_one(ExchangeView).display = False
        self.amount_line.display = True
        self._show_detail()

    def _under_table(self, kind: type[LineT], id: str) -> LineT:
        """The line of ``kind`` under the table, mounted the first time it is wanted: most
        sessions never open some of them."""
        found = self.query(kind)
        if found:
            return found.first()
        line = kind(id=id)
        self.query_one("#encounter-pane").mount(line, after=self.amount_line)
        return line

    # --- the jump by name -----------------------------------------------------------------------
    def action_find(self) -> None:
        """/: type part of a name; the selection jumps to the first combatant holding it (tab:
        the next), enter stays there, escape goes back."""
        if self.encounter is None or not self.encounter.combatants:
            self.notify("Nobody to find: add combatants first", severity="warning")
            return
        self.close_amount()
        bar = self._under_table(FindBar, "combat-find")
        self.amount_line.display = False
        bar.open(self.table.selected_id)

    def on_find_bar_jump(self, event: FindBar.Jump) -> None:
        """The find bar moved the selection, or the jump ended (the line under the table then
        says the detail again)."""
        if event.over:
            event.control.display = False
            self.amount_line.display = True
            if event.combatant_id is not None:
                self.table.select_id(event.combatant_id)
            self._show_detail()
            return
        if event.combatant_id is not None:
            self.table.select_id(event.combatant_id)
            self._chosen = event.combatant_id
            self._follow_selection()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.build_done(event.worker)

    def action_danger(self) -> None:
        """ctrl+d: the danger meter's estimate whole (per PC, the rounds as a chart)."""
        from screens.danger_detail import DangerDetail

        if self.danger_estimate is None:
            self.notify(self.danger_line or "Danger: still counting", timeout=3)
            return
        self.app.push_screen(DangerDetail(self.danger_estimate), self.danger_choose)

    def footer_words(self) -> dict[str, str]:
        """The Footer's words, n's as the running turn order says it (AP rounds: Pass)."""
        if self.encounter is None:
            return self.FOOTER_WORDS
        return {**self.FOOTER_WORDS, "combat.next_turn": self._turn_order(self.encounter).next_word}

    def footer_order(self) -> tuple[str, ...]:
        running = self.encounter is not None and self.encounter.started
        return self.FOOTER if running else self.SETUP_FOOTER

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.MODEL_KEYS and self.encounter is not None:
            return action in self._turn_order(self.encounter).actions
        if action == "morale" and self.encounter is not None:
            return self._has_hd or bool(self._doc.get("morale_due"))
        if action == "morale_due" and self.encounter is not None:
            return self._has_hd
        if action == "statblock_roll":
            kind = str(parameters[0]) if parameters else ""
            return self._block is not None and self._roll_kind(kind) in self.game.foes.rolls
        if action == "roll_with":
            return self._block is not None and self.game.foes.roll_with
        if action == "full_effort":
            return self._block is not None and "effort" in self.game.foes.rolls
        return super().check_action(action, parameters)

    # --- actions: turns -------------------------------------------------------------------------
    def action_next_turn(self) -> None:
        self._on_encounter(lambda e: cmd.NextTurn(e))

    def action_previous_turn(self) -> None:
        self._on_encounter(lambda e: cmd.PreviousTurn(e))

    def action_start(self) -> None:
        self._on_encounter(lambda e: cmd.StartEncounter(e))

    def action_end(self) -> None:
        self._on_encounter(lambda e: cmd.EndEncounter(e))

    def action_delay(self) -> None:
        self._on_encounter(lambda e: cmd.Delay(e))

    def action_hold(self) -> None:
        self._on_encounter(lambda e: cmd.Hold(e))

    def action_use_held(self) -> None:
        self._on_selected(lambda e, c: cmd.UseHeld(e, c.id))

    def action_choose_next(self) -> None:
        self._on_selected(lambda e, c: cmd.ChooseNext(e, c.id))

    def action_roll_initiative(self) -> None:
        self._on_encounter(lambda e: cmd.RollInitiative(e))

    def action_roll_initiative_npcs(self) -> None:
        self._on_encounter(lambda e: cmd.RollInitiative(e, npcs_only=True))

    def action_reroll_initiative(self) -> None:
        self._on_encounter(lambda e: cmd.RerollInitiative(e))

    def action_group_initiative(self) -> None:
        self._on_encounter(lambda e: cmd.ToggleGroupInitiative(e))

    def action_defeated(self) -> None:
        self._on_selected(lambda e, c: cmd.ToggleDefeated(e, c.id), follow=True)

    def action_move(self, delta: int) -> None:
        self._on_selected(lambda e, c: cmd.MoveCombatant(e, c.id, delta), follow=True)

    def action_counter(self) -> None:
        self._on_selected(lambda e, c: cmd.SpendAp(e, c.id, 1, counter=True))

    # --- actions: roster ------------------------------------------------------------------------
    def action_add_party(self) -> None:
        self._on_encounter(lambda e: cmd.AddParty(e))

    def action_switch(self, delta: int) -> None:
        ids = [doc_id for doc_id, _ in self.campaign.rows("encounters")]
        if len(ids) < 2 or self.encounter_id is None:
            self.notify("Only one encounter (ctrl+n makes another)")
            return
        target = ids[(ids.index(self.encounter_id) + delta) % len(ids)]
        self._apply(cmd.SelectEncounter(target))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "encounter-list" and event.row_key.value is not None:
            self._apply(cmd.SelectEncounter(int(event.row_key.value)))
            self.table.focus()

    def action_remove(self) -> None:
        self._on_selected(lambda e, c: cmd.RemoveCombatant(e, c.id))

    def action_duplicate(self) -> None:
        self._on_selected(lambda e, c: cmd.DuplicateCombatant(e, c.id))

    def action_hide(self) -> None:
        self._on_selected(lambda e, c: cmd.ToggleHidden(e, c.id))

    def on_key(self, event: events.Key) -> None:
        """While an amount is being typed, the keys go to it (the focus stays on the table, so
        nothing else repaints): characters, backspace, ctrl+u clears, enter applies, tab opens the game's whole
        form, escape cancels. A jump by name (/) takes the keys the same way."""
        found = self.query(FindBar)
        if found and found.first().display:
            enc = self.encounter
            if found.first().key(event, enc.combatants if enc is not None else ()):
                event.stop()
                event.prevent_default()
            return
        views = self.query(ExchangeView)
        if views and views.first().key(event):
            event.stop()
            event.prevent_default()
            return
        inline = self._inline
        what = self.amount_line.amount_key(event)
        if what is None:
            return
        event.stop()
        event.prevent_default()
        if what == "close":
            self.close_amount()
        elif what == "apply":
            self._amount_typed()
        elif what == "form":
            self.amount_form()
        if self._inline is inline:
            self.amount_line.show_amount()

"""Panel 1: the combat tracker — the encounter list and the running encounter.

The screen composes widgets that own what they show and take its method calls: the encounter
list, the middle column (:class:`~screens.combat.tracker_view.TrackerView`: the title, the
danger meter, the table and the lines under it) and the statblock pane. The lines the GM types
into (the amount line, the exchange view, the find bar) post messages up: a command to send, a
jump, the line closed. What the tracker knows of the running encounter is one
:class:`~screens.combat.tracker_state.TrackerState`, read again after every change and handed
down. Every change is a command from :mod:`app.commands.combat` sent through
``self.tableside.apply``, so each is undoable and the whole encounter is saved after it. The
keys are in :mod:`screens.combat.keys`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal

import screens.combat.forms as forms
from app.lazy import LazyModule
from rulesets import encounter as er
from rulesets import fight as fr
from rulesets.table import Context
from screens.combat.amount_line import UnderTable
from screens.combat.danger import DangerMeter
from screens.combat.encounter_list import EncounterList
from screens.combat.forms import Ask
from screens.combat.keys import (
    BINDINGS,
    FOOTER,
    FOOTER_WORDS,
    SETUP_FOOTER,
    encounter_key,
    key_display,
    selected_form,
    selected_key,
    statblock_refusal,
)
from screens.combat.statblock_pane import StatblockPane
from screens.combat.tracker_state import TrackerState
from screens.combat.tracker_view import TrackerView
from screens.form import Field, FormScreen
from screens.panel import PanelScreen
from widgets.combat_table import CombatTable

if TYPE_CHECKING:
    from textual.widgets import DataTable

    from app.commands import combat as cmd
    from app.commands import npcs
    from app.commands.npcs import RollKind
    from app.state import Command
    from rulesets.danger import Estimate
else:
    cmd = LazyModule("app.commands.combat")
    npcs = LazyModule("app.commands.npcs")


class CombatScreen(PanelScreen):
    """The tracker: j/k select, n next turn, t damage, l heal … (``?`` lists every key)."""

    PANEL_ID = "combat"
    PANEL_TITLE = "Combat"
    CSS_PATH = "combat.tcss"
    AUTO_FOCUS = "#combatants"
    WATCHES = frozenset({"encounters", "party", "npcs"})
    EVENT_LINE = False  # its own line under the tracker (#combat-last)
    BINDINGS: ClassVar[list[BindingType]] = list(BINDINGS)
    SETUP_FOOTER: ClassVar[tuple[str, ...]] = SETUP_FOOTER
    FOOTER: ClassVar[tuple[str, ...]] = FOOTER
    FOOTER_WORDS: ClassVar[dict[str, str]] = FOOTER_WORDS

    def __init__(self) -> None:
        super().__init__()
        self.state = TrackerState(lambda: self.campaign)
        self.tracker = TrackerView(self.state, id="encounter-pane")
        self.pane = StatblockPane(id="statblock-pane")

    @property
    def table(self) -> CombatTable:
        return self.tracker.table

    # --- layout -------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        with Horizontal(id="combat-body"):
            yield EncounterList(id="encounter-list-pane")
            yield self.tracker
            yield self.pane

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        self._fit_pane(width=width)

    def _fit_pane(self, width: int | None = None, toggle: bool = False) -> None:
        """The pane beside the table, and whether the encounter list still fits with it."""
        shown, crowded = self.pane.fit(width, self.NARROW, toggle)
        self.set_class(shown, "-statblock", update=self.is_mounted)
        self.set_class(crowded, "-crowded", update=self.is_mounted)
        if shown and self.is_mounted:
            self._follow_selection(refresh_keys=False)
        self._follow_list()

    def action_statblock(self) -> None:
        """alt+s: show or hide the statblock pane (the table takes or gives back the room)."""
        self._fit_pane(toggle=True)

    def action_fold_list(self) -> None:
        """L: fold the encounter list away or bring it back (it folds by itself when narrow)."""
        shown = self.query_one("#encounter-list-pane").display
        self.set_class(not shown, "-list-shown")
        self.set_class(shown, "-list-hidden")
        self._follow_list()

    def _follow_list(self) -> None:
        """The encounter list's table is built the first time the list shows."""
        found = self.query(EncounterList)  # none yet while the screen composes
        if found:
            found.first().follow(self.campaign.rows("encounters"), self.state.encounter_id)

    # --- reading ------------------------------------------------------------------------------
    def refresh_data(self) -> None:
        enc = self.state.read()
        found = self.query(EncounterList)
        if found:
            found.first().show(self.campaign.rows("encounters"), self.state.encounter_id)
        self.tracker.show(enc)
        if enc is not None:
            self._show_detail()
            # Here, not only on the table's CursorMoved message: that one arrives after the
            # first repaint, and an update there cost a second repaint a frame later.
            self.tracker.follow_table()
        self._follow_selection(refresh_keys=False)
        self._offer_keys(self._keys_now(enc.model) if enc is not None else (None, False, False))
        if enc is not None:
            self.tracker.forget_result()
        self.meter.follow(
            self.campaign, self.state.encounter_id, typing=self.tableside.typing_pause
        )

    def _show_detail(self) -> None:
        self.tracker.show_detail(self.table.selected_id)

    def on_combat_table_cursor_moved(self, _: CombatTable.CursorMoved) -> None:
        self.tracker.follow_table()
        self._follow_selection()  # the pane, and the keys that work on this combatant only

    def on_key(self, event: events.Key) -> None:
        # A statblock key that does nothing here (a PC selected) says why, once.
        if (said := statblock_refusal(self, event.key)) is not None:
            event.stop()
            event.prevent_default()
            self.notify(said, severity="warning", markup=False)

    def action_cursor(self, delta: int) -> None:
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.cursor_row + delta, table.row_count - 1)))
            self.tracker.chosen = table.selected_id
            self._show_detail()
            self._follow_selection()

    def _follow_selection(self, refresh_keys: bool = True) -> None:
        """The selection moved or changed: its statblock (the keys that roll it, the pane)."""
        seen = self.state.follow_block(self.table.selected_id if self.is_mounted else None)
        if refresh_keys and self.state.encounter is not None:
            self._offer_keys(self._keys_now(self.state.encounter.model))
        if self.has_class("-statblock"):
            self.pane.follow(self.state, seen, partial(key_display, self.app))

    # --- the keys on offer ----------------------------------------------------------------------
    def _keys_now(self, model: str) -> tuple[object, ...]:
        """What the keys on offer depend on (:meth:`TrackerState.keys_now`)."""
        ctx = self.game_context()
        game = tuple(a.id for a in self.game.actions_for("combat") if self._works_now(a, ctx))
        return self.state.keys_now(model, game, self.table.selected_id if self.is_mounted else None)

    def _offer_keys(self, what: tuple[object, ...]) -> None:
        # The Footer and help ask check_action again only when what the keys depend on changed,
        # not on every keypress.
        if self.state.keys_changed(what):
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        found = self.state.offers(action, parameters)
        return found if found is not None else super().check_action(action, parameters)

    def footer_words(self) -> dict[str, str]:
        """The Footer's words, n's as the running turn order says it (AP rounds: Pass)."""
        order = self.state.order
        words = {"combat.next_turn": order.next_word} if order is not None else {}
        return {**self.FOOTER_WORDS, **words}

    def footer_order(self) -> tuple[str, ...]:
        running = self.state.encounter is not None and self.state.encounter.started
        return self.FOOTER if running else self.SETUP_FOOTER

    # --- sending a command ------------------------------------------------------------------------
    def game_context(self) -> Context:
        cid = self.table.selected_id if self.is_mounted else None
        return self.state.context(cid, self.PANEL_ID)

    def send(
        self, command: Command, refused: Callable[[str], None] | None = None
    ) -> list[str] | None:
        # A change made on the row the GM moved to (damage on a target) uses that choice up:
        # the next spend of AP is the acting combatant's again.
        self.tracker.chosen = None
        return super().send(command, refused)

    def _apply(self, command: Command, follow: str | None = None) -> list[str] | None:
        self.tracker.follow = follow
        return self.send(command)

    def show_result(self, lines: list[str]) -> None:
        # What just happened goes on a line under the table, not in a toast: at the table a GM
        # presses n forty times a fight, and stacked toasts would cover the order.
        self.tracker.show_result(lines)

    def for_selected(self, make: Callable[[int, er.Combatant], Command], follow: bool) -> None:
        """Send ``make``'s command for the selected (``follow``: the selection stays on it)."""
        eid = self.tracker.need_encounter()
        c = self.tracker.selected() if eid is not None else None
        if eid is not None and c is not None:
            self._apply(make(eid, c), c.id if follow else None)

    def form_for_selected(self, make: Callable[[TrackerState, int, er.Combatant], Ask]) -> None:
        """Show ``make``'s form for the selected (its answers make the command sent)."""
        eid, c = self.tracker.need_encounter(), self.tracker.selected()
        if eid is not None and c is not None:
            self._form(make(self.state, eid, c))

    def for_encounter(self, make: Callable[[int], Command]) -> None:
        """Send ``make``'s command for the running encounter."""
        eid = self.tracker.need_encounter()
        if eid is not None:
            self._apply(make(eid))

    def _form(self, ask: forms.Ask | str) -> None:
        """Show ``ask``'s form, its answers make the command sent; or say why there is none."""
        if isinstance(ask, str):
            self.notify(ask, severity="warning")
            return

        def done(result: dict[str, Any] | None) -> None:
            if result is not None:
                self._apply(ask.make(result))

        self.app.push_screen(FormScreen(ask.title, ask.fields), done)

    # --- the lines under the table --------------------------------------------------------------
    def on_under_table_land(self, event: UnderTable.Land) -> None:
        """A line under the table has a command to send (an amount, the exchange)."""
        if event.line is self.tracker.amount_line:
            self._show_detail()  # the amount is over: the line says the detail again
        refusal: list[str] = []
        if self.send(event.command, refused=refusal.append if event.answer else None) is None:
            event.line.refused(refusal[0] if refusal else "Not done")
            return
        if event.unmark:
            self.state.marked = set()
            self.refresh_data()
        event.line.landed(event.close)

    def action_exchange(self) -> None:
        """A: the one acting attacks the selected (or, with itself selected, its last target;
        before the fight, the selected attacks its default target)."""
        eid = self.tracker.need_encounter()
        if eid is not None:
            self.tracker.open_exchange(eid)

    def action_find(self) -> None:
        """/: type part of a name; the selection jumps to the first combatant holding it (tab:
        the next), enter stays there, escape goes back."""
        self.tracker.open_find()

    # --- the danger meter ------------------------------------------------------------------------
    @property
    def meter(self) -> DangerMeter:
        return self.query_one(DangerMeter)

    @property
    def danger_estimate(self) -> Estimate | None:
        """The newest estimate of the encounter as it stands (None: none yet, or none)."""
        return self.meter.estimate

    def action_danger(self) -> None:
        """ctrl+d: the danger meter's estimate whole (per PC, the rounds as a chart)."""
        self.meter.open_detail(self.campaign, self.state.encounter_id)

    def action_build_danger(self) -> None:
        """ctrl+b: the HD or the count of quick-added foes that brings the fight into a band;
        the quick add form opens with it filled in, for enter to add them."""
        eid = self.tracker.need_encounter()
        if eid is not None:
            self.meter.ask_build(self.campaign, eid)

    def on_danger_meter_proposed(self, event: DangerMeter.Proposed) -> None:
        self.action_quick_add(event.preset, event.title)

    # --- actions: damage, healing, areas, the statblock's rolls --------------------------------
    def action_damage(self) -> None:
        self._health_change("Damage", self.game.fight.damage_form)

    def action_heal(self) -> None:
        self._health_change("Heal", self.game.fight.heal_form)

    def _health_change(self, verb: str, form: Callable[[fr.HealthKind], tuple[Field, ...]]) -> None:
        """Type the amount on the line under the table (on every marked combatant when some are
        marked)."""
        eid, c = self.tracker.need_encounter(), self.tracker.selected()
        if eid is not None and c is not None:
            self.tracker.amount_line.open_health(verb, form, eid, c, self.state.area())

    def action_mark(self) -> None:
        """+: mark or unmark the selected for an area; the cursor then moves down one row (the
        next foe of a group is one + away), and the line under the table says so."""
        c = self.tracker.selected()
        if c is None:
            return
        self.state.marked ^= {c.id}
        self.refresh_data()
        row = self.table.cursor_row
        self.action_cursor(1)
        after = self.tracker.selected() if self.table.cursor_row != row else None
        self.show_result([self.state.marked_line(c, after)])

    def action_damage_last_roll(self) -> None:
        """T: an attack rolled by an older Tableside and waiting to land lands on its target;
        else the log's last roll lands on the selected (or the marked), once: an attack's
        damage or a plain roll's total, never a check."""
        c = None if self.state.strike() is not None else self.tracker.selected()
        landing = self.state.landing(c)
        if isinstance(landing, str):
            self.notify(landing, severity="warning")
        elif landing is not None and self._apply(landing) is not None and c is not None:
            self.state.marked = set()

    action_temp_hp = selected_form(lambda s, e, c: forms.temp_hp(e, c))

    def action_statblock_roll(self, kind: RollKind) -> None:
        """A, V, K, M, E: the selected combatant's attack (by its game's mechanic, at a named
        target: T lands it), save or defence, skill, morale or Effort roll."""
        eid, c = self.tracker.need_encounter(), self.tracker.selected()
        if eid is not None and c is not None:
            attribute = self.state.rolls_with(self.table.selected_id)
            self._apply(npcs.RollStatblock(eid, c.id, kind=kind, attribute=attribute))

    def action_roll_with(self) -> None:
        """B: the selected foe's statblock rolls with the next attribute (Brawl, Wit, Will);
        every other foe keeps its own."""
        cid = self.table.selected_id
        if cid is None:
            return
        now = self.state.step_rolls_with(cid)
        c = self.state.combatant(cid)
        name = c.name if c is not None else "The statblock"
        self.tracker.say_last(f"{name} rolls with {now.capitalize()}")
        self._follow_selection()

    action_full_effort = selected_key(lambda e, c: npcs.RefreshInstanceEffort(e, c.id))

    # --- actions: one command, for the encounter or for the selected combatant ----------------
    action_next_turn = encounter_key(lambda e: cmd.NextTurn(e))
    action_previous_turn = encounter_key(lambda e: cmd.PreviousTurn(e))
    action_start = encounter_key(lambda e: cmd.StartEncounter(e))
    action_end = encounter_key(lambda e: cmd.EndEncounter(e))
    action_delay = encounter_key(lambda e: cmd.Delay(e))
    action_hold = encounter_key(lambda e: cmd.Hold(e))
    action_use_held = selected_key(lambda e, c: cmd.UseHeld(e, c.id))
    action_choose_next = selected_key(lambda e, c: cmd.ChooseNext(e, c.id))
    action_roll_initiative = encounter_key(lambda e: cmd.RollInitiative(e))
    action_roll_initiative_npcs = encounter_key(lambda e: cmd.RollInitiative(e, npcs_only=True))
    action_reroll_initiative = encounter_key(lambda e: cmd.RerollInitiative(e))
    action_group_initiative = encounter_key(lambda e: cmd.ToggleGroupInitiative(e))
    action_defeated = selected_key(lambda e, c: cmd.ToggleDefeated(e, c.id), follow=True)

    def action_move(self, delta: int) -> None:
        self.for_selected(lambda e, c: cmd.MoveCombatant(e, c.id, delta), follow=True)

    action_counter = selected_key(lambda e, c: cmd.SpendAp(e, c.id, 1, counter=True))
    action_add_party = encounter_key(lambda e: cmd.AddParty(e))
    action_remove = selected_key(lambda e, c: cmd.RemoveCombatant(e, c.id))
    action_duplicate = selected_key(lambda e, c: cmd.DuplicateCombatant(e, c.id))
    action_hide = selected_key(lambda e, c: cmd.ToggleHidden(e, c.id))
    action_morale_due = encounter_key(lambda e: cmd.MoraleDue(e))

    def action_morale(self) -> None:
        eid = self.tracker.need_encounter()
        target = self.state.morale_target(self.table.selected_id)
        if eid is not None and self.state.encounter is not None and target:
            self._apply(cmd.MoraleCheck(eid, target))

    def action_switch(self, delta: int) -> None:
        target = self.state.next_encounter(delta)
        if target is None:
            self.notify("Only one encounter (ctrl+n makes another)")
        else:
            self._apply(cmd.SelectEncounter(target))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "encounter-list" and event.row_key.value is not None:
            self._apply(cmd.SelectEncounter(int(event.row_key.value)))
            self.table.focus()

    def action_turn_model(self) -> None:
        eid = self.tracker.need_encounter()
        if eid is None or self.state.encounter is None:
            return
        self._apply(cmd.SetModel(eid, forms.next_model(self.game, self.state.encounter.model)))

    # --- actions: the forms ----------------------------------------------------------------------
    def action_party_initiative(self) -> None:
        eid, enc = self.tracker.need_encounter(), self.state.encounter
        if eid is not None and enc is not None:
            self._form(forms.party_initiative(eid, enc))

    def action_spend_ap(self) -> None:
        """a: spend AP of whose turn it is (SOH-10), or of the row the GM moved to since the
        last change (a defence, a counter by another); the form names whose, and may change it."""
        eid, enc = self.tracker.need_encounter(), self.state.encounter
        selected = self.table.selected_id
        if eid is not None and enc is not None:
            chosen = self.tracker.chosen if self.tracker.chosen == selected else None
            self._form(forms.spend_ap(eid, enc, chosen or enc.current or selected))

    def action_new_encounter(self) -> None:
        self._form(forms.new_encounter(self.game, len(self.campaign.rows("encounters"))))

    def action_add_npc(self) -> None:
        """b: pick a library NPC by typing part of its name (the list narrows as the GM
        types), then how many and their HP."""
        if self.tracker.need_encounter() is not None:
            picking = forms.pick_npc(self.campaign, self._form)
            if isinstance(picking, str):
                self.notify(picking, severity="warning")
            else:
                self.app.push_screen(*picking)

    def action_quick_add(self, preset: Mapping[str, str] | None = None, title: str = "") -> None:
        """q: an ad-hoc foe or group; ``preset`` fills the name, count and HD (a build to a
        danger proposes them), ``title`` says why."""
        eid, order = self.tracker.need_encounter(), self.state.order
        if eid is not None:
            # Only the initiative turn model orders by initiative.
            ordered = order is None or order.uses_initiative
            self._form(forms.quick_add(eid, self.game.fight.foe, ordered, preset, title))

    action_edit = selected_form(lambda s, e, c: forms.edit(e, c, bool(s.order and s.order.uses_ap)))
    action_add_effect = selected_form(forms.add_effect)

    def action_remove_effect(self) -> None:
        eid, c = self.tracker.need_encounter(), self.tracker.selected()
        if eid is None or c is None:
            return
        if not c.conditions:
            self.notify(f"{c.name} has no conditions", markup=False)
            return
        self._form(forms.remove_effect(eid, c))

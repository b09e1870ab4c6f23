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

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from app.lazy import LazyModule
from app.queries import current_encounter, timed_effect_lines
from rulesets import encounter as er
from rulesets.turn_orders import known as known_orders
from screens.combat import forms
from screens.combat.amount_line import AmountLine, UnderTable
from screens.combat.amounts import CombatAmounts
from screens.combat.danger import DangerMeter
from screens.combat.encounter_list import EncounterList
from screens.combat.exchange_view import Exchange, ExchangeView, exchange_pair
from screens.combat.find_bar import FindBar
from screens.combat.keys import (
    BINDINGS,
    FOOTER,
    FOOTER_WORDS,
    MODEL_KEYS,
    SETUP_FOOTER,
    encounter_key,
    selected_key,
)
from screens.combat.statblock_pane import StatblockPane
from screens.panel import PanelScreen
from widgets.combat_table import CombatTable

LineT = TypeVar("LineT", bound=UnderTable)

if TYPE_CHECKING:
    from textual.widgets import DataTable

    from app.commands import combat as cmd
    from app.commands import npcs
    from rulesets.danger import Estimate
else:
    cmd = LazyModule("app.commands.combat")
    npcs = LazyModule("app.commands.npcs")


class CombatScreen(CombatAmounts, PanelScreen):
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
            self._danger_follow()
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
        self._danger_follow()

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

    def on_exchange_view_closed(self, _: ExchangeView.Closed) -> None:
        self.query_one(ExchangeView).display = False
        self.amount_line.display = True
        self._show_detail()

    def on_under_table_land(self, event: UnderTable.Land) -> None:
        """A line under the table has a command to send (an amount, the exchange)."""
        refusal: list[str] = []
        if self.send(event.command, refused=refusal.append if event.answer else None) is None:
            event.line.refused(refusal[0] if refusal else "Not done")
            return
        if event.unmark:
            self._marked = set()
            self.refresh_data()
        event.line.landed(event.close)

    def on_amount_line_closed(self, _: AmountLine.Closed) -> None:
        self._show_detail()

    def on_amount_line_refused(self, event: AmountLine.Refused) -> None:
        self._say_last(event.text)
        self._said_version = self.campaign.version

    def close_amount(self) -> None:
        self.amount_line.inline = None
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

    # --- the danger meter ------------------------------------------------------------------------
    @property
    def meter(self) -> DangerMeter:
        return self.query_one(DangerMeter)

    @property
    def danger_estimate(self) -> Estimate | None:
        """The newest estimate of the encounter as it stands (None: none yet, or none)."""
        return self.meter.estimate

    def _danger_follow(self) -> None:
        """After a refresh: the meter estimates the encounter again if the campaign changed."""
        enabled = bool(getattr(self.app, "danger_meter", True))
        self.meter.follow(self.campaign, self.encounter_id, enabled)

    def action_danger(self) -> None:
        """ctrl+d: the danger meter's estimate whole (per PC, the rounds as a chart)."""
        self.meter.open_detail(self.campaign, self.encounter_id)

    def action_build_danger(self) -> None:
        """ctrl+b: the HD or the count of quick-added foes that brings the fight into a band;
        the quick add form opens with it filled in, for enter to add them."""
        eid = self._need_encounter()
        if eid is not None:
            self.meter.ask_build(self.campaign, eid)

    def on_danger_meter_said(self, event: DangerMeter.Said) -> None:
        self._say_last(event.text)

    def on_danger_meter_proposed(self, event: DangerMeter.Proposed) -> None:
        self.action_quick_add(event.preset, event.title)

    def footer_words(self) -> dict[str, str]:
        """The Footer's words, n's as the running turn order says it (AP rounds: Pass)."""
        if self.encounter is None:
            return self.FOOTER_WORDS
        return {**self.FOOTER_WORDS, "combat.next_turn": self._turn_order(self.encounter).next_word}

    def footer_order(self) -> tuple[str, ...]:
        running = self.encounter is not None and self.encounter.started
        return self.FOOTER if running else self.SETUP_FOOTER

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in MODEL_KEYS and self.encounter is not None:
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

    # --- actions: the forms ----------------------------------------------------------------------
    def action_party_initiative(self) -> None:
        eid, enc = self._need_encounter(), self.encounter
        if eid is not None and enc is not None:
            self._form(forms.party_initiative(eid, enc))

    def action_spend_ap(self) -> None:
        """a: spend AP of whose turn it is (SOH-10), or of the row the GM moved to since the
        last change (a defence, a counter by another); the form names whose, and may change it."""
        eid, enc, selected = self._need_encounter(), self.encounter, self.table.selected_id
        if eid is not None and enc is not None:
            chosen = self._chosen if self._chosen == selected else None
            self._form(forms.spend_ap(eid, enc, chosen or enc.current or selected))

    def action_new_encounter(self) -> None:
        self._form(forms.new_encounter(self.game, len(self.campaign.rows("encounters"))))

    def action_add_npc(self) -> None:
        """b: pick a library NPC by typing part of its name (the list narrows as the GM
        types), then how many and their HP."""
        if self._need_encounter() is None:
            return
        library = self.campaign.rows("npcs")
        if not library:
            self.notify("The NPC library is empty (panel 3)", severity="warning")
            return
        from screens.npc_pick import NpcPickScreen

        def picked(npc_id: int | None) -> None:
            doc = self.campaign.doc("npcs", npc_id) if npc_id is not None else None
            if doc is not None and npc_id is not None:
                self._form(forms.add_npcs(self.game, npc_id, doc))

        self.app.push_screen(NpcPickScreen(library, "Add NPCs from the library"), picked)

    def action_quick_add(self, preset: Mapping[str, str] | None = None, title: str = "") -> None:
        """q: an ad-hoc foe or group; ``preset`` fills the name, count and HD (a build to a
        danger proposes them), ``title`` says why."""
        eid = self._need_encounter()
        if eid is None:
            return
        # Only the initiative turn model orders by initiative.
        ordered = self.encounter is None or self._turn_order(self.encounter).uses_initiative
        self._form(forms.quick_add(eid, self.rules.foe, ordered, preset, title))

    def action_edit(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is not None and c is not None:
            enc = self.encounter
            self._form(forms.edit(eid, c, enc is not None and self._turn_order(enc).uses_ap))

    def action_add_effect(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        enc = self.encounter
        if eid is not None and c is not None and enc is not None:
            self._form(forms.add_effect(eid, enc, c, self.rules.ranked_conditions))

    def action_remove_effect(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        if not c.conditions:
            self.notify(f"{c.name} has no conditions", markup=False)
            return
        self._form(forms.remove_effect(eid, c))

    def action_turn_model(self) -> None:
        eid = self._need_encounter()
        if eid is None or self.encounter is None:
            return
        models = known_orders(self.game)
        nxt = models[(models.index(self.encounter.model) + 1) % len(models)]
        self._apply(cmd.SetModel(eid, nxt))

    def action_morale(self) -> None:
        eid = self._need_encounter()
        if eid is None or self.encounter is None:
            return
        due = self._doc.get("morale_due", [])
        cid = self.table.selected_id
        target = cid if cid and any(d.get("id") == cid for d in due) else None
        if target is None and due:
            target = due[0]["id"]
        target = target or cid
        if target:
            self._apply(cmd.MoraleCheck(eid, target))

    action_morale_due = encounter_key(lambda e: cmd.MoraleDue(e))
    # --- actions: roster ------------------------------------------------------------------------
    action_add_party = encounter_key(lambda e: cmd.AddParty(e))

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

    action_remove = selected_key(lambda e, c: cmd.RemoveCombatant(e, c.id))
    action_duplicate = selected_key(lambda e, c: cmd.DuplicateCombatant(e, c.id))
    action_hide = selected_key(lambda e, c: cmd.ToggleHidden(e, c.id))

    def on_key(self, event: events.Key) -> None:
        """While an amount, an exchange or a jump by name is typed, the keys go to its line (the
        focus stays on the table, so nothing else repaints)."""
        found = self.query(FindBar)
        if found and found.first().display:
            enc = self.encounter
            if found.first().key(event, enc.combatants if enc is not None else ()):
                event.stop()
                event.prevent_default()
            return
        views = self.query(ExchangeView)
        if (views and views.first().key(event)) or self.amount_line.key(event):
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        """A paste while an amount is typed goes into it (cut at 40 characters)."""
        if self.amount_line.inline is not None:
            event.stop()
            self.amount_line.paste(event.text)

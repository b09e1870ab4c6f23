"""The tracker's middle column: the encounter's title, the danger meter, the table, and the
lines under it (the detail a narrow table leaves out, the line the GM types into, what just
happened, the status line).

The view shows what the :class:`~screens.combat.tracker_state.TrackerState` it is handed says;
the lines keep what they show, so the same text again at every keypress costs nothing. The find
bar and the exchange view are mounted the first time they open, in the amount line's place:
most sessions never open one of them.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical

from rulesets import encounter as er
from screens.combat.amount_line import IDLE_AMOUNT, AmountLine, Line, UnderTable
from screens.combat.danger import DangerMeter
from screens.combat.exchange_view import Exchange, ExchangeView, exchange_pair
from screens.combat.find_bar import FindBar
from screens.combat.tracker_state import TrackerState
from widgets.combat_table import CombatTable
from widgets.event_line import fitted
from widgets.literal import clean, literal

LineT = TypeVar("LineT", bound=UnderTable)


class TitleLine(Line):
    """The encounter's title: one line high whatever it says, so never a layout pass."""

    def say(self, text: str, style: str = "") -> None:
        if self.said != (text, style):
            self.said = (text, style)
            self.update(literal(text, style=style, limit=1000), layout=False)


class TrackerView(Vertical):
    """The running encounter: its title, meter, table and the lines under the table."""

    def __init__(self, state: TrackerState, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = state
        self.amount_line = AmountLine(id="combat-amount")
        """The line under the table the GM types into (an amount; the detail meanwhile)."""
        self.said_version = -1
        """Campaign version the line of what just happened speaks of."""
        self.follow: str | None = None
        """The combatant the selection follows after the change under way (moved, defeated)."""
        self.last_current: str | None = None
        self.chosen: str | None = None
        """The row the GM moved the selection onto (j/k, a jump) since the last change: a
        spend of AP (a) is that one's; otherwise it is whose turn it is."""

    def compose(self) -> ComposeResult:
        yield TitleLine("", id="encounter-title")
        yield DangerMeter(id="danger-meter")
        yield CombatTable(id="combatants")
        yield Line(id="combat-detail")
        yield self.amount_line
        yield Line(id="combat-last")
        yield Line(id="combat-status")

    @property
    def table(self) -> CombatTable:
        return self.query_one("#combatants", CombatTable)

    def need_encounter(self) -> int | None:
        """The running encounter's id; None, and the GM told so, when there is none."""
        if self.state.encounter_id is None:
            self.notify("No encounter yet: ctrl+n makes one", severity="warning")
        return self.state.encounter_id

    def selected(self) -> er.Combatant | None:
        """The selected combatant; None, and the GM told so, when nobody is selected."""
        enc, cid = self.state.encounter, self.table.selected_id
        if enc is None or cid is None:
            self.notify("Select a combatant first (j/k)", severity="warning")
            return None
        try:
            return enc.get(cid)
        except er.EncounterError:
            return None

    def say_last(self, text: str) -> None:
        """``text`` on the line of what just happened, until the campaign changes."""
        self.say("combat-last", text)
        self.said_version = self.state.campaign.version

    def say(self, line_id: str, text: str, style: str = "") -> None:
        """Show ``text`` on the line ``line_id`` (the title, the status line, the last line)."""
        self.query_one(f"#{line_id}", Line).say(text, style)

    def show(self, enc: er.Encounter | None) -> None:
        """The title, the table's rows and the status line for ``enc`` (None: no encounter)."""
        state = self.state
        if enc is None:
            self.say("encounter-title", "No encounter yet: ctrl+n")
            self.table.show([], [])
        else:
            self.say("encounter-title", state.title(enc), style="bold")
            heading = state.turn_order(enc).heading
            self.table.show([c.id for c in enc.combatants], state.rows(enc), heading)
            current = enc.current
            if self.follow is None and current is not None and current != self.last_current:
                # As in Improved Initiative, the selection jumps to whoever's turn it now is,
                # in every turn model (in AP rounds a spend typed next lands on the actor); the
                # GM then moves to the target with j/k.
                self.table.select_id(current)
            self.last_current = current
            if self.follow is not None:
                self.table.select_id(self.follow)
                self.follow = None
        self.say("combat-status", state.status(enc))

    def show_result(self, lines: list[str]) -> None:
        # As many of the newest lines as fit the line's three rows, whole: the rest are counted
        # (S over five foes cut the fifth result mid-word).
        self.say("combat-last", fitted(lines, self._last_rows))
        self.said_version = self.state.campaign.version

    def _last_rows(self, text: str) -> int:
        static = self.query_one("#combat-last", Line)
        width = static.content_size.width or max(1, self.app.size.width - 2)
        return len(literal(text, limit=1000).wrap(self.app.console, width))

    def forget_result(self) -> None:
        """Undone, redone or changed from another panel: the last line no longer holds."""
        if self.state.campaign.version != self.said_version:
            self.say("combat-last", "")

    def follow_table(self) -> None:
        """What a narrow table leaves out of the selected row, on a line of its own."""
        self.say("combat-detail", self.table.detail(), style="italic")
        self.set_class(self.table.gives_way, "-gives-way")

    def show_detail(self, cid: str | None) -> None:
        """The line under the table, while no amount is typed: the game's detail about the
        selected combatant (a Nemron character's limbs), or what the keys there do. An open
        exchange keeps the line: a redraw (a form confirmed, a change from elsewhere) shows its
        odds again."""
        views = self.query(ExchangeView)
        if views and views.first().exchange is not None:
            views.first().follow(self.state.encounter_id, self.state.encounter)
            return
        if self.amount_line.inline is not None or not self.amount_line.display:
            return
        self.amount_line.say(clean(self.state.detail(cid), 200) or IDLE_AMOUNT)

    # --- the lines the GM types into --------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """While an amount, an exchange or a jump by name is typed, the keys go to its line (the
        focus stays on the table, so nothing else repaints)."""
        if self._line_key(event):
            event.stop()
            event.prevent_default()

    def _line_key(self, event: events.Key) -> bool:
        found = self.query(FindBar)
        if found and found.first().display:
            enc = self.state.encounter
            return found.first().key(event, enc.combatants if enc is not None else ())
        views = self.query(ExchangeView)
        return bool(views and views.first().key(event)) or self.amount_line.key(event)

    def on_paste(self, event: events.Paste) -> None:
        """A paste while an amount is typed goes into it (cut at 40 characters)."""
        if self.amount_line.inline is not None:
            event.stop()
            self.amount_line.paste(event.text)

    def on_exchange_view_closed(self, event: ExchangeView.Closed) -> None:
        event.stop()
        self.close_line(self.query_one(ExchangeView))
        self.show_detail(self.table.selected_id)

    def on_amount_line_closed(self, event: AmountLine.Closed) -> None:
        event.stop()
        self.show_detail(self.table.selected_id)

    def on_amount_line_refused(self, event: AmountLine.Refused) -> None:
        event.stop()
        self.say_last(event.text)

    def on_find_bar_jump(self, event: FindBar.Jump) -> None:
        """The selection moves where the find bar says; at the jump's end the line under the
        table says the detail again (the tracker hears of the jump too)."""
        if event.combatant_id is not None:
            self.table.select_id(event.combatant_id)
            if not event.over:
                self.chosen = event.combatant_id
        if event.over:
            self.close_line(event.bar)
            self.show_detail(self.table.selected_id)

    def close_amount(self) -> None:
        """Whatever amount is being typed is dropped; the line says the detail."""
        self.amount_line.inline = None
        self.show_detail(self.table.selected_id)

    def open_exchange(self, encounter_id: int) -> None:
        """A: the exchange on the line, between the pair :func:`exchange_pair` names."""
        enc = self.state.encounter
        pair = (
            exchange_pair(enc, self.table.selected_id if self.is_mounted else None) if enc else None
        )
        if enc is None or pair is None:
            self.notify(
                "Nobody to attack: select a combatant on the other side", severity="warning"
            )
            return
        self.close_amount()
        found = Exchange(*pair, self.state.rolls_with(pair[0]))
        self.open_line(ExchangeView, "combat-exchange").open(found, encounter_id, enc)

    def open_find(self) -> None:
        """/: the find bar on the line, from the selected combatant."""
        if self.state.encounter is None or not self.state.encounter.combatants:
            self.notify("Nobody to find: add combatants first", severity="warning")
            return
        self.close_amount()
        self.open_line(FindBar, "combat-find").open(self.table.selected_id)

    def on_danger_meter_said(self, event: DangerMeter.Said) -> None:
        event.stop()
        self.say("combat-last", event.text)

    def open_line(self, kind: type[LineT], id: str) -> LineT:
        """The line of ``kind`` under the table, shown in the amount line's place (mounted the
        first time it is wanted)."""
        found = self.query(kind)
        line = found.first() if found else kind(id=id)
        if not found:
            self.mount(line, after=self.amount_line)
        self.amount_line.display = False
        line.display = True
        return line

    def close_line(self, line: UnderTable) -> None:
        """``line`` is done: the amount line is back in its place."""
        line.display = False
        self.amount_line.display = True

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

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Label, Static

from app.commands import combat as cmd
from app.commands.npcs import (
    AddNpcsToEncounter,
    RefreshInstanceEffort,
    RollKind,
    RollStatblock,
    instance_block,
)
from app.queries import current_encounter, timed_effect_lines
from rulesets import encounter as er
from rulesets import fight as fr
from rulesets import foes as fo
from rulesets.npc import MAX_QUICK_HD, NPC
from rulesets.table import Context
from rulesets.turn_orders import BUILT_IN, turn_order
from rulesets.turn_orders import known as known_orders
from screens.form import Field, FieldError, FormScreen
from screens.form import clean as clean_field
from screens.panel import PanelScreen
from widgets.combat_table import CombatTable, Row
from widgets.event_line import fitted
from widgets.footer import GAME_KEYS
from widgets.literal import clean, literal
from widgets.statblock import powers_text, statblock_text, title_text


def _b(key: str, action: str, text: str, bid: str, show: bool = True, display: str = "") -> Binding:
    return Binding(key, action, text, show=show, id=f"combat.{bid}", key_display=display or None)


ORDER_HEADINGS = {o.id: o.heading for o in BUILT_IN.values()}
"""What the turn-order column holds in each built-in turn model (a game's own: its heading)."""


IDLE_AMOUNT = "t damage · l heal · + marks an area · T lands an attack (A) or the last roll"
"""What the amount line says while nothing is being typed in it."""

ROLL_WITH = ("brawl", "wit", "will")
"""What the statblock's attack, save and skill roll with, in the order B steps through."""
STATBLOCK_KEYS: tuple[str, ...] = (
    *("sb_attack", "sb_save", "sb_skill", "sb_morale", "sb_effort"),
    *("sb_roll_with", "sb_full_effort", "damage_last"),
)
"""Binding ids of the selected combatant's statblock keys, which the pane lists."""


@dataclass
class _Inline:
    """What the inline amount is for: damage or heal, the game's form, the target."""

    verb: str
    fields: tuple[Field, ...]
    combatant_id: str
    who: str
    typed: str = ""
    strike: str = ""
    """Landing an attack (A): what it came to; T or enter lands it with what is typed."""
    hint: str = ""

    def line(self) -> str:
        if self.strike:
            label = self.fields[0].label if self.fields else "Answer"
            line = (
                f"{self.strike} · {label.split(' (')[0]}: {self.typed}▏  "
                "(T/enter lands · tab: form · esc: later)"
            )
            return f"{line} · {self.hint}" if self.hint else line
        more = [f.label.split(" (")[0] for f in self.fields[1:]]
        label = self.fields[0].label if self.fields else "Amount"
        # The first two fields tab opens, and how many more: the amount line has two rows, and
        # Shadows' twelve names ran it past them (issue 15).
        named = ", ".join(more[:2]) + (f" +{len(more) - 2} more" if len(more) > 2 else "")
        hint = f"tab: {named} · " if more else ""
        return f"{self.verb} {self.who} · {label}: {self.typed}▏  ({hint}enter · escape)"


@dataclass
class _Find:
    """A jump to a combatant by part of its name (/): what is typed, which match, and where the
    selection was (escape goes back there)."""

    start: str | None
    typed: str = ""
    hit: int = 0


@dataclass
class _Seen:
    """A combatant's document, its parse, and the row last shown for it."""

    raw: dict[str, Any]
    combatant: er.Combatant
    row_key: tuple[Any, ...] | None = None
    row: Row | None = None


class CombatScreen(PanelScreen):
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
        # Last, so the Footer's first keys stay put as the selection moves on and off a statblock.
        _b("A", "statblock_roll('attack')", "Attack roll", "sb_attack"),
        # Tried when the one above is not on offer (no foe selected or acting), so A says why
        # instead of doing nothing; no description, so help and the palette do not list it.
        _b("A", "attack_why_not", "", "sb_attack_why", show=False),
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
        # A foe's turn is A then T (A shows only with an attacker).
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

    def __init__(self) -> None:
        super().__init__()
        self.encounter_id: int | None = None
        self.encounter: er.Encounter | None = None
        self._doc: dict[str, Any] = {}
        self._list_rows: list[tuple[str, str, str, str, str]] = []
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
        self._inline: _Inline | None = None
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
        self._head_shown: Text | None = None
        """The pane's head as last shown: it is built again on every refresh (a few lines) and
        redrawn only when it reads differently, so whatever reaches it (a hit on a PC's sheet,
        the party panel, undo) shows at once."""
        self._pane_body: tuple[object, ...] = ()
        """What the pane's statblock part last showed (the next Goblin shares it)."""
        self.roll_with = ROLL_WITH[0]
        """The attribute the statblock's attack, save and skill roll with (B steps it)."""
        self._finding: _Find | None = None
        """A jump by name being typed (/), on the line under the table."""
        self._acting: set[str] = set()
        """Whose turn it is: the current combatant and, with group initiative, its group."""
        self._chosen: str | None = None
        """The row the GM moved the selection onto (j/k, a jump) since the last change: a
        spend of AP (a) is that one's; otherwise it is whose turn it is."""

    # --- layout -------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        with Horizontal(id="combat-body"):
            with Vertical(id="encounter-list-pane"):
                yield Label("Encounters  [ ]  ctrl+n", classes="panel-title")
                yield DataTable(id="encounter-list", cursor_type="row", zebra_stripes=True)
            with Vertical(id="encounter-pane"):
                yield Static("", id="encounter-title")
                yield CombatTable(id="combatants")
                yield Static("", id="combat-detail")
                yield Static(IDLE_AMOUNT, id="combat-amount")
                yield Static("", id="combat-last")
                yield Static("", id="combat-status")
            with VerticalScroll(id="statblock-pane", can_focus=False):
                yield Static("", id="pane-head")
                yield Static("", id="pane-statblock")

    def on_combat_table_cursor_moved(self, event: CombatTable.CursorMoved) -> None:
        self._follow_table()
        self._follow_selection()  # the pane, and the keys that work on this combatant only

    def _follow_table(self) -> None:
        # What a narrow table leaves out of the selected row, on a line of its own.
        self._set_text("#combat-detail", self.table.detail(), style="italic")
        self.set_class(self.table.gives_way, "-gives-way")

    def _game_keys(self) -> tuple[str, ...]:
        """The game's tracker actions that work on the selection now: the Footer follows them."""
        ctx = self.game_context()
        return tuple(a.id for a in self.game.actions_for("combat") if self._works_now(a, ctx))

    def action_fold_list(self) -> None:
        """L: fold the encounter list away or bring it back (it folds by itself when narrow)."""
        shown = self.query_one("#encounter-list-pane").display
        self.set_class(not shown, "-list-shown")
        self.set_class(shown, "-list-hidden")

    def on_mount(self) -> None:
        self.query_one("#encounter-list", DataTable).add_columns("", "Encounter", "Rnd", "Size")
        super().on_mount()

    ROOMY: ClassVar[int] = 150
    """From this many columns the encounter list, the table and the statblock pane fit side
    by side; below, showing the pane folds the list away (L brings it back)."""

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        self._width = width
        self._fit_pane()

    def _fit_pane(self) -> None:
        """The pane shows from 100 columns, or as the GM chose by alt+s at any width."""
        shown = self._pane_choice if self._pane_choice is not None else self._width >= self.NARROW
        self.set_class(shown, "-statblock")
        self.set_class(self._width < self.ROOMY, "-crowded")
        if shown and self.is_mounted:
            self._follow_selection(refresh_keys=False)

    def action_statblock(self) -> None:
        """alt+s: show or hide the statblock pane (the table takes or gives back the room)."""
        self._pane_choice = not self.has_class("-statblock")
        self._fit_pane()

    @property
    def table(self) -> CombatTable:
        return self.query_one("#combatants", CombatTable)

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
            turn_order(enc.model, self.game).heading,
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
        # repaint, and an update there cost a second repaint a frame later (issue 26).
        self._follow_table()
        self._follow_selection(refresh_keys=False)
        self._offer_keys(self._keys_now(enc.model))
        if self.campaign.version != self._said_version:
            # Undone, redone or changed from another panel: the last line no longer holds.
            self._set_text("#combat-last", "")

    def footer_order(self) -> tuple[str, ...]:
        running = self.encounter is not None and self.encounter.started
        return self.FOOTER if running else self.SETUP_FOOTER

    def _keys_now(self, model: str) -> tuple[object, ...]:
        """What the keys on offer depend on: the turn model, an HD NPC in the fight, the game's
        actions that work on the selection, whether the selection has a statblock, and whether
        the fight runs (the Footer's order)."""
        attacker = self._attack_pair()[0] is not None
        running = self.encounter is not None and self.encounter.started
        keys = (model, self._has_hd, self._game_keys(), self._block is not None, attacker)
        return (*keys, running)

    def _offer_keys(self, what: tuple[object, ...]) -> None:
        # The Footer and help ask check_action again only when the turn model (or whether an HD
        # NPC is in the fight) changed, not on every keypress.
        if what != self._keys_for:
            self._keys_for = what
            self.refresh_bindings()

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.MODEL_KEYS and self.encounter is not None:
            return action in turn_order(self.encounter.model, self.game).actions
        if action == "morale" and self.encounter is not None:
            return self._has_hd or bool(self._doc.get("morale_due"))
        if action == "morale_due" and self.encounter is not None:
            return self._has_hd
        if action == "statblock_roll":
            kind = str(parameters[0]) if parameters else ""
            if kind == "attack":
                return self._attack_pair()[0] is not None
            return self._block is not None and self._roll_kind(kind) in self.game.foes.rolls
        if action == "attack_why_not":
            return self._attack_pair()[0] is None
        if action == "roll_with":
            return self._block is not None and self.game.foes.roll_with
        if action == "full_effort":
            return self._block is not None and "effort" in self.game.foes.rolls
        return super().check_action(action, parameters)

    def _set_text(self, selector: str, text: str, style: str = "") -> None:
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

    def _rows_of(self, enc: er.Encounter) -> list[Row]:
        context = (enc.model, enc.started, self.game.id)
        rows: list[Row] = []
        hd = False
        self._acting = {c.id for c in er.acting(enc)}
        for pos, c in enumerate(enc.combatants, 1):
            hd = hd or fr.health_kind(c) == "hp" or fo.has_statblock(c)
            # A PC's health lives on the party sheet, so its row also depends on that sheet.
            key = (pos, c.id in self._acting, context, self._sheet_of(c), c.id in self._marked)
            seen = self._seen.get(c.id)
            if seen is None or seen.combatant is not c:
                seen = _Seen({}, c)
            if seen.row is None or seen.row_key != key:
                seen.row_key, seen.row = key, self._row(pos, c)
            rows.append(seen.row)
        self._has_hd = hd
        return rows

    def _show_list(self, current: int | None) -> None:
        table = self.query_one("#encounter-list", DataTable)
        rows = [
            (
                "▶" if doc_id == current else "",
                clean(doc.get("name", ""), 40),
                str(doc.get("round", 0)),
                str(len(doc.get("combatants", []))),
                str(doc_id),
            )
            for doc_id, doc in self.campaign.rows("encounters")
        ]
        if rows == self._list_rows:
            return
        self._list_rows = rows
        table.clear()
        for row in rows:
            table.add_row(*(literal(v) for v in row[:4]), key=row[4])

    def _title(self, enc: er.Encounter) -> str:
        order = turn_order(enc.model, self.game)
        model = order.name
        if enc.group_initiative and order.uses_initiative:
            model += " (grouped)"
        if not enc.started:
            return f"{enc.name} · {model} · not started (alt+r starts)"
        cur = er.current_combatant(enc)
        who = f"{cur.name}'s turn" if cur else "choose who acts (c)"
        acting = er.acting(enc)
        if len(acting) > 1:
            who += f" (its group of {len(acting)})"
        # Whose turn and the round first: a narrow screen cuts the encounter's name instead.
        return f"Round {enc.round} · {who} · {enc.name} · {model}"

    def _status(self, enc: er.Encounter) -> str:
        parts = []
        names = {c.id: c.name for c in enc.combatants}
        due = [names.get(d.get("id", ""), "?") for d in self._doc.get("morale_due", [])]
        if due:
            parts.append(f"Morale check due (s): {', '.join(due)}")
        parts += self.rules.notes(self._doc, names)
        if said := turn_order(enc.model, self.game).status(enc):
            parts.append(said)
        if not enc.combatants:
            parts.append("p add the party · b add NPCs · q quick add")
        # The timed effects kept outside the fight tick with its rounds: each with its time left.
        parts += timed_effect_lines(self.campaign.meta)
        return "  ·  ".join(parts)

    def _sheet_of(self, c: er.Combatant) -> dict[str, Any] | None:
        """A PC combatant's party sheet (a shallow copy, a faithful image of a stored doc)."""
        if fr.health_kind(c) != "pc":
            return None
        sheet = self.campaign.doc("party", int(str(c.ref)))
        return dict(sheet) if sheet is not None else None

    def _out_word(self, c: er.Combatant) -> str:
        """A PC out by its game's rule: its status (dead, perished, taken out), else ""."""
        pc = self._sheet_of(c)
        if pc is None or not fr.is_out(self.rules, c, pc):
            return ""
        status = str(pc.get("status") or "")
        return status if status and status != self.campaign.ruleset.sheet.usual_status else "out"

    def _health(self, c: er.Combatant) -> str:
        kind = fr.health_kind(c)
        if kind == "pc":
            pc = self._sheet_of(c)
            text = self.campaign.ruleset.health(pc) if pc is not None else "(not in party)"
            if status := self._out_word(c):
                # Out of the fight, a PC shows its word (dead, taken out), not its numbers; one
                # the game lets keep its turn (dying), or one out by its numbers only ("out" at
                # 0 HP), shows both. A word the health line already has is said once (DOWNED).
                said = [part.casefold() for part in text.split(" · ")]
                if status != "out" and fr.counts_out(self.rules, c, pc):
                    text = status
                elif status.casefold() not in said:
                    text = f"{status} · {text}"
        elif kind == "foe":
            text = fr.foe_health(self.rules, c.stats["sheet"])
        else:
            text = fr.hp_line(c.stats)
        temp = c.stats.get("temp_hp")
        text = f"{text} +{temp} tmp" if temp else text
        if c.defeated and not self._out_word(c):
            # The word leads the Health cell, which never gives way: the Turn column does,
            # and a defeated row read like any other (issue 15).
            text = f"defeated · {text}"
        return text

    def _row(self, pos: int, c: er.Combatant) -> Row:
        enc = self.encounter
        assert enc is not None
        current = c.id in self._acting  # the one whose turn it is, and its group with it
        name = ("• " if c.id in self._marked else "") + clean(c.name, 60)
        name += " (hidden)" if c.hidden else ""
        name_style = "bold reverse yellow" if current else ("dim italic" if c.hidden else "")
        # A PC's death (its game's word, in red) and a foe's defeat (dimmed) read apart.
        dead = self._out_word(c)
        health_style = "bold red" if dead else ("dim" if c.defeated else "")
        if c.defeated and not current:
            name_style = "red strike" if dead else "dim strike"
        if c.side == "pc" and not current:
            name_style = name_style or "bold"
        turns = turn_order(enc.model, self.game)
        order = turns.cell(enc, c)
        effects = self.rules.tags(c)
        return (
            ("▶" if current else "", "bold yellow"),
            (str(pos), ""),
            (order, "bold" if turns.uses_ap else ""),
            (name, name_style),
            # Long health or conditions wrap in their own row (and the detail line reads a
            # cell cut after three lines whole): the cut here only bounds a hand-edited save.
            (clean(self._health(c), 200), health_style),
            (clean(", ".join(effects), 300), "italic"),
            (self._turn_state(enc, c), "dim"),
        )

    def _turn_state(self, enc: er.Encounter, c: er.Combatant) -> str:
        if not enc.started:
            return ""
        if c.defeated:
            # Out of the fight: whether it acted or holds no longer matters this round, and the
            # Health cell says it is out.
            return ""
        bits: list[str] = []
        if c.held:
            bits.append("holding")
        # Holding already says the turn is over: an order says "acted" only when not holding.
        bits.append(turn_order(enc.model, self.game).turn_state(enc, c))
        bits.append(self.rules.turn_note(enc, c))
        return " ".join(b for b in bits if b)

    # --- helpers ------------------------------------------------------------------------------
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

    def _on_selected(self, make: Callable[[int, er.Combatant], Any], follow: bool = False) -> None:
        eid = self._need_encounter()
        c = self._selected() if eid is not None else None
        if eid is not None and c is not None:
            self._apply(make(eid, c), c.id if follow else None)

    def _on_encounter(self, make: Callable[[int], Any]) -> None:
        eid = self._need_encounter()
        if eid is not None:
            self._apply(make(eid))

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

    def action_party_initiative(self) -> None:
        eid, enc = self._need_encounter(), self.encounter
        if eid is None or enc is None:
            return
        pcs = [c for c in enc.combatants if c.side == "pc"]
        if not pcs:
            self.notify("No PCs in this encounter (p adds the party)", severity="warning")
            return
        fields = [
            Field(
                c.id,
                f"{clean(c.name, 40)} (blank: as it is)",
                "" if c.initiative is None else str(c.initiative),
                "optint",
                minimum=-99,
            )
            for c in pcs
        ]
        self._ask(
            "Players' initiative rolls",
            fields,
            lambda v: self._apply(cmd.PartyInitiative(eid, {c.id: v.get(c.id) for c in pcs})),
        )

    def action_defeated(self) -> None:
        self._on_selected(lambda e, c: cmd.ToggleDefeated(e, c.id), follow=True)

    def action_cursor(self, delta: int) -> None:
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.cursor_row + delta, table.row_count - 1)))
            self._chosen = table.selected_id
            self._show_detail()
            self._follow_selection()

    def action_move(self, delta: int) -> None:
        self._on_selected(lambda e, c: cmd.MoveCombatant(e, c.id, delta), follow=True)

    def action_spend_ap(self) -> None:
        """a: spend AP of whose turn it is (SOH-10), or of the row the GM moved to since the
        last change (a defence, a counter by another); the form names whose, and may change it."""
        eid, enc = self._need_encounter(), self.encounter
        if eid is None or enc is None:
            return
        chosen = self._chosen if self._chosen == self.table.selected_id else None
        cid = chosen or enc.current or self.table.selected_id
        c = next((x for x in enc.combatants if x.id == cid), None)
        if c is None:
            self.notify("Select a combatant first (j/k)", severity="warning")
            return
        by_name = {x.name: x.id for x in enc.combatants if not x.defeated or x.id == c.id}

        def spend(v: dict[str, Any]) -> None:
            who = by_name.get(str(v.get("who") or c.name), c.id)
            self._apply(cmd.SpendAp(eid, who, int(v["n"])))

        self._ask(
            f"Spend AP: {c.name} ({c.ap}/{c.ap_max} AP)",
            [
                Field("n", "AP to spend", "1", "int", minimum=1),
                Field("who", "Whose", c.name, "choice", choices=tuple(by_name)),
            ],
            spend,
        )

    def action_counter(self) -> None:
        self._on_selected(lambda e, c: cmd.SpendAp(e, c.id, 1, counter=True))

    def action_turn_model(self) -> None:
        eid = self._need_encounter()
        if eid is None or self.encounter is None:
            return
        models = known_orders(self.game)
        nxt = models[(models.index(self.encounter.model) + 1) % len(models)]
        self._apply(cmd.SetModel(eid, nxt))

    # --- actions: roster ------------------------------------------------------------------------
    def action_add_party(self) -> None:
        self._on_encounter(lambda e: cmd.AddParty(e))

    def action_new_encounter(self) -> None:
        n = len(self.campaign.rows("encounters")) + 1
        self._ask(
            "New encounter",
            [
                Field("name", "Name", f"Encounter {n}"),
                Field(
                    "model",
                    "Turn model",
                    self.game.turn_model,
                    "choice",
                    choices=tuple(known_orders(self.game)),
                ),
                Field(
                    "groups",
                    "Group initiative: one roll per NPC group, acting together",
                    "no",
                    "choice",
                    choices=("no", "yes"),
                ),
            ],
            lambda v: self._apply(
                cmd.NewEncounter(v["name"], v["model"], v.get("groups") == "yes")
            ),
        )

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

    def action_add_npc(self) -> None:
        """b: pick a library NPC by typing part of its name (the list narrows as the GM
        types), then how many and their HP."""
        eid = self._need_encounter()
        if eid is None:
            return
        library = self.campaign.rows("npcs")
        if not library:
            self.notify("The NPC library is empty (panel 3)", severity="warning")
            return
        from screens.npc_pick import NpcPickScreen

        def picked(npc_id: int | None) -> None:
            doc = self.campaign.doc("npcs", npc_id) if npc_id is not None else None
            if doc is None or npc_id is None:
                return
            chosen = npc_id
            # A game whose foes have no HP to roll (a stress track) does not ask.
            hp = (
                [Field("hp", "HP", "rolled", "choice", choices=("rolled", "fixed"))]
                if self.game.foes.rolls_hp
                else []
            )
            self._ask(
                f"Add {clean(str(doc.get('name', '?')), 40)} to the fight",
                [Field("count", "How many", "1", "int", minimum=1), *hp],
                lambda v: self._apply(
                    AddNpcsToEncounter(chosen, int(v["count"]), v.get("hp") or "rolled")
                ),
            )

        self.app.push_screen(NpcPickScreen(library, "Add NPCs from the library"), picked)

    def action_quick_add(self) -> None:
        eid = self._need_encounter()
        if eid is None:
            return
        foe = self.rules.foe
        # Only the initiative turn model orders by initiative: a chosen-next or AP-rounds fight
        # never asks for one (the GM would type a number nothing reads).
        ordered = (
            self.encounter is None or turn_order(self.encounter.model, self.game).uses_initiative
        )
        asked = [f for f in foe.fields if ordered or f.key != "initiative"]
        fields = [
            Field("name", "Name", "Foe"),
            Field("count", "How many (2+ makes a numbered group)", "1", "int", minimum=1),
            Field(
                "health",
                f"{foe.health_label} (blank: {foe.health_default}; with an HD, its quick build's)",
                "",
                "optint",
            ),
            *asked,
            Field("side", "Side", "foe", "choice", choices=("foe", "ally")),
            Field(
                "hd",
                "HD: the quick build's foe in this game (blank: none)",
                "",
                "optint",
                minimum=0,
                maximum=MAX_QUICK_HD,
            ),
        ]
        self._ask(
            "Quick add",
            fields,
            lambda v: self._apply(
                cmd.QuickAdd(
                    eid,
                    v["name"],
                    int(v["count"]),
                    v.get("health"),
                    v.get("initiative"),
                    int(v.get("quickness") or 0),
                    side="pc" if v.get("side") == "ally" else "npc",
                    answers=v,
                    hd=v.get("hd"),
                )
            ),
        )

    def action_remove(self) -> None:
        self._on_selected(lambda e, c: cmd.RemoveCombatant(e, c.id))

    def action_duplicate(self) -> None:
        self._on_selected(lambda e, c: cmd.DuplicateCombatant(e, c.id))

    def action_hide(self) -> None:
        self._on_selected(lambda e, c: cmd.ToggleHidden(e, c.id))

    def action_edit(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        fields = [
            Field("name", "Name", c.name),
            Field(
                "initiative",
                "Initiative (blank: unset)",
                "" if c.initiative is None else str(c.initiative),
                "optint",
                minimum=-99,
            ),
        ]
        hp = fr.health_kind(c) == "hp"
        if hp:
            fields.append(Field("hp", "HP", str(c.stats.get("hp", 0)), "int"))
            fields.append(Field("hp_max", "HP max", str(c.stats.get("hp_max", 0)), "int"))
        if self.encounter is not None and turn_order(self.encounter.model, self.game).uses_ap:
            fields.append(Field("ap", "AP left", str(c.ap), "int"))
            fields.append(Field("ap_max", "AP max", str(c.ap_max), "int"))

        def done(v: dict[str, Any]) -> None:
            self._apply(
                cmd.EditCombatant(
                    eid,
                    c.id,
                    name=v["name"],
                    initiative=v["initiative"],
                    clear_initiative=v["initiative"] is None and c.initiative is not None,
                    hp=v.get("hp"),
                    hp_max=v.get("hp_max"),
                    ap=v.get("ap"),
                    ap_max=v.get("ap_max"),
                )
            )

        self._ask(f"Edit {c.name}", fields, done)

    # --- actions: health ------------------------------------------------------------------------
    def action_damage(self) -> None:
        self._health_change("Damage", self.rules.damage_form)

    def action_heal(self) -> None:
        self._health_change("Heal", self.rules.heal_form)

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
        moved = self.table.cursor_row != row
        done = "marked" if c.id in self._marked else "unmarked"
        count = len(self._area())
        after = self._selected() if moved else None
        where = (
            f"the cursor moved down to {after.name}"
            if after is not None
            else "the cursor stays (last row)"
        )
        lands = f"t or l lands on all {count} marked" if count else "nothing marked"
        self.show_result([f"{c.name} {done} · {where} · {lands}"])

    def _area(self) -> tuple[str, ...]:
        """The marked combatants still in the fight, in turn order."""
        enc = self.encounter
        if enc is None or not self._marked:
            return ()
        return tuple(c.id for c in enc.combatants if c.id in self._marked)

    def _land(self, amount: str, answers: dict[str, Any], heal: bool, one: str) -> None:
        """Apply to the marked combatants (then unmark them), or to ``one`` alone."""
        eid = self.encounter_id
        if eid is None:
            return
        area = self._area()
        if area:
            if self._apply(cmd.Area(eid, area, amount, answers, heal)) is not None:
                self._marked = set()
                self.refresh_data()
        elif heal:
            self._apply(cmd.Heal(eid, one, amount, answers))
        else:
            self._apply(cmd.Damage(eid, one, amount, answers))

    def action_damage_last_roll(self) -> None:
        """T: the attack waiting to land (A) lands on its target; without one, the log's last
        roll lands on the selected: what an attack roll deals, else its total."""
        if self._strike() is not None:
            self._land_strike("")
            return
        c = self._selected()
        if c is None:
            return
        rolls = [e for _, e in self.campaign.newest("log", 1, lambda e: e.get("kind") == "roll")]
        if not rolls or not isinstance(rolls[-1].get("total"), int):
            self.notify("No roll in the log yet (d rolls dice)", severity="warning")
            return
        entry = rolls[-1]
        dealt = entry.get("damage", entry["total"])  # an attack's damage, never its to-hit
        if not isinstance(dealt, int) or isinstance(dealt, bool):
            dealt = 0
        self._land(str(max(0, dealt)), {}, False, c.id)

    def _strike(self) -> dict[str, Any] | None:
        """The attack waiting to land in the running encounter (A rolled it), if any."""
        if self.encounter_id is None:
            return None
        doc = self.campaign.doc("encounters", self.encounter_id) or {}
        found = doc.get(fo.STRIKE_KEY)
        return found if isinstance(found, dict) else None

    def _land_strike(self, answer: str, answers: dict[str, Any] | None = None) -> None:
        eid = self.encounter_id
        if eid is not None:
            self._apply(fo.LandStrike(eid, answer=answer, answers=answers or {}))

    def _offer_strike(self) -> None:
        """After A: where the game asks the defender something before the attack lands (a
        defence roll, its total, its cards), the line under the table asks it; T or enter
        lands it."""
        strike = self._strike()
        if strike is None or not strike.get("hits") or not strike.get("ask"):
            return
        enc = self.encounter
        try:
            target = enc.get(str(strike.get("target"))) if enc is not None else None
        except er.EncounterError:
            target = None
        if target is None:
            return
        form = self.rules.damage_form(fr.health_kind(target))
        asked = tuple(f for f in form if f.key == strike["ask"])
        if not asked:
            return
        attacker = self._seen.get(str(strike.get("attacker")))
        who = attacker.combatant.name if attacker is not None else "The attack"
        brief = str(strike.get("brief") or " + ".join(str(h) for h in strike["hits"]))
        said = clean(f"{who} → {target.name}: {brief}", 200)
        hint = clean(str(strike.get("hint") or ""), 300)
        self._inline = _Inline("Land", asked, target.id, target.name, strike=said, hint=hint)
        self._set_text("#combat-amount", self._inline.line(), style="bold")

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

    def _roll_kind(self, kind: str) -> str:
        """V is the game's answer to an attack: a save where it has one, else its defence."""
        rolls = self.game.foes.rolls
        if kind == "save" and "save" not in rolls and "defence" in rolls:
            return "defence"
        return kind

    def _health_change(
        self,
        verb: str,
        form: Callable[[fr.HealthKind], tuple[Field, ...]],
    ) -> None:
        """Ask the game's form for where the selected's health lives, then apply (to every
        marked combatant when some are marked)."""
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        area = self._area()
        who = f"{len(area)} marked" if area else c.name
        self._inline = _Inline(verb, tuple(form(fr.health_kind(c))), c.id, who)
        self._set_text("#combat-amount", self._inline.line(), style="bold")

    def close_amount(self) -> None:
        self._inline = None
        self._show_detail()

    def _show_detail(self) -> None:
        """The line under the table, while no amount is typed: the game's detail about the
        selected combatant (a Nemron character's limbs), or what the keys there do."""
        if self._inline is not None or self._finding is not None:
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

    def on_paste(self, event: events.Paste) -> None:
        """A paste while an amount is typed goes into it (cut at 40 characters)."""
        inline = self._inline
        if inline is None:
            return
        event.stop()
        inline.typed = (inline.typed + event.text.replace("\n", " "))[:40]
        self._set_text("#combat-amount", inline.line(), style="bold")

    def on_key(self, event: events.Key) -> None:
        """While an amount is being typed, the keys go to it (the focus stays on the table, so
        nothing else repaints): characters, backspace, enter applies, tab opens the game's whole
        form, escape cancels. A jump by name (/) takes the keys the same way."""
        if self._finding is not None:
            self._find_key(event)
            return
        inline = self._inline
        if inline is None:
            return
        if event.key == "escape":
            self.close_amount()
        elif event.key == "enter" or (inline.strike and event.key == "T"):
            self._amount_typed()
        elif event.key == "tab":
            self.amount_form()
        elif event.key == "backspace":
            inline.typed = inline.typed[:-1]
        elif event.is_printable and event.character and len(inline.typed) < 40:
            inline.typed += event.character
        else:
            return
        event.stop()
        event.prevent_default()
        if self._inline is inline:
            self._set_text("#combat-amount", inline.line(), style="bold")

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

    def amount_form(self) -> None:
        """The game's whole damage or heal form, the typed amount filled in."""
        inline = self._inline
        if inline is None:
            return
        if inline.strike:
            self._strike_form(inline)
            return
        typed = inline.typed
        fields = [replace(f, default=typed) if k == 0 else f for k, f in enumerate(inline.fields)]
        self.close_amount()
        # The form starts past the amount once it is typed, or where the game lets it be blank
        # (an attack card instead); a required amount not typed yet is where it starts.
        skip = len(fields) > 1 and (typed.strip() or not fields[0].required)
        start = 1 if skip else 0

        def done(v: dict[str, Any] | None) -> None:
            if v is not None:
                self._land(
                    str(v.get("amount") or ""), v, inline.verb == "Heal", inline.combatant_id
                )

        self.app.push_screen(
            FormScreen(f"{inline.verb} {inline.who}", fields, start=start),
            done,
        )

    def _strike_form(self, inline: _Inline) -> None:
        """tab while an attack waits to land: the target's whole damage form, what the attack
        came to filled in (the GM may change the target's answers, or the amount)."""
        strike = self._strike() or {}
        total = sum(int(h) for h in strike.get("hits", ()) if str(h).lstrip("-").isdigit())
        typed = {inline.fields[0].key: inline.typed} if inline.fields and inline.typed else {}
        answers = {**dict(strike.get("answers") or {}), **typed}
        try:
            target = self.encounter.get(inline.combatant_id) if self.encounter else None
        except er.EncounterError:
            target = None
        self.close_amount()
        if target is None:
            return
        fields = [
            replace(f, default=str(total) if f.key == "amount" else str(answers.get(f.key, f.default)))
            for f in self.rules.damage_form(fr.health_kind(target))
        ]

        def done(v: dict[str, Any] | None) -> None:
            if v is not None:
                self._land_strike("", {k: val for k, val in v.items() if val is not None})

        self.app.push_screen(FormScreen(f"Land on {target.name}", fields, start=0), done)

    def _amount_typed(self) -> None:
        inline = self._inline
        if inline is None:
            return
        if inline.strike:
            self.close_amount()
            self._land_strike(inline.typed)
            return
        try:
            values = {
                f.key: clean_field(f, inline.typed if k == 0 else f.default)
                for k, f in enumerate(inline.fields)
            }
        except FieldError as exc:
            self._set_text("#combat-last", f"✗ {exc}")
            self._said_version = self.campaign.version
            return
        self.close_amount()
        self._land(
            str(values.get("amount") or ""), values, inline.verb == "Heal", inline.combatant_id
        )

    def action_temp_hp(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        self._ask(
            f"Temporary HP: {c.name}",
            [Field("n", "Temporary HP (0 removes)", "5", "int")],
            lambda v: self._apply(cmd.TempHp(eid, c.id, int(v["n"]))),
        )

    def action_add_effect(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        enc = self.encounter
        if eid is None or c is None or enc is None:
            return
        names = tuple(x.name for x in enc.combatants)
        fields = [
            Field("name", "Condition or effect", "", "text"),
            Field("turns", "Lasts (ticks; blank: until removed)", "", "optint", minimum=1),
            Field("tick", "Ticks at", "end", "choice", choices=("start", "end", "round")),
            Field(
                "owner",
                "On whose turn (blank: its own)",
                "",
                "choice",
                choices=names,
                required=False,
            ),
        ]
        if self.rules.ranked_conditions:
            fields.append(Field("rank", "Rank (decays one per tick)", "", "optint", minimum=1))
        by_name = {x.name: x.id for x in enc.combatants}

        def done(v: dict[str, Any]) -> None:
            self._apply(
                cmd.AddEffect(
                    eid,
                    c.id,
                    v["name"],
                    v["turns"],
                    v["tick"],
                    by_name.get(v["owner"]) if v["owner"] else None,
                    v.get("rank"),
                )
            )

        self._ask(f"Condition on {c.name}", fields, done)

    def action_remove_effect(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        if not c.conditions:
            self.notify(f"{c.name} has no conditions", markup=False)
            return
        names = tuple(e.name for e in c.conditions)
        self._ask(
            f"Remove a condition from {c.name}",
            [Field("name", "Condition", names[-1], "choice", choices=names)],
            lambda v: self._apply(cmd.RemoveEffect(eid, c.id, v["name"])),
        )

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

    def action_morale_due(self) -> None:
        self._on_encounter(lambda e: cmd.MoraleDue(e))

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
                    block = instance_block(c, library)
                except (TypeError, ValueError, KeyError):
                    block = None  # a hand-edited statblock the rules cannot build: no keys
                self._block_of = made_of
        self._block = block
        if refresh_keys and self.encounter is not None:
            self._offer_keys(self._keys_now(self.encounter.model))
        if self.has_class("-statblock"):
            self._show_pane(seen, library)

    def _show_pane(self, seen: _Seen | None, library: dict[str, Any] | None) -> None:
        """The head (this instance: name, HP, Effort left, conditions, morale due) and, below,
        the statblock and its keys, which the next Goblin shares: moving from one to the next,
        or a hit, redraws the head's few lines only."""
        cid = seen.combatant.id if seen is not None else None
        due = [d for d in self._doc.get("morale_due", []) if cid and d.get("id") == cid]
        block = self._block
        foe: fo.Foe | None = None
        shown: list[str] = []
        if seen is not None and block is not None:
            doc = library or {}
            concepts = tuple(x for x in doc.get("concepts") or () if isinstance(x, str))
            c = seen.combatant
            foe = fo.Foe(c, block, self._foe_sheet(c), concepts, self.campaign)
            # Asked each time: what the game shows may live elsewhere (a foe's hand).
            shown = self._foe_lines(foe)
        body = Text()  # no statblock: an empty body
        body_key: tuple[object, ...] = ()
        if seen is None:
            head = Text("No combatant selected", style="dim")
        elif block is None and seen.combatant.side == "pc":
            head = self._pc_head(seen.combatant)
        elif block is None:
            c = seen.combatant
            why = "no statblock: library NPCs (b) have theirs, quick add (q) with an HD"
            head = literal(f"{clean(c.name, 60)}: {why}")
        else:
            c = seen.combatant
            doc = library or {}
            head = self._pane_head(c, block, doc, due)
            powers = [x for x in doc.get("powers", []) if isinstance(x, str)]
            assert foe is not None
            body_key = (block, powers, self.roll_with, tuple(shown))
            if body_key != self._pane_body:
                # The foe as its game sees it: the game's lines, the NPC rules' statblock where
                # it means something in the game (AC, Save, Shock), the powers, the roll keys.
                body = Text("\n".join(shown) + ("\n" if shown else ""))
                if self.game.foes.draws_statblock:
                    body.append_text(statblock_text(block, powers, leave_out=("HP", "Effort")))
                else:
                    body.append_text(powers_text(block, powers))
                body.append("\n\n")
                body.append(self._rolls_text(foe))
        if head != self._head_shown:
            # Not keyed by what the head is made of: a PC's health lives on its party sheet,
            # which a hit, the party panel or an undo changes without touching the combatant.
            self._head_shown = head
            self._update_sized(self.query_one("#pane-head", Static), head)
        if body_key != self._pane_body:
            self._pane_body = body_key
            self._update_sized(self.query_one("#pane-statblock", Static), body)

    def _foe_sheet(self, c: er.Combatant) -> dict[str, Any] | None:
        sheet = c.stats.get("sheet")
        return sheet if isinstance(sheet, dict) else None

    def _foe_lines(self, foe: fo.Foe) -> list[str]:
        """The game's own lines about the foe (its skills, pools, ranks): a game that fails
        here costs its lines, not the pane."""
        try:
            return [clean(line, 300) for line in self.game.foes.shows(foe)]
        except Exception:  # noqa: BLE001 - a game's hook: its failure is one missing line
            return [f"({self.game.name} could not describe this foe)"]

    def _update_sized(self, static: Static, text: Text) -> None:
        """Show ``text``; lay the screen out again only if its height changes: a layout pass
        reflows the 300-row table and repaints its scrollbar a frame later (issue 26)."""
        width = static.size.width
        lines = len(text.wrap(self.app.console, width)) if width > 0 else -1
        key = (width, static.size.height)
        same = width > 0 and (
            lines == static.size.height or self._wrapped.get(id(static)) == (lines, key)
        )
        self._wrapped[id(static)] = (lines, key)
        static.update(text, layout=not same)

    def _pc_head(self, c: er.Combatant) -> Text:
        """A PC in the pane: its health, every pool of its sheet, what its game adds (limbs,
        aspects, focus) and its conditions; the rest is on the party sheet."""
        head = literal(c.name, style="bold")
        pc = self._sheet_of(c)
        if pc is None:
            head.append("\nnot in the party", style="dim")
            return head
        head.append(f"\n{clean(self._health(c), 120)}", style="bold")
        pools = []
        for spec in self.campaign.ruleset.sheet.resources:
            pool = pc.get("resources", {}).get(spec.key)
            if isinstance(pool, dict) and "current" in pool:
                pools.append(f"{spec.label} {pool.get('current')}/{pool.get('max', '?')}")
        if pools:
            head.append(f"\n{clean(' · '.join(pools), 300)}")
        try:
            extra = self.rules.detail(c, pc)
        except (KeyError, TypeError, ValueError, AttributeError):
            extra = ""
        if extra:
            head.append(f"\n{clean(extra, 300)}", style="italic")
        tags = self.rules.tags(c)
        if tags:
            head.append(f"\n{clean(', '.join(tags), 200)}", style="italic")
        head.append("\nThe party sheet (4) has the rest", style="dim")
        return head

    def _pane_head(
        self, c: er.Combatant, block: NPC, doc: dict[str, Any], due: list[dict[str, Any]]
    ) -> Text:
        """Name and concepts, HP and Effort left in this fight, conditions, a morale check due."""
        head = title_text(c.name, [x for x in doc.get("concepts", []) if isinstance(x, str)])
        kind = fr.health_kind(c)
        health = fr.hp_line(c.stats) if kind == "hp" else self._health(c)
        head.append(f"\n{clean(health, 80)}", style="bold")
        left = c.stats.get("effort_left")
        effort = block.effort if left in (None, block.effort) else f"{left} of {block.effort}"
        head.append(f" · Effort {clean(str(effort), 20)}")
        if kind == "foe":
            try:
                extra = self.rules.detail(c, self._foe_sheet(c))  # a foe's limbs
            except (KeyError, TypeError, ValueError, AttributeError):
                extra = ""
            if extra:
                head.append(f"\n{clean(extra, 300)}", style="italic")
        tags = self.rules.tags(c)
        if tags:
            head.append(f"\n{clean(', '.join(tags), 200)}", style="italic")
        if due:
            why = clean(str(due[0].get("why", "")), 60)
            head.append(f"\nMorale check due ({why})", style="bold")
        head.append("\n")
        return head

    def _key(self, bid: str) -> str:
        """A key of this panel as the GM's keymap has it (``sb_attack`` -> ``A``)."""
        default = next(
            b.key for b in self.BINDINGS if isinstance(b, Binding) and b.id == f"combat.{bid}"
        )
        keys = str(getattr(self.app, "keymap", {}).get(f"combat.{bid}", default))
        return self.app.get_key_display(Binding(keys.split(",")[0].strip() or default, ""))

    def _rolls_text(self, foe: fo.Foe) -> Text:
        """The roll keys of the foe's game, as the GM's keymap has them (``A attack +3``)."""
        text = Text()
        rules = self.game.foes
        attr = self.roll_with
        keys = {bid: self._key(bid) for bid in STATBLOCK_KEYS}
        if rules.roll_with:
            nxt = ROLL_WITH[(ROLL_WITH.index(attr) + 1) % len(ROLL_WITH)]
            text.append(f"Rolls with {attr.capitalize()} ", style="bold")
            text.append(f"({keys['sb_roll_with']}: {nxt.capitalize()})\n", style="dim")
        try:
            labels = {**fo.hd_roll_labels(foe, attr), **rules.roll_labels(foe, attr)}
        except Exception:  # noqa: BLE001 - a game's hook: its labels fall back to the kinds
            labels = {}
        pairs = [
            (keys[bid], labels.get(kind, kind))
            for bid, kind in (
                ("sb_attack", "attack"),
                ("sb_save", self._roll_kind("save")),
                ("sb_skill", "skill"),
                ("sb_morale", "morale"),
                ("sb_effort", "effort"),
            )
            if kind in rules.rolls
        ]
        if "effort" in rules.rolls:
            pairs.append((keys["sb_full_effort"], "full Effort"))
        pairs.append((keys["damage_last"], "lands the attack"))
        for k, (key, what) in enumerate(pairs):
            text.append(key, style="bold")
            text.append(f" {clean(what, 60)}" + ("\n" if k % 2 else "  "))
        text.rstrip()
        return text

    def action_statblock_roll(self, kind: RollKind) -> None:
        """A, V, K, M, E: the selected combatant's attack (by its game's mechanic, at a named
        target: T lands it), save or defence, skill, morale or Effort roll."""
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        if kind == "attack":
            attacker, target = self._attack_pair()
            if attacker is None:
                self.notify(f"{c.name} has no statblock to attack with", severity="warning")
                return
            command = fo.FoeAttack(
                eid, attacker.id, target.id if target else "", attribute=self.roll_with
            )
            if self._apply(command) is not None:
                self._offer_strike()
            return
        self._apply(RollStatblock(eid, c.id, kind=kind, attribute=self.roll_with))

    def action_attack_why_not(self) -> None:
        seen = self._seen.get(self.table.selected_id or "")
        name = seen.combatant.name if seen is not None else "Nobody selected"
        who = f"{name} has no statblock to attack with" if seen is not None else name
        self.notify(
            f"{who}: A attacks with a foe's statblock; select a foe, or let one act",
            severity="warning",
            markup=False,
        )

    def action_roll_with(self) -> None:
        """B: the statblock's next roll uses the next attribute (Brawl, Wit, Will)."""
        self.roll_with = ROLL_WITH[(ROLL_WITH.index(self.roll_with) + 1) % len(ROLL_WITH)]
        self._set_text("#combat-last", f"Statblock rolls with {self.roll_with.capitalize()}")
        self._said_version = self.campaign.version
        self._follow_selection()

    def action_full_effort(self) -> None:
        """F: the selected combatant's Effort is full again (after a rest)."""
        self._on_selected(lambda e, c: RefreshInstanceEffort(e, c.id))

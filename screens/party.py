"""Panel 4: the party sheet — every PC at a glance, and one PC's sheet edited by keys.

Left, one row per PC (name, health line, status). Right, the selected PC's sheet as rows (see
:mod:`widgets.party_fields`); the highlighted sheet row is what ``+``/``-``, ``e``, ``n`` and
``delete`` act on, whichever table has focus, so a GM can walk down the party pressing ``-`` on
the same resource. Every change is one command from :mod:`app.commands.party` (one undo step);
what a key means in the open game (its forms, its extra rows, its rests) is the game's
:class:`rulesets.sheet.SheetRules`, and the game's own sheet keys (a Grip check, rank up) are its
declared actions, bound by :class:`screens.panel.PanelScreen`. This screen names no game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Input, Label, Static
from textual.widgets.data_table import ColumnKey

from app.commands import party as cmd
from app.player_view import code_for
from app.queries import fight_running, timed_effect_lines
from rulesets.base import Character
from rulesets.game import Game
from rulesets.sheet import SheetRow
from rulesets.table import Context
from rulesets.text import MAX_TEXT
from screens.panel import PanelScreen
from screens.party_prompt import PartyChoice, PartyConfirm, PartyPrompt
from widgets.footer import GAME_KEYS
from widgets.literal import literal
from widgets.party_fields import status_text
from widgets.pc_sheet import PcSheet, wrap_column
from widgets.text_field import TextField


class PartyScreen(PanelScreen):
    PANEL_ID = "party"
    PANEL_TITLE = "Party"
    CSS_PATH = "party.tcss"
    WATCHES = frozenset({"party"})
    AUTO_FOCUS = "#party-table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "list_move(1)", "Down", show=False, id="party.down"),
        Binding("k", "list_move(-1)", "Up", show=False, id="party.up"),
        Binding("plus,equals_sign", "step(1)", "+1", id="party.plus"),
        Binding("minus", "step(-1)", "-1", id="party.minus"),
        Binding("e", "edit", "Edit", id="party.edit"),
        Binding("n", "add_item", "Add to list", id="party.add_item"),
        Binding("a", "add_pc", "Add PC", id="party.add_pc"),
        Binding("delete", "remove", "Remove", id="party.remove"),
        Binding("slash", "filter", "Filter", id="party.filter"),
        Binding("S", "party('session')", "New session", id="party.session"),
        Binding("C", "party('scene')", "New scene", id="party.scene"),
        Binding("g", "party('regroup')", "Regroup", id="party.regroup"),
        Binding("R", "party('rest')", "Rest", id="party.rest"),
        Binding("V", "player_view", "Players' view", id="party.player_view", show=False),
        Binding(
            "Q", "player_link", "Players' link: URL and QR code", id="party.player_link", show=False
        ),
    ]
    """The panel's own keys; a game's sheet actions (a Grip check, rank up) are bound from its
    declaration (:class:`rulesets.table.Action`), so no other game's keys show here."""
    FOOTER: ClassVar[tuple[str, ...]] = (
        *("party.plus", "party.minus", "party.edit", "party.add_item", "app.help"),
        *(GAME_KEYS, "party.add_pc", "party.rest"),
    )

    def __init__(self) -> None:
        super().__init__()
        self._filter = ""

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="party-body"):
            with Vertical(id="party-list"):
                yield Label("Party", classes="panel-title")
                yield TextField(
                    placeholder="filter by name (escape leaves)",
                    id="party-filter",
                    max_length=MAX_TEXT,
                )
                yield DataTable(id="party-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="party-time", markup=False)
            yield PcSheet(id="party-detail")

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        if self.is_mounted:
            self.call_after_refresh(self.refresh_data)

    # --- reading -----------------------------------------------------------------------------
    @property
    def selected_id(self) -> int | None:
        table = self.query_one("#party-table", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value
        return int(key) if key is not None else None

    @property
    def selected_field(self) -> str:
        return self.query_one(PcSheet).selected_field

    def _pc(self) -> dict[str, Any] | None:
        doc_id = self.selected_id
        return self.campaign.doc("party", doc_id) if doc_id is not None else None

    def refresh_data(self) -> None:
        table = self.query_one("#party-table", DataTable)
        keep = self.selected_id
        # After an undo or redo, the cursor goes to the PC it put back (a removed PC returns).
        keep = next(iter(self.stepped_ids("party")), keep)
        table.clear()
        needle = self._filter.casefold()
        # Sorted by id: undo re-inserts a document last, and a PC must not jump down the list.
        pcs = [
            (doc_id, pc)
            for doc_id, pc in sorted(self.campaign.rows("party"), key=lambda row: row[0])
            if not needle or needle in str(pc.get("name", "")).casefold()
        ]
        _fill(table, self.game, pcs)
        if keep is not None and str(keep) in table.rows:
            table.move_cursor(row=table.get_row_index(str(keep)), animate=False)
        self._show_timed_effects()
        self._show_detail()

    def _show_timed_effects(self) -> None:
        """The timed effects kept outside the fight, each with its time left (ctrl+t adds)."""
        lines = timed_effect_lines(self.campaign.meta)
        shown = self.query_one("#party-time", Static)
        shown.set_class(bool(lines), "-shown")
        shown.update(literal("\n".join(lines)))

    def _show_detail(self) -> None:
        pc = self._pc()
        health = self.campaign.ruleset.health(pc) if pc is not None else ""
        code = code_for(self.campaign.meta, self.selected_id or 0) if pc is not None else None
        self.query_one(PcSheet).show(self.game, pc, health, code)

    @on(DataTable.RowHighlighted, "#party-table")
    def _pc_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def game_context(self) -> Context:
        return Context(
            read=self.campaign,
            game=self.game,
            panel=self.PANEL_ID,
            pc_id=self.selected_id,
            row=self.selected_field,
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "party" and parameters:
            return cmd.supported(self.game.sheet, str(parameters[0]))
        return super().check_action(action, parameters)

    # --- sending -----------------------------------------------------------------------------
    def _change(
        self, op: str, *args: str | int, refused: Callable[[str], None] | None = None
    ) -> None:
        doc_id = self.selected_id
        pc = self._pc()
        if doc_id is None or pc is None:
            self.notify("No PC selected — press a to add one", severity="warning")
            return
        self.send(cmd.ChangePC(doc_id, op, tuple(args), str(pc.get("name", ""))), refused)

    def _field_parts(self) -> tuple[str, str, str]:
        kind, _, rest = self.selected_field.partition(":")
        key, _, index = rest.partition(":")
        return kind, key, index

    def _game_row(self, pc: Character, key: str) -> SheetRow | None:
        return next((r for r in self.game.sheet.extra_rows(pc) if r.key == key), None)

    def _adds_here(self, pc: Character) -> bool:
        row = self._game_row(pc, self.selected_field)
        return row is not None and bool(row.adds)

    def action_step(self, delta: int) -> None:
        """+/-: a resource, an attribute or a row the game added (a limb) by one."""
        kind, key, _ = self._field_parts()
        if kind == "res":
            self._change("adjust", key, delta)
        elif kind == "attr":
            self._change("step_attribute", key, delta)
        elif kind in self.game.sheet.steps:
            self._change("step", kind, key, delta)
        else:
            self.notify("Highlight a resource, limb or attribute for + and -", severity="warning")

    def action_edit(self) -> None:
        """e: type a new value for the highlighted row."""
        pc = self._pc()
        if pc is None:
            return
        kind, key, index = self._field_parts()
        if kind == "res":
            pool = pc.get("resources", {}).get(key, {})
            spec = next((s for s in self.campaign.ruleset.sheet.resources if s.key == key), None)
            hand_max = spec is not None and spec.derive_max is None
            question = f"{spec.label if spec else key}: current" + (
                " or current/max" if hand_max else ""
            )
            value = f"{pool.get('current', 0)}" + (f"/{pool.get('max', 0)}" if hand_max else "")
            self.app.push_screen(PartyPrompt(question, value), self._set_resource(key))
        elif kind == "attr":
            value = str(pc.get("attributes", {}).get(key, 0))
            self.app.push_screen(PartyPrompt(f"{key}: new value", value), self._set_attr(key))
        elif kind == "name":
            self.app.push_screen(
                PartyPrompt("Name", str(pc.get("name", ""))), self._text_op("rename")
            )
        elif kind == "notes":
            self.app.push_screen(
                PartyPrompt("Notes", str(pc.get("notes", ""))), self._text_op("notes")
            )
        elif kind == "status":
            options = self.game.sheet.status_choices(pc, self.campaign.ruleset.sheet.statuses)
            self.app.push_screen(PartyChoice("Status", options), self._text_op("status"))
        elif kind == "item":
            entry = pc.get("lists", {}).get(key, [])[int(index)]
            old = str(entry.get("name", "")) if isinstance(entry, dict) else str(entry)
            self.app.push_screen(
                PartyPrompt(f"Rename {old}", old), self._text_op("rename_item", key, int(index))
            )
        elif kind == "list" or self._adds_here(pc):
            self.action_add_item()
        else:
            self.notify("Nothing to edit on this row", severity="warning")

    def _set_resource(self, key: str) -> Callable[[str | None], None]:
        def answer(text: str | None) -> None:
            if text is None:
                return
            current, _, top = text.strip().partition("/")
            now, most = _whole(current), _whole(top)
            if now is None or (top and most is None):
                self.notify("Type a whole number (or current/max)", severity="error")
                return
            self._change("set_resource", key, now, "" if most is None else most)

        return answer

    def _set_attr(self, key: str) -> Callable[[str | None], None]:
        def answer(text: str | None) -> None:
            if text is None:
                return
            value = _whole(text)
            if value is None:
                self.notify("Type a whole number", severity="error")
                return
            self._change("set_attribute", key, value)

        return answer

    def _text_op(self, op: str, *before: str | int) -> Callable[[str | None], None]:
        def answer(text: str | None) -> None:
            if text is not None:
                self._change(op, *before, text)

        return answer

    def action_add_item(self) -> None:
        """n: add to the highlighted list by the game's rule (spell, delirium, aspect, skill)."""
        pc = self._pc()
        if pc is None:
            return
        kind, key, _ = self._field_parts()
        row = self._game_row(pc, self.selected_field)
        target = ""
        if row is not None and row.adds:
            key, target = row.adds, row.name
        elif kind not in ("list", "item"):
            self.notify(
                "Highlight a list (spells, aspects, skills …) to add to it", severity="warning"
            )
            return
        adding = self.game.sheet.adding.get(key)
        if adding is None:
            self.app.push_screen(PartyPrompt(f"Add to {key}"), self._text_op("add_item", key))
            return
        fields = adding.form(pc, target)
        from screens.form import FormScreen

        def submit(values: dict[str, Any]) -> str | None:
            refusal: list[str] = []
            self._change("add_item", key, *(values[f.key] for f in fields), refused=refusal.append)
            return refusal[0] if refusal else None

        # A refusal (a spell the Cipher cannot learn yet) keeps the form open with its answers.
        self.app.push_screen(FormScreen(adding.title, fields, submit=submit))

    def action_add_pc(self) -> None:
        def answer(name: str | None) -> None:
            if name is None:
                return
            if self.tableside.apply(cmd.AddPC(name)) is not None:
                self.refresh_data()
                table = self.query_one("#party-table", DataTable)
                table.move_cursor(row=table.row_count - 1, animate=False)

        self.app.push_screen(PartyPrompt("New PC's name"), answer)

    def action_remove(self) -> None:
        """delete: remove the highlighted list entry, or (elsewhere) the PC, after a yes."""
        kind, key, index = self._field_parts()
        pc = self._pc()
        doc_id = self.selected_id
        if pc is None or doc_id is None:
            return
        if kind == "item" and self.focused is self.query_one("#party-fields", DataTable):
            self._change("remove_item", key, int(index))
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.send(cmd.RemovePC(doc_id))

        name = str(pc.get("name", ""))
        self.app.push_screen(PartyConfirm(f"Remove {name} from the party?"), answer)

    def action_filter(self) -> None:
        """/: show the name filter and type into it; enter goes back to the party."""
        box = self.query_one("#party-filter", Input)
        box.add_class("-active")
        self.call_after_refresh(box.focus)

    @on(Input.Changed, "#party-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._filter = event.value
        self.refresh_data()

    @on(Input.Submitted, "#party-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        if not event.value:
            event.input.remove_class("-active")
        self.query_one("#party-table", DataTable).focus()

    def action_party(self, action: str) -> None:
        """S, C, g, R: the whole party at once, one undo step, after the rest's form if any.

        A rest in the middle of a fight is asked first: one capital letter would otherwise
        rest everyone for hours between two blows.
        """
        offered = [r for r in ("regroup", "rest") if self.game.sheet.has_rest(r)]
        if action == "rest" and len(offered) > 1:
            # R offers the game's short rest beside its long one: a Regroup is a rest too.
            def chosen(rest: str | None) -> None:
                if rest is not None:
                    self._rest_asked(rest)

            options = [(r, self._rest_words(r)) for r in offered]
            self.app.push_screen(PartyChoice("Rest the whole party: which rest?", options), chosen)
            return
        self._rest_asked(action)

    def _rest_words(self, rest: str) -> str:
        time = self.game.time
        hours = time.rest_hours.get(rest)
        return f"{time.rest_name(rest)} ({hours} h)" if hours else time.rest_name(rest)

    def _rest_asked(self, action: str) -> None:
        # A game whose rests need peace refuses one in a fight, and says why: nothing to ask.
        asks = action in ("rest", "regroup") and not self.game.time.rest_needs_peace
        fight = fight_running(self.campaign) if asks else None
        if fight is None:
            self._party_action(action)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._party_action(action)

        self.app.push_screen(
            PartyConfirm(f"{fight} is still running. Rest the whole party anyway?", "rests"),
            answered,
        )

    def _party_action(self, action: str) -> None:
        rest = self.game.sheet.rests.get(action)
        fields = tuple(rest.form(self.campaign)) if rest is not None and rest.form else ()
        if not fields:
            self.send(cmd.PartyAction(action))
            return
        from screens.form import FormScreen

        def answered(values: dict[str, Any] | None) -> None:
            if values is None:
                return
            keep = tuple(
                (k.removeprefix("pc_"), str(v)) for k, v in values.items() if k.startswith("pc_")
            )
            hours = values.get("hours")
            self.send(
                cmd.PartyAction(action, hours=int(hours or 0), keep=tuple(p for p in keep if p[1]))
            )

        self.app.push_screen(FormScreen(cmd.ACTIONS.get(action, action), fields), answered)

    def action_player_view(self) -> None:
        """What ``tableside serve`` shows the players; saving it the first time makes the codes."""
        from app.commands.players import SetPlayerView
        from app.player_view import PlayerSettings, settings_fields, settings_from_form
        from screens.form import FormScreen

        def answer(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.send(SetPlayerView(settings_from_form(values)))
                self.refresh_data()  # the codes live in meta, which this panel does not watch

        fields = settings_fields(PlayerSettings.from_meta(self.campaign.meta))
        self.app.push_screen(FormScreen("Players' view (tableside serve)", fields), answer)

    def action_player_link(self) -> None:
        """The players' view URL and a QR code of it, so phones join by camera."""
        from screens.player_link import PlayerLinkScreen

        self.app.push_screen(PlayerLinkScreen(self.campaign.store.path))


MAX_DIGITS = 9
"""No sheet number needs more; it also keeps a pasted 5000-digit number away from ``int()``,
which refuses more than 4300 digits with a ValueError."""


def _fill(table: DataTable[Any], game: Game, pcs: list[tuple[int, dict[str, Any]]]) -> None:
    """One row per PC: name, health line and, where any PC is not as usual, status."""
    # Give way by priority: a Status column where every PC is alive says nothing, and its
    # width lets the health lines wrap less.
    ruleset = game.ruleset
    usual = ruleset.sheet.usual_status
    statuses = any(pc.get("status", usual) != usual for _, pc in pcs)
    rows = [
        (
            doc_id,
            (
                literal(pc.get("name", "")),
                literal(ruleset.health(pc)),
                *([status_text(game, pc)] if statuses else []),
            ),
        )
        for doc_id, pc in pcs
    ]
    table.clear(columns=True)
    for label in ("Name", "Health", "Status")[: 3 if statuses else 2]:
        table.add_column(label, key=label)
    if not wrap_column(table, "Health", [cells for _, cells in rows]) and statuses:
        # Still too narrow: the status moves under the name, its column gives way.
        rows = [(i, (Text("\n").join((n, st)), h)) for i, (n, h, st) in rows]
        table.remove_column(ColumnKey("Status"))
        wrap_column(table, "Health", [cells for _, cells in rows])
    for doc_id, cells in rows:
        table.add_row(*cells, key=str(doc_id), height=None)


def _whole(text: str) -> int | None:
    """A whole number typed in ASCII digits, else None: ``str.isdigit`` also accepts ``²``
    and ``١``, which ``int()`` then refuses with a ValueError (a crash, before this)."""
    text = text.strip()
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
        return None
    return int(text)

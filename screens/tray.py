"""Panel 2: the dice and card tray.

The campaign's game declares the checks the tray can state (:class:`rulesets.checks.Check`):
their inputs, each changed by its own key, and one spec that gives both the exact odds and the
command that rolls. The tray renders any game's check the same way: who rolls (``p``), the
setup with the key beside each input, the odds chart *before* the roll, ``c`` to roll, ``=`` to
type every value at once. A game whose table holds cards (:class:`rulesets.checks.CardTable`)
also gets its declared decks (:mod:`rulesets.decks`, read through the deck interface alone), one
shown hand (``s``) and its own card actions; a game without gets none.

The setup (who rolls, DC, edge …) is screen state: it is the GM's hand on the dice, not part of
the campaign; the decks and the log are. Every result lands in the roll log. A game may preset
it for the roller from the running fight (:attr:`rulesets.checks.CheckRules.preset`), shown with
its reason under the setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList

from app.commands.dice import RollDice
from app.queries import current_encounter
from app.textual_compat import key_bindings
from rulesets.base import RuleError
from rulesets.checks import Check, CheckSpec, Setup
from rulesets.decks import DeckError, DeckState, read_deck
from rulesets.table import Action, Context
from screens.check_odds import CheckOdds
from screens.check_setup import WORKING, CheckSetup
from screens.panel import PanelScreen
from screens.tray_prompt import TrayPrompt
from widgets.dice_line import DiceLine
from widgets.event_line import SHOWN, EventLine
from widgets.footer import GAME_KEYS
from widgets.hand_box import HandBox
from widgets.literal import clean
from widgets.roll_log import RollLog, format_entry

ODDS_LIMIT = 10.0
"""Seconds a game's odds hook may take before the tray says it is the game's fault."""


class TrayScreen(PanelScreen):
    PANEL_ID = "tray"
    PANEL_TITLE = "Tray"
    CSS_PATH = "tray.tcss"
    SHORT_HIDES_EVENT_LINE = True  # the roll log's last line says a roll's result there
    # The dice line must not take focus on arrival: digits switch panels until the GM enters it.
    AUTO_FOCUS = "#roll-log"
    WATCHES = frozenset({"log", "decks", "party", "encounters"})
    """The encounter too: an undo pressed here may move the turn or take someone out of a
    game's Anomaly, and the roller and the preset follow it at once."""
    # show=False keeps a key out of the crowded Footer (the app's own keys share it); ``?`` and
    # the palette still list it. The check's input keys are bound per game in
    # :meth:`_bind_game_actions` and hidden there too: the setup text names each beside its value.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "check", "Roll check", id="tray.check"),
        Binding("X", "next_check", "Next check", id="tray.next_check", show=False),
        Binding("p", "next_who", "Who rolls", id="tray.who", show=False),
        Binding("equals_sign", "type_setup", "Type the setup", id="tray.type_setup", show=False),
        Binding("i", "dice_line", "Dice line", id="tray.dice_line", show=False),
        Binding("s", "show_hand", "Show hand", id="tray.show_hand"),
        Binding("R", "rolls_only", "Rolls only / whole log", id="tray.rolls_only", show=False),
        Binding("L", "session_log", "Session log to Markdown", id="tray.session_log", show=False),
    ]
    FOOTER: ClassVar[tuple[str, ...]] = (
        "tray.check",
        "tray.next_check",
        "tray.show_hand",
        GAME_KEYS,
        "app.help",
    )
    """The check, the game's keys, then ``?`` and the app's (undo …)."""

    def __init__(self) -> None:
        super().__init__()
        self.shown_holder: str | None = None
        self._last_entry: dict[str, Any] | None = None
        self._taking = False
        self.rolls_only = False
        self.setup_box = CheckSetup(id="tray-setup")
        """The check as the GM set it up (who rolls, the inputs): the setup keeps its state."""

    @property
    def check(self) -> Check | None:
        """The check the tray states: the game's first, or the one ``X`` moved on to."""
        return self.setup_box.check

    @property
    def has_cards(self) -> bool:
        return self.game.checks.cards is not None

    # --- layout ----------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        with Vertical(id="tray-body"):
            with Horizontal(id="tray-top"):
                self.setup_box = CheckSetup(id="tray-setup")
                yield self.setup_box
                yield CheckOdds(id="odds-chart")
            if self.has_cards:
                yield HandBox(id="cards-area")
            yield DiceLine(id="dice-line")
            yield RollLog(id="roll-log")

    def _bind_game_actions(self) -> None:
        super()._bind_game_actions()
        # Every check's inputs, each key once per input: an input of a check not shown is
        # refused by check_action, and a key two checks share goes to the shown one's.
        keys = key_bindings(self)
        for binding in _input_bindings(self.game.checks.checks):
            keys.setdefault(binding.key, []).append(binding)

    def on_mount(self) -> None:
        self._follow()
        super().on_mount()

    LOG_LINES: ClassVar[int] = 5
    """Log lines a short screen keeps under the check (at least five at 80×24)."""

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        if self.is_mounted:
            self._show()

    def _fit_top(self) -> None:
        """The check takes every row the hand, the dice line and five log lines leave, instead
        of a fixed ten (16 on a tall screen) that cut its notes and its Last: line; where even
        that is too few, the setup gives way (:meth:`CheckSetup.give_way`): a roll's result is
        on screen after any setup, in the log's title if not on the Last: line."""
        body = self.query_one("#tray-body")
        top = self.query_one("#tray-top")
        below = sum(
            part.outer_size.height
            for part in body.children
            if part.display and part.id not in ("tray-top", "roll-log")
        )
        # The event line under the body may grow to its three rows after any change: those
        # rows are kept free rather than measured late (a short screen hides the line).
        event = self.query_one(EventLine)
        if event.styles.display != "none":
            below += SHOWN - event.outer_size.height
        room = max(6, body.size.height - below - (self.LOG_LINES + 2))
        top.styles.max_height = room
        last_shown = self.setup_box.give_way(room)
        log = self.query_one(RollLog)
        title = "Roll log: rolls only" if self.rolls_only else "Roll log"
        if self._last_entry is not None and not last_shown:
            title = f"{title} · Last: {_short_result(self._last_entry)}"
        log.border_title = title
        if self.has_cards:
            self.query_one(HandBox).count_hand()

    def on_screen_resume(self) -> None:
        if self._follow():
            self._show()
        super().on_screen_resume()

    def _follow(self) -> bool:
        """Who rolls follows a new turn of the running fight (a new roller's hand is not
        shown), and the game's preset follows the roller; True if the setup changed."""
        moved = self.setup_box.follow_turn()
        if moved:
            self.shown_holder = None
        return moved | self.setup_box.apply_preset()

    # --- reading the campaign ----------------------------------------------------------------------
    def party(self) -> list[tuple[int, dict[str, Any]]]:
        """The characters who roll: a party sheet that became an NPC (a Shill) rolls no more."""
        return self.setup_box.party()

    @property
    def who(self) -> int | None:
        """The party doc id rolling, or None for the GM."""
        return self.setup_box.who

    @property
    def who_name(self) -> str:
        return self.setup_box.who_name

    def decks(self) -> list[DeckState[Any]]:
        """The game's decks as they lie; with the party, so the cards its sheets hold are
        out of their deck (the game's ``hold`` hook)."""
        rows = self.campaign.rows("decks")
        try:
            party = self.campaign.rows("party")
            return [read_deck(rows, spec, party)[1] for spec in self.game.decks]
        except DeckError as exc:
            self.notify(f"A saved deck is damaged: {exc}", severity="error", markup=False)
            return [read_deck([], spec)[1] for spec in self.game.decks]

    def setup(self) -> Setup:
        return self.setup_box.setup()

    def spec(self) -> CheckSpec:
        """The check as set up; RuleError (or ValueError) if the setup does not make one."""
        return self.setup_box.spec()

    def game_context(self) -> Context:
        encounter_id = None
        if self._taking:  # asked for every key shown; the encounter only when an action is taken
            found = current_encounter(self.campaign)
            encounter_id = found[0] if found else None
        return Context(
            read=self.campaign,
            game=self.game,
            panel=self.PANEL_ID,
            encounter_id=encounter_id,
            pc_id=self.who,
            setup=dict(self.setup_box.values),
            selection=self._selection(),
        )

    def _selection(self) -> tuple[str, ...]:
        """The shown hand's holder and highlighted card key, if a card is highlighted."""
        if self.shown_holder is None or not self.has_cards:
            return ()
        key = self.query_one(HandBox).highlighted_card()
        return (self.shown_holder, key) if key else ()

    # --- what is shown ---------------------------------------------------------------------------
    def refresh_data(self) -> None:
        log = self.query_one(RollLog)
        if self.rolls_only:
            rows = self.campaign.newest("log", log.window + 1, _is_roll)
            more, total = len(rows) > log.window, None
        else:
            rows = self.campaign.newest("log", log.window + 1)
            total = self.campaign.count("log")
            more = total > log.window
        log.show_entries(rows[-log.window :], more=more, total=total)
        # The last roll among those read (a roll further back than the window is not "last").
        last = next((e for _, e in reversed(rows) if _is_roll(e)), None)
        if last is not None:
            self.setup_box.last_result = _result_text(last)
            self._last_entry = last
        self._follow()
        self._show()

    def _show(self) -> None:
        check = self.check
        title = f"{check.name} · {self.game.name}" if check else self.game.name
        if check and self.has_class("-narrow"):
            title = check.name  # the header names the game: the check's lines need the room
        box = self.setup_box
        setup, odds_title, bands = box.setup_text(self._odds, self.has_class("-short"))
        box.show(title, setup, check.legend if check and odds_title else "")
        working = odds_title == WORKING
        title = (check.name if check else "") if working else odds_title
        self.query_one(CheckOdds).show(title, bands, WORKING if working else "")
        if self.has_cards:
            self._show_cards()
        self.refresh_bindings()
        self.call_after_refresh(self._fit_top)

    def _odds(self, spec: CheckSpec) -> dict[str, Any] | None:
        box = self.setup_box
        key = repr((box.check.id if box.check else "", box.who, sorted(box.values.items())))
        return self.query_one(CheckOdds).odds(key, spec, self.game.name, ODDS_LIMIT)

    def on_check_odds_ready(self) -> None:
        self._show()

    def _show_cards(self) -> None:
        table = self.game.checks.cards
        assert table is not None
        key = self.app.get_key_display(Binding("s", ""))
        self.query_one(HandBox).show(
            table,
            self.decks(),
            self.party(),
            self.campaign.rows,
            self.shown_holder,
            short=self.has_class("-short"),
            show_key=key,
        )

    # --- bindings --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_hand":  # a hand is a character's: offered once one is chosen
            return self.has_cards and self.setup_box.who_index > 0
        if action in ("check", "type_setup"):
            return self.check is not None
        if action in ("setup_press", "setup_step") and parameters:
            return self.setup_box.input(str(parameters[0])) is not None
        return super().check_action(action, parameters)

    def action_game(self, action_id: str) -> None:
        self._taking = True
        try:
            super().action_game(action_id)
        finally:
            self._taking = False

    def _take(
        self, action: Action, ctx: Context, values: Mapping[str, Any], in_form: bool = False
    ) -> str | None:
        before = self.campaign.version
        refused = super()._take(action, ctx, values, in_form)
        if action.id in self.game.checks.spends_once and self.campaign.version != before:
            self._spend_once()
        return refused

    def action_session_log(self) -> None:
        """This session's events and rolls as Markdown, in a file beside the save."""
        from app.export import write_session_log

        try:
            path = write_session_log(self.campaign.store.data, self.campaign.store.path)
        except OSError as exc:
            self.notify(f"Session log not written: {exc.strerror or exc}", severity="error")
            return
        self.say_word(f"Session log written to {path}")

    def footer_order(self) -> tuple[str, ...]:
        return tuple(k for k in self.FOOTER if k != "tray.next_check" or self.setup_box.steps)

    def action_next_check(self) -> None:
        """The game's next check, at its defaults; a game with one says so."""
        if refused := self.setup_box.next_check():
            self.say_word(refused)
        else:
            self._show()

    def action_next_who(self) -> None:
        self.shown_holder = None
        self.setup_box.next_who()
        self._show()

    def action_rolls_only(self) -> None:
        """The log shows only the dice (sheet changes and events hidden), or everything again."""
        self.rolls_only = not self.rolls_only
        log = self.query_one(RollLog)
        log.reset()  # the filter changed: drawn afresh
        self.refresh_data()

    def action_dice_line(self) -> None:
        self.query_one(DiceLine).focus_line()

    def action_setup_step(self, key: str, by: int) -> None:
        if self.setup_box.step(key, by):
            self._show()

    def action_setup_press(self, key: str) -> None:
        box = self.setup_box
        spec = box.input(key)
        if spec is None:
            return
        if spec.kind != "typed":
            self.action_setup_step(key, 1)
            return

        def check(text: str) -> str | None:
            try:
                spec.from_text(text, box.pc())
            except ValueError as exc:
                return str(exc)
            return None

        def accept(text: str | None) -> None:
            if text is not None:
                box.values[key] = spec.from_text(text, box.pc())
                self._show()

        self.app.push_screen(
            TrayPrompt(
                f"{spec.hint or spec.label} ({clean(self.who_name, 30)})",
                value=spec.as_text(box.values.get(key, spec.default)),
                check=check,
            ),
            accept,
        )

    def action_type_setup(self) -> None:
        """Every input of the check in one form: numbers typed, not only stepped."""
        box = self.setup_box
        check = self.check
        if check is None:
            return
        from screens.form import FormScreen

        def answered(answers: dict[str, Any] | None) -> None:
            if answers is None:
                return
            try:
                box.take_answers(check, answers)
            except ValueError as exc:
                self.notify(str(exc), title="Not set", severity="warning", markup=False)
                return
            self._show()

        form = FormScreen(f"Set up the {check.name}", box.form_fields(check))
        self.app.push_screen(form, answered)

    # --- rolling ---------------------------------------------------------------------------------
    def action_check(self) -> None:
        """Roll the campaign's check as set up: the command the odds were computed for."""
        try:
            command = self.spec().command
        except (RuleError, ValueError) as exc:
            self.notify(str(exc), title="Not rolled", severity="warning", markup=False)
            return
        if self.send(command):
            self._spend_once()

    def _spend_once(self) -> None:
        """Inputs set for one roll only go back to their defaults (the preset stands)."""
        if self.setup_box.after_roll():
            self._show()

    @on(RollLog.Older)
    def _read_older(self) -> None:
        self.refresh_data()

    @on(RollLog.Chosen)
    def _read_whole(self, event: RollLog.Chosen) -> None:
        """Enter on a log line: the entry with every character and die (a line cuts with …)."""
        from screens.log_line import LogLineScreen

        self.app.push_screen(LogLineScreen(event.entry))

    # --- cards -----------------------------------------------------------------------------------
    def action_show_hand(self) -> None:
        """SOH-12: show the chosen character's hand (again: hide it); others stay counts."""
        who = self.who
        if who is None:
            self.notify("Pick whose hand to show with p", severity="warning")
            return
        self.shown_holder = None if self.shown_holder == str(who) else str(who)
        self._show()
        if self.shown_holder is not None:
            self.query_one("#hand-cards", OptionList).focus()

    @on(OptionList.OptionSelected, "#hand-cards")
    def _play(self, event: OptionList.OptionSelected) -> None:
        table = self.game.checks.cards
        if table is not None and self.shown_holder is not None and event.option.id:
            self.send(table.play(self.shown_holder, event.option.id))

    # --- the dice line ---------------------------------------------------------------------------
    def on_dice_line_rolled(self, message: DiceLine.Rolled) -> None:
        if self.tableside.apply(RollDice(message.expression, self.who_name)):
            self.query_one(DiceLine).clear()


def _input_bindings(checks: Sequence[Check]) -> list[Binding]:
    """The keys of every check's inputs, hidden (the setup names each beside its value)."""
    bindings = []
    inputs = {(i.key, i.press, i.steps): i for c in checks for i in c.inputs}
    for spec in inputs.values():
        if spec.press:
            verb = "Type" if spec.kind == "typed" else "Next"
            bindings.append(
                Binding(
                    spec.press,
                    f"setup_press('{spec.key}')",
                    spec.label,
                    show=False,
                    id=f"tray.input.{spec.key}",
                    tooltip=f"{verb} {spec.label.lower()}",
                )
            )
        if spec.steps is not None:
            for key, by, sign in ((spec.steps[0], 1, "+"), (spec.steps[1], -1, "−")):
                bindings.append(
                    Binding(
                        key,
                        f"setup_step('{spec.key}', {by})",
                        f"{spec.label} {sign}",
                        show=False,
                        id=f"tray.input.{spec.key}.{'up' if by > 0 else 'down'}",
                    )
                )
    return bindings


def _is_roll(entry: dict[str, Any]) -> bool:
    return entry.get("kind") == "roll"


def _short_result(entry: dict[str, Any]) -> str:
    """The newest roll in a few words, for the log's title: who, the total, its band."""
    band = f" {entry['band']}" if entry.get("band") else ""
    return clean(f"{entry.get('who', '?')} {entry.get('total', '?')}{band}", 60)


def _result_text(entry: dict[str, Any]) -> Text:
    """The newest roll, big enough to read across the table."""
    text = Text("Last: ", style="bold")
    text.append_text(format_entry(entry))
    return text

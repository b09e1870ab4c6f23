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

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from app.commands.dice import RollDice
from app.queries import current_encounter
from app.slow_hooks import Work
from app.textual_compat import key_bindings
from rulesets import dice, guard
from rulesets.base import RuleError
from rulesets.checks import Check, CheckInput, CheckSpec, Preset, Setup
from rulesets.decks import DeckError, DeckState, read_deck
from rulesets.guard import GameHookError, WrongValue, one_line
from rulesets.table import Action, Context
from screens.panel import PanelScreen
from screens.tray_prompt import TrayPrompt
from widgets.event_line import SHOWN, EventLine
from widgets.footer import GAME_KEYS
from widgets.hand_view import HandList, card_text, deck_status
from widgets.literal import clean, flowed
from widgets.odds_chart import OddsChart
from widgets.roll_log import RollLog, format_entry
from widgets.text_field import TextField

ODDS_LIMIT = 10.0
"""Seconds a game's odds hook may take before the tray says it is the game's fault."""
WORKING = "working out the odds…"


class OddsReady(Message):
    """A slow odds hook is done (posted from its thread)."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


def _bands(work: Work[Mapping[str, Fraction]]) -> dict[str, Any]:
    """A finished hook's odds; its failure raised as the refusal the setup shows."""
    if work.error is not None:
        if isinstance(work.error, ValueError):
            raise work.error
        raise RuleError(f"The odds failed ({one_line(work.error)})")
    return dict(work.value or {})


class TrayScreen(PanelScreen):
    PANEL_ID = "tray"
    PANEL_TITLE = "Tray"
    CSS_PATH = "tray.tcss"
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
        Binding("X", "next_check", "Next check", id="tray.next_check"),
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
        self.who_index = 0
        self.check_index = 0
        """Which of the game's checks the tray states (``X`` steps through them)."""
        self.values: dict[str, Any] = {}
        self.shown_holder: str | None = None
        self.last_result = Text("")
        self._last_entry: dict[str, Any] | None = None
        self._taking = False
        self.rolls_only = False
        self._turn_seen: tuple[Any, ...] | None = None
        """The encounter turn who-rolls last followed (a new turn moves it again)."""
        self._odds_work: dict[str, Work[Mapping[str, Fraction]]] = {}
        """Odds a slow hook is still working out (or gave up on), by the setup they are for."""
        self._kept: dict[int | None, dict[str, Any]] = {}
        """Each roller's own inputs (a skill, a weapon) as they left them, by party id."""
        self._preset: tuple[int | None, Preset | None] = (None, None)
        """The game's preset last applied (roller, what): applied again only when it changes,
        so a GM's own change to the setup stands."""

    @property
    def check(self) -> Check | None:
        """The check the tray states: the game's first, or the one ``X`` moved on to."""
        checks = self.game.checks.checks
        return checks[self.check_index % len(checks)] if checks else None

    @property
    def has_cards(self) -> bool:
        return self.game.checks.cards is not None

    # --- layout ----------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        check = self.check
        self.values = check.defaults() if check is not None else {}
        with Vertical(id="tray-body"):
            with Horizontal(id="tray-top"):
                with Vertical(id="tray-setup"):
                    yield Label("", id="tray-mode", markup=False)
                    yield Static("", id="check-setup", markup=False)
                    yield Static("", id="check-legend", markup=False)
                    yield Static("", id="last-result", markup=False)
                yield OddsChart(id="odds-chart")
            if self.has_cards:
                with Vertical(id="cards-area"):
                    yield Static("", id="deck-status", markup=False)
                    yield HandList(id="hand-cards")
            yield TextField(
                placeholder="dice expression: 4d6kh3, 2d20kl1+2, (1d6,1d10,1d8)kh1, 1d6e6",
                id="dice-input",
                max_length=dice.MAX_EXPRESSION_LENGTH,
            )
            yield Static("", id="dice-error", markup=False)
            yield RollLog(id="roll-log")

    def _bind_game_actions(self) -> None:
        super()._bind_game_actions()
        # Every check's inputs, each key once per input: an input of a check not shown is
        # refused by check_action, and a key two checks share goes to the shown one's.
        keys = key_bindings(self)
        inputs = {(i.key, i.press, i.steps): i for c in self.game.checks.checks for i in c.inputs}
        for spec in inputs.values():
            if spec.press:
                verb = "Type" if spec.kind == "typed" else "Next"
                keys.setdefault(spec.press, []).append(
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
                    keys.setdefault(key, []).append(
                        Binding(
                            key,
                            f"setup_step('{spec.key}', {by})",
                            f"{spec.label} {sign}",
                            show=False,
                            id=f"tray.input.{spec.key}.{'up' if by > 0 else 'down'}",
                        )
                    )

    def on_mount(self) -> None:
        self._follow_turn()
        self._apply_preset()
        super().on_mount()

    _legend = Text()
    """The check's band legend as shown (it gives way first on a short screen)."""

    LOG_LINES: ClassVar[int] = 5
    """Log lines a short screen keeps under the check (at least five at 80×24)."""

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        if self.is_mounted:
            self._show()

    def _fit_top(self) -> None:
        """The check takes every row the hand, the dice line and five log lines leave, instead
        of a fixed ten (16 on a tall screen) that cut its notes and its Last: line. Where even
        that is too few, the bands' legend gives way first (the same for every roll; the odds
        name the bands), then the Last: line, whose result the log's title says instead: a
        roll's result is on screen after any setup."""
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
        setup = self.query_one("#check-setup", Static)
        room -= self.query_one("#tray-mode").outer_size.height + setup.outer_size.height
        width = max(1, setup.size.width)
        giving = [self.query_one(f"#{i}", Static) for i in ("last-result", "check-legend")]
        for part, text in zip(giving, (self.last_result, self._legend), strict=True):
            lines = len(text.wrap(self.app.console, width)) if text.plain.strip() else 0
            lines += part.styles.margin.top if lines else 0
            part.display = 0 < lines <= room  # an empty Last: takes no row either
            room -= lines if part.display else 0
        log = self.query_one(RollLog)
        title = "Roll log: rolls only" if self.rolls_only else "Roll log"
        if self._last_entry is not None and not giving[0].display:
            title = f"{title} · Last: {_short_result(self._last_entry)}"
        log.border_title = title
        if self.has_cards:
            self._count_hand()

    def _count_hand(self) -> None:
        """A hand longer than its box says how many cards it shows of how many."""
        hand = self.query_one("#hand-cards", OptionList)
        rows, count = hand.scrollable_content_region.height, hand.option_count
        more = hand.display and 0 < rows < count
        hand.border_subtitle = f"{rows} of {count} cards · j k or ↑ ↓ for the rest" if more else ""

    def on_screen_resume(self) -> None:
        if self._follow_turn() | self._apply_preset():
            self._show()
        super().on_screen_resume()

    def _apply_preset(self) -> bool:
        """The game's setup for this roller from the running fight (disadvantage inside an
        Anomaly), put in place of the last one when it changed; True if the setup changed."""
        found = current_encounter(self.campaign)
        preset = self.game.checks.preset_for(found[1] if found else None, self.who, self._pc())
        if (self.who, preset) == self._preset:
            return False
        _, before = self._preset
        for key in before.values if before is not None else ():
            spec = self._input(key)
            if spec is not None:
                self.values[key] = spec.default
        for key, value in preset.values.items() if preset is not None else ():
            if self._input(key) is not None:
                self.values[key] = value
        self._preset = (self.who, preset)
        return True

    def _follow_turn(self) -> bool:
        """A new turn in the running encounter: who rolls is its PC (an NPC's turn: the GM,
        or the PC it attacks where the players roll every die).

        Only a turn not yet followed moves it, so ``p`` keeps its choice within one turn.
        """
        found = current_encounter(self.campaign)
        if found is None:
            return False
        enc_id, enc = found
        turn = (enc_id, enc.get("round"), enc.get("current"))
        if turn == self._turn_seen or enc.get("current") is None:
            return False
        self._turn_seen = turn
        from rulesets.foes import turn_roller

        ids = [pid for pid, _ in self.party()]
        ref = turn_roller(enc, self.game.exchange.players_roll)
        index = next((i + 1 for i, pid in enumerate(ids) if str(pid) == str(ref)), 0)
        if index == self.who_index:
            return False
        self._roller_to(index)
        return True

    def _roller_to(self, index: int) -> None:
        """Another character rolls: the last one's own inputs kept for them, theirs put back,
        and what lasted one roll (an edge, a boon) at its default: it was the last roller's."""
        check = self.check
        if check is not None:
            self._kept[self.who] = check.own(self.values)
        self.who_index = index
        self.shown_holder = None
        if check is not None:
            self.values = check.for_roller(self.values, self._kept.get(self.who, {}), self._pc())
        self._forget_picks()

    def _forget_picks(self) -> None:
        """A new roller: a pick from the last roller's sheet (a skill they have, this one not)
        goes back to its default unless the new roller has it too."""
        check = self.check
        pc = self._pc()
        for spec in check.inputs if check is not None else ():
            if spec.kind == "pick" and self.values.get(spec.key) not in spec.pick_choices(pc):
                self.values[spec.key] = spec.default

    # --- reading the campaign ----------------------------------------------------------------------
    def party(self) -> list[tuple[int, dict[str, Any]]]:
        """The characters who roll: a party sheet that became an NPC (a Shill) rolls no more."""
        return [(pid, doc) for pid, doc in self.campaign.rows("party") if not doc.get("npc")]

    @property
    def who(self) -> int | None:
        """The party doc id rolling, or None for the GM."""
        party = self.party()
        if self.who_index == 0 or self.who_index > len(party):
            return None
        return party[self.who_index - 1][0]

    @property
    def who_name(self) -> str:
        who = self.who
        if who is None:
            return "GM"
        doc = self.campaign.doc("party", who) or {}
        return str(doc.get("name", "?"))

    def _pc(self) -> dict[str, Any] | None:
        who = self.who
        return self.campaign.doc("party", who) if who is not None else None

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
        return Setup(self.values, self.who, self._pc(), self.campaign.rows)

    def spec(self) -> CheckSpec:
        """The check as set up; RuleError (or ValueError) if the setup does not make one."""
        check = self.check
        if check is None:
            raise RuleError(f"{self.game.name} states no check in the tray")
        return check.spec(self.setup())

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
            setup=dict(self.values),
            selection=self._selection(),
        )

    def _selection(self) -> tuple[str, ...]:
        """The shown hand's holder and highlighted card key, if a card is highlighted."""
        if self.shown_holder is None or not self.has_cards:
            return ()
        hand = self.query_one("#hand-cards", OptionList)
        if hand.highlighted is None or not hand.option_count:
            return ()
        key = hand.get_option_at_index(hand.highlighted).id
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
            self.last_result = _result_text(last)
            self._last_entry = last
        self._follow_turn()
        self._apply_preset()
        self._show()

    def _show(self) -> None:
        check = self.check
        title = f"{check.name} · {self.game.name}" if check else self.game.name
        if check and self.has_class("-narrow"):
            title = check.name  # the header names the game: the check's lines need the room
        self.query_one("#tray-mode", Label).update(title)
        setup, odds_title, bands = self._setup_text()
        self.query_one("#check-setup", Static).update(setup)
        legend = self.check.legend if self.check and odds_title else ""
        self._legend = Text(legend, style="dim")
        self.query_one("#check-legend", Static).update(self._legend)
        self.query_one("#last-result", Static).update(self.last_result)
        working = odds_title == WORKING
        title = (check.name if check else "") if working else odds_title
        self.query_one(OddsChart).show(title, bands, WORKING if working else "")
        if self.has_cards:
            self._show_cards()
        self.refresh_bindings()
        self.call_after_refresh(self._fit_top)

    def _key(self, key: str) -> str:
        return self.app.get_key_display(Binding(key, ""))

    def _input_text(self, spec: CheckInput) -> str:
        keys = [k for k in (spec.press, *(spec.steps or ())) if k]
        hint = f" ({' '.join(self._key(k) for k in keys)})" if keys else ""
        return f"{spec.label}: {spec.shown(self.values.get(spec.key, spec.default))}{hint}"

    def _setup_text(self) -> tuple[Text, str, dict[str, Any]]:
        """The check as set up (text), and its odds (GEN-02), from the game's declaration."""
        who = Text("Who: ", style="bold")
        who.append(clean(self.who_name, 40))
        who.append(f"  ({self._key('p')})", style="dim")
        check = self.check
        if check is None:
            who.append("\nNo check to state in this game; the dice line rolls any dice.", "dim")
            return who, "", {}
        # Whole inputs: joined, a narrow screen wrapped a DC inside its key hint "(t, [ ], + −)".
        # One a line, except on a short screen, where as many whole ones share a line as fit.
        shown = [i for i in check.inputs if i.applies(self.values)]
        units = [who, *(Text(self._input_text(i)) for i in shown)]
        width = self.query_one("#check-setup").size.width if self.has_class("-short") else 0
        text = flowed(units, width) if width else Text("\n").join(units)
        text.append("\n")
        try:
            spec = self.spec()
            bands = self._odds(spec)
        except (RuleError, ValueError) as exc:
            text.append(str(exc), style="red")
            return text, "", {}
        if bands is None:
            text.append(spec.summary, style="bold")
            return text, WORKING, {}
        text.append(spec.summary, style="bold")
        preset = self._preset[1]
        if preset is not None and preset.why:
            text.append(f"\n{preset.why}", style="bold yellow")
        for note in spec.notes:
            text.append(f"\n{note}", style="dim")
        return text, spec.title() or check.name, bands

    def _odds(self, spec: CheckSpec) -> dict[str, Any] | None:
        """The check's odds, worked out off the UI thread (:mod:`app.slow_hooks`): None while
        a slow hook works; a hook past :data:`ODDS_LIMIT` is refused as the game's fault."""
        key = repr((self.check.id if self.check else "", self.who, sorted(self.values.items())))
        work = self._odds_work.get(key)
        if work is None:
            work = Work(spec.odds, lambda: self._odds_ready(key))
            if work.wait():
                return _bands(work)
            hook = str(getattr(spec.odds, "__tableside_hook__", "odds"))
            self._odds_work = {k: w for k, w in self._odds_work.items() if not w.done.is_set()}
            self._odds_work[key] = work
            self.set_timer(ODDS_LIMIT, lambda: self._odds_too_slow(key, hook))
        if work.timed_out or work.done.is_set():
            return _bands(work)
        return None

    def _odds_too_slow(self, key: str, hook: str) -> None:
        work = self._odds_work.get(key)
        if work is None or work.done.is_set():
            return
        work.timed_out = True
        work.error = GameHookError(
            self.game.name, hook, WrongValue(f"took longer than {ODDS_LIMIT:g} s")
        )
        guard.report(work.error)
        self._show()

    def _odds_ready(self, key: str) -> None:
        self.post_message(OddsReady(key))  # thread-safe: the hook's thread says it is done

    def on_odds_ready(self, message: OddsReady) -> None:
        if message.key in self._odds_work:
            self._show()

    def _show_cards(self) -> None:
        table = self.game.checks.cards
        assert table is not None
        decks = self.decks()
        named = table.holder or (lambda doc: str(doc.get("name", "?")))
        others = dict(table.others(self.campaign.rows))  # a foe's hand: the GM sees its count
        names = {**others, **{str(pid): named(doc) for pid, doc in self.party()}}
        short = self.has_class("-short")
        # Short: the holders' plain names (the shown hand's title says its holder in full), so
        # every hand's count fits one line and the rows go to the shown hand's cards.
        counted = _short_names({str(pid): str(doc.get("name", "?")) for pid, doc in self.party()})
        status = deck_status(
            decks,
            counted if short else names,
            self.shown_holder,
            empty=table.empty,
            compact=short,
            others=others,
        )
        for line in table.status(self.campaign.rows):
            status.append("\n" + clean(line, 200))
        self.query_one("#deck-status", Static).update(status)
        hand = self.query_one("#hand-cards", OptionList)
        highlighted = hand.highlighted
        hand.clear_options()
        with_hands = [state for state in decks if state.spec.hand]
        if self.shown_holder is not None:
            cards = [(s.spec, c) for s in with_hands for c in s.hand(self.shown_holder)]
            what = with_hands[0].spec.hand if with_hands else "Hand"
            hand.border_title = f"{what}: {names.get(self.shown_holder, '?')} · enter plays"
            hand.add_options([Option(card_text(spec.read(c)), id=c.key) for spec, c in cards])
            if cards:
                hand.highlighted = min(highlighted or 0, len(cards) - 1)
        else:
            hand.border_title = f"Hand hidden ({self._key('s')} shows the chosen character's hand)"
        # Short: an empty hand's box gives way (the deck status says whether hands are dealt).
        hand.set_class(hand.option_count == 0, "-empty")

    # --- bindings --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_hand":  # a hand is a character's: offered once one is chosen
            return self.has_cards and self.who_index > 0
        if action in ("check", "type_setup"):
            return self.check is not None
        if action == "next_check":
            return len(self.game.checks.checks) > 1
        if action in ("setup_press", "setup_step") and parameters:
            return self._input(str(parameters[0])) is not None
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
        self.show_result([f"Session log written to {path}"])

    def action_next_check(self) -> None:
        """The game's next check, at its defaults (the inputs are that check's own)."""
        self.check_index = (self.check_index + 1) % max(1, len(self.game.checks.checks))
        check = self.check
        self.values = check.defaults() if check is not None else {}
        self._preset = (None, None)
        self._apply_preset()
        self._show()

    def action_next_who(self) -> None:
        self._roller_to((self.who_index + 1) % (len(self.party()) + 1))
        self._apply_preset()
        self._show()

    def action_rolls_only(self) -> None:
        """The log shows only the dice (sheet changes and events hidden), or everything again."""
        self.rolls_only = not self.rolls_only
        log = self.query_one(RollLog)
        log.reset()  # the filter changed: drawn afresh
        self.refresh_data()

    def action_dice_line(self) -> None:
        self.query_one("#dice-input", Input).focus()

    def _input(self, key: str) -> CheckInput | None:
        check = self.check
        try:
            return check.input(key) if check is not None else None
        except KeyError:
            return None

    def action_setup_step(self, key: str, by: int) -> None:
        spec = self._input(key)
        if spec is not None:
            self.values[key] = spec.step(self.values.get(key, spec.default), by, self._pc())
            self._show()

    def action_setup_press(self, key: str) -> None:
        spec = self._input(key)
        if spec is None:
            return
        if spec.kind != "typed":
            self.action_setup_step(key, 1)
            return

        def check(text: str) -> str | None:
            try:
                spec.from_text(text, self._pc())
            except ValueError as exc:
                return str(exc)
            return None

        def accept(text: str | None) -> None:
            if text is not None:
                self.values[key] = spec.from_text(text, self._pc())
                self._show()

        self.app.push_screen(
            TrayPrompt(
                f"{spec.hint or spec.label} ({clean(self.who_name, 30)})",
                value=spec.as_text(self.values.get(key, spec.default)),
                check=check,
            ),
            accept,
        )

    def action_type_setup(self) -> None:
        """Every input of the check in one form: numbers typed, not only stepped."""
        check = self.check
        if check is None:
            return
        from screens.form import FormScreen

        pc = self._pc()
        fields = [i.field(self.values.get(i.key, i.default), pc) for i in check.inputs]

        def answered(answers: dict[str, Any] | None) -> None:
            if answers is None:
                return
            values = dict(self.values)
            try:
                for spec in check.inputs:
                    raw = answers.get(spec.key)
                    if raw is None or (raw == "" and spec.kind == "cycle"):
                        continue
                    values[spec.key] = spec.from_text(str(raw), pc)
            except ValueError as exc:
                self.notify(str(exc), title="Not set", severity="warning", markup=False)
                return
            self.values = values
            self._show()

        self.app.push_screen(FormScreen(f"Set up the {check.name}", fields), answered)

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
        """Inputs set for one roll only (an edge, a boon, a helper's assistance) go back to
        their defaults; the game's preset for the roller stands."""
        check = self.check
        if check is None:
            return
        fresh = check.after_roll(self.values)
        preset = self._preset[1]
        if preset is not None:
            fresh.update((k, v) for k, v in preset.values.items() if k in fresh)
        if fresh != self.values:
            self.values = fresh
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
    @on(Input.Submitted, "#dice-input")
    def _roll(self, event: Input.Submitted) -> None:
        if self.tableside.apply(RollDice(event.value, self.who_name)):
            event.input.clear()
            self.query_one("#dice-error", Static).update("")

    @on(Input.Changed, "#dice-input")
    def _validate(self, event: Input.Changed) -> None:
        problem = dice.validate(event.value) if event.value.strip() else None
        error = self.query_one("#dice-error", Static)
        error.update(problem or "")
        error.set_class(bool(problem), "-shown")  # no blank row under the dice line


def _short_names(names: dict[str, str]) -> dict[str, str]:
    """First names where they tell the holders apart (a short screen's hand counts, with the
    foes' beside them, fit one line at 80 columns); full names where two share one."""
    first = {key: name.split()[0] if name.split() else name for key, name in names.items()}
    taken = list(first.values())
    return {key: first[key] if taken.count(first[key]) == 1 else name for key, name in names.items()}


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

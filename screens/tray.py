"""Panel 2: the dice and card tray.

Two modes (``m``): dice, where the campaign's game check is set up by keys and rolled with
``c``, and cards, where the Minor and Major Arcana are drawn, dealt and played. Either way the
odds chart shows the exact chance of each band for the check as set up *before* it is rolled,
and every result lands in the roll log. The setup (who rolls, DC, edge …) is screen state:
it is the GM's hand on the dice, not part of the campaign; the decks and the log are.

Keys that mean different things per game or mode share a key; :meth:`check_action` hides
the ones that do not apply, so the Footer, ``?`` and the palette only teach what works now.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from app.commands import cards as card_cmds
from app.commands import checks
from app.commands.dice import RollDice
from app.queries import current_encounter
from rulesets import aspects, dice, nemron, resolution, shadows, somnihil
from rulesets.tarot import DeckError, DeckState
from screens.panel import PanelScreen
from screens.tray_prompt import (
    TrayPrompt,
    parse_contest,
    parse_counter,
    parse_fumble,
    parse_helpers,
)
from widgets.hand_view import card_text, deck_status
from widgets.literal import clean
from widgets.odds_chart import OddsChart
from widgets.roll_log import RollLog, format_entry

EDGES = (0, 1, -1)
EDGE_NAMES = {0: "plain d20", 1: "advantage (2d20 keep highest)", -1: "disadvantage (keep lowest)"}
DCS = (6, 8, 10, 12, 14)
BOONS: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...] = (
    ((), (), "no boon or penalty"),
    (("lesser",), (), "lesser boon (+d8 keep highest)"),
    (("greater",), (), "greater boon (+d12 keep highest)"),
    ((), ("lesser",), "lesser penalty (+d8 keep lowest)"),
    ((), ("greater",), "greater penalty (+d4 keep lowest)"),
)
DAMAGE_CODES = tuple(shadows.DAMAGE_MODIFIERS)
FOCUSES: tuple[shadows.Focus, ...] = ("physical", "mental", "spiritual")

Predicate = Callable[["TrayScreen"], bool]


def _game(*games: str) -> Predicate:
    return lambda s: s.mode == "dice" and s.game in games


def _cards(s: TrayScreen) -> bool:
    return s.mode == "cards"


def _any(s: TrayScreen) -> bool:
    return True


class TrayScreen(PanelScreen):
    PANEL_ID = "tray"
    PANEL_TITLE = "Tray"
    CSS_PATH = "tray.tcss"
    # The dice line must not take focus on arrival: digits switch panels until the GM enters it.
    AUTO_FOCUS = "#roll-log"
    WATCHES = frozenset({"log", "decks", "party"})
    # show=False keeps a key out of the crowded Footer (the app's own keys share it); ``?`` and
    # the palette still list it. Setup keys are hidden there because the setup text names them
    # beside what they change: "Who: GM (p)", "(m switches)", "(t)", "(+ −)".
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "check", "Roll check", id="tray.check"),
        Binding("m", "toggle_mode", "Dice/cards", id="tray.mode", show=False),
        Binding("p", "next_who", "Who rolls", id="tray.who", show=False),
        Binding("i", "dice_line", "Dice line", id="tray.dice_line", show=False),
        # dice mode, per game
        Binding("a", "edge", "Adv/dis", id="tray.somnihil.edge", show=False),
        Binding("a", "attribute", "Attribute", id="tray.nemron.attribute", show=False),
        Binding("k", "skill_pick", "Skill", id="tray.nemron.skill", show=False),
        Binding("b", "boon", "Boon/penalty", id="tray.nemron.boon", show=False),
        Binding("plus,equals_sign", "dc(1)", "DC +", id="tray.dc_up", show=False),
        Binding("minus", "dc(-1)", "DC −", id="tray.dc_down", show=False),
        Binding("right_square_bracket", "bonus(1)", "Mod +", id="tray.bonus_up", show=False),
        Binding("left_square_bracket", "bonus(-1)", "Mod −", id="tray.bonus_down", show=False),
        Binding("t", "dice_kind", "2d6/d20", id="tray.resolution.dice", show=False),
        Binding("g", "grip", "Grip check", id="tray.resolution.grip"),
        Binding("l", "delirium", "Delirium", id="tray.resolution.delirium"),
        Binding("f", "fate_reroll", "Fate reroll", id="tray.aspects.reroll"),
        Binding("v", "invoke(False)", "Invoke +2", id="tray.aspects.invoke"),
        Binding("V", "invoke(True)", "Invoke −2", id="tray.aspects.invoke_against", show=False),
        # cards mode
        Binding("t", "draw_mode", "Single/three", id="tray.cards.mode", show=False),
        Binding("n", "draw_card", "Draw card", id="tray.cards.draw"),
        Binding("M", "draw_major", "Draw Major", id="tray.cards.major", show=False),
        Binding("f", "round_focus", "Round focus", id="tray.cards.focus", show=False),
        Binding("h", "deal", "Deal hands", id="tray.cards.deal"),
        Binding("s", "show_hand", "Show hand", id="tray.cards.show"),
        Binding("r", "redraw", "Redraw card", id="tray.cards.redraw", show=False),
        Binding("a", "assist", "Assistance", id="tray.cards.assist", show=False),
        Binding("e", "counter", "Counter", id="tray.cards.counter"),
        Binding("o", "opposed", "Opposed", id="tray.cards.opposed", show=False),
        Binding("O", "contest_start", "New contest", id="tray.cards.contest", show=False),
        Binding("w", "contest_draw", "Contest draw", id="tray.cards.contest_draw"),
        Binding("W", "contest_end", "End contest", id="tray.cards.contest_end", show=False),
        Binding("j", "damage_modifier", "Dmg modifier", id="tray.cards.damage", show=False),
        Binding("J", "next_damage_code", "Next D-code", id="tray.cards.damage_code", show=False),
        Binding("k", "critical", "Critical", id="tray.cards.critical", show=False),
        Binding("F", "fumble", "Fumble draw", id="tray.cards.fumble", show=False),
        Binding("x", "shuffle", "Shuffle", id="tray.cards.shuffle", show=False),
        Binding("z", "recall", "Recall hands", id="tray.cards.recall", show=False),
        Binding("L", "session_log", "Session log to Markdown", id="tray.session_log", show=False),
    ]
    WHEN: ClassVar[dict[str, Predicate]] = {
        "edge": _game("somnihil"),
        "attribute": _game("nemron"),
        "skill_pick": _game("nemron"),
        "boon": _game("nemron"),
        "dc": lambda s: _cards(s) or s.game in ("resolution", "nemron"),
        "bonus": lambda s: _cards(s) or s.game in ("resolution", "aspects"),
        "dice_kind": _game("resolution"),
        "grip": _game("resolution"),
        "delirium": _game("resolution"),
        "fate_reroll": _game("aspects"),
        "invoke": _game("aspects"),
        "draw_mode": _cards,
        "draw_card": _cards,
        "draw_major": _cards,
        "round_focus": _cards,
        "deal": _cards,
        "show_hand": _cards,
        "redraw": _cards,
        "assist": _cards,
        "counter": _cards,
        "opposed": _cards,
        "contest_start": _cards,
        # Shown only while a contest runs, so the Footer offers it exactly when it is wanted.
        "contest_draw": lambda s: _cards(s) and s.contest_running(),
        "contest_end": lambda s: _cards(s) and s.contest() is not None,
        "damage_modifier": _cards,
        "next_damage_code": _cards,
        "critical": _cards,
        "fumble": _cards,
        "shuffle": _cards,
        "recall": _cards,
    }

    def __init__(self) -> None:
        super().__init__()
        self.mode = "dice"
        self.who_index = 0
        self.edge_index = 0
        self.dc = 8
        self.modifier = 0
        self.dice_kind = "2d6"
        self.attribute_index = 0
        self.skill_index = 0
        self.boon_index = 0
        self.nemron_dc = 4
        self.draw_mode: shadows.DrawMode = "single"
        self.difficulty_index = shadows.DIFFICULTY_NAMES.index("Normal")
        self.card_bonus = 0
        self.damage_code_index = 0
        self.shown_holder: str | None = None
        self.last_result = Text("")
        self.round_focus: shadows.Focus = "physical"
        self.helpers: tuple[int, ...] = ()
        """SOH-07: the second (and third) helper's skill for the next draw only."""

    # --- layout ----------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        if self.game == "shadows":
            self.mode = "cards"  # Shadows' check is a card draw: start at the cards.
        with Vertical(id="tray-body"):
            with Horizontal(id="tray-top"):
                with Vertical(id="tray-setup"):
                    yield Label("", id="tray-mode", markup=False)
                    yield Static("", id="check-setup", markup=False)
                    yield Static("", id="last-result", markup=False)
                yield OddsChart(id="odds-chart")
            with Vertical(id="cards-area"):
                yield Static("", id="deck-status", markup=False)
                yield OptionList(id="hand-cards")
            yield Input(
                placeholder="dice expression: 4d6kh3, 2d20kl1+2, (1d6,1d10,1d8)kh1, 1d6e6",
                id="dice-input",
                max_length=dice.MAX_EXPRESSION_LENGTH,
            )
            yield Static("", id="dice-error", markup=False)
            yield RollLog(id="roll-log")

    # --- reading the campaign ----------------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.campaign.ruleset.id

    def party(self) -> list[tuple[int, dict[str, Any]]]:
        return self.campaign.rows("party")

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

    def decks(self) -> tuple[DeckState, DeckState]:
        rows = self.campaign.rows("decks")
        try:
            return card_cmds.find_deck(rows, "minor")[1], card_cmds.find_deck(rows, "major")[1]
        except DeckError as exc:
            self.notify(f"A saved deck is damaged: {exc}", severity="error", markup=False)
            return card_cmds.find_deck([], "minor")[1], card_cmds.find_deck([], "major")[1]

    def contest(self) -> dict[str, Any] | None:
        """The saved contest doc (SOH-08), running or decided, if any."""
        found = card_cmds.find_contest(self.campaign.rows("decks"))
        return found[1] if found is not None else None

    def contest_running(self) -> bool:
        doc = self.contest()
        if doc is None:
            return False
        try:
            return not shadows.Contest.from_dict(doc).finished
        except (ValueError, TypeError):
            return False

    @property
    def assistance(self) -> int:
        """SOH-07: ½ the second helper's skill + ¼ the third's, from the rules."""
        second = self.helpers[0] if self.helpers else None
        third = self.helpers[1] if len(self.helpers) > 1 else None
        return shadows.assistance_bonus(second, third)

    @property
    def difficulty(self) -> str:
        return shadows.DIFFICULTY_NAMES[self.difficulty_index]

    def nemron_pool(self) -> tuple[str, tuple[str, ...], list[int]]:
        """The attribute, the skill (if any) and the die sides of the PC's pool (NEM-01)."""
        attribute = nemron.ATTRIBUTES[self.attribute_index % len(nemron.ATTRIBUTES)][0]
        who = self.who
        doc = self.campaign.doc("party", who) if who is not None else None
        if doc is None:
            return attribute, (), [6]
        skills = sorted(doc.get("skills", {}))
        chosen: tuple[str, ...] = ()
        if skills and self.skill_index % (len(skills) + 1):
            chosen = (skills[self.skill_index % (len(skills) + 1) - 1],)
        try:
            return attribute, chosen, nemron.pool_for(doc, attribute, chosen)
        except nemron.RuleError:
            return attribute, (), [4]

    # --- what is shown ---------------------------------------------------------------------------
    def refresh_data(self) -> None:
        entries = self.campaign.log_entries()
        self.query_one(RollLog).show_entries(entries)
        rolls = [e for e in entries if e.get("kind") == "roll"]
        if rolls:
            self.last_result = _result_text(rolls[-1])
        self._show()

    def _show(self) -> None:
        cards_mode = self.mode == "cards"
        self.query_one("#cards-area").display = cards_mode
        title = "Cards" if cards_mode else f"Dice · {self.campaign.ruleset.name} check"
        self.query_one("#tray-mode", Label).update(f"{title}   (m switches)")
        setup, odds_title, bands = self._setup()
        self.query_one("#check-setup", Static).update(setup)
        self.query_one("#last-result", Static).update(self.last_result)
        self.query_one(OddsChart).show(odds_title, bands)
        if cards_mode:
            self._show_cards()
        self.refresh_bindings()

    def _setup(self) -> tuple[Text, str, dict[str, Fraction]]:
        """The check as set up (text), and its odds (GEN-02), from the game's rules."""
        text = Text()
        text.append("Who: ", style="bold")
        text.append(clean(self.who_name, 40))
        text.append("  (p)\n", style="dim")
        if self.mode == "cards" or self.game == "shadows":
            return self._cards_setup(text)
        game = self.game
        try:
            if game == "somnihil":
                edge = EDGES[self.edge_index]
                text.append(f"{EDGE_NAMES[edge]}  (a)\n")
                text.append("20 Triumph · 11-19 Success · 6-10 Tough Choice · 2-5 Failure · 1 "
                            "Catastrophe (a natural 1 restores 1 AP)", style="dim")  # fmt: skip
                return text, "d20", somnihil.odds(edge)
            if game == "resolution":
                text.append(f"{self.dice_kind}{self.modifier:+d} vs DC {self.dc}  (t, [ ], + −)\n")
                text.append(checks.dc_note(self.dc), style="dim")
                who = self.who
                doc = self.campaign.doc("party", who) if who is not None else None
                if doc is not None:
                    grip = doc.get("resources", {}).get("grip", {})
                    held = len(doc.get("lists", {}).get("deliria", []))
                    text.append(
                        f"\nGrip {grip.get('current', '?')}/{grip.get('max', '?')} "
                        f"(g roll-under) · {held} deliria (l)",
                        style="dim",
                    )
                return text, "vs DC", resolution.odds(self.dc, self.modifier, self.dice_kind)
            if game == "nemron":
                attribute, skills, pool = self.nemron_pool()
                boons, penalties, boon_name = BOONS[self.boon_index]
                boon = nemron.net_modifier(boons, penalties)
                text.append(f"{attribute.capitalize()} (a)")
                text.append(f" + {', '.join(skills)}" if skills else " + no skill")
                text.append(" (k)\n")
                text.append(
                    f"{nemron.pool_text(pool)} keep highest vs DC {self.nemron_dc}  (+ −)\n"
                )
                text.append(f"{boon_name}  (b) · drama d20 beside it", style="dim")
                return text, "pool", nemron.odds(pool, self.nemron_dc, boon)
            if game == "aspects":
                text.append(f"2d6{self.modifier:+d}  ([ ] skill)\n")
                text.append(
                    "f fate point: reroll, keep the better · v / V invoke an aspect ±2 · "
                    "one fate point per roll",
                    style="dim",
                )
                return text, "2d6", aspects.odds(self.modifier)
        except ValueError as exc:
            text.append(str(exc), style="red")
            return text, "", {}
        return text, "", {}

    def _cards_setup(self, text: Text) -> tuple[Text, str, dict[str, Fraction]]:
        mode = "single card" if self.draw_mode == "single" else "middle of three"
        text.append(f"{mode} (t) +{self.card_bonus} ([ ])")
        if self.helpers:
            text.append(f" +{self.assistance} assist", style="bold green")
        text.append(f" vs {self.difficulty} (+ −)\n")
        text.append(_assist_text(self.helpers))
        row = shadows.difficulty(self.difficulty)
        text.append(
            f"success {row.success} · critical {row.critical} · fumble 1-{row.fumble_max}"
            f" · damage {DAMAGE_CODES[self.damage_code_index]} (J)\n",
            style="dim",
        )
        whole, half = shadows.FOCUS_ATTRIBUTES[self.round_focus]
        text.append(f"Focus: {self.round_focus.capitalize()} (f)", style="bold")
        text.append(
            f": {whole.capitalize()} + ½ {half.capitalize()}, {shadows.OFF_FOCUS_PENALTY} off focus",
            style="dim",
        )
        minor, _ = self.decks()
        try:
            bonus = self.card_bonus + self.assistance
            bands = shadows.check_odds(minor, bonus, self.difficulty, self.draw_mode)
        except shadows.RuleError as exc:
            text.append(f"\n{exc}", style="red")
            return text, "", {}
        title = "from the deck as it stands"
        if self.helpers:
            title = f"+{bonus} with assistance"
        return text, title, dict(bands)

    def _show_cards(self) -> None:
        minor, major = self.decks()
        names = {str(pid): str(doc.get("name", pid)) for pid, doc in self.party()}
        status = deck_status(minor, major, names, self.shown_holder)
        contest = self.contest()
        if contest is not None:
            status.append("\nContest: ", style="bold")
            try:
                status.append(clean(card_cmds.contest_status(contest), 160))
            except (ValueError, TypeError) as exc:
                status.append(f"damaged ({exc})", style="red")
            if self.contest_running():
                status.append("  (w draws · margin hidden)", style="dim")
        self.query_one("#deck-status", Static).update(status)
        hand = self.query_one("#hand-cards", OptionList)
        highlighted = hand.highlighted
        hand.clear_options()
        if self.shown_holder is not None:
            cards = minor.hand(self.shown_holder)
            hand.border_title = f"{names.get(self.shown_holder, '?')}'s hand (enter plays)"
            hand.add_options([Option(card_text(c), id=c.key) for c in cards])
            if cards:
                hand.highlighted = min(highlighted or 0, len(cards) - 1)
        else:
            hand.border_title = "Hand hidden (s shows the chosen character's hand)"

    # --- bindings --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        when = self.WHEN.get(action)
        if when is None:
            return True
        return when(self)

    def _apply(self, command: Any) -> list[str] | None:
        lines = self.tableside.apply(command)
        if lines:
            self.notify(clean(lines[-1], 200), markup=False)
        return lines

    def action_session_log(self) -> None:
        """This session's events and rolls as Markdown, in a file beside the save."""
        from app.export import write_session_log

        try:
            path = write_session_log(self.campaign.store.data, self.campaign.store.path)
        except OSError as exc:
            self.notify(f"Session log not written: {exc.strerror or exc}", severity="error")
            return
        self.notify(f"Session log written to {path}", markup=False)

    def action_toggle_mode(self) -> None:
        self.mode = "cards" if self.mode == "dice" else "dice"
        self._show()

    def action_next_who(self) -> None:
        self.who_index = (self.who_index + 1) % (len(self.party()) + 1)
        if self.shown_holder is not None:
            self.shown_holder = None
        self._show()

    def action_dice_line(self) -> None:
        self.query_one("#dice-input", Input).focus()

    def action_edge(self) -> None:
        self.edge_index = (self.edge_index + 1) % len(EDGES)
        self._show()

    def action_attribute(self) -> None:
        self.attribute_index = (self.attribute_index + 1) % len(nemron.ATTRIBUTES)
        self._show()

    def action_skill_pick(self) -> None:
        self.skill_index += 1
        self._show()

    def action_boon(self) -> None:
        self.boon_index = (self.boon_index + 1) % len(BOONS)
        self._show()

    def action_dc(self, step: int) -> None:
        if self.mode == "cards":
            names = shadows.DIFFICULTY_NAMES
            self.difficulty_index = max(0, min(len(names) - 1, self.difficulty_index + step))
        elif self.game == "resolution":
            i = DCS.index(self.dc) if self.dc in DCS else 1
            self.dc = DCS[max(0, min(len(DCS) - 1, i + step))]
        else:
            self.nemron_dc = max(1, min(20, self.nemron_dc + step))
        self._show()

    def action_bonus(self, step: int) -> None:
        if self.mode == "cards":
            self.card_bonus = max(0, min(60, self.card_bonus + step))
        else:
            self.modifier = max(-10, min(10, self.modifier + step))
        self._show()

    def action_dice_kind(self) -> None:
        self.dice_kind = "d20" if self.dice_kind == "2d6" else "2d6"
        self._show()

    def action_draw_mode(self) -> None:
        self.draw_mode = "three" if self.draw_mode == "single" else "single"
        self._show()

    def action_next_damage_code(self) -> None:
        self.damage_code_index = (self.damage_code_index + 1) % len(DAMAGE_CODES)
        self._show()

    # --- rolling ---------------------------------------------------------------------------------
    def action_check(self) -> None:
        """Roll the campaign's check as set up (a skill draw in cards mode or in Shadows)."""
        command: Any
        if self.mode == "cards" or self.game == "shadows":
            command = card_cmds.SkillDraw(
                self.who, self.draw_mode, self.card_bonus, self.difficulty, self.assistance
            )
            if self._apply(command) and self.helpers:
                self.helpers = ()  # SOH-07: the help was for this draw
                self._show()
            return
        elif self.game == "somnihil":
            command = checks.SomnihilCheck(self.who, EDGES[self.edge_index])
        elif self.game == "resolution":
            command = checks.ResolutionCheck(self.who, self.dc, self.modifier, self.dice_kind)
        elif self.game == "nemron":
            attribute, skills, pool = self.nemron_pool()
            boons, penalties, _ = BOONS[self.boon_index]
            command = checks.NemronCheck(
                self.who, attribute, skills, self.nemron_dc, boons, penalties, pool=tuple(pool)
            )
        else:
            command = checks.AspectsCheck(self.who, self.modifier)
        self._apply(command)

    def action_grip(self) -> None:
        self._apply(checks.GripCheck(self.who))

    def action_delirium(self) -> None:
        who = self.who
        if who is None:
            self.notify("A delirium is taken by a character: pick one with p", severity="warning")
            return

        def accept(name: str | None) -> None:
            if name:
                self._apply(checks.AcceptDelirium(who, name))

        self.app.push_screen(
            TrayPrompt("Which delirium is accepted?", "e.g. fear of mirrors"), accept
        )

    def _last_aspects_roll(self) -> int | None:
        log_id = checks.last_aspects_roll(self.campaign.rows("log"))
        if log_id is None:
            self.notify("Roll first (c), then spend the fate point", severity="warning")
        return log_id

    def action_fate_reroll(self) -> None:
        log_id = self._last_aspects_roll()
        if log_id is not None:
            self._apply(checks.SpendFate(log_id, "reroll"))

    def action_invoke(self, against: bool) -> None:
        log_id = self._last_aspects_roll()
        if log_id is None:
            return
        payer = self.who if against else None

        def invoke(aspect: str | None) -> None:
            if aspect:
                self._apply(
                    checks.SpendFate(log_id, "invoke", aspect=aspect, against=against, payer=payer)
                )

        question = (
            "Invoke which aspect against the roll (−2)?" if against else "Invoke which aspect (+2)?"
        )
        self.app.push_screen(TrayPrompt(question), invoke)

    # --- cards -----------------------------------------------------------------------------------
    def action_draw_card(self) -> None:
        self._apply(card_cmds.DrawCards("minor", 1))

    def action_draw_major(self) -> None:
        self._apply(card_cmds.DrawCards("major", 1))

    def action_deal(self) -> None:
        self._apply(card_cmds.DealHands(self.round_focus))

    def action_round_focus(self) -> None:
        """SOH-11: the round's stated focus, chosen before dealing."""
        self.round_focus = FOCUSES[(FOCUSES.index(self.round_focus) + 1) % len(FOCUSES)]
        self._show()

    def action_assist(self) -> None:
        """SOH-07: type the helpers' skills (second, then third) for the next draw."""

        def accept(text: str | None) -> None:
            if text is not None:
                self.helpers = parse_helpers(text)
                self._show()

        self.app.push_screen(
            TrayPrompt(
                "Helpers' skills for the next draw: the second helper's, then the third's "
                "(0 clears)",
                "e.g. 12 8",
                value=" ".join(str(h) for h in self.helpers),
                check=_error_of(parse_helpers),
            ),
            accept,
        )

    def action_counter(self) -> None:
        """SOH-09: the chosen PC (or GM) counters the target's card and total; 1 AP."""
        played = self._counter_card()
        default = ""
        last = self._last_card_roll()
        if last is not None:
            default = f"{last[0]} {last[1]}"
        how = f"plays {played[1]} from the hand" if played else "draws a card"

        def accept(text: str | None) -> None:
            if text is None:
                return
            value, total, suits = parse_counter(text)
            found = current_encounter(self.campaign)
            self._apply(
                card_cmds.CounterAction(
                    self.who,
                    value,
                    total,
                    suits,
                    played=played[0] if played else None,
                    encounter_id=found[0] if found else None,
                )
            )

        self.app.push_screen(
            TrayPrompt(
                f"Counter ({clean(self.who_name, 30)} {how}, 1 AP): the target's card value, "
                "its total, then the suits the GM allows (none = any)",
                "e.g. 9 31 cups wands",
                value=default,
                check=_error_of(parse_counter),
            ),
            accept,
        )

    def _counter_card(self) -> tuple[str, str] | None:
        """The highlighted card of the chosen PC's shown hand (key, name), if any."""
        who = self.who
        hand = self.query_one("#hand-cards", OptionList)
        if who is None or self.shown_holder != str(who) or hand.highlighted is None:
            return None
        if not hand.option_count:
            return None
        option = hand.get_option_at_index(hand.highlighted)
        if option.id is None:
            return None
        return option.id, option.id.split(":")[1] + " of " + option.id.split(":")[2]

    def _last_card_roll(self) -> tuple[int, int] | None:
        """The newest skill draw's card value and total: the usual target of a counter."""
        for entry in reversed(self.campaign.log_entries()):
            if entry.get("kind") != "roll":
                continue
            expression = str(entry.get("expression", ""))
            values = [int(v) for v in entry.get("dice", [])]
            if expression.startswith("single draw") and values:
                return values[0], int(entry.get("total", 0))
            if expression.startswith("three draw") and len(values) >= 3:
                return sorted(values[:3])[1], int(entry.get("total", 0))
            return None
        return None

    def action_contest_start(self) -> None:
        """SOH-08: a multi-draw contest to a margin the GM types and the table never sees."""
        running = " (replaces the running one)" if self.contest_running() else ""

        def accept(text: str | None) -> None:
            if text is None:
                return
            margin, bonus_b, scoring = parse_contest(text)
            self._apply(
                card_cmds.StartContest(
                    margin,
                    self.who_name,
                    "opposition",
                    self.card_bonus + self.assistance,
                    bonus_b,
                    scoring,
                )
            )

        self.app.push_screen(
            TrayPrompt(
                f"New contest{running}: {clean(self.who_name, 30)} +"
                f"{self.card_bonus + self.assistance} vs the opposition. Type the hidden "
                "margin, then the opposition's bonus, and 'points' to score on points",
                "e.g. 3 15",
                check=_error_of(parse_contest),
                password=True,
            ),
            accept,
        )

    def action_contest_draw(self) -> None:
        self._apply(card_cmds.ContestDraw())

    def action_contest_end(self) -> None:
        self._apply(card_cmds.EndContest())

    def action_fumble(self) -> None:
        """SOH-06: an Ace played to attack: draw against the weapon's fumble value."""
        who = self.who_name

        def accept(text: str | None) -> None:
            if text is not None:
                self._apply(card_cmds.CombatFumble(parse_fumble(text), who))

        self.app.push_screen(
            TrayPrompt(
                "Combat fumble draw: the weapon's fumble value (1-14)",
                "e.g. 2",
                check=_error_of(parse_fumble),
            ),
            accept,
        )

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

    def _highlighted_card(self) -> str | None:
        hand = self.query_one("#hand-cards", OptionList)
        if self.shown_holder is None or hand.highlighted is None or not hand.option_count:
            self.notify("Show a hand (s) and highlight a card first", severity="warning")
            return None
        return hand.get_option_at_index(hand.highlighted).id

    @on(OptionList.OptionSelected, "#hand-cards")
    def _play(self, event: OptionList.OptionSelected) -> None:
        if self.shown_holder is not None and event.option.id:
            self._apply(card_cmds.PlayCards(self.shown_holder, (event.option.id,)))

    def action_redraw(self) -> None:
        key = self._highlighted_card()
        if key is not None and self.shown_holder is not None:
            self._apply(card_cmds.RedrawCards(self.shown_holder, (key,)))

    def action_opposed(self) -> None:
        bonus = self.card_bonus + self.assistance
        done = self._apply(card_cmds.OpposedDraw(bonus, 0, self.who_name, "opposition"))
        if done and self.helpers:
            self.helpers = ()
            self._show()

    def action_damage_modifier(self) -> None:
        self._apply(card_cmds.DamageModifier(DAMAGE_CODES[self.damage_code_index]))

    def action_critical(self) -> None:
        self._apply(card_cmds.CriticalChain())

    def action_shuffle(self) -> None:
        self._apply(card_cmds.Shuffle("minor"))

    def action_recall(self) -> None:
        self._apply(card_cmds.RecallHands("minor"))

    # --- the dice line ---------------------------------------------------------------------------
    @on(Input.Submitted, "#dice-input")
    def _roll(self, event: Input.Submitted) -> None:
        if self.tableside.apply(RollDice(event.value, self.who_name)):
            event.input.clear()
            self.query_one("#dice-error", Static).update("")

    @on(Input.Changed, "#dice-input")
    def _validate(self, event: Input.Changed) -> None:
        problem = dice.validate(event.value) if event.value.strip() else None
        self.query_one("#dice-error", Static).update(problem or "")


def _assist_text(helpers: tuple[int, ...]) -> Text:
    """SOH-07 as set up: each helper's skill and the share of it that counts."""
    if not helpers:
        return Text("no assistance (a sets helpers)\n", style="dim")
    parts = [f"½ of {helpers[0]} = {helpers[0] // 2}"]
    if len(helpers) > 1:
        parts.append(f"¼ of {helpers[1]} = {helpers[1] // 4}")
    return Text(f"assistance: {' + '.join(parts)} (a, next draw only)\n", style="green")


def _error_of(parse: Callable[[str], object]) -> Callable[[str], str | None]:
    """A prompt check from a parser: its ValueError's message, or None when the text parses."""

    def check(text: str) -> str | None:
        try:
            parse(text)
        except ValueError as exc:
            return str(exc)
        return None

    return check


def _result_text(entry: dict[str, Any]) -> Text:
    """The newest roll, big enough to read across the table."""
    text = Text("Last: ", style="bold")
    text.append_text(format_entry(entry))
    return text

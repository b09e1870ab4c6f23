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
from rulesets import aspects, dice, nemron, resolution, shadows, somnihil
from rulesets.tarot import DeckError, DeckState
from screens.panel import PanelScreen
from screens.tray_prompt import TrayPrompt
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
FOCUSES = ("physical", "mental", "spiritual")

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
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "check", "Roll check", id="tray.check"),
        Binding("m", "toggle_mode", "Dice/cards", id="tray.mode"),
        Binding("p", "next_who", "Who rolls", id="tray.who"),
        Binding("i", "dice_line", "Dice line", id="tray.dice_line"),
        # dice mode, per game
        Binding("a", "edge", "Adv/dis", id="tray.somnihil.edge"),
        Binding("a", "attribute", "Attribute", id="tray.nemron.attribute"),
        Binding("k", "skill_pick", "Skill", id="tray.nemron.skill"),
        Binding("b", "boon", "Boon/penalty", id="tray.nemron.boon"),
        Binding("plus,equals_sign", "dc(1)", "DC +", id="tray.dc_up"),
        Binding("minus", "dc(-1)", "DC −", id="tray.dc_down"),
        Binding("right_square_bracket", "bonus(1)", "Mod +", id="tray.bonus_up"),
        Binding("left_square_bracket", "bonus(-1)", "Mod −", id="tray.bonus_down"),
        Binding("t", "dice_kind", "2d6/d20", id="tray.resolution.dice"),
        Binding("g", "grip", "Grip check", id="tray.resolution.grip"),
        Binding("l", "delirium", "Delirium", id="tray.resolution.delirium"),
        Binding("f", "fate_reroll", "Fate reroll", id="tray.aspects.reroll"),
        Binding("v", "invoke(False)", "Invoke +2", id="tray.aspects.invoke"),
        Binding("V", "invoke(True)", "Invoke −2", id="tray.aspects.invoke_against"),
        # cards mode
        Binding("t", "draw_mode", "Single/three", id="tray.cards.mode"),
        Binding("n", "draw_card", "Draw card", id="tray.cards.draw"),
        Binding("M", "draw_major", "Draw Major", id="tray.cards.major"),
        Binding("h", "deal", "Deal hands", id="tray.cards.deal"),
        Binding("s", "show_hand", "Show hand", id="tray.cards.show"),
        Binding("r", "redraw", "Redraw card", id="tray.cards.redraw"),
        Binding("o", "opposed", "Opposed", id="tray.cards.opposed"),
        Binding("j", "damage_modifier", "Dmg modifier", id="tray.cards.damage"),
        Binding("J", "next_damage_code", "Next D-code", id="tray.cards.damage_code"),
        Binding("k", "critical", "Critical", id="tray.cards.critical"),
        Binding("x", "shuffle", "Shuffle", id="tray.cards.shuffle"),
        Binding("z", "recall", "Recall hands", id="tray.cards.recall"),
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
        "deal": _cards,
        "show_hand": _cards,
        "redraw": _cards,
        "opposed": _cards,
        "damage_modifier": _cards,
        "next_damage_code": _cards,
        "critical": _cards,
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

    # --- layout ----------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
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
        text.append(f"{mode} (t) +{self.card_bonus} ([ ]) vs {self.difficulty} (+ −)\n")
        row = shadows.difficulty(self.difficulty)
        text.append(
            f"success {row.success} · critical {row.critical} · fumble on 1-{row.fumble_max}"
            f" · damage modifier {DAMAGE_CODES[self.damage_code_index]} (J)",
            style="dim",
        )
        minor, _ = self.decks()
        try:
            bands = shadows.check_odds(minor, self.card_bonus, self.difficulty, self.draw_mode)
        except shadows.RuleError as exc:
            text.append(f"\n{exc}", style="red")
            return text, "", {}
        return text, "from the deck as it stands", dict(bands)

    def _show_cards(self) -> None:
        minor, major = self.decks()
        names = {str(pid): str(doc.get("name", pid)) for pid, doc in self.party()}
        self.query_one("#deck-status", Static).update(
            deck_status(minor, major, names, self.shown_holder)
        )
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
                self.who, self.draw_mode, self.card_bonus, self.difficulty
            )
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
        self._apply(card_cmds.DealHands("physical"))

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
        self._apply(card_cmds.OpposedDraw(self.card_bonus, 0, self.who_name, "opposition"))

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


def _result_text(entry: dict[str, Any]) -> Text:
    """The newest roll, big enough to read across the table."""
    text = Text("Last: ", style="bold")
    text.append_text(format_entry(entry))
    return text

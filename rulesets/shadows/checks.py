"""Shadows in the tray: the skill draw as its check, and every card action of the table.

The check is a single or middle-of-three draw + skill + attribute (+ assistance) against a
difficulty, its odds read from the Minor Arcana as it stands (SOH-02..07). The actions deal,
show, play and redraw hands (SOH-11/12), counter (SOH-09), run opposed draws and contests
(SOH-08), draw damage modifiers (SOH-15), criticals (SOH-16) and fumbles (SOH-06).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from rulesets.base import RuleError
from rulesets.checks import (
    CardTable,
    Check,
    CheckInput,
    CheckRules,
    CheckSpec,
    CliFlag,
    Rows,
    Setup,
)
from rulesets.decks import DrawCards
from rulesets.shadows import rules as shadows
from rulesets.shadows.cards import (
    CombatFumble,
    ContestDraw,
    CounterAction,
    CriticalChain,
    DamageModifier,
    DealHands,
    EndContest,
    OpposedDraw,
    PlayCards,
    RecallHands,
    RedrawCards,
    SetFocus,
    Shuffle,
    SkillDraw,
    StartContest,
    contest_status,
    find_contest,
)
from rulesets.shadows.foes import FOE_PREFIX
from rulesets.shadows.tarot import SUITS, find_deck
from rulesets.table import Action, Command, Context, Doc, Field, need_pc

MAX_SKILL = 60
"""Skills on a Shadows sheet stay far below this; it only catches typos (120 for 12)."""
DAMAGE_CODES = tuple(shadows.DAMAGE_MODIFIERS)
OWN = "own focus"
USES: tuple[str, ...] = (OWN, *shadows.FOCUSES)
"""Which focus the action set up uses: the roller's own, or a named one (−3 if not theirs)."""
MODES = {"single": "single card", "three": "middle of three", "opposed": "opposed draw"}
"""What the check draws: a skill draw (SOH-02) or an opposed draw against the opposition
(SOH-08, its bonus beside it)."""
OPPOSED = "opposed"


def _opposed(values: Mapping[str, Any]) -> bool:
    return values.get("draw") == OPPOSED


# --- what the GM types -------------------------------------------------------------------------


def _whole(word: str, what: str) -> int:
    # isascii: str.isdigit also passes "²" and "١", which int() then refuses with its own
    # message; six digits: no skill comes near, and int() stays cheap.
    if not (word.isascii() and word.isdigit()) or len(word) > 6:
        raise ValueError(f"{what} is a whole number, not {word[:20]!r}")
    return int(word)


def parse_helpers(text: str) -> tuple[int, ...]:
    """SOH-07: up to two helpers' skills ("12 8"); "0" or nothing clears them."""
    words = text.replace(",", " ").split()
    if len(words) > 2:
        raise ValueError("at most two helpers: the second helper's skill, then the third's")
    skills = tuple(_whole(w, "a helper's skill") for w in words)
    if any(s > MAX_SKILL for s in skills):
        raise ValueError(f"a helper's skill is at most {MAX_SKILL}")
    if skills and skills[0] == 0:
        if any(skills[1:]):
            raise ValueError("a third helper needs a second helper first")
        return ()
    return skills[:1] if len(skills) == 2 and skills[1] == 0 else skills


def parse_suits(text: str) -> tuple[str, ...]:
    """Suit names or unambiguous starts (cu, co, s, w); none or "any" means every suit."""
    words = text.replace(",", " ").split()
    if not words or [w.lower() for w in words] == ["any"]:
        return SUITS
    suits: list[str] = []
    for word in words:
        matches = [s for s in SUITS if s.lower().startswith(word.lower())]
        if len(matches) != 1:
            raise RuleError(f"{word[:20]!r} is not a suit: write cups, coins, swords or wands")
        if matches[0] not in suits:
            suits.append(matches[0])
    return tuple(suits)


def assistance(helpers: Sequence[int]) -> int:
    """SOH-07: ½ the second helper's skill + ¼ the third's."""
    second = helpers[0] if helpers else None
    third = helpers[1] if len(helpers) > 1 else None
    return shadows.assistance_bonus(second, third)


def _assist_text(helpers: Sequence[int]) -> str:
    if not helpers:
        return "no assistance (a sets helpers)"
    parts = [f"½ of {helpers[0]} = {helpers[0] // 2}"]
    if len(helpers) > 1:
        parts.append(f"¼ of {helpers[1]} = {helpers[1] // 4}")
    return f"assistance: {' + '.join(parts)} (next draw only)"


def _uses_text(uses: str) -> str:
    if uses == OWN:
        return "the roller's own focus"
    whole, half = shadows.FOCUS_ATTRIBUTES[uses]
    return (
        f"{uses} ({whole.capitalize()}, {half.capitalize()}): "
        f"{shadows.OFF_FOCUS_PENALTY} if off the roller's focus"
    )


def off_focus(setup_uses: str, pc: Mapping[str, Any] | None) -> int:
    """SOH-11: −3 when the action uses a focus other than the rolling character's own."""
    if setup_uses == OWN or pc is None:
        return 0
    return shadows.off_focus_penalty(shadows.focus_of(pc), setup_uses)


# --- the check ---------------------------------------------------------------------------------


def opposed_spec(setup: Setup, opposition: int) -> CheckSpec:
    """SOH-08: the roller's card + skill + attribute (+ assistance, − off focus) against the
    opposition's card + ``opposition``, ties drawn again; exact odds from the deck as it
    stands."""
    values = setup.values
    helpers = tuple(values.get("assist") or ())
    assist = assistance(helpers)
    penalty = off_focus(str(values.get("uses", OWN)), setup.pc)
    total = int(values.get("bonus", 0)) + assist + penalty
    minor = find_deck(setup.read("decks"), "minor")[1]
    name = str(setup.pc.get("name", "?")) if setup.pc is not None else "the roller"
    return CheckSpec(
        summary=f"opposed draw {total:+d} vs the opposition +{opposition}",
        odds=lambda: {
            f"{name} {band}": chance
            for band, chance in shadows.opposed_odds(
                minor.draw_pile, total, opposition, minor.discard
            ).items()
        },
        command=OpposedDraw(total, opposition, name if setup.pc is not None else "GM",
                            "opposition"),
        modifier=total,
        odds_title="{modifier} vs the opposition",
        notes=(_assist_text(helpers), "a tie: both draw again and add"),
    )  # fmt: skip


def _spec(setup: Setup) -> CheckSpec:
    values = setup.values
    if _opposed(values):
        return opposed_spec(setup, int(values.get("opposition", 0)))
    mode: shadows.DrawMode = "three" if values["draw"] == "three" else "single"
    bonus, level = int(values["bonus"]), str(values["difficulty"])
    helpers = tuple(values["assist"] or ())
    assist = assistance(helpers)
    row = shadows.difficulty(level)
    minor = find_deck(setup.read("decks"), "minor")[1]
    extra = f" +{assist} assist" if helpers else ""
    penalty = off_focus(str(values.get("uses", OWN)), setup.pc)
    off = f" {penalty} off {shadows.focus_of(setup.pc)} focus" if penalty else ""
    total = bonus + assist + penalty  # the odds' modifier, and the title's
    return CheckSpec(
        summary=f"{MODES[mode]} +{bonus}{extra}{off} vs {row.name}",
        odds=lambda: shadows.check_odds(minor, total, row.name, mode),
        command=SkillDraw(setup.who, mode, bonus, row.name, assist, penalty),
        modifier=total,
        odds_title="{modifier} with assistance" if helpers else "from the deck as it stands",
        notes=(
            _assist_text(helpers),
            f"success {row.success} · critical {row.critical} · fumble 1-{row.fumble_max}",
        ),
    )


CHECK = Check(
    id="draw",
    name="skill draw",
    inputs=(
        CheckInput(
            "draw",
            "Draw",
            "cycle",
            default="single",
            press="t",
            choices=tuple(MODES),
            show=lambda v: MODES[str(v)],
            keep="roll",
        ),
        CheckInput(
            "bonus",
            "Skill + attribute",
            "number",
            default=0,
            steps=("right_square_bracket", "left_square_bracket"),
            minimum=0,
            maximum=MAX_SKILL,
            show=lambda v: f"+{v}",
            keep="roller",
        ),
        CheckInput(
            "difficulty",
            "Difficulty",
            "cycle",
            default="Normal",
            steps=("plus", "minus"),
            choices=shadows.DIFFICULTY_NAMES,
            when=lambda v: not _opposed(v),
        ),
        CheckInput(
            "assist",
            "Assistance",
            "typed",
            default=(),
            press="a",
            parse=parse_helpers,
            show=lambda v: " + ".join(str(s) for s in v) if v else "none",
            unparse=lambda v: " ".join(str(s) for s in v),
            once=True,
            hint="Helpers' skills for the next draw: the second helper's, then the third's "
            "(0 clears), e.g. 12 8",
        ),
        CheckInput(
            "uses",
            "Uses",
            "cycle",
            default=OWN,
            press="v",
            choices=USES,
            show=_uses_text,
            keep="roll",
        ),
        CheckInput(
            "damage",
            "Damage code",
            "cycle",
            default=DAMAGE_CODES[0],
            press="J",
            choices=DAMAGE_CODES,
            keep="roller",
        ),
        CheckInput(
            "opposition",
            "Opposition",
            "number",
            default=0,
            steps=("right_curly_bracket", "left_curly_bracket"),
            minimum=0,
            maximum=MAX_SKILL * 2,
            show=lambda v: f"+{v}",
            when=_opposed,
            keep="roll",
        ),
    ),  # fmt: skip
    spec=_spec,
    legend="a King (or three face cards) adds a card · a Queen grants a Major Arcana · "
    "a fumble draws the Major omen",
    flags=(
        CliFlag("draw", "single, three or opposed"),
        CliFlag("opposition", "the opposition's skill + attribute (an opposed draw)", "int"),
        CliFlag("bonus", "skill + attribute", "int"),
        CliFlag("difficulty", "Mundane … Absurd"),
    ),
)


# --- the table's cards -------------------------------------------------------------------------


def _contest_lines(rows: Rows) -> list[str]:
    found = find_contest(rows("decks"))
    if found is None:
        return []
    try:
        status = contest_status(found[1])
        running = not shadows.Contest.from_dict(found[1]).finished
    except (ValueError, TypeError, KeyError) as exc:
        return [f"Contest: damaged ({exc})"]
    return [f"Contest: {status}" + ("  (w draws · margin hidden)" if running else "")]


def foe_holders(rows: Rows) -> dict[str, str]:
    """The foes of the current encounter by their hand's holder (``foe:<id>``): their names."""
    meta = next((doc for _, doc in rows("meta")), {})
    current = meta.get("current_encounter") if isinstance(meta, dict) else None
    encounters = rows("encounters")
    doc = next((d for i, d in encounters if i == current), encounters[0][1] if encounters else {})
    return {
        FOE_PREFIX + str(c.get("id", "")): str(c.get("name", "?"))
        for c in doc.get("combatants", [])
        if isinstance(c, dict) and not (c.get("side") == "pc" and c.get("ref"))
    }


def _contest(ctx: Context) -> Doc | None:
    found = find_contest(ctx.read.rows("decks"))
    return found[1] if found is not None else None


def _contest_running(ctx: Context) -> bool:
    doc = _contest(ctx)
    return doc is not None and not shadows.Contest.from_dict(doc).finished


def _bonus(ctx: Context) -> int:
    return int(ctx.setup.get("bonus", 0)) + assistance(tuple(ctx.setup.get("assist") or ()))


def _held(ctx: Context) -> tuple[str, str] | None:
    """(holder, card key) of the highlighted card of the hand shown, if any."""
    if len(ctx.selection) == 2:
        return ctx.selection[0], ctx.selection[1]
    return None


def _last_card_roll(ctx: Context) -> tuple[int, int] | None:
    """The newest skill draw's card value and total: the usual target of a counter."""
    for _, entry in reversed(ctx.read.rows("log")):
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


def _counter_card(ctx: Context) -> str | None:
    held = _held(ctx)
    if held is None or ctx.pc_id is None or held[0] != str(ctx.pc_id):
        return None
    return held[1]


def _counter_form(ctx: Context) -> tuple[Field, ...]:
    last = _last_card_roll(ctx)
    value, total = (str(last[0]), str(last[1])) if last is not None else ("", "")
    return (
        Field("value", "The target's card value (1 Ace … 14 King)", value, "int", minimum=1,
              maximum=14),
        Field("total", "The target's total", total, "int", minimum=0, maximum=999),
        Field("suits", "Suits that may counter (blank: any)", required=False,
              suggestions=tuple(s.lower() for s in SUITS)),
    )  # fmt: skip


def _counter_title(ctx: Context) -> str:
    card = _counter_card(ctx)
    how = f"plays {card.split(':')[1]} of {card.split(':')[2]}" if card else "draws a card"
    return f"Counter: {ctx.pc_name} {how} (1 AP)"


def _counter(ctx: Context, values: Mapping[str, Any]) -> Command:
    return CounterAction(
        ctx.pc_id,
        int(values["value"]),
        int(values["total"]),
        parse_suits(str(values.get("suits") or "")),
        played=_counter_card(ctx),
        encounter_id=ctx.encounter_id,
    )


def _contest_form(ctx: Context) -> tuple[Field, ...]:
    return (
        Field("margin", "The winning margin (hidden from the table)", kind="int", minimum=1,
              maximum=99, secret=True),
        Field("bonus", "The opposition's bonus", "0", "int", minimum=0, maximum=MAX_SKILL * 2),
        Field("scoring", "Scored on", "draws", "choice", choices=("draws", "points")),
    )  # fmt: skip


def _contest_title(ctx: Context) -> str:
    running = " (replaces the running one)" if _contest_running(ctx) else ""
    return f"New contest{running}: {ctx.pc_name} +{_bonus(ctx)} vs the opposition"


def _start_contest(ctx: Context, values: Mapping[str, Any]) -> Command:
    scoring: Literal["draws", "points"] = "points" if values["scoring"] == "points" else "draws"
    return StartContest(
        int(values["margin"]), ctx.pc_name, "opposition", _bonus(ctx), int(values["bonus"]), scoring
    )


def _opposed_setup(ctx: Context) -> Setup:
    return Setup(ctx.setup, ctx.pc_id, ctx.pc, ctx.read.rows)


def _opposed_form(ctx: Context) -> tuple[Field, ...]:
    return (
        Field("bonus", "The opposition's skill + attribute",
              str(int(ctx.setup.get("opposition", 0) or 0)), "int", minimum=0,
              maximum=MAX_SKILL * 2),
    )  # fmt: skip


def _opposed_title(ctx: Context) -> str:
    """The draw as the tray has it set up, with the roller's exact chance to win."""
    spec = opposed_spec(_opposed_setup(ctx), int(ctx.setup.get("opposition", 0) or 0))
    win = next(iter(spec.odds().values()))
    return f"Opposed draw, {ctx.pc_name}: {spec.summary} · {float(win):.1%} to win"


def _opposed_draw(ctx: Context, values: Mapping[str, Any]) -> Command:
    return opposed_spec(_opposed_setup(ctx), int(values.get("bonus") or 0)).command


def _redraw(ctx: Context, values: Mapping[str, Any]) -> Command:
    held = _held(ctx)
    if held is None:
        raise RuleError("Show a hand (s) and highlight a card first")
    typed = [c.strip() for c in str(values.get("cards") or "").replace(";", ",").split(",")]
    cards = tuple(c for c in typed if c) or (held[1],)
    return RedrawCards(held[0], cards, ctx.encounter_id)


def _redraw_title(ctx: Context) -> str:
    held = _held(ctx)
    hand = find_deck(ctx.read.rows("decks"), "minor")[1].hand(held[0]) if held else []
    cards = ", ".join(c.label for c in hand) or "no cards"
    return f"Redraw (the first AP, once a round) · hand: {cards}"


def _redraw_form(ctx: Context) -> tuple[Field, ...]:
    held = _held(ctx)
    card = held[1].split(":") if held is not None else []
    first = f"{card[1]} of {card[2]}" if len(card) == 3 else ""
    return (
        Field("cards", f"Cards (up to {shadows.REDRAW_MAX}, commas between)", first,
              suggestions=(first,) if first else ()),
    )  # fmt: skip


def _fixed(command: Command) -> Callable[[Context, Mapping[str, Any]], Command]:
    return lambda ctx, values: command


def _tray(
    id: str,
    key: str,
    label: str,
    make: Callable[[Context, Mapping[str, Any]], Command],
    **more: Any,
) -> Action:
    return Action(id, "tray", key, label, make, **more)


CHECKS = CheckRules(
    checks=(CHECK,),
    cards=CardTable(
        play=lambda holder, key: PlayCards(holder, (key,)),
        holder=lambda pc: f"{pc.get('name', '?')} ({shadows.focus_of(pc)})",
        status=_contest_lines,
        others=foe_holders,
        empty="No hands dealt (h deals combat hands)",
    ),
    spends_once=frozenset({"opposed"}),  # SOH-07: the help was for this draw
)
ACTIONS: tuple[Action, ...] = (
    _tray("draw_card", "n", "Draw card", _fixed(DrawCards("minor", 1))),
    _tray("draw_major", "M", "Draw Major", _fixed(DrawCards("major", 1)), show=False),
    _tray(
        "deal", "h", "Deal hands", lambda ctx, v: DealHands(ctx.encounter_id),
        description="Deal combat hands, each by its character's focus",
    ),
    _tray(
        "focus", "f", "Focus", lambda ctx, v: SetFocus(need_pc(ctx, "Focus")), needs="pc",
        description="Change the rolling character's focus for the round",
    ),
    _tray(
        "redraw", "r", "Redraw", _redraw, show=False, form=_redraw_form,
        available=lambda ctx: _held(ctx) is not None,
        title=_redraw_title,
        description="Redraw up to three cards of the hand shown (forgo the first AP, once a round)",
    ),
    _tray(
        "counter", "e", "Counter", _counter, form=_counter_form, title=_counter_title,
        description="Counter the target's card and total (1 AP)",
    ),
    _tray(
        "opposed", "o", "Opposed", _opposed_draw, show=False, form=_opposed_form,
        title=_opposed_title,
        description="Opposed draw against the opposition's skill + attribute",
    ),
    _tray(
        "contest", "O", "New contest", _start_contest, show=False, form=_contest_form,
        title=_contest_title, description="New contest to a hidden margin",
    ),
    _tray("contest_draw", "w", "Contest draw", _fixed(ContestDraw()), available=_contest_running),
    _tray(
        "contest_end", "W", "End contest", _fixed(EndContest()), show=False,
        available=lambda ctx: _contest(ctx) is not None,
    ),
    _tray(
        "damage", "m", "Damage modifier",
        lambda ctx, v: DamageModifier(str(ctx.setup.get("damage", DAMAGE_CODES[0]))),
        show=False, description="Draw the damage modifier set up (J picks the code)",
    ),
    _tray("critical", "C", "Critical", _fixed(CriticalChain()), show=False,
          description="Critical chain"),
    _tray(
        "fumble", "F", "Fumble draw",
        lambda ctx, v: CombatFumble(int(v["value"]), ctx.pc_name), show=False,
        form=lambda ctx: (
            Field("value", "The weapon's fumble value (1-14)", kind="int", minimum=1, maximum=14),
        ),
        title=lambda ctx: "Combat fumble draw",
    ),
    _tray("shuffle", "x", "Shuffle", _fixed(Shuffle("minor")), show=False,
          description="Gather hands and discards and shuffle the Minor Arcana"),
    _tray("recall", "z", "Recall hands", _fixed(RecallHands("minor")), show=False),
)  # fmt: skip

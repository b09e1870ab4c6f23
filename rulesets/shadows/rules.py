"""Shadows of Humanity: tarot draws against a difficulty table, AP rounds, combat hands.

The decks are declared in :mod:`rulesets.shadows.tarot` (SOH-01), each on the table a
:class:`~rulesets.decks.DeckState`. Every function that draws takes the deck state and an
injected ``rng`` and mutates only the deck (cards drawn for a check end on its discard pile);
character dicts are never mutated, a new copy comes back. Held Major Arcana are card dicts in
``character["lists"]["major_arcana"]`` and, while held, in the Major deck's hand for that
character id, so the deck stays whole.

Reading: "draw value" in the difficulty table is the value of the single card or the middle
card, before any King/face extra card, because the fumble paragraph speaks of the card drawn.
Reading: a fumble is a "Critical Failure" whatever the total, because the text says the skill
check "automatically fails"; Critical Success needs the total at or above the table value.
Reading: the King / three-face extra card is drawn once and never chains, because only the
combat critical rule says the extra draw repeats.
Reading: the middle of three is the middle card by value; on equal values any of them is the
middle, which only matters for the Queen (rank) test.
Reading: assistance halves and quarters round down, as integer skills suggest.
Reading: an opposed tie is broken by each side drawing an additional card added to its total,
so the tie-break compares only the new cards (the text says "draw an additional card").
Reading: a multi-draw contest scored on points adds each side's draw totals; on draws, each
won draw scores 1; the hidden margin is kept in the state but left out of :meth:`Contest.public`.
Reading: a counter action compares card values only (not totals), as the text does.
Reading: hand sizes are Body + Physical // 2 (Mind + Mental // 2, Spirit + Emotional // 2),
rounding the half down, since only AP says "rounded up".
Reading: focus is each character's own (each player states their character's focus for the
round); a character who never stated one is physical. PCs and foes are dealt hands ("each
character/protagonist and/or NPC/Antagonist uses these cards"): a foe by its own sheet
(:mod:`rulesets.shadows.foes`), after the PCs. An incapacitated or dead character is dealt
nothing. An attack played from a hand costs 1 AP unless the GM says more (defence cards are
limited by the AP the attacker spent), and an attack type belongs to a focus (physical to
physical, spiritual magic to spiritual, mana magic to mental) for the −3 off focus.
Reading: a combat fumble check is triggered by an Ace played as the attack card, since the
difficulty table's wider fumble ranges belong to skill checks; a fumbled attack deals nothing.
Reading: the minor critical is the first card drawn because the attack card was a face card
and the defence had no face card (as SOH-16 states); each further face card draws another, and
each card drawn after a face card adds its value and, in the weapon's critical suit, is also a
Major Critical (its effect is on the GM's private table), because the text says those cards
"do more than just add additional damage". A face defence card is the one level of critical
the defender cancels, i.e. it stops the chain from starting.
Reading: criticals and the weapon modifier apply only to a hit (attack value above defence).
Reading: firearm Life damage is ceil(damage / 5), which is exactly the text's table for cards
1-5 → 1, 6-10 → 2, 11-14 → 3, and extends it to larger totals; Health takes the full damage.
Reading: resistance halves rounding down; vulnerability doubles; immunity is 0.
Reading: the text gives no maxima for Health, Life or Æssence, so they are set by hand
(default 20); AP per round is derived from Quickness.
Reading: Health at 0 makes a character "incapacitated" and Life at 0 "dead", because the text
says modern weapons put people down through Health while Life is their life force.
Reading: Quickness runs 1..16 on the sheet so AP per round spans the text's normal 6..13.
Reading: odds are exact over the deck as it stands: the draw pile's order is unknown to the
table, so every order of it is equally likely, and when it runs out mid-draw the discards are
shuffled in (every order again equally likely), as :meth:`DeckState.take` does; a pile of one
card makes that card certain. The King's or three faces' extra card is the next card the same
way; with none left anywhere it adds 0, in the draw and in the odds alike.
Reading: a redraw (SOH-11) "forgoes the first AP", so in a running AP round it is allowed only
before the combatant has spent any AP that round, costs that 1 AP, and happens at most once a
round (up to three cards in one go); outside an AP round it costs nothing.
Reading: after an opposed tie (SOH-08) both sides draw again and add, so the tie is broken by
the new cards alone; the two sides draw alike, so each wins it with chance one half, and the
exact odds of an opposed draw are those of the first draw with half of its ties each way.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import field, replace
from fractions import Fraction
from typing import Any, Literal

from rulesets import decks
from rulesets.base import (
    AttributeSpec,
    Character,
    CheckResult,
    ListSpec,
    ResourceSpec,
    Ruleset,
    SheetSpec,
    default_character,
    rng_or_new,
)
from rulesets.base import RuleError as _BaseRuleError
from rulesets.decks import GM as GM
from rulesets.decks import DeckError as DeckError
from rulesets.decks import hand_summary
from rulesets.shadows.tarot import SUITS, Card, as_card, deck_from_dict, new_deck
from rulesets.shadows.tarot import TarotDeck as DeckState  # every deck here is of tarot cards
from rulesets.values import frozen


class RuleError(_BaseRuleError):
    """An action the Shadows of Humanity rules do not allow; the message says why."""


# ---------------------------------------------------------------------------------------------
# SOH-05 difficulty table
# ---------------------------------------------------------------------------------------------

CRITICAL_FAILURE = "Critical Failure"
FAILURE = "Failure"
SUCCESS = "Success"
CRITICAL_SUCCESS = "Critical Success"
BANDS: tuple[str, ...] = (CRITICAL_FAILURE, FAILURE, SUCCESS, CRITICAL_SUCCESS)


@frozen
class Difficulty:
    """One row of the Complexity or Risk table (SOH-05)."""

    name: str
    fumble_max: int
    """Critical Failure on a draw value of 1 … this."""
    success: int
    critical: int


DIFFICULTIES: tuple[Difficulty, ...] = (
    Difficulty("Mundane", 1, 15, 30),
    Difficulty("Simple", 1, 20, 35),
    Difficulty("Normal", 1, 25, 40),
    Difficulty("Difficult", 2, 30, 45),
    Difficulty("Hard", 2, 35, 50),
    Difficulty("Very Hard", 3, 40, 60),
    Difficulty("Extremely Hard", 3, 45, 65),
    Difficulty("Absurd", 4, 50, 70),
)
DIFFICULTY_NAMES: tuple[str, ...] = tuple(d.name for d in DIFFICULTIES)


def difficulty(name: str | Difficulty) -> Difficulty:
    """Look up a difficulty by name, case-insensitively (SOH-05)."""
    if isinstance(name, Difficulty):
        return name
    for row in DIFFICULTIES:
        if row.name.lower() == str(name).strip().lower():
            return row
    raise RuleError(f"unknown difficulty {name!r}; use one of {', '.join(DIFFICULTY_NAMES)}")


def band_for(draw_value: int, total: int, level: str | Difficulty) -> str:
    """SOH-05: the band for a draw value (single or middle card) and a total."""
    row = difficulty(level)
    if draw_value <= row.fumble_max:
        return CRITICAL_FAILURE
    if total >= row.critical:
        return CRITICAL_SUCCESS
    if total >= row.success:
        return SUCCESS
    return FAILURE


def assistance_bonus(second_skill: int | None = None, third_skill: int | None = None) -> int:
    """SOH-07: half the second helper's skill plus a quarter of the third's (rounded down)."""
    bonus = (second_skill or 0) // 2
    if third_skill is not None:
        if second_skill is None:
            raise RuleError("a third helper needs a second helper first")
        bonus += third_skill // 4
    return bonus


# ---------------------------------------------------------------------------------------------
# SOH-02..06 all-or-nothing draws
# ---------------------------------------------------------------------------------------------

DrawMode = Literal["single", "three"]
UNCLAIMED = "unclaimed"
"""Major deck holder for a Queen's card when no character id was given."""


def middle_card(cards: Sequence[Card]) -> Card:
    """SOH-02: the middle card by value of three."""
    if len(cards) != 3:
        raise RuleError("the middle card needs exactly three cards")
    return sorted(cards, key=lambda c: c.value)[1]


@frozen
class SkillDraw:
    """One all-or-nothing draw resolved (SOH-02..06)."""

    mode: DrawMode
    cards: tuple[Card, ...]
    used: Card
    extra: Card | None
    bonus: int
    total: int
    difficulty: str
    band: str
    fumble: bool
    omen: Card | None = None
    """SOH-06: the Major Arcana the GM drew on a fumble."""
    granted: Card | None = None
    """SOH-04: the Major Arcana a Queen granted."""
    events: tuple[str, ...] = ()

    def log_lines(self) -> list[str]:
        """Plain lines for the roll log."""
        if self.mode == "single":
            lines = [f"single card: {self.used.name} ({self.used.value})"]
        else:
            drawn = ", ".join(c.name for c in self.cards)
            lines = [f"middle of three: {drawn} → {self.used.name} ({self.used.value})"]
        if self.extra is not None:
            lines.append(f"extra card {self.extra.name} adds {self.extra.value}")
        lines.append(f"total {self.total} vs {self.difficulty}: {self.band}")
        if self.omen is not None:
            lines.append(f"fumble omen: {self.omen.label} — {self.omen.meaning()}")
        if self.granted is not None:
            lines.append(f"Queen: Major Arcana {self.granted.label} granted")
        return lines + list(self.events)

    def as_check(self) -> CheckResult:
        """The draw as the app's generic :class:`CheckResult` (the two cards a middle-of-three
        draw does not use are marked dropped)."""
        values = [c.value for c in self.cards] + ([self.extra.value] if self.extra else [])
        used = next(i for i, c in enumerate(self.cards) if c is self.used)
        unused = tuple(i for i in range(len(self.cards)) if i != used)
        return CheckResult(
            expression=f"{self.mode} draw {self.bonus:+d} vs {self.difficulty}",
            total=self.total,
            dice=tuple(values),
            band=self.band,
            detail="; ".join(self.log_lines()),
            natural=self.used.value,
            dropped=unused,
        )


def _extra_due(mode: DrawMode, cards: Sequence[Card], used: Card) -> bool:
    """SOH-03: a single King, or three face cards."""
    if mode == "single":
        return used.rank == "King"
    return all(c.is_face for c in cards)


def skill_draw(
    rng: random.Random,
    deck: DeckState,
    *,
    skill: int = 0,
    attribute: int = 0,
    level: str | Difficulty = "Normal",
    mode: DrawMode = "single",
    assistance: int = 0,
    modifier: int = 0,
    major: DeckState | None = None,
    character_id: str | None = None,
) -> SkillDraw:
    """SOH-02..06: draw one card or three (middle used), add skill + attribute, read the band.

    A single King or three face cards draw one more card to add (SOH-03); a Queen as the card
    used grants a Major Arcana to ``character_id``'s hand of ``major`` (SOH-04); a fumble
    fails and the GM draws a Major Arcana omen to the discards (SOH-06). Without a ``major``
    deck a fresh shuffled one is used for that single draw.
    """
    if mode not in ("single", "three"):
        raise RuleError(f"draw mode is 'single' or 'three', not {mode!r}")
    row = difficulty(level)
    taken = deck.take(rng, 1 if mode == "single" else 3)
    cards = taken.cards
    events = list(taken.events)
    used = cards[0] if mode == "single" else middle_card(cards)
    extra: Card | None = None
    if _extra_due(mode, cards, used) and deck.available == 0:
        events.append("no card left to add to the total")
    elif _extra_due(mode, cards, used):
        more = deck.take(rng, 1)
        extra, events = more.cards[0], events + list(more.events)
    deck.put_discard(cards + ((extra,) if extra else ()))
    bonus = skill + attribute + assistance + modifier
    total = used.value + (extra.value if extra else 0) + bonus
    band = band_for(used.value, total, row)
    fumble = band == CRITICAL_FAILURE
    majors = major if major is not None else new_deck("major", rng)
    omen = granted = None
    if (fumble or used.rank == "Queen") and majors.available == 0:
        events.append("Major Arcana: every card is held, none to draw")
    elif fumble:
        drawn = majors.draw(rng, 1)
        omen, events = drawn.cards[0], events + list(drawn.events)
    elif used.rank == "Queen":
        drawn = majors.draw(rng, 1, to=character_id or UNCLAIMED)
        granted, events = drawn.cards[0], events + list(drawn.events)
    return SkillDraw(
        mode, cards, used, extra, bonus, total, row.name, band, fumble, omen, granted, tuple(events)
    )


def _deck_option(value: Any, kind: Literal["minor", "major"], rng: random.Random) -> DeckState:
    if value is None:
        return new_deck(kind, rng)
    if isinstance(value, decks.DeckState):
        return value
    return deck_from_dict(value)


def check(rng: random.Random | None = None, **options: Any) -> CheckResult:
    """The ruleset's standard check: ``skill``, ``attribute``, ``difficulty``, ``mode``,
    ``assistance``, ``modifier``, ``deck``/``major`` (DeckState, its dict, or None for a fresh
    shuffle) and ``character_id``. Mutates a DeckState passed in."""
    rng = rng_or_new(rng)
    result = skill_draw(
        rng,
        _deck_option(options.get("deck"), "minor", rng),
        skill=int(options.get("skill", 0)),
        attribute=int(options.get("attribute", 0)),
        level=options.get("difficulty", "Normal"),
        mode=options.get("mode", "single"),
        assistance=int(options.get("assistance", 0)),
        modifier=int(options.get("modifier", 0)),
        major=_deck_option(options["major"], "major", rng) if options.get("major") else None,
        character_id=options.get("character_id"),
    )
    return result.as_check()


# ---------------------------------------------------------------------------------------------
# SOH-04 held Major Arcana
# ---------------------------------------------------------------------------------------------


def _copy(character: Character) -> Character:
    return copy.deepcopy(character)


def held_major_arcana(character: Character) -> list[Card]:
    """The Major Arcana listed on the sheet."""
    return [as_card(c) for c in character.get("lists", {}).get("major_arcana", [])]


def grant_major_arcana(character: Character, card: Card) -> Character:
    """SOH-04: list a granted Major Arcana on the sheet; returns a new character dict."""
    if card.deck != "major":
        raise RuleError(f"{card.name} is not a Major Arcana card")
    new = _copy(character)
    new.setdefault("lists", {}).setdefault("major_arcana", []).append(card.to_dict())
    return new


def _drop_listed(character: Character, card: Card) -> Character:
    new = _copy(character)
    listed = new.setdefault("lists", {}).setdefault("major_arcana", [])
    for i, entry in enumerate(listed):
        if as_card(entry).key == card.key:
            del listed[i]
            return new
    raise RuleError(f"{character.get('name', '?')} holds no {card.name}")


@frozen
class FateUse:
    """A Major Arcana spent as Fate intervening (SOH-04)."""

    character: Character
    card: Card
    meaning: str
    log: tuple[str, ...]


def use_major_arcana(
    major: DeckState,
    character: Character,
    character_id: str,
    card_name: str,
    reversed_meaning: bool = False,
) -> FateUse:
    """SOH-04: spend a held Major Arcana; the player picks upright or reversed meaning."""
    wanted = next((c for c in held_major_arcana(character) if c.name == card_name), None)
    if wanted is None:
        raise RuleError(f"{character.get('name', '?')} holds no {card_name}")
    new = _drop_listed(character, wanted)
    if any(c.key == wanted.key for c in major.hand(character_id)):
        major.play(character_id, [wanted])
    meaning = wanted.meaning(reversed_meaning)
    side = "reversed" if reversed_meaning else "upright"
    line = f"{character.get('name', '?')} invokes {wanted.name} ({side}): {meaning}"
    return FateUse(new, wanted, meaning, (line,))


@frozen
class SessionEnd:
    """Characters after the session's Major Arcana are returned (SOH-04)."""

    characters: dict[str, Character]
    log: tuple[str, ...]


def end_session(
    major: DeckState,
    characters: Mapping[str, Character],
    keep: Mapping[str, str | None] | None = None,
) -> SessionEnd:
    """SOH-04: return held Major Arcana to the deck; each character keeps at most one the GM names.

    ``keep`` maps character id → the name of the one card to carry over (GM's option).
    """
    keep = keep or {}
    result: dict[str, Character] = {}
    log: list[str] = []
    for cid, character in characters.items():
        kept_name = keep.get(cid)
        held = held_major_arcana(character)
        if kept_name is not None and kept_name not in {c.name for c in held}:
            raise RuleError(f"{character.get('name', cid)} holds no {kept_name} to carry over")
        new = _copy(character)
        kept = [c for c in held if c.name == kept_name][:1]
        new.setdefault("lists", {})["major_arcana"] = [c.to_dict() for c in kept]
        for card in major.hand(cid):
            if not kept or card.key != kept[0].key:
                major.play(cid, [card])
        name = character.get("name", cid)
        log.append(f"{name} carries over {kept[0].name}" if kept else f"{name} returns all arcana")
        result[cid] = new
    return SessionEnd(result, tuple(log))


# ---------------------------------------------------------------------------------------------
# SOH-08 opposed actions and contests
# ---------------------------------------------------------------------------------------------

Side = Literal["a", "b"]


@frozen
class OpposedDraw:
    """SOH-08: each side's cards (ties add another), totals and the winner."""

    cards_a: tuple[Card, ...]
    cards_b: tuple[Card, ...]
    total_a: int
    total_b: int
    winner: Side
    events: tuple[str, ...] = ()

    def log_lines(self) -> list[str]:
        a = ", ".join(c.name for c in self.cards_a)
        b = ", ".join(c.name for c in self.cards_b)
        return [f"A {a} = {self.total_a}; B {b} = {self.total_b}; {self.winner.upper()} wins"]


def opposed_draw(rng: random.Random, deck: DeckState, bonus_a: int, bonus_b: int) -> OpposedDraw:
    """SOH-08: each side draws a card + skill + attribute; on a tie both draw again and add."""
    cards_a: list[Card] = []
    cards_b: list[Card] = []
    events: list[str] = []
    total_a, total_b = bonus_a, bonus_b
    while True:
        drawn = deck.draw(rng, 2)
        events.extend(drawn.events)
        cards_a.append(drawn.cards[0])
        cards_b.append(drawn.cards[1])
        total_a += drawn.cards[0].value
        total_b += drawn.cards[1].value
        if total_a != total_b:
            winner: Side = "a" if total_a > total_b else "b"
            return OpposedDraw(
                tuple(cards_a), tuple(cards_b), total_a, total_b, winner, tuple(events)
            )


@frozen
class Contest:
    """SOH-08: a multi-draw contest scored on won draws or points until a hidden margin.

    ``margin`` is the GM's secret lead needed to win; ``max_draws`` an optional length. At
    least one of them must be set.
    """

    margin: int | None = None
    max_draws: int | None = None
    scoring: Literal["draws", "points"] = "draws"
    score_a: int = 0
    score_b: int = 0
    history: tuple[tuple[int, int], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.margin is None and self.max_draws is None:
            raise RuleError("a contest needs a winning margin, a number of draws, or both")
        if self.scoring not in ("draws", "points"):
            raise RuleError("a contest is scored on 'draws' or 'points'")

    @property
    def winner(self) -> Side | None:
        """The side declared winner, or None while it runs (or if level at the end)."""
        lead = self.score_a - self.score_b
        ended = self.max_draws is not None and len(self.history) >= self.max_draws
        if (self.margin is not None and abs(lead) >= self.margin) or (ended and lead):
            return "a" if lead > 0 else "b"
        return None

    @property
    def finished(self) -> bool:
        ended = self.max_draws is not None and len(self.history) >= self.max_draws
        return self.winner is not None or ended

    def draw(
        self, rng: random.Random, deck: DeckState, bonus_a: int, bonus_b: int
    ) -> tuple[Contest, OpposedDraw]:
        """One more opposed draw, scored; returns the new contest and the draw."""
        if self.finished:
            raise RuleError("the contest is already decided")
        result = opposed_draw(rng, deck, bonus_a, bonus_b)
        if self.scoring == "draws":
            add_a, add_b = (1, 0) if result.winner == "a" else (0, 1)
        else:
            add_a, add_b = result.total_a, result.total_b
        return (
            replace(
                self,
                score_a=self.score_a + add_a,
                score_b=self.score_b + add_b,
                history=self.history + ((result.total_a, result.total_b),),
            ),
            result,
        )

    def public(self) -> dict[str, Any]:
        """What the players may see: scores and draws, not the margin."""
        data = self.to_dict()
        data.pop("margin")
        return data

    def to_dict(self) -> dict[str, Any]:
        return {
            "margin": self.margin,
            "max_draws": self.max_draws,
            "scoring": self.scoring,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "history": [list(h) for h in self.history],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Contest:
        return cls(
            data.get("margin"),
            data.get("max_draws"),
            data.get("scoring", "draws"),
            int(data.get("score_a", 0)),
            int(data.get("score_b", 0)),
            tuple((int(a), int(b)) for a, b in data.get("history", [])),
        )


# ---------------------------------------------------------------------------------------------
# SOH-09 counter actions
# ---------------------------------------------------------------------------------------------

SUIT_FOCUS: dict[str, str] = {
    "Cups": "Water, Emotion, Intuition, Creativity, Empathy — social activities, Dodge, "
    "bleeding wounds",
    "Coins": "Earth, Health, Wealth, Physical — trade/artisan activities, Resistance, "
    "skeletal/musculature wounds",
    "Swords": "Air, Thought, Challenge, Observation — melee/missile combat, stunning wounds",
    "Wands": "Fire, Creativity, Action, Motivation, Passion — spell casting/magic, Parry, "
    "internal organ/tissue wounds",
}
"""The suits' focus, for the GM judging which suit may counter an action (SOH-09)."""


@frozen
class CounterResult:
    """SOH-09: a counter action against a target's draw."""

    counter_card: Card
    target_card: Card
    suit_appropriate: bool
    success: bool
    reduction: int
    target_total: int
    new_target_total: int
    ap_cost: int

    def log_lines(self) -> list[str]:
        if not self.success:
            why = "wrong suit" if not self.suit_appropriate else "not higher"
            return [f"counter {self.counter_card.name} fails ({why}); costs {self.ap_cost} AP"]
        return [
            f"counter {self.counter_card.name} beats {self.target_card.name}: target "
            f"{self.target_total} − {self.reduction} = {self.new_target_total}; "
            f"costs {self.ap_cost} AP"
        ]


def counter_action(
    counter_card: Card,
    target_card: Card,
    target_total: int,
    appropriate_suits: Collection[str],
    ap_cost: int = 1,
) -> CounterResult:
    """SOH-09: an appropriate suit and a higher card subtract the difference from the target."""
    suited = counter_card.suit in appropriate_suits
    success = suited and counter_card.value > target_card.value
    reduction = counter_card.value - target_card.value if success else 0
    return CounterResult(
        counter_card, target_card, suited, success, reduction, target_total,
        target_total - reduction, ap_cost,
    )  # fmt: skip


def draw_counter(
    rng: random.Random,
    deck: DeckState,
    target_card: Card,
    target_total: int,
    appropriate_suits: Collection[str],
    ap_cost: int = 1,
) -> CounterResult:
    """SOH-09: draw the counter card from the Minor Arcana and resolve it."""
    card = deck.draw(rng, 1).cards[0]
    return counter_action(card, target_card, target_total, appropriate_suits, ap_cost)


# ---------------------------------------------------------------------------------------------
# SOH-10 action points
# ---------------------------------------------------------------------------------------------


def ap_per_round(quickness: int) -> int:
    """SOH-10: 5 + Quickness / 2 rounded up (6..13 for Quickness 1..16)."""
    return 5 + math.ceil(quickness / 2)


def acting_order(quickness_by_id: Mapping[str, int]) -> list[str]:
    """SOH-10: who typically acts first — higher Quickness first, ties in the given order."""
    return sorted(quickness_by_id, key=lambda cid: -quickness_by_id[cid])


def spend_ap(current: int, cost: int = 1) -> int:
    """SOH-10: AP left after an action; refuses to overspend."""
    if cost < 0:
        raise RuleError("an action cannot cost negative AP")
    if cost > current:
        raise RuleError(f"that needs {cost} AP; only {current} left this round")
    return current - cost


# ---------------------------------------------------------------------------------------------
# SOH-11/12 combat hands
# ---------------------------------------------------------------------------------------------

Focus = Literal["physical", "mental", "spiritual"]
FOCUS_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "physical": ("body", "physical"),
    "mental": ("mind", "mental"),
    "spiritual": ("spirit", "emotional"),
}
FOCUSES: tuple[Focus, ...] = ("physical", "mental", "spiritual")
DEFAULT_FOCUS: Focus = "physical"
OFF_FOCUS_PENALTY = -3
ATTACK_FOCUS: dict[str, Focus] = {
    "physical": "physical",
    "spiritual": "spiritual",
    "mana": "mental",
}
"""The focus an attack type belongs to: mana magic is a mental effect, spiritual magic a
spiritual one (the text's focus list)."""


def focus_of(character: Mapping[str, Any] | None) -> Focus:
    """SOH-11: the focus a character stated for the round (``character["focus"]``); a sheet
    that never stated one (saves from before focus was each character's) is physical."""
    focus = character.get("focus") if isinstance(character, Mapping) else None
    return next((f for f in FOCUSES if f == focus), DEFAULT_FOCUS)


def next_focus(focus: str) -> Focus:
    """The focus after ``focus`` in :data:`FOCUSES` (the GM cycles a character's focus)."""
    at = FOCUSES.index(focus) if focus in FOCUSES else -1
    return FOCUSES[(at + 1) % len(FOCUSES)]


def dealt_in(character: Mapping[str, Any]) -> bool:
    """SOH-11: only a character still in the fight is dealt a hand (not incapacitated, dead)."""
    return bool(character.get("status", "alive") == "alive")


def hand_size(attributes: Mapping[str, int], focus: str) -> int:
    """SOH-11: Body + ½ Physical, Mind + ½ Mental or Spirit + ½ Emotional, by the focus."""
    if focus not in FOCUS_ATTRIBUTES:
        raise RuleError(f"focus is one of {', '.join(FOCUS_ATTRIBUTES)}, not {focus!r}")
    whole, half = FOCUS_ATTRIBUTES[focus]
    return max(0, int(attributes.get(whole, 0)) + int(attributes.get(half, 0)) // 2)


def off_focus_penalty(round_focus: str, action_focus: str) -> int:
    """SOH-11: −3 to an action using an attribute outside the round's stated focus."""
    return 0 if round_focus == action_focus else OFF_FOCUS_PENALTY


@frozen
class CombatDeal:
    """SOH-11: cards dealt per combatant at the start of a round."""

    dealt: dict[str, int]
    wanted: dict[str, int]
    events: tuple[str, ...]


def deal_combat_hands(rng: random.Random, deck: DeckState, sizes: Mapping[str, int]) -> CombatDeal:
    """SOH-11: the GM gathers and shuffles the Minor Arcana, then deals round-robin.

    ``sizes`` maps combatant id → :func:`hand_size`. If the deck cannot cover every hand, the
    deal stops when it runs out and says so.
    """
    events = [deck.gather_and_shuffle(rng)]
    dealt = dict.fromkeys(sizes, 0)
    turn = 0
    # Round by round while cards remain: a huge size (a typo, a fuzzer) ends with the deck.
    while deck.draw_pile and any(size > turn for size in sizes.values()):
        for cid, size in sizes.items():
            if turn < size and deck.draw_pile:
                deck.give(cid, [deck.draw_pile.pop(0)])
                dealt[cid] += 1
        turn += 1
    for cid, size in sizes.items():
        if dealt[cid] < size:
            events.append(f"Minor Arcana ran out: {cid} is short of {size - dealt[cid]} cards")
    return CombatDeal(dealt, dict(sizes), tuple(events))


@frozen
class Redraw:
    """SOH-11: cards discarded and re-dealt, at the cost of the first AP."""

    discarded: tuple[Card, ...]
    drawn: tuple[Card, ...]
    ap_cost: int
    events: tuple[str, ...]


REDRAW_MAX = 3
"""SOH-11: cards a combatant may discard and be re-dealt in one redraw."""


def check_redraw(name: str, ap: int, ap_max: int, redrawn_this_round: bool) -> None:
    """SOH-11: a redraw in a running AP round forgoes the first AP: none spent yet this round,
    one redraw a round (see the module's Reading).

    Raises:
        RuleError: the combatant already redrew, or already spent AP, this round.
    """
    if redrawn_this_round:
        raise RuleError(f"{name} has already redrawn this round (once a round)")
    if ap <= 0 or ap < ap_max:
        raise RuleError(
            f"{name} has already spent AP this round ({ap}/{ap_max}): a redraw forgoes the "
            "first AP"
        )


def redraw_hand(
    rng: random.Random, deck: DeckState, holder: str, cards: Sequence[Card | Mapping[str, Any]]
) -> Redraw:
    """SOH-11: forgo the first AP to discard up to three cards and be re-dealt as many."""
    if len(cards) > REDRAW_MAX:
        raise RuleError(f"a combatant may discard and be re-dealt at most {REDRAW_MAX} cards")
    discarded = deck.play(holder, cards)
    drawn = deck.draw(rng, len(discarded), to=holder)
    return Redraw(discarded, drawn.cards, 1, drawn.events)


def effort_allowed(cards: Sequence[Card], ap_spent: int) -> bool:
    """SOH-11: cards beyond the AP spent are extra effort, allowed only if none is a face card."""
    return len(cards) <= ap_spent or not any(c.is_face for c in cards)


# ---------------------------------------------------------------------------------------------
# SOH-13 defence
# ---------------------------------------------------------------------------------------------

AttackType = Literal["physical", "spiritual", "mana"]
ATTACK_SUITS: dict[str, str] = {"physical": "Swords", "spiritual": "Cups", "mana": "Wands"}
DEFENCE_ATTRIBUTES: dict[str, str] = {
    "physical": "quickness",
    "spiritual": "intuition",
    "mana": "discipline",
}
COVER_BONUSES: tuple[int, ...] = (0, 5, 10, 15, 20)


@frozen
class Defence:
    """SOH-13: a defender's value against one attack."""

    attack_type: str
    attribute: str
    base: int
    cards: tuple[Card, ...]
    card_total: int
    cover: int
    armour: int
    total: int

    @property
    def ap_spent(self) -> int:
        return len(self.cards)

    @property
    def has_face(self) -> bool:
        """A face card among the defence cards cancels one level of critical (SOH-16)."""
        return any(c.is_face for c in self.cards)

    def log_lines(self) -> list[str]:
        parts = [f"{self.attribute} {self.base}"]
        parts += [f"{c.name} {c.value * (2 if c.suit == 'Coins' else 1)}" for c in self.cards]
        if self.cover:
            parts.append(f"cover/movement {self.cover}")
        if self.armour:
            parts.append(f"armour {self.armour}")
        return [f"defence {self.total} = " + " + ".join(parts)]


def defence(
    attributes: Mapping[str, int],
    attack_type: str = "physical",
    cards: Sequence[Card | Mapping[str, Any]] = (),
    attacker_ap: int = 1,
    cover: int = 0,
    armour: int = 0,
    accuracy: int = 0,
) -> Defence:
    """SOH-13: Quickness (Intuition vs spiritual, Discipline vs mana magic) + cards + cover.

    One card per AP spent, at most the attacker's AP; Coins count double. ``cover`` is the
    cover *or* movement bonus (0/5/10/15/20); a ranged attacker's ``accuracy`` offsets it.
    """
    if attack_type not in DEFENCE_ATTRIBUTES:
        raise RuleError(f"attack type is one of {', '.join(DEFENCE_ATTRIBUTES)}")
    if cover not in COVER_BONUSES:
        raise RuleError("cover or movement gives +5, +10, +15 or +20")
    played = tuple(as_card(c) for c in cards)
    if len(played) > attacker_ap:
        raise RuleError(f"at most {attacker_ap} defence cards (the AP the attacker spent)")
    attribute = DEFENCE_ATTRIBUTES[attack_type]
    base = int(attributes.get(attribute, 0))
    card_total = sum(c.value * (2 if c.suit == "Coins" else 1) for c in played)
    cover_left = max(0, cover - max(0, accuracy))
    total = base + card_total + cover_left + armour
    return Defence(attack_type, attribute, base, played, card_total, cover_left, armour, total)


# ---------------------------------------------------------------------------------------------
# SOH-15 damage modifiers, SOH-16 criticals, SOH-14 attack damage
# ---------------------------------------------------------------------------------------------

DAMAGE_MODIFIERS: dict[str, tuple[int, str]] = {
    "D1": (1, "Draw one card and use its value as the added damage"),
    "D2": (2, "Draw two cards and add both values as the added damage"),
    "L2": (2, "Draw two cards and use the lower value as the added damage"),
    "H2": (2, "Draw two cards and use the higher value as the added damage"),
    "L3": (3, "Draw three cards and add the lower and middle values as the added damage"),
    "H3": (3, "Draw three cards and add the middle and higher values as the added damage"),
    "M3": (3, "Draw three cards and use the middle of the three values as the added damage"),
}


def modifier_value(code: str, values: Sequence[int]) -> int:
    """SOH-15: the added damage a modifier code makes of the drawn card values."""
    code = code.strip().upper()
    if code not in DAMAGE_MODIFIERS:
        raise RuleError(f"damage modifier is one of {', '.join(DAMAGE_MODIFIERS)}, not {code!r}")
    if len(values) != DAMAGE_MODIFIERS[code][0]:
        raise RuleError(f"{code} needs {DAMAGE_MODIFIERS[code][0]} cards")
    v = sorted(values)
    return {
        "D1": lambda: v[0],
        "D2": lambda: v[0] + v[1],
        "L2": lambda: v[0],
        "H2": lambda: v[1],
        "L3": lambda: v[0] + v[1],
        "H3": lambda: v[1] + v[2],
        "M3": lambda: v[1],
    }[code]()


@frozen
class ModifierDraw:
    """SOH-15: a weapon's damage modifier drawn."""

    code: str
    cards: tuple[Card, ...]
    value: int
    events: tuple[str, ...] = ()


def draw_damage_modifier(rng: random.Random, deck: DeckState, code: str) -> ModifierDraw:
    """SOH-15: draw the modifier's cards from the Minor Arcana and read them."""
    code = code.strip().upper()
    if code not in DAMAGE_MODIFIERS:
        raise RuleError(f"damage modifier is one of {', '.join(DAMAGE_MODIFIERS)}, not {code!r}")
    drawn = deck.draw(rng, DAMAGE_MODIFIERS[code][0])
    value = modifier_value(code, [c.value for c in drawn.cards])
    return ModifierDraw(code, drawn.cards, value, drawn.events)


CriticalLevel = Literal["none", "minor", "major"]


@frozen
class Critical:
    """SOH-16: the critical chain after a face attack card beats a non-face defence."""

    cards: tuple[Card, ...]
    major_cards: tuple[Card, ...]
    """Cards after a face card in the weapon's critical suit: Major Critical effects."""
    bonus: int
    events: tuple[str, ...] = ()

    @property
    def level(self) -> CriticalLevel:
        if self.major_cards:
            return "major"
        return "minor" if self.cards else "none"


def critical_chain(
    rng: random.Random, deck: DeckState, critical_suit: str | None = None
) -> Critical:
    """SOH-16: draw the minor critical card; while the last card is a face card, draw again.

    Every card's value is added; a card after a face card in ``critical_suit`` is also a
    Major Critical. The chain stops if the deck has nothing left to draw.
    """
    cards: list[Card] = []
    majors: list[Card] = []
    events: list[str] = []
    while not cards or cards[-1].is_face:
        if deck.available == 0:
            events.append("Minor Arcana exhausted: the critical chain stops")
            break
        drawn = deck.take(rng, 1)
        events.extend(drawn.events)
        card = drawn.cards[0]
        if cards and critical_suit is not None and card.suit == critical_suit:
            majors.append(card)
        cards.append(card)
    deck.put_discard(cards)
    return Critical(tuple(cards), tuple(majors), sum(c.value for c in cards), tuple(events))


@frozen
class CombatFumble:
    """SOH-06: the extra Minor card drawn when an Ace is played to attack."""

    card: Card
    fumble_value: int
    fumbled: bool


def combat_fumble(rng: random.Random, deck: DeckState, fumble_value: int) -> CombatFumble:
    """SOH-06: draw a Minor card; a fumble if it is ≤ the weapon's fumble value."""
    card = deck.draw(rng, 1).cards[0]
    return CombatFumble(card, fumble_value, card.value <= fumble_value)


@frozen
class AttackResult:
    """SOH-14..16: one attack card played against a defence."""

    attack_card: Card
    attack_value: int
    defence: int
    hit: bool
    suit_match: bool
    base_damage: int
    modifier: ModifierDraw | None
    critical: Critical | None
    fumble: CombatFumble | None
    damage: int
    log: tuple[str, ...]


def attack_value(card: Card, attack_skill: int, modifier: int = 0) -> int:
    """SOH-14: the attack card plus the attack skill (plus e.g. the −3 off focus)."""
    return card.value + attack_skill + modifier


def base_damage(card: Card, margin: int, attack_type: str) -> tuple[bool, int]:
    """SOH-14: full margin with the attack type's suit, else 1 (before the weapon modifier)."""
    if attack_type not in ATTACK_SUITS:
        raise RuleError(f"attack type is one of {', '.join(ATTACK_SUITS)}")
    match = card.suit == ATTACK_SUITS[attack_type]
    return match, (margin if match else 1)


def resolve_attack(
    rng: random.Random,
    deck: DeckState,
    attack_card: Card | Mapping[str, Any],
    attack_skill: int,
    defence_value: Defence | int,
    attack_type: str = "physical",
    damage_code: str | None = None,
    critical_suit: str | None = None,
    fumble_value: int = 0,
    modifier: int = 0,
    defence_face: bool | None = None,
) -> AttackResult:
    """SOH-14..16 (and SOH-06 in combat): damage of an attack card already played from hand.

    ``defence_value`` is a :class:`Defence` (its face cards count) or a number with
    ``defence_face`` saying whether a face card defended. Extra cards come from ``deck``.
    """
    card = as_card(attack_card)
    if isinstance(defence_value, Defence):
        total_defence, face_def = defence_value.total, defence_value.has_face
    else:
        total_defence, face_def = int(defence_value), bool(defence_face)
    value = attack_value(card, attack_skill, modifier)
    extra = f" {modifier:+d}" if modifier else ""
    log = [f"attack {card.name}: {card.value} + {attack_skill}{extra} = {value} vs {total_defence}"]
    fumble = combat_fumble(rng, deck, fumble_value) if card.value == 1 else None
    if fumble is not None:
        log.append(f"Ace: fumble check {fumble.card.name} vs {fumble_value}: "
                   + ("FUMBLE" if fumble.fumbled else "no fumble"))  # fmt: skip
    margin = value - total_defence
    if (fumble is not None and fumble.fumbled) or margin <= 0:
        match = card.suit == ATTACK_SUITS.get(attack_type)
        log.append("no damage")
        return AttackResult(
            card, value, total_defence, False, match, 0, None, None, fumble, 0, tuple(log)
        )
    match, base = base_damage(card, margin, attack_type)
    log.append(f"{'suit matches' if match else 'off suit'}: {base}")
    mod = draw_damage_modifier(rng, deck, damage_code) if damage_code else None
    if mod is not None:
        log.append(f"{mod.code}: {', '.join(c.name for c in mod.cards)} → +{mod.value}")
    crit = critical_chain(rng, deck, critical_suit) if card.is_face and not face_def else None
    if crit is not None:
        log.append(
            f"{crit.level} critical: {', '.join(c.name for c in crit.cards)} → +{crit.bonus}"
            + (f"; Major Critical {', '.join(c.name for c in crit.major_cards)}"
               if crit.major_cards else "")
        )  # fmt: skip
    damage = base + (mod.value if mod else 0) + (crit.bonus if crit else 0)
    log.append(f"damage {damage}")
    return AttackResult(
        card, value, total_defence, True, match, base, mod, crit, fumble, damage, tuple(log)
    )


# ---------------------------------------------------------------------------------------------
# SOH-17 damage to Health, Life and Æssence
# ---------------------------------------------------------------------------------------------

POOLS: tuple[str, ...] = ("health", "life", "aessence")
POOL_LABELS: dict[str, str] = {"health": "Health", "life": "Life", "aessence": "Æssence"}
Susceptibility = Literal["normal", "vulnerable", "resistant", "immune"]


def firearm_life_damage(damage: int) -> int:
    """SOH-17: firearms deal a fifth of their damage to Life, rounded up (1-5 → 1, 6-10 → 2)."""
    return max(0, math.ceil(damage / 5))


def scale_damage(amount: int, modifier: str = "normal") -> int:
    """SOH-17: vulnerability ×2, resistance ½ (rounded down), immunity 0."""
    factors = {"normal": (1, 1), "vulnerable": (2, 1), "resistant": (1, 2), "immune": (0, 1)}
    if modifier not in factors:
        raise RuleError(f"damage modifier is one of {', '.join(factors)}, not {modifier!r}")
    times, per = factors[modifier]
    return max(0, amount) * times // per


@frozen
class DamageOutcome:
    """SOH-17: damage applied to one pool; ``character`` is the new dict."""

    character: Character
    pool: str
    amount: int
    applied: int
    before: int
    after: int
    log: tuple[str, ...]


def apply_damage(
    character: Character,
    amount: int,
    pool: str = "health",
    modifier: str = "normal",
    firearm: bool = False,
) -> DamageOutcome:
    """SOH-17: take damage on Health, Life or Æssence (firearm Life damage is a fifth)."""
    if pool not in POOLS:
        raise RuleError(f"pool is one of {', '.join(POOLS)}, not {pool!r}")
    raw = firearm_life_damage(amount) if firearm and pool == "life" else max(0, amount)
    applied = scale_damage(raw, modifier)
    new = _copy(character)
    res = new.setdefault("resources", {}).setdefault(pool, {"current": 0, "max": 0})
    before = int(res.get("current", 0))
    res["current"] = max(0, before - applied)
    after = res["current"]
    label = POOL_LABELS[pool]
    how = [f"firearm ÷5 → {raw}"] if raw != amount else []
    if modifier != "normal":
        how.append(f"{modifier} → {applied}")
    note = f" ({'; '.join(how)})" if how else ""
    log = [f"{new.get('name', '?')} takes {applied} {label}{note}: {before} → {after}"]
    if after == 0 and before > 0:
        status = {"health": "incapacitated", "life": "dead"}.get(pool)
        if status and new.get("status") != "dead":
            new["status"] = status
            log.append(f"{new.get('name', '?')} is {status}")
    return DamageOutcome(new, pool, amount, applied, before, after, tuple(log))


def apply_hit(
    character: Character,
    damage: int,
    pools: Sequence[str] = ("health", "life"),
    modifier: str = "normal",
    firearm: bool = False,
) -> DamageOutcome:
    """SOH-17: one hit's damage to several pools (a weapon: Health and Life); the last outcome
    carries the final character and every log line."""
    if not pools:
        raise RuleError("a hit must damage at least one pool")
    log: list[str] = []
    outcome: DamageOutcome | None = None
    for pool in pools:
        outcome = apply_damage(character, damage, pool, modifier, firearm)
        character = outcome.character
        log.extend(outcome.log)
    assert outcome is not None
    return replace(outcome, log=tuple(log))


# ---------------------------------------------------------------------------------------------
# GEN-02 exact odds
# ---------------------------------------------------------------------------------------------


def _value_counts(deck_cards: Sequence[Card | Mapping[str, Any]]) -> Counter[int]:
    return Counter(c.value for c in map(as_card, deck_cards) if c.deck == "minor")


def _hands(counts: Counter[int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every multiset of ``k`` card values from ``counts`` (sorted) and its ways, up to a
    factor the same for all."""
    values = sorted(v for v, c in counts.items() if c)
    for combo in itertools.combinations_with_replacement(values, k):
        ways = 1
        for v in set(combo):
            ways *= math.comb(counts[v], combo.count(v))
        if ways:
            yield combo, ways


def draw_odds(
    deck_cards: Sequence[Card | Mapping[str, Any]],
    bonus: int,
    level: str | Difficulty = "Normal",
    mode: DrawMode = "single",
    discard: Sequence[Card | Mapping[str, Any]] = (),
) -> dict[str, Fraction]:
    """GEN-02 / SOH-02..05: exact chance of each band of :func:`skill_draw`.

    ``deck_cards`` is the draw pile (its order unknown), ``discard`` the discards shuffled in
    if the pile runs out; ``bonus`` is skill + attribute + assistance + modifiers. The King
    (single) or three-face (three) extra card is the next card drawn, or 0 with none left.
    """
    row = difficulty(level)
    if mode not in ("single", "three"):
        raise RuleError(f"draw mode is 'single' or 'three', not {mode!r}")
    pile, spare = _value_counts(deck_cards), _value_counts(discard)
    n = sum(pile.values()) + sum(spare.values())
    need = 1 if mode == "single" else 3
    if n < need:
        raise RuleError(f"a {mode} draw needs {need} Minor Arcana cards; {n} given")
    weights = dict.fromkeys(BANDS, 0)
    # Ways over one denominator: a hand counts once per card that could come next, whether or
    # not it is drawn (the next card comes from what is left of the pile, else the discards).
    on_pile = sum(pile.values())
    next_ways = on_pile - need if on_pile > need else n - need
    from_pile = min(need, on_pile)  # the rest of the hand comes from the shuffled discards
    for top, top_ways in _hands(pile, from_pile):
        for bottom, bottom_ways in _hands(spare, need - from_pile):
            values, ways = top + bottom, top_ways * bottom_ways
            used = values[0] if need == 1 else sorted(values)[1]
            due = used == 14 if need == 1 else all(v >= 11 for v in values)
            if not (due and next_ways):
                weights[band_for(used, used + bonus, row)] += ways * max(next_ways, 1)
                continue
            source = pile - Counter(top) if on_pile > need else spare - Counter(bottom)
            for value, count in source.items():
                weights[band_for(used, used + value + bonus, row)] += ways * count
    total = sum(weights.values())
    return {band: Fraction(w, total) for band, w in weights.items()}


OPPOSED_BANDS: tuple[str, str] = ("wins", "loses")
"""SOH-08 odds: the first side (the roller) wins or loses the opposed draw."""


def opposed_odds(
    deck_cards: Sequence[Card | Mapping[str, Any]],
    bonus_a: int,
    bonus_b: int,
    discard: Sequence[Card | Mapping[str, Any]] = (),
) -> dict[str, Fraction]:
    """GEN-02 / SOH-08: exact chance the first side wins :func:`opposed_draw`.

    Each side's card comes from the pile as it stands (the first side's first), then from the
    shuffled discards; a tie is won by each side with chance one half (see the module's
    Reading), so the odds are the first draw's with its ties split.
    """
    pile, spare = _value_counts(deck_cards), _value_counts(discard)
    on_pile = sum(pile.values())
    if on_pile + sum(spare.values()) < 2:
        raise RuleError("an opposed draw needs two Minor Arcana cards")
    win = tie = total = 0
    for x, ways_x in (pile if on_pile else spare).items():
        if on_pile >= 2:
            second = pile - Counter({x: 1})
        else:
            second = spare if on_pile == 1 else spare - Counter({x: 1})
        for y, ways_y in second.items():
            ways = ways_x * ways_y
            total += ways
            if x + bonus_a > y + bonus_b:
                win += ways
            elif x + bonus_a == y + bonus_b:
                tie += ways
    chance = Fraction(2 * win + tie, 2 * total)
    return {OPPOSED_BANDS[0]: chance, OPPOSED_BANDS[1]: 1 - chance}


def check_odds(
    deck: DeckState, bonus: int, level: str | Difficulty = "Normal", mode: DrawMode = "single"
) -> dict[str, Fraction]:
    """GEN-02: odds of :func:`skill_draw` on ``deck`` as it stands (pile, then discards)."""
    return draw_odds(deck.draw_pile, bonus, level, mode, deck.discard)


# ---------------------------------------------------------------------------------------------
# Sheet and ruleset
# ---------------------------------------------------------------------------------------------

ATTRIBUTE_KEYS: tuple[str, ...] = (
    "quickness", "body", "mind", "spirit", "physical", "mental", "emotional", "intuition",
    "discipline",
)  # fmt: skip

SHEET = SheetSpec(
    attributes=(
        AttributeSpec("quickness", "Quickness", 6, 1, 16),
        *(AttributeSpec(k, k.capitalize(), 5, 0) for k in ATTRIBUTE_KEYS[1:]),
    ),
    resources=(
        ResourceSpec("health", "Health", 20),
        ResourceSpec("life", "Life", 20),
        ResourceSpec("aessence", "Æssence", 20),
        ResourceSpec("ap", "AP", 8, derive_max=lambda a: ap_per_round(int(a.get("quickness", 6)))),
    ),
    lists=(ListSpec("major_arcana", "Major Arcana"),),
    statuses=("alive", "incapacitated", "dead"),
)


def new_character(name: str, **attributes: int) -> Character:
    """A fresh sheet: the nine attributes, Health/Life/Æssence, AP per round, no arcana."""
    return default_character(SHEET, name, **attributes)


def new_round(character: Character) -> Character:
    """SOH-10: AP back to the full AP per round at the start of a round (new dict)."""
    new = _copy(character)
    ap = ap_per_round(int(new.get("attributes", {}).get("quickness", 6)))
    new.setdefault("resources", {})["ap"] = {"current": ap, "max": ap}
    return new


def health_summary(character: Character) -> str:
    """``"H 12/20 · L 18/20 · Æ 20/20"``."""
    res = character.get("resources", {})
    parts = []
    for key, short in (("health", "H"), ("life", "L"), ("aessence", "Æ")):
        pool = res.get(key, {})
        parts.append(f"{short} {pool.get('current', 0)}/{pool.get('max', 0)}")
    return " · ".join(parts)


RULESET = Ruleset(
    id="shadows",
    name="Shadows of Humanity",
    turn_model="ap_rounds",
    sheet=SHEET,
    check=check,
    check_help=(
        "Draw one Minor Arcana card, or three and use the middle; add skill + attribute; "
        "compare with Mundane … Absurd. King (or three faces) adds a card; a Queen grants a "
        "Major Arcana; a low draw fumbles."
    ),
    new_character=new_character,
    health_summary=health_summary,
    extras={
        "difficulties": DIFFICULTY_NAMES,
        "bands": BANDS,
        "suits": SUITS,
        "damage_modifiers": tuple(DAMAGE_MODIFIERS),
        "draw_odds": draw_odds,
        "check_odds": check_odds,
        "ap_per_round": ap_per_round,
        "new_deck": new_deck,
        "deck_from_dict": deck_from_dict,
        "hand_summary": hand_summary,
    },
)

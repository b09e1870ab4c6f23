"""The 2d6 aspects game's exchange: each attack is its own confrontation (ASP-01, ASP-03,
ASP-05, ASP-06).

The attacker rolls 2d6 + its skill; the defender rolls 2d6 "adding the appropriate skill;
Athletic-dodge, Physique-block, or Will for verbal"; the overlap (attack − defence) is nothing
at 0 or under, a minor injury up to the stress cap, a consequence above it, and at the
consequence limit Taken Out (a PC may enter its Darkest Self instead: the choice waits, f). A foe
with two attacks makes two confrontations, each against its own defence roll.

The defender's answer: blank (a physical attack: Athletic, a dodge; a mental one: Will),
``dodge``/``athletic``, ``block``/``physique``, ``will``, each with ``fate`` to spend a fate point
on a reroll and keep the better (ASP-03: one per roll), or the defence total rolled at the table.

Reading: a PC attacks with Fight, or the skill its sheet remembers (``sheet["attack"]``:
``skill``; Will makes it a mental attack).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulesets.aspects import foes
from rulesets.aspects import rules as aspects
from rulesets.base import CheckResult, RuleError
from rulesets.dice import roll as roll_dice
from rulesets.exchange import (
    Blow,
    Dist,
    ExchangeRules,
    Plan,
    Rolled,
    Setup,
    Side,
    percent,
    strikes,
)
from rulesets.fight import Fight
from rulesets.table import Field

Doc = dict[str, Any]
DEFENCE_WORDS = {
    "dodge": "athletic",
    "athletic": "athletic",
    "block": "physique",
    "physique": "physique",
    "will": "will",
    "verbal": "will",
}
TWO_D6: Dist = {}
for _a, _b in itertools.product(range(1, 7), repeat=2):
    TWO_D6[_a + _b] = TWO_D6.get(_a + _b, Fraction(0)) + Fraction(1, 36)
BEST_OF_TWO: Dist = {}
for (_x, _p), (_y, _q) in itertools.product(TWO_D6.items(), repeat=2):
    BEST_OF_TWO[max(_x, _y)] = BEST_OF_TWO.get(max(_x, _y), Fraction(0)) + _p * _q


def _value(side: Side, skill: str, fallback: int = 0) -> int:
    return side.attribute(skill, fallback)


def attack_of(setup: Setup) -> tuple[str, int, str]:
    """The attacker's skill, its value and the conflict (physical or mental)."""
    side = setup.attacker
    if side.block is not None and not side.is_pc:
        skill = foes.SKILL_BY_ATTRIBUTE.get(setup.attribute, "fight")
        value = _value(side, skill, foes.skill_of(side.block, setup.attribute))
        return skill, value, foes.conflict(setup.attribute)
    skill = str(side.remembered("attack").get("skill") or "fight").casefold()
    return skill, _value(side, skill), "mental" if skill == "will" else "physical"


def answer_of(setup: Setup, kind: str) -> tuple[str, int, bool, int | None]:
    """The defender's skill, its value, whether a fate point rerolls, and a typed total."""
    # "block + fate" as the help writes it: a plus joins words, it is no word of its own.
    words = setup.defence.casefold().replace(",", " ").replace("+", " ").split()
    fate = "fate" in words
    words = [w for w in words if w != "fate"]
    typed: int | None = None
    skill = "will" if kind == "mental" else "athletic"
    for word in words:
        if word.lstrip("-").isdigit():
            typed = int(word)
        elif word in DEFENCE_WORDS:
            skill = DEFENCE_WORDS[word]
        else:
            raise RuleError(
                "The defence is blank, dodge, block or will (add fate to reroll with a fate "
                "point), or the total rolled"
            )
    if kind == "mental" and skill != "will":
        raise RuleError("A verbal (mental) attack is defended with Will")
    if fate:
        points = (((setup.target.sheet or {}).get("resources") or {}).get("fate_points")) or {}
        if int(points.get("current", 0) or 0) < 1:
            raise RuleError(f"{setup.target.name} has no fate point to spend (ASP-02)")
    return skill, _value(setup.target, skill), fate, typed


def plan(setup: Setup) -> Plan:
    skill, value, kind = attack_of(setup)
    guard, defence, fate, typed = answer_of(setup, kind)
    defending = {typed: Fraction(1)} if typed is not None else BEST_OF_TWO if fate else TWO_D6
    damage: Dist = {}
    for a, p in TWO_D6.items():
        for d, q in defending.items():
            amount = max(0, (a + value) - (d + (0 if typed is not None else defence)))
            damage[amount] = damage.get(amount, Fraction(0)) + p * q
    hit = 1 - damage.get(0, Fraction(0))
    blow = Blow(f"2d6+{value} vs 2d6+{defence}", hit, dict(sorted(damage.items())))
    said = f"{typed} (typed)" if typed is not None else f"2d6+{defence} ({guard})"
    steps = [
        f"2d6+{value} ({skill}, {kind}) vs {setup.target.name}'s {said}"
        + (" (fate: reroll, keep the better)" if fate else ""),
        f"an overlap lands {percent(hit)}: up to its stress cap a minor injury, above it a "
        "consequence",
    ]
    count = strikes(setup.attacker)
    if count > 1:
        steps.append(f"{count} attacks, each its own confrontation")
    return Plan((blow,) * count, tuple(steps))


def _two_d6(rng: random.Random) -> tuple[int, tuple[int, ...]]:
    rolled = roll_dice("2d6", rng)
    return rolled.total, tuple(rolled.dice)


def roll(setup: Setup, rng: random.Random) -> Rolled:
    skill, value, kind = attack_of(setup)
    guard, defence, fate, typed = answer_of(setup, kind)
    steps: list[str] = []
    amounts: list[int] = []
    per_blow: list[Mapping[str, Any]] = []
    rolls: list[CheckResult] = []
    guards: list[CheckResult] = []
    for _ in range(strikes(setup.attacker)):
        a, faces = _two_d6(rng)
        attack = a + value
        rolls.append(CheckResult(f"2d6+{value} {kind} attack ({skill})", attack, faces))
        if typed is not None:
            total = typed
            said = f"{typed} (typed)"
        else:
            d, dice = _two_d6(rng)
            if fate:
                again, more = _two_d6(rng)
                d, dice = max(d, again), dice + more
            total = d + defence
            said = f"2d6+{defence} ({guard}) {total}" + (" with a fate reroll" if fate else "")
            guards.append(CheckResult(f"2d6+{defence} defence ({guard})", total, dice))
        gap = attack - total
        steps.append(
            f"2d6+{value} {attack} vs {said}: " + (f"overlap {gap}" if gap > 0 else "defended")
        )
        amounts.append(attack if gap > 0 else 0)
        per_blow.append({"defence": total})
    return Rolled(
        tuple(steps),
        tuple(amounts),
        answers={"kind": kind},
        rolls=tuple(rolls),
        defender_rolls=tuple(guards),
        per_blow=tuple(per_blow),
        spent={"fate": fate and typed is None},
    )


def spend(fight: Fight, setup: Setup, rolled: Rolled) -> list[str]:
    """ASP-03: the fate point a reroll cost."""
    if not rolled.spent.get("fate"):
        return []
    c = fight.combatant(setup.target.combatant.id)
    sheet = fight.sheet(c)
    if sheet is None:
        return []
    lines = aspects.spend_fate(sheet)
    fight.put_sheet(c, sheet)
    return lines


def costs(setup: Setup) -> tuple[dict[str, int], dict[str, int]]:
    """ASP-03: a fate point for the defender's reroll (a defence rolled, not typed)."""
    _, _, fate, typed = answer_of(setup, attack_of(setup)[2])
    return {}, ({"fate_points": 1} if fate and typed is None else {})


def hurt(setup: Setup, health: Doc, amount: int, face: int) -> Doc:
    """The overlap on a copy of the defender; the consequence limit counts as out."""
    outcome = aspects.resolve_attack(health, amount, 0, "", attack_of(setup)[2])
    if outcome.choice_needed:
        health["status"] = aspects.TAKEN_OUT
    return health


def out(side: Side, health: Doc) -> bool:
    return health.get("status") == aspects.TAKEN_OUT


def pools(side: Side, health: Doc) -> dict[str, int]:
    """Injuries and consequences held, fate points (the aspects game's pools)."""
    lists = health.get("lists") or {}
    found = {k: len(lists.get(k) or []) for k in ("injuries", "consequences")}
    points = (health.get("resources") or {}).get("fate_points")
    if isinstance(points, Mapping):
        found["fate_points"] = int(points.get("current", 0))
    return found


def room(side: Side, health: Doc) -> int:
    """ASP-06: how far from Taken Out: the consequences it may still take (an overlap past the
    stress cap at the limit takes it out). Minor injuries and fate points, which the pools
    count, grow or fall without bringing it nearer."""
    held = len((health.get("lists") or {}).get("consequences") or [])
    try:
        limit = aspects.consequence_limit(health)
    except (KeyError, TypeError, ValueError):
        limit = aspects.DEFAULT_CONSEQUENCE_SLOTS
    return max(0, limit - held)


EXCHANGE = ExchangeRules(
    plan=plan,
    roll=roll,
    hurt=hurt,
    out=out,
    spend=spend,
    costs=costs,
    room=room,
    defence_help="blank: dodge · block · will · + fate · a total rolled",
    pools=pools,
    attack_fields=(
        Field("skill", "Skill attacked with (will: a verbal attack)", "fight", "choice",
              choices=aspects.SKILLS),
    ),
)  # fmt: skip

"""Nemron's exchange: a rank-dice pool whose roll is the damage, an active defence that spends
the defender's reaction, and the location die (NEM-04, NEM-06, NEM-07, NEM-08, NEM-10).

- The attack pool is rolled, keep highest; under the weapon's base difficulty (rank + 1) it is
  an automatic miss (NEM-04); else the roll is the damage (NEM-07).
- Attacking is the attacker's action (NEM-06): the exchange marks it used.
- The defender answers with an active defence only while it has a reaction: "only one action,
  one reaction" a turn (NEM-06), and defending spends it. Once a round it may buy one bonus
  reaction for 2 Energy (NEM-10): the answer ``bonus``. Each of several attacks is its own
  strike: a second one finds the reaction spent.
- What is left after the defence lands on the limb the location die picks (NEM-08).

The defender's answer: blank (its reaction, if it has one, rolls its defence pool), ``none``,
``bonus`` (the 2-Energy bonus reaction, whether or not the free one is used: the free one
stays; ``bonus 4``: with the 4 its player rolled), ``both`` (against several attacks: the
reaction, then the bonus one), or a number (the defence its player rolled at the table, with
the reaction).

Reading: a foe's weapon is of its combat skill's rank, at least rank 1 (DC 2): a foe fights
armed. A sheet may say otherwise: ``sheet["attack"]["weapon_rank"]``.
Reading: a PC attacks with Power › its highest skill (``sheet["attack"]``: ``attribute``,
``skill``, ``weapon_rank``; weapon rank 0: bare hands, no minimum beyond DC 1) and defends with
Agility › the same skill (``sheet["defence"]``: ``attribute``, ``skill``), remembered per PC.
Reading: the drama die is not rolled in an exchange (the GM's call at the table).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulesets.base import CheckResult, RuleError
from rulesets.exchange import (
    Blow,
    Dist,
    ExchangeRules,
    Plan,
    Rolled,
    Setup,
    Side,
    not_alive,
    percent,
    strikes,
)
from rulesets.fight import Fight
from rulesets.nemron import foes
from rulesets.nemron import rules as nemron
from rulesets.nemron.fight import AFTER_DEFENCE, BONUS_REACTION
from rulesets.table import Field

Doc = dict[str, Any]
BONUS = BONUS_REACTION


def pool_dist(pool: list[int]) -> Dist:
    """The kept highest of a pool, exactly."""
    found: Dist = {}
    top = max(pool)
    for value in range(1, top + 1):
        below = Fraction(1)
        at_most = Fraction(1)
        for sides in pool:
            below *= Fraction(min(value - 1, sides), sides)
            at_most *= Fraction(min(value, sides), sides)
        if at_most - below:
            found[value] = at_most - below
    return found


def _skill(side: Side, memory: Mapping[str, Any]) -> tuple[str, int]:
    skills = (side.sheet or {}).get("skills") or {}
    ranked = {
        str(k): int(v) for k, v in skills.items() if isinstance(v, int) and not isinstance(v, bool)
    }
    named = str(memory.get("skill") or "")
    if named in ranked:
        return named, ranked[named]
    if not ranked:
        return "", -1
    best = max(sorted(ranked), key=lambda k: ranked[k])
    return best, ranked[best]


def _rank(value: int) -> int:
    return max(0, min(nemron.MAX_RANK, int(value)))


def attack_of(setup: Setup) -> tuple[list[int], int, str]:
    """The attacker's pool, its weapon's rank and the pool in words."""
    side = setup.attacker
    memory = side.remembered("attack")
    rank = memory.get("weapon_rank")
    if side.block is not None and not side.is_pc:
        pool = foes.attack_pool(side.sheet, side.block, setup.attribute)
        _, skill = foes._ranks(side.sheet, side.block)  # noqa: SLF001 - this game's own
        weapon = max(1, skill)
    else:
        attribute = str(memory.get("attribute") or "power")
        name, skill = _skill(side, memory)
        ranks_ = [_rank(side.attribute(attribute))] + ([_rank(skill)] if name else [])
        pool = nemron.pool_from_ranks(ranks_)
        weapon = 0
    if isinstance(rank, int) and not isinstance(rank, bool):
        weapon = _rank(rank)
    return pool, weapon, nemron.pool_text(pool)


def defence_of(side: Side) -> list[int]:
    """The defender's active defence pool (a foe's statblock pool; a PC's remembered one)."""
    if side.block is not None and not side.is_pc:
        return foes.defence_pool(side.sheet, side.block)
    memory = side.remembered("defence")
    attribute = str(memory.get("attribute") or "agility")
    name, skill = _skill(side, memory if memory.get("skill") else side.remembered("attack"))
    return nemron.pool_from_ranks(
        [_rank(side.attribute(attribute))] + ([_rank(skill)] if name else [])
    )


def reactions(setup: Setup) -> tuple[list[str], int | None]:
    """The reactions the defender answers with, in order (``reaction``, ``bonus``), and the
    defence its player typed (None: rolled). Refuses what it may not do."""
    target = setup.target
    answer = setup.defence.strip().casefold()
    free = not target.combatant.economy.get("reaction", False)
    if answer in ("none", "-", "no", "0"):
        return [], None
    typed: int | None = None
    if answer.lstrip("-").isdigit():
        typed = int(answer)
        if typed < 0:
            raise RuleError("The defence roll cannot be negative")
        if not free:
            raise RuleError(
                f"{target.name} has used its reaction this turn (NEM-06): type bonus {typed} "
                "to buy one for 2 Energy, or none"
            )
        return ["reaction"], typed
    if answer in ("", "roll", "defend"):
        return (["reaction"] if free else []), None
    word, _, rolled = answer.partition(" ")
    if word == "bonus" and (not rolled.strip() or rolled.strip().isdigit()):
        _bonus_allowed(target)
        # The answer does what the GM typed: the bonus reaction, bought with 2 Energy. The
        # rules text never says the free reaction must go first, so it stays for later. A
        # number after it is the defence its player rolled at the table.
        return ["bonus"], (int(rolled) if rolled.strip() else None)
    if answer == "both":
        if not free:
            raise RuleError(
                f"{target.name} has used its reaction this turn (NEM-06): type bonus to buy "
                "one for 2 Energy, or none"
            )
        if strikes(setup.attacker) < 2:
            raise RuleError(
                f"{setup.attacker.name} attacks once: blank answers with the reaction, bonus "
                "with the bonus reaction (2 Energy)"
            )
        _bonus_allowed(target)
        return ["reaction", "bonus"], None
    raise RuleError(
        "The defence is blank (its reaction rolls), none, bonus (2 Energy; bonus 4: with the "
        "4 rolled), both (against two attacks) or the number rolled"
    )


def _bonus_allowed(target: Side) -> None:
    """NEM-10: once a round, for 2 Energy; refuses (RuleError) otherwise."""
    if target.combatant.economy.get(BONUS, False):
        raise RuleError(f"{target.name} has bought its bonus reaction this round (NEM-10)")
    energy = ((target.sheet or {}).get("resources") or {}).get("energy") or {}
    if int(energy.get("current", 0) or 0) < nemron.BONUS_REACTION_ENERGY:
        raise RuleError(f"{target.name} has not 2 Energy for a bonus reaction (NEM-10)")


def _undefended(setup: Setup, used: list[str], why: str = "") -> str:
    """A strike met by no reaction: the defender had none left, or kept the free one (typed
    none, or a bonus against a first strike only)."""
    free = not setup.target.combatant.economy.get("reaction", False)
    if free and "reaction" not in used:
        return f"{setup.target.name} does not defend"
    return f"{setup.target.name} has no reaction left{why}"


def _damage(attack: Dist, minimum: int, defence: Dist | None) -> Dist:
    found: Dist = {}
    for a, p in attack.items():
        for d, q in (defence or {0: Fraction(1)}).items():
            amount = max(0, a - d) if a >= minimum else 0
            found[amount] = found.get(amount, Fraction(0)) + p * q
    return dict(sorted(found.items()))


def plan(setup: Setup) -> Plan:
    pool, weapon, text = attack_of(setup)
    minimum = nemron.weapon_minimum_dc(weapon)
    attack = pool_dist(pool)
    used, typed = reactions(setup)
    count = strikes(setup.attacker)
    dpool = defence_of(setup.target)
    rolled = pool_dist(dpool)
    blows: list[Blow] = []
    lands = sum((p for a, p in attack.items() if a >= minimum), Fraction(0))
    steps = [f"{text} (the roll is the damage), at least {minimum}: {percent(lands)}"]
    for place in range(count):
        reaction = used[place] if place < len(used) else ""
        # A typed number is the first reaction's roll; a second one rolls its pool.
        typed_here = typed if place == 0 else None
        guard = {typed_here: Fraction(1)} if typed_here is not None else rolled
        damage = _damage(attack, minimum, guard if reaction else None)
        hit = 1 - damage.get(0, Fraction(0))
        blows.append(Blow(f"{text} vs DC {minimum}", hit, damage))
        if reaction:
            how = f"typed {typed_here}" if typed_here is not None else nemron.pool_text(dpool)
            steps.append(f"{setup.target.name} defends ({reaction}): {how}")
        else:
            steps.append(_undefended(setup, used, ": no defence"))
        steps.append(
            f"damage after the defence: lands {percent(hit)}; the location die picks the limb"
        )
    return Plan(tuple(blows), tuple(steps))


def roll(setup: Setup, rng: random.Random) -> Rolled:
    pool, weapon, text = attack_of(setup)
    minimum = nemron.weapon_minimum_dc(weapon)
    used, typed = reactions(setup)
    count = strikes(setup.attacker)
    dpool = defence_of(setup.target)
    steps: list[str] = []
    amounts: list[int] = []
    rolls: list[CheckResult] = []
    guards: list[CheckResult] = []
    spent: list[str] = []
    for place in range(count):
        rolled = nemron.check(rng, pool, 0, weapon_rank=weapon, drama=False)
        rolls.append(rolled)
        if rolled.total < minimum:
            steps.append(f"{text} vs DC {minimum}: {rolled.total}, an automatic miss (NEM-04)")
            amounts.append(0)
            continue
        steps.append(f"{text} vs DC {minimum}: {rolled.total}")
        reaction = used[len(spent)] if len(spent) < len(used) else ""
        defence = 0
        if reaction:
            spent.append(reaction)
            if typed is not None and len(spent) == 1:
                defence = typed
                steps.append(f"{setup.target.name} defends ({reaction}): {typed}")
            else:
                guard = nemron.check(rng, dpool, 0, drama=False)
                guards.append(
                    CheckResult(
                        f"{nemron.pool_text(dpool)} active defence",
                        guard.total,
                        guard.dice,
                        "",
                        guard.detail,
                        dropped=guard.dropped,
                    )  # fmt: skip
                )
                defence = guard.total
                steps.append(
                    f"{setup.target.name} defends ({reaction}): {nemron.pool_text(dpool)} "
                    f"{guard.total}"
                )
        elif place == 0 or used:
            steps.append(_undefended(setup, used))
        net = nemron.damage_after_defence(rolled.total, defence)
        steps.append(f"{net} damage")
        amounts.append(net)
    return Rolled(
        tuple(steps),
        tuple(amounts),
        answers={"defence_roll": 0, AFTER_DEFENCE: True},
        rolls=tuple(rolls),
        defender_rolls=tuple(guards),
        spent={"reactions": spent},
    )


def spend(fight: Fight, setup: Setup, rolled: Rolled) -> list[str]:
    """NEM-06/10: the attacker's action; the reaction the defence used; 2 Energy for the bonus
    one. A second attack in a turn is said, not refused: a bonus action (a boon, two weapons)
    is the GM's to allow."""
    attacker = fight.combatant(setup.attacker.combatant.id)
    lines: list[str] = []
    if attacker.economy.get("action", False):
        lines.append(f"{attacker.name} has already used its action this turn (NEM-06)")
    else:
        attacker.economy["action"] = True
        lines.append(f"{attacker.name} uses its action")
    c = fight.combatant(setup.target.combatant.id)
    used = list(rolled.spent.get("reactions") or ())
    if "reaction" in used:
        c.economy["reaction"] = True
        lines.append(f"{c.name} uses its reaction")
    if "bonus" in used:
        sheet = fight.sheet(c)
        if sheet is None or "energy" not in (sheet.get("resources") or {}):
            raise RuleError(f"{c.name} has no Energy for a bonus reaction")
        lines.append(nemron.spend_energy(sheet, nemron.BONUS_REACTION_ENERGY, "a bonus reaction"))
        fight.put_sheet(c, sheet)
        c.economy[BONUS] = True
    return lines


def costs(setup: Setup) -> tuple[dict[str, int], dict[str, int]]:
    """NEM-10: the bonus reaction costs the defender 2 Energy (the reaction itself is the
    round's, back at the next)."""
    used, _ = reactions(setup)
    return {}, ({"energy": nemron.BONUS_REACTION_ENERGY} if "bonus" in used else {})


def hurt(setup: Setup, health: Doc, amount: int, face: int) -> Doc:
    """NEM-08 on the limb the location die's ``face`` names."""
    if amount < 0:
        raise RuleError("damage cannot be negative")
    nemron.damage_limb(health, nemron.LOCATION_DIE[face], int(amount))
    return health


def pools(side: Side, health: Doc) -> dict[str, int]:
    """Each limb's HP by its name in the sheet (as ``tableside export`` writes it)."""
    limbs = ((health.get("tracks") or {}).get("limbs")) or {}
    return {str(k): int(v.get("hp", 0)) for k, v in limbs.items() if isinstance(v, Mapping)}


def room(side: Side, health: Doc) -> int:
    """NEM-08: how far from downed: the HP of its weakest major limb (torso, head), since
    either at 0 downs it; minor limbs at 0 only stop working. A body with no major limb
    counts every limb."""
    found = pools(side, health)
    major = [hp for limb, hp in found.items() if limb in nemron.MAJOR_LIMBS]
    return min(major) if major else sum(found.values())


def faces(side: Side) -> int:
    return len(nemron.LOCATION_DIE)


EXCHANGE = ExchangeRules(
    plan=plan,
    roll=roll,
    hurt=hurt,
    out=not_alive,
    faces=faces,
    spend=spend,
    costs=costs,
    defence_help="blank: reaction · none · bonus: 2 Energy · both · a number rolled",
    pools=pools,
    room=room,
    attack_fields=(
        Field("attribute", "Attribute", "power", "choice",
              choices=tuple(key for key, _ in nemron.ATTRIBUTES)),
        Field("skill", "Skill (blank: the highest)", "", "text", required=False),
        Field("weapon_rank", "Weapon rank (0: bare hands; minimum DC = rank + 1)", "0", "int",
              minimum=0, maximum=nemron.MAX_RANK),
    ),
)  # fmt: skip

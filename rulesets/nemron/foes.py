"""Nemron's foes: an HD statblock as a Nemron character with limbs (NEM-01, NEM-07, NEM-08).

A foe's attack is its rank-dice pool, keep highest, and the roll is the damage (NEM-07); the
target answers with an active defence roll (typed for a PC, whose player rolls it) and the
location die picks the limb (NEM-08) when the attack lands. A PC's attack on a foe is answered
by the foe's own defence pool unless the GM types its roll or ``none``.

Reading: a statblock's Brawl is Power and Constitution, its Wit Agility and Awareness, its Will
Intellect, Willpower, Control, Sense and Focus, as ranks clamped to 0..4 (NEM-01), because the
HD attributes run −3..8 and Nemron's ranks 0..4.
Reading: every limb has NEM-08's HP from those ranks (5 + Power + Agility + Constitution); the
statblock's HP is not used, because NEM-08 gives every character, PC or NPC, limbs by that rule.
Reading: its attack pool is the attack attribute's rank die (Power for Brawl, Agility for Wit,
Control for Will) › a combat skill of rank HD ÷ 2 (at most 4), keep highest; its active
defence pool is Agility › that skill: the HD stands for the training an NPC has.
Reading: each of the statblock's # Atks is one attack on the same target, each landing on its
own location die.
"""

from __future__ import annotations

import random
from typing import Any

from rulesets.base import CheckResult
from rulesets.foes import Foe, FoeRules, RollKind, Strike, Swing, generic_roll
from rulesets.nemron import rules as nemron
from rulesets.npc import NPC

Doc = dict[str, Any]

FROM_ATTRIBUTE = {
    "power": "brawl",
    "constitution": "brawl",
    "agility": "wit",
    "awareness": "wit",
    "intellect": "will",
    "willpower": "will",
    "control": "will",
    "sense": "will",
    "focus": "will",
}
"""Reading (module docstring): which HD attribute each Nemron attribute is."""
ATTACK_ATTRIBUTE = {"brawl": "power", "wit": "agility", "will": "control"}


def rank(value: int) -> int:
    return max(0, min(nemron.MAX_RANK, int(value)))


def combat_skill(block: NPC) -> int:
    return rank(block.hd // 2)


def attributes_of(block: NPC) -> dict[str, int]:
    return {key: rank(block.attribute(hd)) for key, hd in FROM_ATTRIBUTE.items()}


def make(name: str, block: NPC, hp: int) -> Doc:
    """The foe: its attributes as ranks, full limbs by NEM-08, its combat skill."""
    attributes = attributes_of(block)
    top = nemron.limb_max_hp(attributes)
    return {
        "sheet": {
            "name": name,
            "attributes": attributes,
            "skills": {"combat": combat_skill(block)},
            "tracks": {"limbs": {limb: {"hp": top, "max": top} for limb in nemron.LIMBS}},
            "status": "alive",
        }
    }


def _ranks(sheet: Doc | None, block: NPC) -> tuple[dict[str, int], int]:
    """The sheet's attribute ranks and combat skill (its statblock's where the sheet has none)."""
    attributes = dict(attributes_of(block))
    skill = combat_skill(block)
    if isinstance(sheet, dict):
        for key, value in (sheet.get("attributes") or {}).items():
            if key in attributes and isinstance(value, int) and not isinstance(value, bool):
                attributes[key] = rank(value)
        found = (sheet.get("skills") or {}).get("combat")
        if isinstance(found, int) and not isinstance(found, bool):
            skill = rank(found)
    return attributes, skill


def attack_pool(sheet: Doc | None, block: NPC, attribute: str) -> list[int]:
    ranks, skill = _ranks(sheet, block)
    return nemron.pool_from_ranks([ranks[ATTACK_ATTRIBUTE.get(attribute, "power")], skill])


def defence_pool(sheet: Doc | None, block: NPC) -> list[int]:
    ranks, skill = _ranks(sheet, block)
    return nemron.pool_from_ranks([ranks["agility"], skill])


def defence_roll(rng: random.Random, sheet: Doc | None, block: NPC) -> CheckResult:
    """NEM-07: the foe's active defence, its defence pool, keep highest (no drama)."""
    pool = defence_pool(sheet, block)
    result = nemron.check(rng, pool, 0, drama=False)
    return CheckResult(
        f"{nemron.pool_text(pool)} active defence", result.total, result.dice, "",
        result.detail, dropped=result.dropped,
    )  # fmt: skip


def attack(swing: Swing) -> Strike:
    """NEM-01/07: each attack rolls the foe's attack pool: the roll is the damage."""
    foe = swing.attacker
    pool = attack_pool(foe.sheet, foe.block, swing.attribute)
    hits, parts, logged = [], [], []
    for _ in range(max(1, foe.block.attacks)):
        rolled = nemron.check(swing.rng, pool, 0, drama=False)
        result = CheckResult(
            f"{nemron.pool_text(pool)} attack (the roll is the damage)", rolled.total,
            rolled.dice, "", rolled.detail, dropped=rolled.dropped,
        )  # fmt: skip
        logged.append(swing.log(result, damage=rolled.total))
        hits.append(str(rolled.total))
        parts.append(f"{nemron.pool_text(pool)} = {rolled.total}")
    said = (
        f"{foe.name} attacks {swing.target.name}: " + "; ".join(parts)
        + f" · {swing.target.name}'s active defence roll reduces it; the location die picks "
        "the limb"
    )  # fmt: skip
    return Strike(said=said, hits=tuple(hits), ask="defence_roll", lines=tuple(logged))


def shows(foe: Foe) -> list[str]:
    ranks, skill = _ranks(foe.sheet, foe.block)
    body = ", ".join(f"{k.capitalize()} {ranks[k]}" for k in ("power", "agility", "constitution"))
    initiative = nemron.pool_from_ranks([ranks[a] for a in nemron.INITIATIVE_ATTRIBUTES])
    return [
        f"Ranks: {body}, Awareness {ranks['awareness']}, Sense {ranks['sense']} · combat {skill}",
        f"Initiative {nemron.pool_text(initiative)} · defence "
        f"{nemron.pool_text(defence_pool(foe.sheet, foe.block))}",
        f"HD {foe.block.hd}",
    ]


def preview(block: NPC) -> list[str]:
    attributes = attributes_of(block)
    top = nemron.limb_max_hp(attributes)
    attack = nemron.pool_text(attack_pool(None, block, "brawl"))
    defence = nemron.pool_text(defence_pool(None, block))
    return [
        f"As a Nemron foe: six limbs of {top} HP; attack {attack} (the roll is its damage); "
        f"defence {defence}"
    ]


def roll_labels(foe: Foe, attribute: str) -> dict[RollKind, str]:
    return {
        "attack": f"attack {nemron.pool_text(attack_pool(foe.sheet, foe.block, attribute))}"
        + (f" ×{foe.block.attacks}" if foe.block.attacks > 1 else ""),
        "defence": f"defence {nemron.pool_text(defence_pool(foe.sheet, foe.block))}",
    }


def roll(foe: Foe, kind: RollKind, attribute: str, rng: random.Random, edge: str) -> CheckResult:
    if kind == "defence":
        return defence_roll(rng, foe.sheet, foe.block)
    return generic_roll(foe, kind, attribute, rng, edge)


FOES = FoeRules(
    make=make,
    rolls_hp=False,
    shows=shows,
    draws_statblock=False,
    preview=preview,
    rolls=("attack", "defence", "morale", "effort"),
    roll_labels=roll_labels,
    roll=roll,
    attack=attack,
)

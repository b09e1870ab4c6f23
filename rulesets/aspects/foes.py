"""The 2d6 aspects game's foes: an HD statblock as a skilled opponent with a stress track
(ASP-01, ASP-05, ASP-06).

A foe attacks with 2d6 + its skill against the defender's total (2d6 + the defender's own
skill); the overlap lands as stress, a minor injury or a consequence through the game's
confrontation (:func:`rulesets.aspects.rules.resolve_attack`), the same path as ``t``. A PC's
attack on it is answered the same way: its defence total is 2d6 + its Athletic unless the GM
types one.

Reading: a statblock's skill in a conflict is the attribute it acts with + 1 (Brawl: Fight and
Physique, Wit: Shoot and Athletic, Will: Will), at least 0, because the text's skills run 0 to
about 5 and an HD statblock's attributes −3 to 8 with +1 an average man's.
Reading: its physical stress cap is 2 + Brawl and its mental 2 + Will (at least 1), so an
average foe has the text's default 3; it holds HD ÷ 4 consequences ("NPCs often 0").
A physical attack (Brawl, Wit) is defended with Athletic (a dodge) unless the defender blocks
with Physique, a mental one (Will) with Will: the text's "adding the appropriate skill;
Athletic-dodge, Physique-block, or Will for verbal".
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rulesets.aspects import rules as aspects
from rulesets.base import CheckResult
from rulesets.foes import Foe, FoeRules, RollKind, Strike, Swing, generic_roll
from rulesets.npc import NPC

Doc = dict[str, Any]

SKILL_BY_ATTRIBUTE = {"brawl": "fight", "wit": "shoot", "will": "will"}
"""The skill a statblock attacks with, by the attribute it rolls with."""
DEFENCE_SKILLS = {"physical": ("athletic",), "mental": ("will",)}
"""The defence a blank answer rolls: "Athletic-dodge" against a physical attack, "Will for
verbal" (a block with Physique is the defender's to name, in the exchange's answer)."""


def skill_of(block: NPC, attribute: str) -> int:
    """Reading (module docstring): the attribute + 1, at least 0."""
    return max(0, block.attribute(attribute) + 1)


def make(name: str, block: NPC, hp: int) -> Doc:
    """The foe: skills, stress caps and consequence slots from its statblock."""
    brawl, wit, will = (skill_of(block, a) for a in ("brawl", "wit", "will"))
    return {
        "sheet": {
            "name": name,
            "attributes": {
                "fight": brawl,
                "physique": brawl,
                "shoot": wit,
                "athletic": wit,
                "will": will,
                "physical_stress_cap": max(1, 2 + block.attribute("brawl")),
                "mental_stress_cap": max(1, 2 + block.attribute("will")),
                "consequence_slots": max(0, block.hd // 4),
            },
            "lists": {"injuries": [], "consequences": []},
            "status": aspects.ALIVE,
        }
    }


def conflict(attribute: str) -> str:
    return "mental" if attribute == "will" else "physical"


def defence_skill(sheet: Mapping[str, Any] | None, kind: str) -> tuple[str, int]:
    """The defender's best skill against a physical or mental attack (module docstring)."""
    attributes = (sheet or {}).get("attributes")
    attributes = attributes if isinstance(attributes, Mapping) else {}
    best = ("", 0)
    for skill in DEFENCE_SKILLS.get(kind, ("athletic",)):
        try:
            value = int(attributes.get(skill, 0) or 0)
        except (TypeError, ValueError):
            value = 0
        if not best[0] or value > best[1]:
            best = (skill, value)
    return best


def defence_roll(
    rng: random.Random, sheet: Mapping[str, Any] | None, kind: str
) -> tuple[CheckResult, str]:
    """ASP-01/05: the defender's total, 2d6 + its defence skill; and how it was made."""
    skill, value = defence_skill(sheet, kind)
    rolled = aspects.roll_2d6(rng, value)
    result = rolled.result
    said = f"2d6 {list(rolled.dice)} + {skill} {value} = {result.total}"
    return result, said


def attack(swing: Swing) -> Strike:
    """ASP-05: each of its attacks is 2d6 + its skill; the defender's total answers it when
    it lands (typed, or rolled for it)."""
    foe = swing.attacker
    skill = SKILL_BY_ATTRIBUTE.get(swing.attribute, "fight")
    sheet = foe.sheet or {}
    try:
        value = int(sheet.get("attributes", {}).get(skill, skill_of(foe.block, swing.attribute)))
    except (TypeError, ValueError):
        value = skill_of(foe.block, swing.attribute)
    kind = conflict(swing.attribute)
    hits, parts, logged = [], [], []
    for _ in range(max(1, foe.block.attacks)):
        result = aspects.check(swing.rng, value)
        result = CheckResult(
            f"2d6+{value} {kind} attack ({skill})", result.total, result.dice, "",
            f"against {swing.target.name}'s defence",
        )  # fmt: skip
        logged.append(swing.log(result))
        hits.append(str(result.total))
        parts.append(f"2d6+{value} = {result.total}")
    guard, best = defence_skill(swing.target_sheet, kind)
    said = (
        f"{foe.name} attacks {swing.target.name} ({kind}): " + "; ".join(parts)
        + f" · {swing.target.name} defends with 2d6 + {guard or 'skill'} {best}"
    )  # fmt: skip
    return Strike(
        said=said, hits=tuple(hits), answers={"kind": kind}, ask="defence", lines=tuple(logged)
    )


def shows(foe: Foe) -> list[str]:
    attributes = (foe.sheet or {}).get("attributes", {})
    skills = ", ".join(
        f"{s.capitalize()} {attributes.get(s, 0)}" for s in ("fight", "shoot", "athletic", "will")
    )
    caps = (
        f"Stress caps: physical {attributes.get('physical_stress_cap', '?')}, mental "
        f"{attributes.get('mental_stress_cap', '?')} · consequences "
        f"{attributes.get('consequence_slots', 0)}"
    )
    return [f"Skills: {skills}", caps, f"HD {foe.block.hd}"]


def preview(block: NPC) -> list[str]:
    a = make("", block, 0)["sheet"]["attributes"]
    return [
        f"As a foe here: 2d6 + Fight {a['fight']} / Shoot {a['shoot']} / Will {a['will']} "
        f"against the defender's total; stress caps {a['physical_stress_cap']}/"
        f"{a['mental_stress_cap']}, {a['consequence_slots']} consequence(s)"
    ]


def roll_labels(foe: Foe, attribute: str) -> dict[RollKind, str]:
    skill = SKILL_BY_ATTRIBUTE.get(attribute, "fight")
    value = ((foe.sheet or {}).get("attributes") or {}).get(skill, 0)
    guard, best = defence_skill(foe.sheet, conflict(attribute))
    return {
        "attack": f"attack 2d6+{value} ({skill})"
        + (f" ×{foe.block.attacks}" if foe.block.attacks > 1 else ""),
        "defence": f"defence 2d6+{best} ({guard})",
    }


def roll(foe: Foe, kind: RollKind, attribute: str, rng: random.Random, edge: str) -> CheckResult:
    if kind == "defence":
        result, said = defence_roll(rng, foe.sheet, conflict(attribute))
        return CheckResult(f"2d6 {conflict(attribute)} defence", result.total, result.dice, "",
                           said)  # fmt: skip
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

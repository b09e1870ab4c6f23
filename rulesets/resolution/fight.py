"""Resolution rules in the combat tracker: HD foes, 1d8 + DEX initiative, HP damage (RR-05).

Reading: a quick-added foe is an HD foe (plain HP and the NPC-08 morale check), because this
game's NPCs are the HD statblocks of :mod:`rulesets.npc`, not player characters with Grip. A foe
quick-added before this reading carries a character sheet: only its HP is shown and changed.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from rulesets.base import CheckResult
from rulesets.fight import HD_FOES, FightRules, Hit, hp_line
from rulesets.resolution import rules as resolution
from rulesets.table import Action

Doc = dict[str, Any]


def initiative(rng: random.Random, sheet: Doc | None, npc: Doc | None) -> CheckResult:
    """1d8 + the DEX modifier (a PC's sheet; an HD NPC adds nothing)."""
    mod = 0
    if sheet is not None:
        mod = resolution.attribute_modifier(int(sheet.get("attributes", {}).get("dex", 10)))
    die = rng.randint(1, 8)
    return CheckResult(f"initiative 1d8{mod:+d}", die + mod, (die,))


def hurt(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    return sheet, resolution.damage(sheet, amount)


def heal(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    return sheet, resolution.heal(sheet, amount)


def out(sheet: Doc) -> bool:
    hp = sheet.get("resources", {}).get("hp", {})
    return int(hp.get("current", 1)) <= 0 or sheet.get("status") == resolution.DEAD


def sheet_hp(sheet: Doc) -> str:
    hp = sheet.get("resources", {}).get("hp", {})
    return hp_line({"hp": hp.get("current", 0), "hp_max": hp.get("max", 0)})


FOE = replace(HD_FOES, health=sheet_hp, hurt=hurt, heal=heal, out=out)
"""HD foes; the character sheet of a foe from an older save shows and takes HP only."""

FIGHT = FightRules(foe=FOE, initiative=initiative, hurt=hurt, heal=heal, out=out)
ACTIONS: tuple[Action, ...] = ()

"""Resolution rules' exchange: anyone attacks anyone with d20 against AC (NPC-02, RR-05).

A foe attacks with its statblock (d20 + Atk mod vs AC, Atk Dmg, Shock on a miss); a PC attacks
a foe's AC with d20 + its attribute's modifier + its attack bonus, its weapon's dice + the same
modifier on a hit; a PC's AC is the ``ac`` on its sheet. The damage lands on HP.

Reading: the text gives NPCs' attacks only; a PC attacks as its Without Number model does, d20 +
the modifier of STR or DEX (the better, unless the sheet names one) + an attack bonus, and deals
its weapon's dice + that modifier (``sheet["attack"]``: ``attribute``, ``bonus``, ``damage``;
default the better of STR and DEX, +0 and 1d6), remembered per PC.
"""

from __future__ import annotations

from dataclasses import replace

from rulesets.exchange import (
    HD_EXCHANGE,
    D20Attack,
    Side,
    d20_plan,
    d20_roll,
)
from rulesets.resolution import rules as resolution
from rulesets.table import Field

ATTACK_ATTRIBUTES = ("str", "dex")


def pc_attack(side: Side) -> D20Attack:
    """A PC's attack (module docstring): its attribute's modifier on the roll and the damage."""
    memory = side.remembered("attack")
    chosen = str(memory.get("attribute") or "").casefold()
    if chosen not in ("str", "dex", "con", "int", "wis", "cha"):
        chosen = max(ATTACK_ATTRIBUTES, key=lambda a: side.attribute(a, 10))
    mod = resolution.attribute_modifier(side.attribute(chosen, 10))
    bonus = memory.get("bonus", 0)
    bonus = bonus if isinstance(bonus, int) and not isinstance(bonus, bool) else 0
    dice = str(memory.get("damage") or "1d6")
    damage = f"{dice}{mod:+d}" if mod else dice
    return D20Attack(mod + bonus, damage, what=chosen.upper())


EXCHANGE = replace(
    HD_EXCHANGE,
    plan=d20_plan(pc_attack),
    roll=d20_roll(pc_attack),
    attack_fields=(
        Field("attribute", "Attribute (blank: the better of STR and DEX)", "", "choice",
              choices=("str", "dex", "con", "int", "wis", "cha"), required=False),
        Field("bonus", "Attack bonus beyond the attribute", "0", "int", minimum=-20, maximum=40),
        Field("damage", "Weapon dice (the attribute is added)", "1d6", "amount"),
    ),
)  # fmt: skip

"""The aspects game in the players' view: no HP; minor injuries and consequences tell health.

Reading: a foe with a consequence is "bloodied", one with only minor injuries "hurt", and one
Taken Out is out of the fight, because the game's health is the injuries and consequences held.
"""

from __future__ import annotations

from rulesets.aspects.rules import TAKEN_OUT
from rulesets.base import Character, SheetSpec
from rulesets.players import Band, PlayerViewRules


def band(sheet: SheetSpec, character: Character) -> Band:
    lists = character.get("lists", {})
    if character.get("status") == TAKEN_OUT:
        return "down"
    if lists.get("consequences"):
        return "bloodied"
    return "hurt" if lists.get("injuries") else "healthy"


def _names(items: object) -> list[str]:
    if not isinstance(items, list):
        return []
    return [str(i.get("name", "?")) if isinstance(i, dict) else str(i) for i in items]


def consequences(character: Character) -> tuple[str, ...]:
    """The PC's consequences (and minor injuries), by name."""
    lists = character.get("lists", {})
    lines = []
    for key, title in (("consequences", "Consequences"), ("injuries", "Minor injuries")):
        names = _names(lists.get(key))
        if names:
            lines.append(f"{title}: " + "; ".join(names))
    return tuple(lines)


PLAYERS = PlayerViewRules(
    labels={
        "healthy": "unharmed",
        "hurt": "minor injuries",
        "bloodied": "consequences",
        "down": "taken out",
    },
    band=band,
    pc_numbers=lambda character: "",
    pc_extras=consequences,
)

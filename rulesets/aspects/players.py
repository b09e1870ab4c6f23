"""The aspects game in the players' view: no HP; minor injuries and consequences tell health.

A player who opened their PC sees what they need to invoke: its fate points, its aspects
(with the free invokes of the advantages it created), its consequences and minor injuries, and
the scene's aspects (ASP-02..04).

Reading: a foe with a consequence is "bloodied", one with only minor injuries "hurt", and one
Taken Out is out of the fight, because the game's health is the injuries and consequences held.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.aspects import advantage
from rulesets.aspects import rules as aspects
from rulesets.aspects.fight import _aspect_text as aspect_text
from rulesets.aspects.rules import TAKEN_OUT
from rulesets.base import Character, SheetSpec
from rulesets.players import Band, Hand, PlayerViewRules, pool


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


def own(sheet: SheetSpec, character: Character) -> tuple[Hand, ...]:
    """ASP-02..05: fate points, aspects (permanent, then temporary with their free invokes),
    consequences and minor injuries, each titled; an empty list says "none"."""
    lists = character.get("lists", {})
    name = str(character.get("name", ""))
    fate = pool(character, "fate_points")
    shown = [str(a) for a in lists.get("aspects") or []]
    shown += [aspect_text(e, name) for e in lists.get("temporary_aspects") or []]
    sections = [
        Hand("Fate points", (f"{fate[0]} of {fate[1]}",) if fate else ()),
        Hand("Aspects", tuple(shown)),
        Hand("Consequences", tuple(_names(lists.get("consequences")))),
    ]
    if lists.get("injuries"):
        sections.append(Hand("Minor injuries", tuple(_names(lists.get("injuries")))))
    return tuple(sections)


def scene(encounter: Mapping[str, Any]) -> tuple[Hand, ...]:
    """ASP-04: the aspects on the scene (with whose free invoke a created one still has)."""
    held = encounter.get(advantage.SCENE_KEY)
    entries = held if isinstance(held, list) else []
    return (Hand("Scene aspects", tuple(aspect_text(e, aspects.SCENE) for e in entries)),)


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
    own=own,
    scene=scene,
)

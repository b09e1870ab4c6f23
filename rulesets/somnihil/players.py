"""Somnihil in the players' view: vitality is health; a foe at 0 vitality has perished."""

from __future__ import annotations

from rulesets.base import Character, SheetSpec
from rulesets.players import Band, PlayerViewRules, band_of, pool
from rulesets.somnihil.rules import ALIVE


def band(sheet: SheetSpec, character: Character) -> Band:
    if character.get("status", ALIVE) not in (ALIVE, "spirit", "shill"):
        return "down"
    vitality = pool(character, "vitality")
    return "healthy" if vitality is None else band_of(*vitality)


PLAYERS = PlayerViewRules(
    labels={"healthy": "unharmed", "hurt": "hurt", "bloodied": "bloodied", "down": "perished"},
    band=band,
    pc_pools=("vitality",),
)

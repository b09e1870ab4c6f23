"""Resolution in the players' view: HP is health (Grip and strain stay on the GM's sheet)."""

from __future__ import annotations

from rulesets.base import Character, SheetSpec
from rulesets.players import Band, PlayerViewRules, band_of, pool


def band(sheet: SheetSpec, character: Character) -> Band:
    if character.get("status") == "dead":
        return "down"
    hp = pool(character, "hp")
    return "healthy" if hp is None else band_of(*hp)


PLAYERS = PlayerViewRules(
    labels={"healthy": "unhurt", "hurt": "wounded", "bloodied": "bloodied", "down": "down"},
    band=band,
    pc_pools=("hp",),
)

"""Nemron in the players' view: health is limb HP; a major limb at 0 puts a foe down."""

from __future__ import annotations

import copy

from rulesets.base import Character, SheetSpec
from rulesets.nemron.rules import LIMBS, MAJOR_LIMBS, limb_label, limbs_of
from rulesets.players import Band, PlayerViewRules, band_of


def _limbs(character: Character) -> dict[str, dict[str, int]]:
    # limbs_of fills a missing track in place; the view only reads.
    return limbs_of(copy.deepcopy(character))


def band(sheet: SheetSpec, character: Character) -> Band:
    limbs = _limbs(character)
    if character.get("status") in ("downed", "dead") or any(
        int(limbs[m]["hp"]) <= 0 for m in MAJOR_LIMBS if m in limbs
    ):
        return "down"
    return band_of(
        sum(int(v["hp"]) for v in limbs.values()), sum(int(v["max"]) for v in limbs.values())
    )


def limb_lines(character: Character) -> tuple[str, ...]:
    """One line of every limb's HP, in the sheet's order."""
    limbs = _limbs(character)
    parts = [f"{limb_label(k)} {limbs[k]['hp']}/{limbs[k]['max']}" for k in LIMBS if k in limbs]
    return ("Limbs: " + " · ".join(parts),) if parts else ()


def total_hp(character: Character) -> str:
    limbs = _limbs(character)
    return f"HP {sum(int(v['hp']) for v in limbs.values())}/{sum(int(v['max']) for v in limbs.values())}"


PLAYERS = PlayerViewRules(
    labels={"healthy": "unhurt", "hurt": "hurt", "bloodied": "bloodied", "down": "downed"},
    band=band,
    pc_numbers=total_hp,
    pc_extras=limb_lines,
)

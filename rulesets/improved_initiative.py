"""Improved Initiative statblocks in and out (NPC-09 applied to another tool's format).

Improved Initiative (improvedinitiative.app) keeps 5e statblocks as JSON objects::

    {"Id", "Name", "Source", "Type", "HP": {"Value", "Notes"}, "AC": {"Value", "Notes"},
     "InitiativeModifier", "Speed": [..], "Abilities": {"Str", "Dex", "Con", "Int", "Wis", "Cha"},
     "Challenge": "1/4", "Traits"/"Actions"/"Reactions"/"LegendaryActions": [{"Name", "Content"}],
     "Description", "Player", ...}

Its statblock library export holds them as a list, or keyed ``"ImprovedInitiative.Creatures.<id>"``
in an account export; an encounter is ``{"Combatants": [{"StatBlock", "CurrentHP", ...}],
"RoundCounter", "ActiveCombatantId"}``. Reading converts each statblock with the same rule as a
5e SRD monster (:func:`rulesets.npc.from_5e`), so the HD-derived conversion is one rule.

Reading: an action is an attack when its text says "Attack: +N to hit" (Improved
Initiative has no attack bonus field), because that is how 5e prints one.
Reading: a statblock whose Source is "Tableside" was written by :func:`statblock`: its
"Concept" traits are the NPC's concepts and every other trait is one of its powers (the GM chose
them; the one-per-CR rule is for monsters from elsewhere), and a Description starting "Quick
build HD n" is that quick build (NPC-03), so export and import round-trip.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulesets import npc as npc_rules
from rulesets.values import frozen

SYSTEM = "Improved Initiative"
TABLESIDE_SOURCE = "Tableside"
CONCEPT_TRAIT = "Concept"
LIBRARY_PREFIX = "ImprovedInitiative.Creatures."
ENCOUNTER_PREFIX = "ImprovedInitiative.SavedEncounters."
ABILITIES: dict[str, str] = {
    "Str": "strength",
    "Dex": "dexterity",
    "Con": "constitution",
    "Int": "intelligence",
    "Wis": "wisdom",
    "Cha": "charisma",
}
_ATTACK = re.compile(r"Attack:\s*([+-]\s*\d+)\s*to hit", re.IGNORECASE)
_HIT_DICE = re.compile(r"(\d+\s*d\s*\d+)")
_QUICK_BUILD = re.compile(r"^Quick build HD (\d+)\b")


def is_statblock(value: object) -> bool:
    """An Improved Initiative statblock: a "Name" and its "Abilities" or "HP"."""
    return (
        isinstance(value, Mapping) and "Name" in value and ("Abilities" in value or "HP" in value)
    )


def statblocks_in(data: object) -> list[Any] | None:
    """Every statblock of a library export, an account export or an encounter; None when the
    data is not Improved Initiative's (so a caller can try another format)."""
    if is_statblock(data):
        return [data]
    if isinstance(data, list):
        return list(data) if any(is_statblock(item) for item in data) else None
    if not isinstance(data, Mapping):
        return None
    if isinstance(data.get("Combatants"), list):
        return _combatant_blocks(data, set())
    keyed = [v for k, v in data.items() if str(k).startswith(LIBRARY_PREFIX)]
    saved = [v for k, v in data.items() if str(k).startswith(ENCOUNTER_PREFIX)]
    if keyed or saved:
        # A saved encounter's foes that are not in the library too: the fight needs them.
        seen = {str(v.get("Name")) for v in keyed if isinstance(v, Mapping)}
        return keyed + [b for e in saved for b in _combatant_blocks(e, seen)]
    values = list(data.values())
    return values if values and all(is_statblock(v) for v in values) else None


@frozen
class Tag:
    """A condition on an Improved Initiative combatant; ``remaining`` None lasts until removed,
    ``at_start`` says it counts down at the start of its bearer's turn (else at the end)."""

    text: str
    remaining: int | None = None
    at_start: bool = False


@frozen
class EncounterEntry:
    """One combatant of an Improved Initiative encounter, as the tracker needs it."""

    id: str
    name: str
    """The alias the GM gave it (``"Goblin 2"``), else its statblock's name."""
    statblock_name: str
    player: bool
    """A player's character (its statblock says so): matched to the party by name."""
    current_hp: int | None
    temp_hp: int
    initiative: int | None
    hidden: bool
    tags: tuple[Tag, ...] = ()


@frozen
class SavedEncounter:
    """An Improved Initiative encounter: its combatants in turn order, the round counter (0:
    not started) and whose turn it is."""

    name: str
    entries: tuple[EncounterEntry, ...]
    round: int
    active_id: str | None


def _whole(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value):
        return int(value)
    return None


def _tag(raw: object) -> Tag | None:
    if isinstance(raw, str):
        return Tag(raw.strip()) if raw.strip() else None
    if not isinstance(raw, Mapping) or not str(raw.get("Text") or "").strip():
        return None
    remaining = _whole(raw.get("DurationRemaining"))
    return Tag(
        str(raw["Text"]).strip(),
        remaining if remaining is not None and remaining > 0 else None,
        raw.get("DurationTiming") == "StartOfTurn",
    )


def encounters_in(data: object, fallback_name: str = "Imported encounter") -> list[SavedEncounter]:
    """The fights of an Improved Initiative encounter file, or the saved encounters of an
    account export (keyed ``ImprovedInitiative.SavedEncounters.<id>``); [] for anything else."""
    if not isinstance(data, Mapping):
        return []
    if isinstance(data.get("Combatants"), list):
        found = _encounter(data, fallback_name)
        return [found] if found is not None else []
    saved = [v for k, v in data.items() if str(k).startswith(ENCOUNTER_PREFIX)]
    return [e for e in (_encounter(v, fallback_name) for v in saved) if e is not None]


def _encounter(data: object, fallback_name: str) -> SavedEncounter | None:
    """The fight of an Improved Initiative encounter (None when ``data`` is not one).

    Reading: the combatants' order in the file is the turn order, as Improved Initiative keeps
    it sorted by initiative; a combatant with no statblock is left out (nothing to track)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("Combatants"), list):
        return None
    entries = []
    for index, raw in enumerate(data["Combatants"]):
        block = raw.get("StatBlock") if isinstance(raw, Mapping) else None
        if not isinstance(block, Mapping) or not is_statblock(block):
            continue
        statblock_name = str(block["Name"]).strip()
        alias = str(raw.get("Alias") or "").strip()
        tags = tuple(t for t in map(_tag, raw.get("Tags") or ()) if t is not None)
        entries.append(
            EncounterEntry(
                id=str(raw.get("Id") or index),
                name=alias or statblock_name,
                statblock_name=statblock_name,
                player=bool(block.get("Player")),
                current_hp=_whole(raw.get("CurrentHP")),
                temp_hp=max(0, _whole(raw.get("TemporaryHP")) or 0),
                initiative=_whole(raw.get("Initiative")),
                hidden=bool(raw.get("Hidden")),
                tags=tags,
            )
        )
    # Two unnamed Goblins read "Goblin 1" and "Goblin 2", as the tracker numbers a group.
    unnamed = Counter(e.name for e in entries if e.name == e.statblock_name)
    numbers: Counter[str] = Counter()
    for k, e in enumerate(entries):
        if e.name == e.statblock_name and unnamed[e.name] > 1:
            numbers[e.name] += 1
            entries[k] = replace(e, name=f"{e.name} {numbers[e.name]}")
    active = data.get("ActiveCombatantId")
    return SavedEncounter(
        name=str(data.get("Name") or "").strip() or fallback_name,
        entries=tuple(entries),
        round=max(0, _whole(data.get("RoundCounter")) or 0),
        active_id=str(active) if active not in (None, "") else None,
    )


def max_hp_by_name(blocks: Sequence[object]) -> dict[str, int]:
    """Each statblock's maximum HP by its name (those with a whole, positive one)."""
    found: dict[str, int] = {}
    for block in blocks:
        if is_statblock(block):
            assert isinstance(block, Mapping)
            hp = _whole(_value(block.get("HP")))
            if hp is not None and hp > 0:
                found[str(block["Name"]).strip()] = hp
    return found


def _combatant_blocks(encounter: object, seen: set[str]) -> list[Any]:
    """The statblocks of an encounter's foes, each name once (``seen`` grows)."""
    found: list[Any] = []
    raw = encounter.get("Combatants") if isinstance(encounter, Mapping) else None
    for combatant in raw if isinstance(raw, list) else ():
        block = combatant.get("StatBlock") if isinstance(combatant, Mapping) else None
        if not isinstance(block, Mapping) or not is_statblock(block):
            continue
        if not block.get("Player") and str(block["Name"]) not in seen:
            seen.add(str(block["Name"]))
            found.append(block)
    return found


def _value(entry: object) -> object:
    return entry.get("Value") if isinstance(entry, Mapping) else entry


def _notes(entry: object) -> str:
    notes = entry.get("Notes") if isinstance(entry, Mapping) else None
    return notes.strip() if isinstance(notes, str) else ""


def _entries(raw: object) -> list[Mapping[str, Any]]:
    items = raw if isinstance(raw, list) else []
    return [e for e in items if isinstance(e, Mapping) and isinstance(e.get("Name"), str)]


def _action(entry: Mapping[str, Any]) -> dict[str, Any]:
    converted: dict[str, Any] = {"name": entry["Name"], "desc": str(entry.get("Content", ""))}
    found = _ATTACK.search(converted["desc"])
    if found:
        converted["attack_bonus"] = int(found.group(1).replace(" ", ""))
    return converted


def as_5e(block: Mapping[str, Any]) -> dict[str, Any]:
    """The statblock in the 5e SRD shape :func:`rulesets.npc.from_5e` reads.

    Raises:
        ConversionError: a missing Name, ability score or Challenge (named as Improved
            Initiative names them).
    """
    abilities = block.get("Abilities")
    missing = [] if isinstance(block.get("Name"), str) and block["Name"].strip() else ["Name"]
    if not isinstance(abilities, Mapping):
        missing.append("Abilities")
        abilities = {}
    else:
        missing += [f"Abilities.{k}" for k in ABILITIES if abilities.get(k) in (None, "")]
    if block.get("Challenge") in (None, ""):
        missing.append("Challenge")
    if missing:
        raise npc_rules.ConversionError(
            f"missing field{'s' if len(missing) > 1 else ''}: {', '.join(missing)}"
        )
    hp, ac = block.get("HP"), block.get("AC")
    hit_dice = _HIT_DICE.search(_notes(hp))
    return {
        "name": block["Name"],
        **{long: abilities[short] for short, long in ABILITIES.items()},
        "challenge_rating": block["Challenge"],
        "armor_class": [{"type": _notes(ac), "value": _value(ac)}]
        if isinstance(_value(ac), int)
        else _value(ac),
        "hit_points": _value(hp),
        "hit_dice": hit_dice.group(1).replace(" ", "") if hit_dice else None,
        "special_abilities": [_action(e) for e in _entries(block.get("Traits"))],
        "actions": [_action(e) for e in _entries(block.get("Actions"))],
        "reactions": [_action(e) for e in _entries(block.get("Reactions"))],
        "legendary_actions": [_action(e) for e in _entries(block.get("LegendaryActions"))],
    }


def convert(block: object) -> npc_rules.Conversion:
    """NPC-09 for one Improved Initiative statblock.

    Raises:
        ConversionError: not a statblock, or a missing or malformed field.
    """
    if not isinstance(block, Mapping):
        raise npc_rules.ConversionError(
            f"a statblock must be a JSON object, not {type(block).__name__}"
        )
    conversion = npc_rules.from_5e(as_5e(block))
    conversion = replace(conversion, source_system=SYSTEM)
    if block.get("Source") != TABLESIDE_SOURCE:
        return conversion
    traits = _entries(block.get("Traits"))
    concepts = tuple(
        str(t.get("Content", "")).strip() for t in traits if t["Name"] == CONCEPT_TRAIT
    )
    powers = tuple(t["Name"] for t in traits if t["Name"] != CONCEPT_TRAIT)
    quick = _QUICK_BUILD.match(str(block.get("Description", "")))
    quick_hd = int(quick.group(1)) if quick else None
    return replace(
        conversion,
        quick_hd=quick_hd if quick_hd is not None and quick_hd <= npc_rules.MAX_QUICK_HD else None,
        concepts=tuple(c for c in concepts if c),
        powers=powers,
        power_slots=max(conversion.power_slots, len(powers)),
        notes=tuple(n for n in conversion.notes if "power slot" not in n),
    )


def convert_all(
    blocks: Sequence[Any],
) -> tuple[list[npc_rules.Conversion], list[tuple[int, str, str]]]:
    """Every statblock converted; errors are (index, name or "", reason), as for 5e files."""
    conversions: list[npc_rules.Conversion] = []
    errors: list[tuple[int, str, str]] = []
    for index, block in enumerate(blocks):
        try:
            conversions.append(convert(block))
        except (npc_rules.ConversionError, npc_rules.NPCError) as exc:
            name = block.get("Name") if isinstance(block, Mapping) else None
            errors.append((index, name if isinstance(name, str) else "", str(exc)))
    return conversions, errors


# --- writing ----------------------------------------------------------------------------------
def ability_score(attribute: int) -> int:
    """A 5e score whose modifier is ``attribute`` (within 1..30), so reading it back through the
    conversion gives the same Brawl, Wit or Will."""
    return 10 + 2 * attribute if attribute >= 0 else 11 + 2 * attribute


def challenge(hd: int) -> str:
    """HD ~ 2 x CR (NPC-09) read backwards: the Challenge of an NPC made here."""
    return str(Fraction(hd, 2))


def _attack_text(block: npc_rules.NPC, attribute: str) -> str:
    if isinstance(block, npc_rules.QuickBuild):
        return f"Attack: {block.atk_mod:+d} to hit. Hit: {block.atk_dmg} damage."
    damage = block.atk_dmg.get(attribute, "weapon")
    return f"Attack: {block.atk_mod[attribute]:+d} to hit. Hit: {damage} damage."


def statblock(
    *,
    key: str,
    name: str,
    brawl: int,
    wit: int,
    will: int,
    block: npc_rules.NPC,
    concepts: Iterable[str] = (),
    powers: Iterable[str] = (),
    cr: str | None = None,
    description: str = "",
) -> dict[str, Any]:
    """An NPC as an Improved Initiative statblock: the HD-derived numbers in HP, AC and
    Actions, concepts and powers in Traits, Brawl/Wit/Will as the ability scores they convert
    back from (Brawl in Str and Con, Wit in Dex and Int, Will in Wis and Cha)."""
    scores = {"brawl": ability_score(brawl), "wit": ability_score(wit), "will": ability_score(will)}
    attacks = [
        {"Name": f"{label} attack", "Content": _attack_text(block, attribute)}
        for attribute, label in (("brawl", "Brawl"), ("wit", "Wit"), ("will", "Will"))
    ]
    if block.attacks > 1:
        attacks.insert(
            0, {"Name": "Multiattack", "Content": f"The NPC makes {block.attacks} attacks."}
        )
    details = (
        f"HD {block.hd}, hit die d{block.hit_die}, Save {block.save}+, Effort {block.effort}, "
        f"Shock {block.shock}, Move {block.move} ft"
    )
    if isinstance(block, npc_rules.QuickBuild):
        details = f"Quick build HD {block.hd}: {details}"
    return {
        "Id": key,
        "Name": name,
        "Path": "",
        "Source": TABLESIDE_SOURCE,
        "Type": "",
        "HP": {"Value": block.hp, "Notes": f"({block.hp_roll})"},
        "AC": {"Value": block.ac, "Notes": ""},
        "InitiativeModifier": math.floor((ability_score(wit) - 10) / 2),
        "Speed": [f"{block.move} ft."],
        "Abilities": {
            "Str": scores["brawl"],
            "Dex": scores["wit"],
            "Con": scores["brawl"],
            "Int": scores["wit"],
            "Wis": scores["will"],
            "Cha": scores["will"],
        },
        "DamageVulnerabilities": [],
        "DamageResistances": [],
        "DamageImmunities": [],
        "ConditionImmunities": [],
        "Saves": [],
        "Skills": [],
        "Senses": [],
        "Languages": [],
        "Challenge": cr or challenge(block.hd),
        "Traits": [{"Name": CONCEPT_TRAIT, "Content": c} for c in concepts]
        + [{"Name": p, "Content": "Power"} for p in powers],
        "Actions": attacks,
        "Reactions": [],
        "LegendaryActions": [],
        "Description": "\n".join(x for x in (details, description) if x),
        "Player": "",
        "ImageURL": "",
    }

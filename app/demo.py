"""Demo campaigns: a party of four, a few NPCs and one encounter ready to run, for each game.

Written through the same store and commands as play, to a fresh file in the campaign folder.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app.store import CampaignStore
from rulesets import encounter as enc_rules
from rulesets import npc as npc_rules
from rulesets import tarot
from rulesets.registry import GAMES, get

PARTIES: dict[str, list[tuple[str, dict[str, int]]]] = {
    "somnihil": [("Vesna Kade", {}), ("Orrin Hale", {}), ("Tamsin Vey", {}), ("Ibrahim Sol", {})],
    "resolution": [
        ("Mara Quell", {"str": 14, "dex": 12, "con": 13, "int": 10, "wis": 15, "cha": 9}),
        ("Dov Ashgrove", {"str": 9, "dex": 16, "con": 11, "int": 17, "wis": 12, "cha": 10}),
        ("Sefa Ironwood", {"str": 16, "dex": 10, "con": 15, "int": 8, "wis": 11, "cha": 13}),
        ("Lio Marchetti", {"str": 10, "dex": 13, "con": 12, "int": 12, "wis": 9, "cha": 16}),
    ],
    "shadows": [
        (
            "Agnes Thorne",
            {
                "quickness": 4,
                "body": 3,
                "mind": 2,
                "spirit": 2,
                "physical": 4,
                "mental": 2,
                "emotional": 2,
                "intuition": 3,
                "discipline": 2,
            },
        ),
        (
            "Felix Marrow",
            {
                "quickness": 2,
                "body": 2,
                "mind": 4,
                "spirit": 2,
                "physical": 2,
                "mental": 4,
                "emotional": 3,
                "intuition": 2,
                "discipline": 4,
            },
        ),
        (
            "Ines Calder",
            {
                "quickness": 3,
                "body": 2,
                "mind": 2,
                "spirit": 4,
                "physical": 2,
                "mental": 2,
                "emotional": 4,
                "intuition": 4,
                "discipline": 2,
            },
        ),
        (
            "Bram Okafor",
            {
                "quickness": 1,
                "body": 4,
                "mind": 2,
                "spirit": 2,
                "physical": 5,
                "mental": 1,
                "emotional": 2,
                "intuition": 1,
                "discipline": 3,
            },
        ),
    ],
    "nemron": [
        (
            "Kesh Varn",
            {
                "power": 2,
                "agility": 1,
                "constitution": 2,
                "awareness": 1,
                "sense": 0,
                "focus": 1,
                "control": 0,
                "intellect": 1,
                "willpower": 0,
            },
        ),
        (
            "Ylva Rask",
            {
                "power": 0,
                "agility": 3,
                "constitution": 1,
                "awareness": 2,
                "sense": 1,
                "focus": 0,
                "control": 1,
                "intellect": 0,
                "willpower": 1,
            },
        ),
        (
            "Tomas Ert",
            {
                "power": 1,
                "agility": 0,
                "constitution": 1,
                "awareness": 1,
                "sense": 2,
                "focus": 2,
                "control": 2,
                "intellect": 2,
                "willpower": 1,
            },
        ),
        (
            "Nadia Fel",
            {
                "power": 1,
                "agility": 1,
                "constitution": 1,
                "awareness": 0,
                "sense": 1,
                "focus": 1,
                "control": 1,
                "intellect": 1,
                "willpower": 3,
            },
        ),
    ],
    "aspects": [("Rowan Pike", {}), ("Juno Hart", {}), ("Casimir Dunn", {}), ("Ada Wren", {})],
}

NPCS: list[tuple[str, tuple[str, ...], int, int, int]] = [
    ("Goblin", ("sneaky", "cowardly"), 1, 1, 0),
    ("Cult Fanatic", ("zealot", "knife-fighter"), 1, 1, 2),
    ("Ogre", ("brute", "hungry"), 4, 0, 1),
    ("Hedge Witch", ("curse-weaver",), 0, 3, 2),
]

ENCOUNTER_NAME = "Ambush at the Mill"


DETAILS: dict[str, dict[str, dict[str, Any]]] = {
    "somnihil": {
        "Vesna Kade": {
            "sessions": 1,
            "lists": {
                "spells": [
                    {"name": "Rot Touch", "protocol": "Decay"},
                    {"name": "Blink", "protocol": "Spatial"},
                    {"name": "Wither", "protocol": "Decay"},
                ]
            },
        },
        "Orrin Hale": {
            "sessions": 1,
            "lists": {"spells": [{"name": "Mend", "protocol": "Creation"}]},
        },
    },
    "shadows": {
        "Agnes Thorne": {"lists": {"major_arcana": [tarot.major_card("The Star").to_dict()]}}
    },
    "resolution": {"Dov Ashgrove": {"lists": {"deliria": ["Counts every door twice"]}}},
    "nemron": {
        "Kesh Varn": {"skills": {"Brawling": 2, "Firearms": 1}},
        "Ylva Rask": {"skills": {"Stealth": 2, "Acrobatics": 1}},
        "Tomas Ert": {"skills": {"Medicine": 2, "Lore": 1}},
        "Nadia Fel": {"skills": {"Persuasion": 1}},
    },
    "aspects": {
        "Rowan Pike": {"lists": {"aspects": ["Disgraced Knight", "Owes the Guild"]}},
        "Juno Hart": {"lists": {"aspects": ["Street Surgeon", "Never Leaves a Friend"]}},
        "Casimir Dunn": {"lists": {"aspects": ["Loud and Proud"]}},
    },
}
"""Small additions per demo PC (spells, skills, aspects) so each game's sheet shows its lists."""


def _character(game: str, name: str, attributes: dict[str, int]) -> dict[str, Any]:
    ruleset = get(game)
    known = {spec.key for spec in ruleset.sheet.attributes}
    character = ruleset.make_character(name, **{k: v for k, v in attributes.items() if k in known})
    for key, value in DETAILS.get(game, {}).get(name, {}).items():
        if isinstance(value, dict) and isinstance(character.get(key), dict):
            character[key].update(value)
        else:
            character[key] = value
    return character


def npc_document(
    name: str, concepts: tuple[str, ...], brawl: int, wit: int, will: int
) -> dict[str, Any]:
    block = npc_rules.build(brawl, wit, will, name=name, concepts=concepts)
    return {
        "name": name,
        "concepts": list(concepts),
        "brawl": brawl,
        "wit": wit,
        "will": will,
        "statblock": block.to_json(),
        "powers": [],
        "notes": "",
    }


def build_demo(game: str, rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The demo's documents per table (pure: no disk)."""
    party = [_character(game, name, attrs) for name, attrs in PARTIES[game]]
    npcs = [npc_document(*spec) for spec in NPCS]
    fight = enc_rules.Encounter(id="e1", name=ENCOUNTER_NAME, model=get(game).turn_model)
    for index, pc in enumerate(party, start=1):
        enc_rules.add_combatant(
            fight,
            enc_rules.Combatant(
                name=pc["name"],
                side="pc",
                ref=str(index),
                quickness=int(pc.get("attributes", {}).get("quickness", 0)),
            ),
        )
    goblin = npcs[0]
    hp = int(goblin["statblock"]["hp"])
    enc_rules.add_group(
        fight,
        "Goblin",
        3,
        lambda name: enc_rules.Combatant(
            name=name, side="npc", ref="1", stats={"hp": hp, "hp_max": hp}
        ),
    )
    return {"party": party, "npcs": npcs, "encounters": [fight.to_dict()], "log": [], "decks": []}


def write_demo(game: str, path: Path, *, seed: int | None = None) -> Path:
    """Write a fresh demo campaign for ``game`` to ``path`` and return the path."""
    if game not in GAMES:
        raise KeyError(game)
    docs = build_demo(game, random.Random(seed))
    store = CampaignStore.open(path, ruleset=game, name="Demo campaign")
    try:
        for table, rows in docs.items():
            tbl = store.db.table(table)
            for row in rows:
                tbl.insert(row)
        store.commit()
    finally:
        store.close()
    return path

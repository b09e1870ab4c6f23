"""Demo campaigns: the game's demo party, a few NPCs and one encounter ready to run.

Written through the same store and commands as play, to a fresh file in the campaign folder.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app.store import CampaignStore
from rulesets import encounter as enc_rules
from rulesets import npc as npc_rules
from rulesets import registry
from rulesets.fight import DEFAULT_QUICKNESS
from rulesets.game import DemoPC, Game
from rulesets.npc import library_block
from rulesets.turn_orders import turn_order

NPCS: list[tuple[str, tuple[str, ...], int, int, int]] = [
    ("Goblin", ("sneaky", "cowardly"), 1, 1, 0),
    ("Cult Fanatic", ("zealot", "knife-fighter"), 1, 1, 2),
    ("Ogre", ("brute", "hungry"), 4, 0, 1),
    ("Hedge Witch", ("curse-weaver",), 0, 3, 2),
]

ENCOUNTER_NAME = "Ambush at the Mill"


def _character(game: Game, pc: DemoPC) -> dict[str, Any]:
    ruleset = game.ruleset
    known = {spec.key for spec in ruleset.sheet.attributes}
    attributes = {k: v for k, v in pc.attributes.items() if k in known}
    character = ruleset.make_character(pc.name, **attributes)
    for key, value in pc.details.items():
        if isinstance(value, dict) and isinstance(character.get(key), dict):
            character[key].update(value)
        else:
            character[key] = value
    return character


def npc_document(
    name: str, concepts: tuple[str, ...], brawl: int, wit: int, will: int
) -> dict[str, Any]:
    return npc_rules.library_document(name, concepts, brawl, wit, will)


def build_demo(game_id: str, rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The demo's documents per table (pure: no disk): the game's demo party, four library NPCs
    and one encounter in the game's turn model."""
    game = registry.game(game_id)
    party = [_character(game, pc) for pc in game.demo_party]
    npcs = [npc_document(*spec) for spec in NPCS]
    fight = enc_rules.Encounter(id="e1", name=ENCOUNTER_NAME, model=game.turn_model)
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
    block = library_block(goblin)

    def foe(name: str) -> enc_rules.Combatant:
        # The game's foe of the goblin's statblock (limbs, a stress track, a Quickness …).
        stats = game.foes.make(name, block, block.hp)
        quickness = game.fight.quickness(stats.get("sheet")) or DEFAULT_QUICKNESS
        return enc_rules.Combatant(
            name=name,
            side="npc",
            ref="1",
            stats=stats,
            quickness=quickness if turn_order(fight.model, game).uses_quickness else 0,
        )

    enc_rules.add_group(fight, "Goblin", 3, foe)
    if turn_order(fight.model, game).uses_ap:
        # Nobody has spent an AP before the fight: the column reads each pool full, as it
        # does for anyone the GM adds (the start sets the same maxes).
        for c in fight.combatants:
            c.ap_max = c.ap = game.fight.ap_per_round(c.quickness or DEFAULT_QUICKNESS)
    return {"party": party, "npcs": npcs, "encounters": [fight.to_dict()], "log": [], "decks": []}


def write_demo(game: str, path: Path, *, seed: int | None = None) -> Path:
    """Write a fresh demo campaign for ``game`` to ``path`` and return the path."""
    registry.game(game)  # an unknown id is refused before any file is written
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

"""NPC library commands and statblock rolls (NPC-01..NPC-10) through Campaign.apply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.commands.npcs import (
    AddNpcsToEncounter,
    DeleteNpc,
    DuplicateNpc,
    ImportNpcs,
    RefreshEffort,
    RollNpc,
    SaveNpc,
    npc_block,
    npc_document,
)
from app.demo import write_demo
from app.queries import current_encounter
from app.state import Campaign, CommandError
from app.store import CampaignStore
from rulesets import npc as npc_rules
from tests.apphelpers import open_demo

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "srd5e-monsters-sample.json"


@pytest.fixture
def demo(tmp_path: Path) -> Any:
    campaign = open_demo(tmp_path, "resolution")
    yield campaign
    campaign.store.close()


def _goblin_id(campaign: Campaign) -> int:
    return next(i for i, d in campaign.rows("npcs") if d["name"] == "Goblin")


def test_npc01_document_keeps_inputs_and_rules_statblock() -> None:
    doc = npc_document("Bandit", ["brutal", "cunning"], 3, 2, 2, powers=["Rally", ""])
    assert doc["statblock"] == npc_rules.build(3, 2, 2).to_json()
    assert doc["statblock"]["hp"] == 33 and doc["statblock"]["hp_roll"] == "6d10"
    assert doc["powers"] == ["Rally"]


def test_npc03_quick_build_document(demo: Campaign) -> None:
    doc = npc_document("Guard", (), quick_hd=5)
    assert doc["quick_hd"] == 5 and doc["statblock"]["hp"] == 25
    assert isinstance(npc_block(doc), npc_rules.QuickBuild)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": " "}, "needs a name"),
        ({"name": "X", "brawl": 9}, "Brawl must be between"),
        ({"name": "X", "wit": -4}, "Wit must be between"),
        ({"name": "X", "quick_hd": 21}, "HD 0 to 20"),
        ({"name": "X", "concepts": ["a", "b", "c", "d"]}, "at most 3 concepts"),
    ],
)
def test_npc01_bad_builder_input_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        npc_document(**kwargs)


def test_save_edit_duplicate_delete_and_undo(demo: Campaign) -> None:
    before = len(demo.rows("npcs"))
    demo.apply(SaveNpc(npc_document("Bandit", ["brutal"], 3, 2, 2)))
    new_id = demo.rows("npcs")[-1][0]
    demo.apply(SaveNpc(npc_document("Bandit Chief", ["brutal"], 4, 2, 2), new_id))
    edited = demo.doc("npcs", new_id)
    assert edited is not None and edited["name"] == "Bandit Chief"
    assert edited["statblock"]["hd"] == 7
    demo.apply(DuplicateNpc(new_id))
    assert demo.rows("npcs")[-1][1]["name"] == "Bandit Chief (copy)"
    demo.apply(DeleteNpc(new_id))
    assert demo.doc("npcs", new_id) is None
    assert len(demo.rows("npcs")) == before + 1
    demo.undo()
    assert demo.doc("npcs", new_id) is not None
    with pytest.raises(CommandError, match="no longer in the library"):
        demo.apply(DeleteNpc(999))


def test_npc04_add_three_goblins_rolled_hp(demo: Campaign) -> None:
    goblin = _goblin_id(demo)
    found = current_encounter(demo)
    assert found is not None
    names_before = [c["name"] for c in found[1]["combatants"]]
    assert "Goblin 3" in names_before  # the demo already has Goblin 1-3
    demo.apply(AddNpcsToEncounter(goblin, 3, "rolled"))
    found = current_encounter(demo)
    assert found is not None
    added = found[1]["combatants"][len(names_before) :]
    assert [c["name"] for c in added] == ["Goblin 4", "Goblin 5", "Goblin 6"]
    assert all(c["ref"] == str(goblin) for c in added)
    assert all(1 <= c["stats"]["hp"] == c["stats"]["hp_max"] <= 8 for c in added)
    rolls = [e for e in demo.log_entries() if e["kind"] == "roll"]
    assert [r["who"] for r in rolls[-3:]] == ["Goblin 4", "Goblin 5", "Goblin 6"]
    assert all(r["expression"] == "1d8" for r in rolls[-3:])
    assert "Added to" in demo.log_entries()[-1]["text"]


def test_npc04_add_fixed_hp_creates_encounter_when_none(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    write_demo("resolution", path, seed=1)
    data = json.loads(path.read_text())
    data["encounters"] = {}
    path.write_text(json.dumps(data))
    store = CampaignStore.open(path)
    campaign = Campaign(store)
    try:
        ogre = next(i for i, d in campaign.rows("npcs") if d["name"] == "Ogre")
        campaign.apply(AddNpcsToEncounter(ogre, 2, "fixed"))
        found = current_encounter(campaign)
        assert found is not None
        assert [(c["name"], c["stats"]["hp"]) for c in found[1]["combatants"]] == [
            ("Ogre 1", 24),
            ("Ogre 2", 24),
        ]
        assert campaign.meta["current_encounter"] == found[0]
    finally:
        store.close()


@pytest.mark.parametrize(("count", "mode"), [(0, "rolled"), (51, "fixed"), (2, "average")])
def test_add_to_encounter_refuses_bad_count_or_mode(demo: Campaign, count: int, mode: Any) -> None:
    with pytest.raises(CommandError):
        demo.apply(AddNpcsToEncounter(_goblin_id(demo), count, mode))


def test_npc02_07_08_rolls_land_in_the_log(demo: Campaign) -> None:
    ogre = next(i for i, d in demo.rows("npcs") if d["name"] == "Ogre")
    demo.apply(RollNpc(ogre, "attack", "brawl", target=12))
    demo.apply(RollNpc(ogre, "save", "will"))
    demo.apply(RollNpc(ogre, "skill", "wit", target=8))
    demo.apply(RollNpc(ogre, "skill", "brawl", system="d20"))
    demo.apply(RollNpc(ogre, "morale"))
    rolls = [e for e in demo.log_entries() if e["kind"] == "roll"][-5:]
    assert all(r["who"] == "Ogre" for r in rolls)
    attack, save, skill, skill20, morale = rolls
    assert attack["expression"] == "1d20+9 vs AC 12" and attack["band"] in ("hit", "miss")
    assert "damage" in attack["detail"]
    assert save["expression"].endswith("vs Save 15")
    assert skill["expression"] == "2d6+0 vs DC 8"
    assert skill20["expression"] == "1d20+8 vs DC 15"
    assert morale["expression"] == "2d6+1 morale"
    assert morale["band"] == npc_rules.morale_result(morale["total"])


def test_npc05_effort_is_spent_on_one_or_two_and_refreshes(demo: Campaign) -> None:
    witch = next(i for i, d in demo.rows("npcs") if d["name"] == "Hedge Witch")
    assert npc_block(demo.doc("npcs", witch) or {}).effort == "1d4"
    for _ in range(40):
        if (demo.doc("npcs", witch) or {}).get("effort_left") == "0":
            break
        demo.apply(RollNpc(witch, "effort"))
        last = [e for e in demo.log_entries() if e["kind"] == "roll"][-1]
        assert (last["band"] == "spent") == (last["total"] <= 2)
    assert (demo.doc("npcs", witch) or {})["effort_left"] == "0"
    with pytest.raises(CommandError, match="no Effort left"):
        demo.apply(RollNpc(witch, "effort"))
    demo.apply(RefreshEffort(witch))
    assert "effort_left" not in (demo.doc("npcs", witch) or {})


def test_npc09_import_sample_keeps_source_and_cr(demo: Campaign) -> None:
    data = json.loads(SAMPLE.read_text())
    conversions, errors = npc_rules.import_5e_file(data)
    assert len(conversions) == 25 and errors == []
    before = len(demo.rows("npcs"))
    demo.apply(ImportNpcs(tuple(conversions)))
    rows = demo.rows("npcs")
    assert len(rows) == before + 25
    devil = next(d for _, d in rows if d["name"] == "Chain Devil")
    assert devil["source"]["cr"] == "8" and devil["source"]["name"] == "Chain Devil"
    assert (devil["brawl"], devil["wit"], devil["will"]) == (4, 2, 2)
    assert devil["statblock"]["hd"] == 7
    assert len(devil["powers"]) <= 8 and devil["powers"][0] == "Devil's Sight"
    assert "9 under" in devil["notes"]
    demo.undo()
    assert len(demo.rows("npcs")) == before


def test_npc09_huge_scores_import_beyond_builder_range(demo: Campaign) -> None:
    monster = {
        "name": "Tarrasque",
        "strength": 30,
        "dexterity": 11,
        "constitution": 30,
        "intelligence": 3,
        "wisdom": 11,
        "charisma": 11,
        "challenge_rating": 30,
    }
    demo.apply(ImportNpcs((npc_rules.from_5e(monster),)))
    assert demo.rows("npcs")[-1][1]["brawl"] == 10


def test_npc09_builder_range_is_what_conversions_produce() -> None:
    """5e scores 1..30 give -5..+10; the rules build every one, the builder saves them."""
    from app.commands.npcs import beyond_table
    from rulesets.npc import ATTRIBUTE_RANGE, CONVERTED_RANGE

    assert npc_rules.ability_modifier_5e(1) == CONVERTED_RANGE.start
    assert npc_rules.ability_modifier_5e(30) == CONVERTED_RANGE.stop - 1
    for value in CONVERTED_RANGE:  # every column extends past the table without an error
        block = npc_rules.build(value, value, value)
        assert block.hp >= 1 and block.save <= 16 and block.hit_die in (4, 6, 8, 10, 12, 20)
    doc = npc_document("Tarrasque", (), 10, 0, -5, attribute_range=CONVERTED_RANGE)
    assert (doc["brawl"], doc["will"]) == (10, -5)
    assert doc["statblock"] == npc_rules.build(10, 0, -5).to_json()
    with pytest.raises(CommandError, match=r"Brawl must be between -5 and \+10, not \+11"):
        npc_document("X", (), 11, 0, 0, attribute_range=CONVERTED_RANGE)
    with pytest.raises(CommandError, match="Brawl must be between -3 and"):
        npc_document("X", (), 10, 0, 0)  # the default stays the text's table
    assert (
        beyond_table(10, 0, -5) == "Brawl +10, Will -5 beyond the text's table (-3..+8): kept as is"
    )
    assert beyond_table(*(ATTRIBUTE_RANGE.stop - 1,) * 3) == ""

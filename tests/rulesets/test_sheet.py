"""Each game's party sheet declaration (issue 11): rows, headers, entries, statuses, rests, keys.

Pure: a game's SheetRules read a PC document; no app, no Textual.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rulesets import registry
from rulesets.shadows import tarot
from rulesets.sheet import REST_IDS, SheetRules
from tests.games import BUILT_IN

GAMES = BUILT_IN
PANEL_KEYS = {"plus", "equals_sign", "minus", "e", "n", "a", "delete", "slash", "S", "C", "g", "R"}
"""The party panel's own keys (screens/party.py): a game's party action must not take one."""


def fresh(game: str) -> dict[str, Any]:
    return registry.get(game).make_character("Test")


@pytest.mark.parametrize("game", GAMES)
def test_party_actions_keep_off_the_panels_keys_and_ids_off_labels(game: str) -> None:
    actions = registry.game(game).actions_for("party")
    assert not {a.key for a in actions} & PANEL_KEYS
    for action in actions:
        assert not re.search(r"\b[A-Z]{2,4}-\d", f"{action.label} {action.description}")


def test_the_games_party_actions() -> None:
    found = {g: {a.id for a in registry.game(g).actions_for("party")} for g in GAMES}
    assert found == {
        "somnihil": set(),
        "resolution": {"grip_check"},
        "shadows": set(),
        "nemron": {"rank_up", "award_xp"},
        "aspects": {"heal_consequence", "level_up"},
    }


def test_rests_each_game_has() -> None:
    has = {g: {r for r in REST_IDS if registry.game(g).sheet.has_rest(r)} for g in GAMES}
    assert has == {
        "somnihil": {"session", "regroup", "rest"},
        "resolution": {"session", "rest"},  # RR-05: a night's rest (issue 27)
        "shadows": {"session", "scene"},
        "nemron": {"session", "regroup", "rest"},
        "aspects": {"session", "scene"},
    }
    assert SheetRules().has_rest("session") and not SheetRules().has_rest("rest")


def test_som10_spells_header_counts_known_and_protocols() -> None:
    sheet = registry.game("somnihil").sheet
    pc = fresh("somnihil")
    pc["lists"]["spells"] = [{"name": "Erode", "protocol": "Decay"}]
    assert sheet.headers["spells"](pc) == "1/10 known · Protocols: Decay (at most 2)"


def test_nem08_nem13_rows_limbs_as_bars_and_skills_with_rank_dice() -> None:
    sheet = registry.game("nemron").sheet
    pc = fresh("nemron")
    pc["skills"] = {"Brawling": 2}
    pc["domains"] = {"Brawling": ["Grapple"]}
    rows = {r.key: r for r in sheet.extra_rows(pc)}
    torso = rows["limb:torso"]
    assert torso.bar is not None and torso.bar[0] == torso.bar[1] > 0
    assert torso.place == "resources" and torso.label == "Torso"
    assert "".join(t for t, _ in rows["skill:Brawling"].value) == (
        "Brawling  d8 (rank 2; rank up 2 XP)"
    )
    assert rows["skill:Brawling"].adds == "skills" and rows["domain:Brawling"].adds == "features"
    assert "Grapple" in "".join(t for t, _ in rows["domain:Brawling"].value)
    assert sheet.attribute_text is not None and sheet.attribute_text(0) == (
        "d4  (rank 0; rank up 1 XP)"
    )
    feature = sheet.adding["features"].form(pc, "Brawling")
    assert [(f.key, f.default) for f in feature] == [("domain", "Brawling"), ("feature", "")]


def test_soh04_a_held_major_arcana_reads_with_its_meaning() -> None:
    card = tarot.major_card("The Star")
    parts = registry.game("shadows").sheet.entries["major_arcana"](card.to_dict())
    assert parts is not None
    assert parts[0] == ("The Star", "bold") and parts[2][0] == card.meaning()


def test_som09_statuses_offered_spell_out_the_fates_of_a_perished_cipher() -> None:
    sheet = registry.game("somnihil").sheet
    pc = fresh("somnihil")
    assert dict(sheet.status_choices(pc, ()))["spirit"] == "spirit"
    pc["status"] = "perished"
    offered = dict(sheet.status_choices(pc, ()))
    assert set(offered) == {"alive", "perished", "spirit", "shill", "passed"}
    assert offered["shill"] == "shill: Hollowed into a Shill"


def test_asp08_advancements_row_and_consequence_header() -> None:
    sheet = registry.game("aspects").sheet
    pc = fresh("aspects")
    pc["advancements_pending"] = 2
    (row,) = sheet.extra_rows(pc)
    assert (row.key, row.value) == ("level", (("2 pending · retire at 6", ""),))
    assert sheet.headers["consequences"](pc).endswith(" held")

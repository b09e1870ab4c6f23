"""Each game's fight declaration (rulesets/<game>/fight.py) through the hooks the tracker calls.

The tracker asks a game's :class:`rulesets.fight.FightRules` for its foe sheet, initiative,
forms, row tags and turn notes; these tests ask the same questions of each game directly.
"""

from __future__ import annotations

import inspect
import random

import pytest

from rulesets import encounter as er
from rulesets import npc, registry
from rulesets.base import RuleError
from rulesets.fight import (
    HD_FOES,
    Answers,
    FightRules,
    health_kind,
    is_out,
    standard_ap,
)
from rulesets.nemron import rules as nemron
from tests.games import BUILT_IN

GAMES = BUILT_IN


def rules(game: str) -> FightRules:
    return registry.game(game).fight


def foe(game: str, health: int = 4, **answers: object) -> er.Combatant:
    made = rules(game).foe.make("Foe", health, Answers(answers))
    return er.Combatant(name="Foe", side="npc", stats=made)


# --------------------------------------------------------------------------- foe sheets


@pytest.mark.parametrize(
    ("game", "shown"),
    [
        ("somnihil", "4/4 vit"),
        ("resolution", "4/4 HP"),
        ("nemron", "24/24 HP"),
        ("shadows", "H 4/4 · L 4/4 · Æ 4/4"),
        ("aspects", "stress cap 4 · 0 inj"),
    ],
)
def test_each_games_foe_sheet_is_a_foe_not_a_player_character(game: str, shown: str) -> None:
    c = foe(game)
    fight = rules(game)
    if inspect.unwrap(fight.foe.make) is HD_FOES.make:  # guarded by the registry
        assert health_kind(c) == "hp" and c.stats == {"hp": 4, "hp_max": 4}
        assert f"{c.stats['hp']}/{c.stats['hp_max']} HP" == shown
        return
    sheet = c.stats["sheet"]
    assert health_kind(c) == "foe" and fight.foe.health(sheet) == shown
    # none of a player character's own tracks: AP, Grip, Æssence, fate points, XP
    flat = repr(sheet)
    for pc_only in ("'ap'", "grip", "fate_points", "'xp'"):
        assert pc_only not in flat, (game, pc_only)
    assert not is_out(fight, c, sheet)


def test_foe_labels_say_what_quick_add_asks() -> None:
    labels = {game: rules(game).foe.health_label for game in GAMES}
    assert labels == {
        "aspects": "Stress cap",
        "nemron": "HP per limb",
        "resolution": "HP",
        "shadows": "Health and Life",
        "somnihil": "Vitality",
    }
    assert [f.key for f in rules("shadows").foe.fields] == ["quickness"]
    assert [f.key for f in rules("somnihil").foe.fields] == ["initiative"]


def test_each_game_makes_its_own_foe_of_a_statblock() -> None:
    """The same HD statblock is each game's foe in that game's terms."""
    goblin = npc.build(1, 1, 0, name="Goblin")
    made = {game: registry.game(game).foes.make("Goblin 1", goblin, 6) for game in GAMES}
    assert made["resolution"] == {"hp": 6, "hp_max": 6}
    assert made["somnihil"]["sheet"]["resources"]["vitality"] == {"current": 6, "max": 6}
    assert made["aspects"]["sheet"]["attributes"]["consequence_slots"] == 0
    assert set(made["nemron"]["sheet"]["tracks"]["limbs"]) == set(nemron.LIMBS)


def test_shadows_foe_quickness_is_kept_on_the_sheet_within_1_to_16() -> None:
    assert foe("shadows", quickness=8).stats["sheet"]["attributes"]["quickness"] == 8
    assert foe("shadows", quickness=99).stats["sheet"]["attributes"]["quickness"] == 16


def test_foes_out_of_the_fight() -> None:
    fight = rules("nemron")
    c = foe("nemron")
    c.stats["sheet"]["status"] = "downed"
    assert is_out(fight, c, c.stats["sheet"])
    hd = er.Combatant(name="Goblin", side="npc", stats={"hp": 0, "hp_max": 5})
    assert is_out(fight, hd, None)
    assert rules("aspects").foe.out({"status": "taken out"})
    assert rules("somnihil").out({"status": "perished"})
    assert not rules("somnihil").out({"status": "spirit"})


# --------------------------------------------------------------------------- initiative, AP


def test_initiative_by_game() -> None:
    rng = random.Random(4)
    assert rules("somnihil").initiative(rng, None, None).expression == "initiative 1d20"
    roll = rules("resolution").initiative(rng, {"attributes": {"dex": 18}}, None)
    assert roll.expression == "initiative 1d8+2" and roll.total == roll.dice[0] + 2
    pool = rules("nemron").initiative(rng, None, {"wit": 2, "will": 1})
    assert pool.expression == "initiative d8+d8+d6 keep highest" and pool.total == max(pool.dice)


def test_ap_per_round_by_game() -> None:
    assert rules("shadows").ap_per_round(3) == 7
    assert standard_ap(6) == 8 == rules("somnihil").ap_per_round(6)


# --------------------------------------------------------------------------- forms and rows


def test_damage_forms_depend_on_where_the_targets_health_lives() -> None:
    def keys(game: str, kind: str) -> list[str]:
        return [f.key for f in rules(game).damage_form(kind)]  # type: ignore[arg-type]

    assert keys("somnihil", "pc") == ["amount", "triumph", "cheat_death"]
    assert keys("somnihil", "hp") == ["amount", "triumph"]  # SOM-03 on any target
    assert keys("nemron", "foe") == ["amount", "limb", "defence_roll"]
    assert keys("nemron", "hp") == ["amount", "defence_roll"]
    assert keys("aspects", "pc") == ["amount", "defence", "kind", "name"]
    assert keys("aspects", "hp") == ["amount"]
    assert "pool" in keys("shadows", "pc") and "pool" not in keys("shadows", "hp")
    pools = next(f for f in rules("shadows").damage_form("foe") if f.key == "pool").choices
    assert pools == ("hit", "health", "life", "aessence")
    assert keys("resolution", "pc") == ["amount"]


def test_row_tags_and_turn_notes() -> None:
    c = er.Combatant(name="Vesna", side="pc", stats={"distance": "Nearby"})
    c.conditions.append(er.Effect("Anomaly", 4))
    assert rules("somnihil").tags(c) == ["[Nearby]", "Anomaly 4 (disadv.)"]
    assert rules("resolution").tags(c) == ["Anomaly 4"]
    fight = er.Encounter(id="e1", name="x", model="initiative")
    c.economy["action"] = c.economy["reaction"] = True
    assert rules("nemron").turn_note(fight, c) == "used AR"
    assert rules("shadows").turn_note(fight, c) == ""


def test_nemron_ranked_conditions_lose_a_rank_when_they_tick() -> None:
    bleeding = er.Effect("Bleeding", 3, rank=3)
    ticked = rules("nemron").ticked
    assert ticked is not None and rules("somnihil").ticked is None
    ticked([(er.Combatant(name="x"), bleeding)])
    assert bleeding.rank == 2
    assert rules("nemron").ranked_conditions and not rules("shadows").ranked_conditions


def test_status_notes_name_who_waits_on_a_choice() -> None:
    doc: dict[str, object] = {"pending": {"c1": {}}}
    assert rules("aspects").notes(doc, {"c1": "Rowan"}) == ["Darkest Self or Taken Out (f): Rowan"]
    assert rules("somnihil").notes(doc, {"c1": "Rowan"}) == []


# --------------------------------------------------------------------------- answers


def test_answers_are_read_defensively() -> None:
    answers = Answers({"skill": "6", "face": "yes", "cover": 5, "bad": "x", "huge": 10**12})
    assert answers.whole("skill") == 6 and answers.flag("face") and answers.whole("cover") == 5
    assert answers.number("missing", None) is None and not answers.flag("missing")
    with pytest.raises(RuleError, match="bad: a whole number"):
        answers.whole("bad")
    with pytest.raises(RuleError, match="out of range"):
        answers.whole("huge")
    with pytest.raises(RuleError, match="kind is one of physical, mental"):
        Answers({"kind": "astral"}).choice("kind", ("physical", "mental"), "physical")
    assert Answers(None).text("x", "d") == "d"


def test_combat_action_keys_are_unique_and_labels_carry_no_mechanic_ids() -> None:
    import re

    for game in GAMES:
        actions = registry.game(game).actions_for("combat")
        assert len({a.key for a in actions}) == len(actions)
        for a in actions:
            assert not re.search(r"\b[A-Z]{2,3}-\d\d\b", a.label + a.text), (game, a.label)

"""Every foe fights by its own game's rules, from the same HD statblock.

The NPC builder makes one thing, the HD statblock; each game declares (``Game.foes``) what it
becomes in that game and how it attacks. Unit tests pin each game's readings; command tests
pin each defect of the issue (each failed on the code before it); Pilot tests play, by keys, a
foe's turn (its game's attack, landed on a PC in one more key) and a PC's attack on it answered
by the game's defence, with undo and redo, in every game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from app.commands import combat as cmd
from app.commands.npcs import AddNpcsToEncounter, RollStatblock, SaveNpc, npc_document
from app.queries import current_encounter
from app.state import Campaign, CommandError
from app.tui import TablesideApp
from rulesets import npc, registry
from rulesets.aspects import foes as aspects_foes
from rulesets.foes import STRIKE_KEY, FoeAttack, LandStrike
from rulesets.nemron import foes as nemron_foes
from rulesets.nemron import rules as nemron
from rulesets.shadows import foes as shadows_foes
from rulesets.shadows import rules as shadows
from screens.combat import CombatScreen
from tests.apphelpers import SIZE, demo_app, screen_text, under_table
from tests.games import BUILT_IN
from tests.test_combat_commands import by_name, enc, opened

__all__ = ["opened"]  # the fixture, imported for its use here

GOBLIN = npc.build(1, 1, 0, name="Goblin")  # the demo's library Goblin: HD 1


def rolls(campaign: Campaign) -> list[dict[str, Any]]:
    return [e for e in campaign.log_entries() if e.get("kind") == "roll"]


def started(campaign: Campaign) -> int:
    eid, _ = enc(campaign)
    if enc(campaign)[1].model == "initiative":
        campaign.apply(cmd.RollInitiative(eid))
    campaign.apply(cmd.StartEncounter(eid))
    return eid


def first_pc(campaign: Campaign) -> Any:
    return next(c for c in enc(campaign)[1].combatants if c.side == "pc")


def pc_sheet(campaign: Campaign, c: Any) -> dict[str, Any]:
    doc = campaign.doc("party", int(str(c.ref)))
    assert doc is not None
    return doc


# --------------------------------------------------------------------------- readings


def test_nem08_a_statblock_is_a_nemron_character_with_limbs() -> None:
    """Reading: Brawl is Power and Constitution, Wit Agility and Awareness; limbs by NEM-08."""
    sheet = nemron_foes.make("Goblin 1", GOBLIN, 5)["sheet"]
    assert sheet["attributes"]["power"] == sheet["attributes"]["agility"] == 1
    limbs = sheet["tracks"]["limbs"]
    assert set(limbs) == set(nemron.LIMBS)
    assert {v["max"] for v in limbs.values()} == {5 + 1 + 1 + 1}  # 5 + Pow + Agi + Con
    # NEM-01: the attack pool is Power's rank die › a combat skill of rank HD ÷ 2
    assert nemron_foes.attack_pool(sheet, GOBLIN, "brawl") == [6, 4]
    assert nemron_foes.defence_pool(sheet, GOBLIN) == [6, 4]
    ogre = npc.build(4, 0, -1, name="Ogre")  # HD 2, Brawl beyond rank 4 clamps
    assert nemron_foes.attack_pool(None, ogre, "brawl") == [12, 6]


def test_asp01_asp05_a_statblock_is_a_skilled_foe_with_a_stress_track() -> None:
    """Reading: skill = attribute + 1; caps 2 + Brawl / 2 + Will; HD ÷ 4 consequences."""
    sheet = aspects_foes.make("Goblin 1", GOBLIN, 5)["sheet"]
    a = sheet["attributes"]
    assert (a["fight"], a["shoot"], a["will"]) == (2, 2, 1)
    assert (a["physical_stress_cap"], a["mental_stress_cap"], a["consequence_slots"]) == (3, 2, 0)
    big = aspects_foes.make("Dragon", npc.quick_build(12), 0)["sheet"]["attributes"]
    assert big["consequence_slots"] == 3


def test_soh10_soh11_a_statblock_is_a_shadows_antagonist_with_a_hand() -> None:
    """Reading: Quickness 6 + 2 x Wit; pools twice its HP; a hand of 5; skill = Atk mod."""
    sheet = shadows_foes.make("Goblin 1", GOBLIN, 5)["sheet"]
    a = sheet["attributes"]
    assert a["quickness"] == 8 and shadows.ap_per_round(8) == 9
    assert shadows.hand_size(a, "physical") == 5
    assert {k: v["max"] for k, v in sheet["resources"].items()} == dict.fromkeys(
        shadows.POOLS, 10
    )
    assert sheet["skill"]["brawl"] == GOBLIN.atk_mod["brawl"] == 3


def test_the_same_statblock_in_each_game_is_that_games_foe() -> None:
    made = {g: registry.game(g).foes.make("Goblin 1", GOBLIN, 6) for g in BUILT_IN}
    assert made["resolution"] == {"hp": 6, "hp_max": 6}
    assert made["somnihil"]["sheet"]["resources"]["vitality"] == {"current": 6, "max": 6}
    # The HD statblock's AC, Save and Shock mean nothing in three of the games: not shown.
    for game in ("nemron", "aspects", "shadows"):
        assert not registry.game(game).foes.draws_statblock
        assert "save" not in registry.game(game).foes.rolls


# --------------------------------------------------------------------------- the defects


def test_t_after_a_deals_the_attacks_damage_never_its_to_hit_total(opened: Any) -> None:
    """The issue: ``1d20+3 = 19, damage 3``, then T on Mara Quell: ``Mara Quell takes 8 damage: 8 → 0/8 HP``."""
    campaign = opened("resolution")
    eid = started(campaign)
    goblin, pc = by_name(campaign, "Goblin 1"), first_pc(campaign)
    hp = pc_sheet(campaign, pc)["resources"]["hp"]["current"]
    lines = campaign.apply(FoeAttack(eid, goblin.id, pc.id))
    strike = campaign.doc("encounters", eid)[STRIKE_KEY]
    attack = rolls(campaign)[-1]
    assert attack["expression"].startswith("1d20+3 vs AC 10") and "T lands it on" in lines[-1]
    dealt = sum(int(h) for h in strike["hits"])
    assert dealt == attack["damage"] and dealt <= 6  # the 1d6 (or Shock 2), never the d20
    campaign.apply(LandStrike(eid))
    assert pc_sheet(campaign, pc)["resources"]["hp"]["current"] == max(0, hp - dealt)
    assert STRIKE_KEY not in campaign.doc("encounters", eid)
    campaign.undo()
    assert pc_sheet(campaign, pc)["resources"]["hp"]["current"] == hp


def test_t_on_a_logged_attack_roll_deals_its_damage(opened: Any) -> None:
    campaign = opened("resolution")
    eid = started(campaign)
    goblin = by_name(campaign, "Goblin 1")
    campaign.apply(RollStatblock(eid, goblin.id, kind="attack"))
    assert rolls(campaign)[-1]["damage"] <= 6 < 19


def test_a_foe_with_two_attacks_makes_both_in_one_press(opened: Any) -> None:
    """The issue: a foe with ``Atks 2`` attacked once (NPC-02 # Atks)."""
    campaign = opened("resolution")
    campaign.apply(SaveNpc(npc_document("Duellist", (), 1, 4, 0)))  # Wit 4: 2 attacks
    duellist = npc.build(1, 4, 0)
    assert duellist.attacks == 2
    npc_id = campaign.rows("npcs")[-1][0]
    campaign.apply(AddNpcsToEncounter(npc_id, 1, "fixed"))
    eid = started(campaign)
    before = len(rolls(campaign))
    duel = next(c for c in enc(campaign)[1].combatants if c.name.startswith("Duellist"))
    campaign.apply(FoeAttack(eid, duel.id))
    assert len(rolls(campaign)) == before + 2


def test_npc08_a_quick_added_hd_foe_in_somnihil_checks_morale(opened: Any) -> None:
    """The issue: quick-added foes with an HD statblock were left out of morale prompts."""
    campaign = opened("somnihil")
    eid = started(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Cultist", 2, None, hd=2))
    first = by_name(campaign, "Cultist 1")
    assert first.stats["hd"] == 2 and first.stats["sheet"]["resources"]["vitality"]["max"] > 0
    campaign.apply(cmd.Damage(eid, first.id, "99"))
    due = {d["id"] for d in campaign.doc("encounters", eid)["morale_due"]}
    assert by_name(campaign, "Cultist 2").id in due


def test_nem07_nem08_a_library_foe_has_limbs_and_attacks_with_its_pool(opened: Any) -> None:
    """The issue: library NPCs in a Nemron fight had ``1/1 HP`` and no limbs, and ``A`` rolled
    ``1d20+3``; the attack roll is the damage, less the target's defence roll (NEM-07)."""
    campaign = opened("nemron")
    eid = started(campaign)
    goblin, pc = by_name(campaign, "Goblin 1"), first_pc(campaign)
    assert set(goblin.stats["sheet"]["tracks"]["limbs"]) == set(nemron.LIMBS)
    campaign.apply(FoeAttack(eid, goblin.id, pc.id))
    attack = rolls(campaign)[-1]
    assert attack["expression"].startswith("d6 › d4 attack") and "1d20" not in str(attack)
    limbs = {k: v["hp"] for k, v in nemron.limbs_of(pc_sheet(campaign, pc)).items()}
    campaign.apply(LandStrike(eid, answer="1"))  # the player's defence roll: 1
    after = {k: v["hp"] for k, v in nemron.limbs_of(pc_sheet(campaign, pc)).items()}
    assert sum(limbs.values()) - sum(after.values()) == max(0, attack["total"] - 1)
    # A PC's attack on the goblin is answered by the goblin's own defence pool.
    campaign.apply(cmd.Damage(eid, goblin.id, "6"))
    defence = rolls(campaign)[-1]
    assert defence["who"] == "Goblin 1" and "active defence" in defence["expression"]


def test_asp05_a_foe_attacks_2d6_plus_skill_against_the_defenders_total(opened: Any) -> None:
    """The issue: an NPC built by HD had no skill; its ``A`` rolled a d20."""
    campaign = opened("aspects")
    eid = started(campaign)
    goblin, pc = by_name(campaign, "Goblin 1"), first_pc(campaign)
    campaign.apply(FoeAttack(eid, goblin.id, pc.id))
    attack = rolls(campaign)[-1]
    assert attack["expression"].startswith("2d6+2 physical attack (fight)")
    total = attack["total"]
    campaign.apply(LandStrike(eid, answer=str(total - 3)))  # the player's total: overlap 3
    sheet = pc_sheet(campaign, pc)
    assert [i["overlap"] for i in sheet["lists"]["injuries"]] == [3]  # ≤ stress cap 3
    # A PC's attack on the goblin: its defence, 2d6 + its Athletic, is rolled for it.
    campaign.apply(cmd.Damage(eid, goblin.id, "9"))
    assert rolls(campaign)[-1]["who"] == "Goblin 1"


def test_soh13_defence_is_quickness_plus_cards_from_the_defenders_hand(opened: Any) -> None:
    """The issue: ``Bram Okafor's defence 25 = quickness 1 + cards 24`` left his cards in his
    hand and his AP untouched. Defence cards are the defender's own, 1 AP each."""
    from rulesets.shadows.cards import DealHands
    from rulesets.shadows.tarot import find_deck

    campaign = opened("shadows")
    eid = started(campaign)
    campaign.apply(DealHands(eid))
    goblin, pc = by_name(campaign, "Goblin 1"), first_pc(campaign)
    _, deck = find_deck(campaign.rows("decks"), "minor")
    assert len(deck.hand(f"foe:{goblin.id}")) == 5  # the foe is dealt a hand (SOH-11)
    hand = deck.hand(str(pc.ref))
    ap = by_name(campaign, pc.name).ap
    campaign.apply(FoeAttack(eid, goblin.id, pc.id))
    _, deck = find_deck(campaign.rows("decks"), "minor")
    assert len(deck.hand(f"foe:{goblin.id}")) == 4  # its attack card is played
    assert by_name(campaign, "Goblin 1").ap == goblin.ap - 1
    with pytest.raises(CommandError, match="at most 1 defence card"):
        campaign.apply(LandStrike(eid, answer=f"{hand[0].label}, {hand[1].label}"))
    lines = campaign.apply(LandStrike(eid, answer=hand[0].label))
    _, deck = find_deck(campaign.rows("decks"), "minor")
    assert hand[0] not in deck.hand(str(pc.ref)) and hand[0] in deck.discard
    assert by_name(campaign, pc.name).ap == ap - 1
    assert any(f"{pc.name} defends with {hand[0].label}" in line for line in lines)
    campaign.undo()
    _, deck = find_deck(campaign.rows("decks"), "minor")
    assert hand[0] in deck.hand(str(pc.ref)) and by_name(campaign, pc.name).ap == ap


def test_a_hand_edited_foe_is_named_in_the_refusal_never_a_traceback(opened: Any) -> None:
    campaign = opened("resolution")
    eid = started(campaign)
    npc_id = campaign.rows("npcs")[0][0]
    doc = dict(campaign.doc("npcs", npc_id) or {}, brawl="x")
    campaign.store.db.table("npcs").update(doc, doc_ids=[npc_id])
    with pytest.raises(CommandError, match=r"Goblin 1's statblock cannot be built: brawl"):
        campaign.apply(FoeAttack(eid, by_name(campaign, "Goblin 1").id))


# --------------------------------------------------------------------------- by keys


def saved(app: TablesideApp) -> dict[str, Any]:
    found = current_encounter(app.campaign)
    assert found is not None
    return found[1]


def row(app: TablesideApp, name: str) -> dict[str, Any]:
    return next(c for c in saved(app)["combatants"] if c["name"] == name)


async def select(pilot: Pilot[None], app: TablesideApp, name: str) -> None:
    screen = app.screen
    assert isinstance(screen, CombatScreen)
    ids = [c["id"] for c in saved(app)["combatants"]]
    want = ids.index(row(app, name)["id"])
    while screen.table.cursor_row != want:
        await pilot.press("j" if screen.table.cursor_row < want else "k")
    await pilot.pause()


def sheet_of(app: TablesideApp, name: str) -> dict[str, Any]:
    c = row(app, name)
    if c["side"] == "pc":
        doc = app.campaign.doc("party", int(c["ref"]))
        assert doc is not None
        return doc
    return dict(c["stats"].get("sheet") or c["stats"])


def health(app: TablesideApp, name: str) -> Any:
    sheet = sheet_of(app, name)
    return (sheet.get("resources"), sheet.get("tracks"), sheet.get("lists"), sheet.get("hp"))


def amount_line(app: TablesideApp) -> str:
    return under_table(app).replace("\n", " ")


@pytest.mark.parametrize("game", ["nemron", "aspects", "shadows"])
async def test_the_pane_shows_the_foe_as_its_game_sees_it(tmp_path: Path, game: str) -> None:
    """No AC, Save or Shock where they mean nothing; the game's own rolls on the keys."""
    app = demo_app(tmp_path, game)
    async with app.run_test(size=(130, 40)) as pilot:
        await select(pilot, app, "Goblin 1")
        pane = "\n".join(line.split("▏", 1)[1] for line in screen_text(app) if "▏" in line)
        for meaningless in ("AC ", "Save", "Shock", "1d20"):
            assert meaningless not in pane, (meaningless, pane)
        own = {"nemron": "attack d6 › d4", "aspects": "attack 2d6+2", "shadows": "plays a card"}
        assert own[game] in " ".join(pane.split())
    app.campaign.store.close()


async def test_the_npc_panel_says_what_the_statblock_becomes_in_the_open_game(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await pilot.pause()
        text = " ".join(" ".join(screen_text(app)).split())
        assert "As a Nemron foe: six limbs of 8 HP" in text
    app.campaign.store.close()

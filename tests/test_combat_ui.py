"""Pilot and snapshot tests of the combat tracker, driven by keys only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from app.commands import combat as cmd
from app.queries import current_encounter
from app.state import Campaign
from app.tui import TablesideApp
from screens.combat import CombatScreen
from screens.help import HelpScreen
from tests.apphelpers import SIZE, demo_app, open_demo


def saved_encounter(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    found = current_encounter(app.campaign)
    assert found is not None
    return found[1]


def title(app: TablesideApp) -> str:
    return str(app.screen.query_one("#encounter-title", Static).render())


async def test_three_rounds_by_keys_initiative(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.press(*["n"] * 14)
        await pilot.pause()
        assert "Round 3" in title(app)
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        marker_rows = [r for r in range(7) if str(screen.table.get_row_at(r)[0]) == "▶"]
        assert marker_rows == [0]
        assert saved_encounter(app)["round"] == 3
    app.campaign.store.close()


async def test_three_rounds_by_keys_ap_rounds_SOH_10(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r")
        actor = saved_encounter(app)["current"]
        await pilot.press("a", "2", "enter")  # the selection is on the actor: it spends 2
        await pilot.pause()
        fight = saved_encounter(app)
        spent = next(c for c in fight["combatants"] if c["id"] == actor)
        assert spent["ap"]["current"] == spent["ap"]["max"] - 2
        await pilot.press(*["n"] * 14)  # every n passes the actor: 7 per round
        await pilot.pause()
        assert saved_encounter(app)["round"] == 3
        assert title(app).startswith("Round 3 · ") and title(app).endswith("AP rounds")
    app.campaign.store.close()


async def test_spend_ap_key_spends_typed_amount(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        table = app.screen.table  # type: ignore[attr-defined]
        actor = saved_encounter(app)["current"]
        assert table.selected_id == actor  # the selection follows the turn in AP rounds
        await pilot.press("a", "3", "enter")
        await pilot.pause()
        spent = next(c for c in saved_encounter(app)["combatants"] if c["id"] == actor)
        assert spent["ap"]["current"] == spent["ap"]["max"] - 3
    app.campaign.store.close()


async def test_three_rounds_by_keys_chosen_next(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r")
        for _ in range(3):
            for row in (6, 5, 4, 3, 2, 1, 0):
                await pilot.press(*["k"] * 7, *["j"] * row, "c")
        await pilot.pause()
        assert saved_encounter(app)["round"] == 3
        assert title(app).startswith("Round 3 · ") and title(app).endswith("Chosen-next")
    app.campaign.store.close()


async def test_undo_a_wrong_damage(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", "j", "j", "j", "t", "4", "enter")
        await pilot.pause()
        hp = [c["stats"]["hp"] for c in saved_encounter(app)["combatants"] if c["side"] == "npc"]
        assert hp[0] == 1
        await pilot.press("u")
        await pilot.pause()
        hp = [c["stats"]["hp"] for c in saved_encounter(app)["combatants"] if c["side"] == "npc"]
        assert hp[0] == 5
        assert "5/5 HP" in str(app.screen.table.get_row_at(4)[4])  # type: ignore[attr-defined]
    app.campaign.store.close()


async def test_damage_to_pc_updates_party_doc_and_bad_amount_refused(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "2", "d", "enter")  # "2d" is not a dice expression
        await pilot.pause()
        assert "2d" in str(app.screen.query_one("#combat-last", Static).render())
        # The amount is typed inline, under the table (no modal), and stays open to fix.
        assert isinstance(app.screen, CombatScreen)
        assert "Damage Vesna Kade" in str(app.screen.query_one("#combat-amount", Static).render())
        assert "2d" in str(app.screen.query_one("#combat-amount", Static).render())
        await pilot.press("escape", "t", "3", "enter")
        await pilot.pause()
        vesna = app.campaign.doc("party", 1)
        assert vesna is not None and vesna["resources"]["vitality"]["current"] == 7
    app.campaign.store.close()


async def test_quit_and_resume_on_the_same_turn(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r", "n", "n", "n")
        await pilot.pause()
        before = title(app)
        current = saved_encounter(app)["current"]
        await pilot.press("ctrl+q")
    app.campaign.store.close()
    again = TablesideApp(open_demo(tmp_path, "nemron"))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert title(again) == before
        assert saved_encounter(again)["current"] == current
        screen = again.screen
        assert isinstance(screen, CombatScreen)
        rows = [str(screen.table.get_row_at(r)[0]) for r in range(screen.table.row_count)]
        assert rows.index("▶") == 3
    again.campaign.store.close()


async def test_add_party_quick_add_and_new_encounter_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+n", *"Bridge", "enter")
        await pilot.pause()
        assert "Bridge" in title(app)
        await pilot.press("p", "q", *"Wolf", "tab", "2", "enter")
        await pilot.pause()
        names = [c["name"] for c in saved_encounter(app)["combatants"]]
        assert names[-2:] == ["Wolf 1", "Wolf 2"] and len(names) == 6
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert "Ambush at the Mill" in title(app)
    app.campaign.store.close()


def _campaign(app: TablesideApp) -> Campaign:
    return app.campaign


def test_tracker_initiative_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    assert snap_compare(app, press=["i", "alt+r", "n", "v", "j", "j", "h"], terminal_size=SIZE)
    app.campaign.store.close()


def test_tracker_ap_rounds_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    assert snap_compare(app, press=["alt+r", *"kkkk", "x", "n"], terminal_size=SIZE)
    app.campaign.store.close()


def test_tracker_chosen_next_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    assert snap_compare(
        app, press=["alt+r", "j", "j", "c", "g", *"Prone", "enter"], terminal_size=SIZE
    )
    app.campaign.store.close()


async def test_SOH_14_attack_card_in_damage_form(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "tab", *"9 Swords", "tab", "6", "enter")
        await pilot.pause()
        agnes = app.campaign.doc("party", 1)
        # 9 + 6 = 15 vs quickness 4: Swords match, 11 to Health and Life (a "hit")
        assert agnes is not None and agnes["name"] == "Agnes Thorne"
        assert agnes["resources"]["health"]["current"] == 9
        assert agnes["resources"]["life"]["current"] == 9
    app.campaign.store.close()


async def test_event_line_says_what_a_key_did_and_what_undo_undid(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r", "n")
        await pilot.pause()
        last = app.screen.query_one("#combat-last", Static)
        turn = title(app).split(" · ")[1]  # "<name>'s turn"
        assert str(last.render()) == f"› {turn}"
        assert not any(turn in str(n.message) for n in app.notices)  # a line, no toast
        await pilot.press("u")
        await pilot.pause()
        # The undo itself is what happened, said on the line, not in a toast.
        assert str(last.render()) == "› Undid: Next turn"
        assert not any("Undid" in str(n.message) for n in app.notices)
    app.campaign.store.close()


# ----------------------------------------------------------------------- each game's own keys


COMBAT_ACTIONS = {
    "somnihil": {"Anomaly by AP cost", "Distance band farther"},
    "nemron": {"Action used", "Reaction used", "Movement used"},
    "resolution": set(),
    "shadows": set(),
    "aspects": {"Create an advantage", "Compel"},
}
"""Each game's combat actions that work in its demo fight (a fate waits for a perished Cipher,
Darkest Self for a character at the consequence limit, stepping into an Anomaly for one, naming
a consequence for one held, a free invoke for an advantage created; a compel is a PC's, and the
demo selects one)."""
EVERY_GAME_ACTION = {
    "Anomaly by AP cost",
    "Distance band farther",
    "Fate of a perished Cipher",
    "Action used",
    "Reaction used",
    "Movement used",
    "Darkest Self or Taken Out",
    "In/out of the Anomaly",
    "Name a consequence",
    "Consequence heals",
    "Create an advantage",
    "Free invoke",
    "Compel",
}


async def help_texts(app: TablesideApp, pilot: Any) -> set[str]:
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, HelpScreen)
    texts = {d for _, d in app.screen.help_rows}
    await pilot.press("escape")
    await pilot.pause()
    return texts


@pytest.mark.parametrize("game", sorted(COMBAT_ACTIONS))
async def test_each_games_combat_actions_appear_in_help_only_in_their_game(
    tmp_path: Path, game: str
) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        texts = await help_texts(app, pilot)
        assert texts & EVERY_GAME_ACTION == COMBAT_ACTIONS[game]
        # the turn model's own shell keys, only in a fight of that model
        model = app.campaign.game.turn_model
        assert ("Spend AP" in texts) == (model == "ap_rounds")
        assert ("Choose the selected to act next" in texts) == (model == "chosen_next")
        assert ("Initiative" in texts) == (model == "initiative")
        assert ("Delay (move down the order)" in texts) == (model == "initiative")
        assert "Damage" in texts and "Next turn" in texts
    app.campaign.store.close()


async def test_switching_the_turn_model_offers_its_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+m")  # initiative -> AP rounds
        await pilot.pause()
        texts = await help_texts(app, pilot)
        assert "Spend AP" in texts and "Initiative" not in texts
        await pilot.press("i")  # not this model's key: nothing rolled
        await pilot.pause()
        assert not [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
    app.campaign.store.close()


async def test_somnihil_anomaly_and_distance_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+a", "3", "enter", "z", "z")
        await pilot.pause()
        row = app.screen.table.get_row_at(0)  # type: ignore[attr-defined]
        assert str(row[5]) == "[Nearby], Anomaly 6 (disadv.)"
    app.campaign.store.close()


async def test_somnihil_fate_is_offered_once_a_cipher_perishes(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        eid, vesna = current_encounter(app.campaign)[0], "c1"  # type: ignore[index]
        assert "Fate of a perished Cipher" not in await help_texts(app, pilot)
        app.campaign.apply(cmd.Damage(eid, vesna, "10"))
        while app.campaign.doc("party", 1)["status"] == "alive":  # type: ignore[index]
            app.campaign.apply(cmd.Damage(eid, vesna, "19"))
        await pilot.pause()
        assert "Fate of a perished Cipher" in await help_texts(app, pilot)
        await pilot.press("j", "j", "f")  # another PC selected: the perished Cipher is meant
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.campaign.doc("party", 1)["status"] == "spirit"  # type: ignore[index]
    app.campaign.store.close()


async def test_aspects_darkest_self_choice_by_key_and_foe_quick_add(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        eid = current_encounter(app.campaign)[0]  # type: ignore[index]
        for _ in range(3):
            app.campaign.apply(cmd.Damage(eid, "c1", "12", {"defence": 7}))
        assert "Darkest Self or Taken Out" in await help_texts(app, pilot)
        assert "Darkest Self or Taken Out (f): Rowan Pike" in str(
            app.screen.query_one("#combat-status", Static).render()
        )
        await pilot.press("f", "enter")
        await pilot.pause()
        assert app.campaign.doc("party", 1)["status"] == "darkest self"  # type: ignore[index]
        assert "Darkest Self or Taken Out" not in await help_texts(app, pilot)
        await pilot.press("q", *"Thug", "tab", "1", "tab", "4", "enter")
        await pilot.pause()
        rows = [app.screen.table.get_row_at(r) for r in range(app.screen.table.row_count)]  # type: ignore[attr-defined]
        assert [str(r[4]) for r in rows if str(r[3]) == "Thug"] == ["stress cap 4 · 0 inj"]
    app.campaign.store.close()


def test_no_games_combat_action_takes_a_key_of_the_panel() -> None:
    from rulesets import registry

    shell = {key for b in CombatScreen.BINDINGS for key in b.key.split(",")}  # type: ignore[union-attr]
    for game in registry.ids():
        keys = {a.key for a in registry.game(game).actions_for("combat")}
        assert not keys & shell, (game, keys & shell)


async def test_initiative_keys_defeated_key_and_dimmed_row(tmp_path: Path) -> None:
    """Key i rolls the unset only, I re-rolls between rounds, alt+p takes the party's
    rolls in one form, X marks defeated (dimmed, skipped) and u brings it back."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+i")  # the NPCs roll
        await pilot.pause()
        fight = saved_encounter(app)
        pcs = [c for c in fight["combatants"] if c["side"] == "pc"]
        assert all(c["initiative"] is None for c in pcs)
        await pilot.press("alt+p")
        for k in range(len(pcs)):
            await pilot.press(*str(40 + k), *(["tab"] if k < len(pcs) - 1 else ["enter"]))
        await pilot.pause()
        fight = saved_encounter(app)
        assert sorted(c["initiative"] for c in fight["combatants"] if c["side"] == "pc") == [
            40 + k for k in range(len(pcs))
        ]
        await pilot.press("alt+r", "n", "I")  # mid-round: re-rolling everyone is refused
        await pilot.pause()
        assert [c["initiative"] for c in saved_encounter(app)["combatants"]] == [
            c["initiative"] for c in fight["combatants"]
        ]
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        current = saved_encounter(app)["current"]
        assert screen.table.selected_id == current
        await pilot.press("j", "X")
        await pilot.pause()
        fight = saved_encounter(app)
        marked = [c for c in fight["combatants"] if c.get("defeated")]
        assert len(marked) == 1 and marked[0]["id"] != current
        row = screen.table.get_row_at(screen.table.cursor_row)
        # the word leads the Health cell, which never gives way (the Turn column does)
        assert str(row[4]).startswith("defeated") and "dim" in str(row[3].style)
        await pilot.press("n")
        await pilot.pause()
        assert saved_encounter(app)["current"] != marked[0]["id"]
        await pilot.press("u", "u")
        await pilot.pause()
        assert not any(c.get("defeated") for c in saved_encounter(app)["combatants"])
    app.campaign.store.close()


async def test_a_defeated_combatant_who_acted_reads_defeated_only(tmp_path: Path) -> None:
    """Once out, whether it acted no longer matters: the row says "defeated" (in its Health
    cell), not "defeated acted" (found trying the Somnihil demo at 120x36)."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        first = saved_encounter(app)["current"]
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        screen.table.select_id(first)
        await pilot.press("X")
        await pilot.pause()
        fight = saved_encounter(app)
        done = next(c for c in fight["combatants"] if c["id"] == first)
        assert done["defeated"] and done["acted"]
        row = screen.table.get_row_at(screen.table.ids.index(first))
        assert str(row[4]).startswith("defeated ·") and str(row[6]) == ""
    app.campaign.store.close()


async def test_area_damage_on_marked_rows_and_the_last_roll_by_key(tmp_path: Path) -> None:
    """Key + marks rows; one t lands on all of them (one undo); T deals the tray's
    last roll."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        foes = [c for c in saved_encounter(app)["combatants"] if c["side"] == "npc"]
        first = [c["id"] for c in saved_encounter(app)["combatants"]].index(foes[0]["id"])
        await pilot.press(*["j"] * first, "plus", "plus")  # marks two foes, moving down
        await pilot.press("t", "2", "enter")
        await pilot.pause()
        after = {c["id"]: c for c in saved_encounter(app)["combatants"]}
        hit = [f for f in foes[:2] if after[f["id"]]["stats"]["hp"] == f["stats"]["hp"] - 2]
        assert len(hit) == 2 and after[foes[2]["id"]]["stats"] == foes[2]["stats"]
        await pilot.press("u")
        await pilot.pause()
        after = {c["id"]: c for c in saved_encounter(app)["combatants"]}
        assert all(after[f["id"]]["stats"] == f["stats"] for f in foes)
        app.campaign.apply(_RollOne())
        target = screen.table.selected_id
        await pilot.press("T")
        await pilot.pause()
        after = {c["id"]: c for c in saved_encounter(app)["combatants"]}
        before = next(c for c in foes + [{"id": None}] if c["id"] == target)
        assert after[str(target)]["stats"]["hp"] == max(0, before["stats"]["hp"] - 1)
    app.campaign.store.close()


class _RollOne:
    """A roll of exactly 1 in the log (as the tray would write one)."""

    label = "Roll"

    def run(self, tx: Any) -> list[str]:
        from rulesets.base import CheckResult

        return [tx.log_roll("GM", CheckResult("1", 1, ()))]


async def test_turn_column_of_a_holder_reads_holding_not_holding_acted(tmp_path: Path) -> None:
    # The turn column read "holding acted".
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r")
        holder = saved_encounter(app)["current"]
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        row = screen.table.get_row_at(screen.table.ids.index(holder))
        turn = str(row[-1])
        assert "holding" in turn and "acted" not in turn
    app.campaign.store.close()


async def test_aspects_a_taken_out_pc_shows_as_taken_out_and_is_skipped(tmp_path: Path) -> None:
    from rulesets.aspects import fight as aspects_fight

    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        eid = current_encounter(app.campaign)[0]  # type: ignore[index]
        for _ in range(3):
            app.campaign.apply(cmd.Damage(eid, "c1", "12", {"defence": 7}))
        app.campaign.apply(aspects_fight.ChooseDarkestSelf(eid, "c1", "Taken Out"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        row = screen.table.get_row_at(0)
        assert str(row[4]) == "taken out" and "cons" not in str(row[4])
        await pilot.press("alt+r", "n")  # chosen-next: the first who may act, not Rowan
        await pilot.pause()
        assert saved_encounter(app)["current"] != "c1"
    app.campaign.store.close()


async def test_somnihil_a_spell_cast_by_key_in_initiative_order(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        fight = saved_encounter(app)
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        casters = [
            c
            for c in fight["combatants"]
            if c["side"] == "pc"
            and (app.campaign.doc("party", int(c["ref"])) or {})["lists"].get("spells")
        ]
        row = [c["id"] for c in fight["combatants"]].index(casters[0]["id"])
        await pilot.press(*["k"] * 10, *["j"] * row)
        ref = int(casters[0]["ref"])
        ap = app.campaign.doc("party", ref)["resources"]["ap"]["current"]  # type: ignore[index]
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("tab", "2", "tab", *"no", "enter")
        await pilot.pause()
        now = app.campaign.doc("party", ref)["resources"]["ap"]["current"]  # type: ignore[index]
        assert now == ap - 2
    app.campaign.store.close()


async def test_nemron_the_selected_combatants_limbs_show_under_the_table(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = str(app.screen.query_one("#combat-amount", Static).render())
        assert "Kesh Varn: " in line and "torso 10/10" in line and "head 10/10" in line
        await pilot.press("j")
        await pilot.pause()
        line = str(app.screen.query_one("#combat-amount", Static).render())
        assert "Ylva Rask: " in line
    app.campaign.store.close()


async def test_a_resolution_pc_at_0_hp_shows_its_numbers_not_alive(tmp_path: Path) -> None:
    """Out by its HP while its status is still "alive": the row said "alive" (found playing the
    Resolution demo at 80x24); it reads out, and its HP."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("i", "alt+r", "t", "1", "0", "enter")  # the acting PC takes 10
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        row = [str(cell) for cell in screen.table.get_row_at(0)]
        assert row[4].startswith("out · 0/8 HP · Grip") and "alive" not in row[4]
        assert saved_encounter(app)["combatants"][0]["defeated"] is True
    app.campaign.store.close()


async def test_tab_with_no_amount_typed_opens_the_form_on_the_amount(tmp_path: Path) -> None:
    """Nemron: t, tab put the focus on Limb, so the amount a GM typed next became a limb
    (found playing the Nemron demo at 80x24); with the amount typed, tab goes past it."""
    from screens.form import FormScreen

    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "tab")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.focused is form.query(Input).first()
        await pilot.press("escape", "t", "4", "tab")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.focused is form.query(Input)[1] and form.query(Input).first().value == "4"
    app.campaign.store.close()


async def test_a_downed_nemron_pc_says_downed_once(tmp_path: Path) -> None:
    """The row read "downed · 45/54 HP · DOWNED" (found playing the Nemron demo at 80x24)."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("i", "alt+r", "t", "3", "0", "tab", *"torso", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        health = str(screen.table.get_row_at(0)[4])
        assert health.casefold().count("downed") == 1, health
        assert "45/54 HP" in health
    app.campaign.store.close()


async def test_at_80x24_a_cut_title_ends_in_an_ellipsis_and_a_pcs_health_stays_on_one_line(
    tmp_path: Path,
) -> None:
    """Group initiative's "(grouped)" ran past 80 columns and was dropped unmarked; once a PC
    had acted, the Turn column's "acted" took a cell from Health and a PC's health wrapped
    (the position column gives way instead)."""
    from tests.apphelpers import screen_text

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("G", "alt+r", "n")
        await pilot.pause()
        assert saved_encounter(app)["group_initiative"] is True
        lines = screen_text(app)
        shown = next(line for line in lines if line.lstrip().startswith("Round 1 · ")).strip()
        whole = "Round 1 · Dov Ashgrove's turn · Ambush at the Mill · Initiative order (grouped)"
        assert shown.endswith("…") and whole.startswith(shown[:-1]), shown
        acted = next(i for i, line in enumerate(lines) if line.rstrip().endswith("acted"))
        assert "8/8 HP · Grip 15/15 · strain 0/13" in lines[acted], lines[acted]
        assert "Dov Ashgrove" in lines[acted + 1], lines[acted : acted + 2]  # the next row
        header = next(line for line in lines if " Health " in line)
        assert header.split() == ["Init", "Name", "Health", "Conditions", "Turn"], header
    app.campaign.store.close()

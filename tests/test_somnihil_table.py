"""Somnihil at the table, outside the exchange: casting with no spells, a Shill, sessions,
rests in and out of a fight, Cheat Death's log line."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app.commands import combat as cmd
from app.commands.party import ChangePC, PartyAction
from app.tui import TablesideApp
from rulesets.somnihil import rules as som
from tests.apphelpers import SIZE, demo_app, open_demo, screen_text, select_named
from widgets.roll_log import format_entry


def heard(app: TablesideApp) -> list[str]:
    """Every message the app tells the GM from now on (App.notify, wrapped)."""
    told: list[str] = []
    notify = app.notify

    def recording(message: str, *args: Any, **kwargs: Any) -> None:
        told.append(str(message))
        notify(message, *args, **kwargs)

    app.notify = recording  # type: ignore[method-assign]
    return told


async def test_y_on_a_cipher_who_knows_no_spells_says_so(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    told = heard(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await select_named(pilot, "Tamsin Vey")
        await pilot.press("y")
        await pilot.pause()
        assert any("Tamsin Vey knows no spells" in m for m in told), told
    app.campaign.store.close()


async def test_a_shill_becomes_an_npc_and_leaves_the_party_in_play(tmp_path: Path) -> None:
    """SOM-09: the Cipher becomes an NPC: in the library, out of the tray's rollers, out of
    the turns and of the sessions."""
    campaign = open_demo(tmp_path, "somnihil")
    enc_id = campaign.rows("encounters")[0][0]
    campaign.apply(cmd.StartEncounter(enc_id))
    before = campaign.doc("party", 2)
    assert before is not None
    orrin_spells = before["lists"]["spells"]
    campaign.apply(ChangePC(2, "status", ("perished",), "Orrin Hale"))
    said = campaign.apply(ChangePC(2, "status", ("shill",), "Orrin Hale"))
    assert "Orrin Hale (Shill) is in the NPC library" in said
    shill = [doc for _, doc in campaign.rows("npcs") if doc["name"] == "Orrin Hale (Shill)"]
    assert len(shill) == 1 and "Shill" in shill[0]["concepts"]
    # The Reading: a new Shill is Brawl, Wit, Will 1; the Cipher's spells are its powers.
    assert (shill[0]["brawl"], shill[0]["wit"], shill[0]["will"]) == (1, 1, 1)
    assert shill[0]["powers"] == [f"{s['name']} ({s['protocol']})" for s in orrin_spells]
    orrin = campaign.doc("party", 2)
    assert orrin is not None
    sessions = orrin.get("sessions")
    said = campaign.apply(PartyAction("session"))
    assert not any(line.startswith("Orrin Hale") for line in said)
    orrin = campaign.doc("party", 2)
    assert orrin is not None and orrin.get("sessions") == sessions
    for _ in range(8):  # more than a round: Orrin's turn never comes
        campaign.apply(cmd.NextTurn(enc_id))
        fight = campaign.doc("encounters", enc_id)
        assert fight is not None
        acting = [c["name"] for c in fight["combatants"] if c["id"] == fight["current"]]
        assert acting != ["Orrin Hale"]
    campaign.store.close()
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        seen = []
        for _ in range(4):
            await pilot.press("p")
            await pilot.pause()
            seen.append(str(app.screen.query_one("#check-setup").render()).split("\n")[0])
        assert not any("Orrin" in line for line in seen), seen
    app.campaign.store.close()


def test_new_session_says_the_logs_session_and_each_ciphers_own(tmp_path: Path) -> None:
    """It said "Session 1 begins" while two PCs reached session 2 and two session 1."""
    campaign = open_demo(tmp_path, "somnihil")
    said = campaign.apply(PartyAction("session"))
    assert said[0] == "The log's session 1 begins"
    assert "Vesna Kade: 2 sessions played" in said
    assert "Tamsin Vey: 1 session played" in said
    campaign.store.close()


def test_cheat_death_is_logged_against_the_damage_without_outcome_bands() -> None:
    """It was logged "Failure  setbacks: 1 offered": Cheat Death has no setbacks."""
    ash = som.new_character("Ash")
    ash["resources"]["vitality"]["current"] = 0
    out = som.apply_damage(ash, 6, random.Random(2), typed=4)
    assert out.cheat_death is not None
    assert out.cheat_death.band == "does not cheat death"
    assert out.cheat_death.detail == "Cheat Death against 6 damage"
    assert "setback" not in format_entry(out.cheat_death.as_log()).plain
    saved = som.new_character("Bo")
    saved["resources"]["vitality"]["current"] = 0
    out = som.apply_damage(saved, 3, random.Random(2), typed=20)
    assert out.cheat_death is not None and out.cheat_death.band == "cheats death"


async def test_the_anomaly_status_line_is_whole_at_80x24(tmp_path: Path) -> None:
    """The Anomaly line lost its last name at 80x24 beside a timed effect."""
    from app.commands.clock import AddTimedEffect
    from rulesets.somnihil.fight import AddAnomaly, ToggleInAnomaly

    campaign = open_demo(tmp_path, "somnihil")
    enc_id, fight = campaign.rows("encounters")[0]
    campaign.apply(cmd.StartEncounter(enc_id))
    ids = [c["id"] for c in fight["combatants"]]
    campaign.apply(AddAnomaly(enc_id, ids[0], 1))
    for cid in ids[1:]:
        campaign.apply(ToggleInAnomaly(enc_id, cid))
    campaign.apply(AddTimedEffect("Torch", "1h", on="Vesna Kade"))
    campaign.store.close()
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        await pilot.pause()
        shown = " ".join(" ".join(screen_text(app)).split())
        assert "Goblin 3" in shown.split("Anomaly", 1)[1], shown
        assert "Torch (Vesna Kade) · light: 1 h left" in shown, shown
    app.campaign.store.close()

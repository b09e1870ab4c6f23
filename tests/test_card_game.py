"""The guide's second example, Aces High, installed through its entry point and played by keys.

tests/fixtures/card_game is a package of its own (``tableside-aces``) that imports only
``tableside_api``: initiative dealt every round by its own turn order from its own 54-card
deck (highest first, suits break ties, a joker acts when it likes and brings a reshuffle),
traits as dice stepped on the sheet, a wild die. It is pip-installed, offline, into a temporary
folder as tests/test_toy_package.py installs Duel, passes the test kit, and is played.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app.cli import main
from app.commands.combat import NextTurn, StartEncounter
from app.demo import write_demo
from app.launch import open_campaign
from app.store import read_campaign
from app.tui import TablesideApp
from rulesets import registry
from tableside_api.testing import check_game, installed_games
from tests.apphelpers import SIZE, demo_app, screen_text, under_table
from tests.test_toy_package import GUIDE, ROOT, _guide_files, _wheel

FIXTURE = ROOT / "tests" / "fixtures" / "card_game"


@pytest.fixture(scope="session")
def aces_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("card_game")
    site = work / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
         "--target", str(site), str(_wheel(FIXTURE, work))],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return site


@pytest.fixture
def aces(aces_site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(aces_site))
    for cache in ("_failed", "_loaded", "_origins"):
        monkeypatch.setattr(registry, cache, {}, raising=False)
    registry._entry_points.cache_clear()
    yield aces_site
    registry._entry_points.cache_clear()
    for name in [m for m in sys.modules if m.split(".")[0] == "tableside_aces"]:
        del sys.modules[name]


def test_aces_high_is_installed_through_its_entry_point_and_passes_the_kit(
    aces: Path, tmp_path: Path, _isolated_saves: Path
) -> None:
    assert "aces" in installed_games()
    assert registry.origin("aces") == "tableside_aces"
    assert registry.game("aces").api_version == "1.2"
    check_game("aces", tmp_path)


def _encounter(path: Path) -> dict[str, Any]:
    (enc,) = read_campaign(path)["encounters"].values()
    return dict(enc)


def _deck(path: Path) -> dict[str, Any]:
    (deck,) = [d for d in read_campaign(path)["decks"].values() if d["kind"] == "action"]
    return dict(deck)


def _places(enc: dict[str, Any]) -> list[tuple[int, int]]:
    from tableside_aces.game import _place

    return [_place(c["stats"].get("card")) for c in enc["combatants"]]


async def test_aces_high_deals_every_round_and_is_played_by_keys(aces: Path, tmp_path: Path) -> None:
    path = tmp_path / "aces.json"
    app = TablesideApp(open_campaign(path, ruleset="aces", seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Cassidy", "enter")
        await pilot.pause()
        # A trait is a die: + on Agility steps d6 to d8.
        await pilot.press("tab", "j", "j", "j", "plus")
        await pilot.pause()
        app.campaign.store.flush()
        assert read_campaign(path)["party"]["1"]["attributes"]["agility"] == 8
        assert any("Agility" in line and "d8" in line for line in screen_text(app))

        await pilot.press("1", "ctrl+n", "enter", "p")
        for foe in ("Bandit", "Outlaw"):
            await pilot.press("q", *foe, "tab", "tab", "1", "enter")
        await pilot.press("i", "alt+r")
        await pilot.pause()
        app.campaign.store.flush()
        first = _encounter(path)
        assert first["round"] == 1 and first["model"] == "dealt"
        assert all("card" in c["stats"] for c in first["combatants"])
        assert _places(first) == sorted(_places(first), reverse=True)  # highest card first
        assert first["current"] == first["combatants"][0]["id"]
        assert len(_deck(path)["discard"]) == 3  # dealt face up, from the game's own deck
        top = first["combatants"][0]
        row = next(line for line in screen_text(app) if top["name"] in line and "▶" in line)
        assert top["stats"]["card"]["short"] in row

        await pilot.press("n", "n", "n")  # through the round: a new deal
        await pilot.pause()
        app.campaign.store.flush()
        second = _encounter(path)
        assert second["round"] == 2 and len(_deck(path)["discard"]) == 6
        assert _places(second) == sorted(_places(second), reverse=True)

        await pilot.press("u")  # one undo takes back the turn and the deal together
        await pilot.pause()
        app.campaign.store.flush()
        assert _encounter(path)["round"] == 1 and len(_deck(path)["discard"]) == 3

        # The tray rolls the acting PC's own die with the wild die, odds first.
        now = _encounter(path)
        acting = next(c for c in now["combatants"] if c["id"] == now["current"])
        die = "d8" if acting["side"] == "pc" else "d6"  # a foe's turn: the GM rolls a d6
        await pilot.press("2")
        await pilot.pause()
        setup = str(app.screen.query_one("#check-setup", Static).render())
        assert f"Agility {die} + wild d6+0 vs 4" in setup
        await pilot.press("c")
        await pilot.pause()
        app.campaign.store.flush()
        rolls = [e for e in read_campaign(path)["log"].values() if e.get("kind") == "roll"]
        assert rolls and "wild d6" in rolls[-1]["expression"]

        # e ends the fight: the game's fight_end gathers the deck and clears the cards.
        await pilot.press("1", "e")
        await pilot.pause()
    app.campaign.store.close()


def test_a_joker_brings_a_reshuffle_after_its_round(aces: Path, tmp_path: Path) -> None:
    from app.commands.combat import AddParty, NewEncounter
    from app.commands.party import AddPC
    from app.state import Campaign
    from app.store import CampaignStore

    campaign = Campaign(CampaignStore.open(tmp_path / "j.json", ruleset="aces"))
    campaign.apply(AddPC("Cassidy"))
    campaign.apply(AddPC("Doc"))
    campaign.apply(NewEncounter("Saloon"))
    ((enc_id, _),) = campaign.rows("encounters")
    campaign.apply(AddParty(enc_id))
    campaign.apply(StartEncounter(enc_id))
    # The deal of round 1, as the table dealt it, with a joker in it (the store's document).
    doc = campaign.store.data["encounters"][str(enc_id)]
    doc["combatants"][1]["stats"]["card"] = {"rank": "Red Joker", "value": 15, "suit": None, "short": "Joker"}
    lines = campaign.apply(NextTurn(enc_id)) + campaign.apply(NextTurn(enc_id))
    assert any("discards reshuffled into the draw pile" in line for line in lines), lines
    deck = [d for _, d in campaign.rows("decks")][0]
    assert len(deck["discard"]) == 2  # only this round's deal lies face up
    campaign.store.close()


def test_the_guide_shows_aces_high_as_it_is() -> None:
    files = {p: code for p, code in _guide_files().items() if "card_game" in p}
    wanted = {"pyproject.toml", "tableside_aces/__init__.py", "tableside_aces/game.py"}
    assert {Path(p).relative_to("tests/fixtures/card_game").as_posix() for p in files} == wanted
    for path, code in files.items():
        assert code == (ROOT / path).read_text(encoding="utf-8"), f"{path} drifted from {GUIDE}"


async def test_a_foes_a_is_the_games_own_attack_not_the_d20(aces: Path, tmp_path: Path) -> None:
    """A game that declares its foes' attack (Aces High: a trait die and the wild die vs 4, a
    hit one wound, a raise two) and no exchange of its own: A rolled d20+3 vs AC 10 for 1d6
    wounds, and counted 0% that a 3-wound PC drops."""
    app = demo_app(tmp_path, "aces", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        enc, acting = await _turn_of(pilot, app, pc=False)
        pc = next(c for c in enc["combatants"] if c["side"] == "pc")
        await pilot.press("A")
        await pilot.pause()
        line = " ".join(under_table(app).split())
        assert "AC 10" not in line and "its game's own roll" in line, line
        assert line.endswith("lands what hits"), line
        await pilot.press(*pc["name"], "enter")
        await pilot.pause()
        rolls = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
        assert rolls[-1]["who"] == acting["name"] and "wild d6" in rolls[-1]["expression"]
        wounds = app.campaign.doc("party", int(pc["ref"]))["resources"]["wounds"]  # type: ignore[index]
        assert wounds["current"] >= wounds["max"] - 2
        # Landed with the attack: T deals none of it again (on the selected attacker, it did).
        before = (_encounter_of(app)["combatants"], len(app.campaign.undo_stack))
        await pilot.press("T")
        await pilot.pause()
        assert (_encounter_of(app)["combatants"], len(app.campaign.undo_stack)) == before
        await pilot.press("u")
        await pilot.pause()
        again = app.campaign.doc("party", int(pc["ref"]))["resources"]["wounds"]  # type: ignore[index]
        assert again["current"] == again["max"]
    app.campaign.store.close()


async def _turn_of(
    pilot: Any, app: TablesideApp, *, pc: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``n`` until a PC (or a foe) acts; the encounter and who acts."""
    for _ in range(6):
        enc = _encounter_of(app)
        acting = next(c for c in enc["combatants"] if c["id"] == enc["current"])
        if (acting["side"] == "pc") == pc:
            return enc, acting
        await pilot.press("n")
        await pilot.pause()
    raise AssertionError(f"no {'PC' if pc else 'foe'} acts in six turns")


def _encounter_of(app: TablesideApp) -> dict[str, Any]:
    (found,) = [d for _, d in app.campaign.rows("encounters")]
    return dict(found)


def test_the_attack_command_lands_the_games_own_foe_attack(
    aces: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tableside attack` runs the same exchange as A: the game's own roll, landed on its
    wounds; a dry run says there are no odds to count (exit 2, one line)."""
    save = write_demo("aces", tmp_path / "aces.json", seed=5)
    assert main(["attack", str(save), "Goblin 1", "Doc", "--dry-run", "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no odds to count" in err, err
    assert main(["attack", str(save), "Goblin 1", "Doc", "--seed", "3", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert "wild d6" in found["steps"][0] and found["landed"]["wounds"] == [3, 2], found
    # A PC's attack (the default d20) on a 1-wound goblin: every hit drops it, counted in
    # the game's wounds (it read 0%: the default counted HP the sheet does not keep).
    assert main(["attack", str(save), "Doc", "Goblin 2", "--dry-run", "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    assert odds["hit"] > 0 and odds["drops"] == odds["hit"], odds


async def test_a_pcs_a_says_it_is_the_default_d20_not_the_games(aces: Path, tmp_path: Path) -> None:
    """Aces High declares its foes' attack and none for a PC: a PC's A is the default d20
    against AC, and its line says so before enter rolls it, where it read as the game's."""
    app = demo_app(tmp_path, "aces", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        _, acting = await _turn_of(pilot, app, pc=True)
        await pilot.press("A")
        await pilot.pause()
        line = " ".join(under_table(app).split())
        assert f"{acting['name']} → Goblin" in line, line
        said = "Aces High gives a PC no attack of its own: the default d20 its sheet keeps"
        assert said in line and "d20 vs AC" in line, line
    app.campaign.store.close()

"""The players' view (app/player.py) by Pilot, on a demo save the GM's app has open.

The GM side goes through the GM's own state path (``Campaign.apply`` on a store holding the
save's lock, or the GM's TUI by keys); the players' view only reads the file.
"""

from __future__ import annotations

import os
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.commands import combat as cmd
from app.commands.players import SetPlayerView
from app.player import PlayerApp
from app.player_view import (
    SECRET_KEY,
    Lockout,
    PlayerSettings,
    build_view,
    code_matches,
    meta_of,
    pc_code,
)
from app.queries import current_encounter
from app.state import Campaign
from app.store import CorruptSave, read_campaign
from rulesets import encounter as er
from rulesets import registry
from rulesets.shadows import cards
from tests.apphelpers import SIZE, demo_app, open_demo

POLL = 0.05


@pytest.fixture
def gm(tmp_path: Path) -> Iterator[Any]:
    opened: list[Campaign] = []

    def make(game: str = "shadows") -> Campaign:
        campaign = open_demo(tmp_path, game)
        opened.append(campaign)
        return campaign

    yield make
    for campaign in opened:
        campaign.store.close()


def encounter(campaign: Campaign) -> tuple[int, er.Encounter]:
    found = current_encounter(campaign)
    assert found is not None
    return found[0], er.Encounter.from_dict(found[1])


def cid(campaign: Campaign, name: str) -> str:
    return next(c.id for c in encounter(campaign)[1].combatants if c.name == name)


def shown(app: PlayerApp) -> dict[str, Any]:
    assert app.view is not None
    return {row.name: row for row in app.view.rows}


async def settle(pilot: Any, app: PlayerApp, until: Any, tries: int = 60) -> None:
    """Wait (a few polls) until the view shows what the GM changed."""
    for _ in range(tries):
        if until():
            return
        await pilot.pause(POLL)
    raise AssertionError("the players' view did not follow the change")


async def test_follows_the_gms_app_on_the_same_save(tmp_path: Path) -> None:
    gm_app = demo_app(tmp_path, "shadows")
    path = gm_app.campaign.store.path
    player = PlayerApp(path, poll=POLL)
    try:
        async with gm_app.run_test(size=SIZE) as gm_pilot, player.run_test(size=SIZE) as pilot:
            assert player.view is not None and player.view.turn == "not started"
            await gm_pilot.press("alt+r")  # the GM starts the fight in the combat panel
            gm_app.campaign.store.flush()
            await settle(pilot, player, lambda: player.view and player.view.turn.endswith("turn"))
            actor = er.current_combatant(encounter(gm_app.campaign)[1])
            assert actor is not None and player.view is not None
            assert player.view.turn == f"{actor.name}'s turn"
            assert player.view.round == "Round 1"
            assert any(r.current and r.name == actor.name for r in player.view.rows)
    finally:
        gm_app.campaign.store.close()


async def test_hidden_and_defeated_foes_are_absent_and_a_label_replaces_hp(gm: Any) -> None:
    campaign = gm("shadows")
    enc_id, _ = encounter(campaign)
    campaign.apply(cmd.ToggleHidden(enc_id, cid(campaign, "Goblin 1")))
    goblin = cid(campaign, "Goblin 2")
    hp = encounter(campaign)[1].get(goblin).stats["sheet"]["resources"]["health"]["current"]
    campaign.apply(cmd.Damage(enc_id, goblin, amount=str(hp - 1)))
    campaign.apply(cmd.Damage(enc_id, cid(campaign, "Goblin 3"), amount=str(hp)))
    campaign.store.flush()
    player = PlayerApp(campaign.store.path, poll=POLL)
    async with player.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rows = shown(player)
        assert "Goblin 1" not in rows  # hidden by the GM
        assert "Goblin 3" not in rows  # at 0 HP: out of the fight
        assert rows["Goblin 2"].health == "bloodied"
        assert "HP" not in rows["Goblin 2"].health and str(hp) not in rows["Goblin 2"].health
        assert rows["Agnes Thorne"].health == "Health 20/20 · Life 20/20 · Æssence 20/20"
        screen = player.screen.query_one("#order").render_line(0).text  # header line
        assert "Health" in screen
        campaign.apply(SetPlayerView(PlayerSettings(foe_health="numbers")))
        campaign.store.flush()
        # A Shadows foe's numbers are its pools (issue 21: Health, Life and Æssence).
        numbers = f"H 1/{hp} · L {hp}/{hp} · Æ {hp}/{hp}"
        await settle(pilot, player, lambda: shown(player)["Goblin 2"].health == numbers)
        campaign.apply(SetPlayerView(PlayerSettings(foe_health="hidden", show_ap=False)))
        campaign.store.flush()
        await settle(pilot, player, lambda: shown(player)["Goblin 2"].health == "")
        assert all(row.order == "" for row in shown(player).values())


def test_each_game_names_the_bands_and_leaves_the_out_foes_out(gm: Any) -> None:
    for game in registry.ids():
        campaign = gm(game)
        data = read_campaign(campaign.store.path)
        view = build_view(data, registry.game(game), PlayerSettings())
        words = registry.game(game).players.labels
        foes = [r for r in view.rows if r.side == "npc"]
        assert foes and all(r.health == words["healthy"] for r in foes), game
        pcs = [r for r in view.rows if r.side == "pc"]
        assert len(pcs) == len(registry.game(game).demo_party), game
        raw = data["encounters"]["1"]
        raw["combatants"][-1]["defeated"] = True
        view = build_view(data, registry.game(game), PlayerSettings())
        assert raw["combatants"][-1]["name"] not in {r.name for r in view.rows}


def test_nemron_limbs_and_aspects_consequences_of_pcs(gm: Any) -> None:
    nemron = read_campaign(gm("nemron").store.path)
    view = build_view(nemron, registry.game("nemron"), PlayerSettings())
    pc = next(r for r in view.rows if r.side == "pc")
    assert pc.health.startswith("HP ") and pc.extras[0].startswith("Limbs: right arm 10/10 · ")
    aspects = read_campaign(gm("aspects").store.path)
    first = aspects["party"]["1"]
    first["lists"]["consequences"] = [{"name": "Broken arm", "overlap": 4}]
    view = build_view(aspects, registry.game("aspects"), PlayerSettings())
    pc = next(r for r in view.rows if r.name == first["name"])
    assert pc.extras == ("Consequences: Broken arm",)


async def test_no_key_changes_the_save(gm: Any) -> None:
    campaign = gm("shadows")
    campaign.apply(SetPlayerView(PlayerSettings()))
    campaign.apply(cards.DealHands())
    campaign.store.flush()
    path = campaign.store.path
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    player = PlayerApp(path, poll=POLL)
    keys = [*string.printable.strip(), "space", "enter", "tab", "escape", "backspace", "delete"]
    keys += ["ctrl+p", "ctrl+s", "ctrl+z", "ctrl+y", "ctrl+c", "up", "down", "escape", "escape"]
    async with player.run_test(size=SIZE) as pilot:
        for key in keys:
            await pilot.press(key)
        await pilot.pause(POLL * 3)
        assert not player.screen.query("CommandPalette")
        assert list(player.get_system_commands(player.screen)) == []
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp
    assert not [p for p in path.parent.iterdir() if p.name.startswith(f".{path.name}.")]


async def test_a_hand_shows_only_with_its_code_and_wrong_codes_wait(gm: Any) -> None:
    campaign = gm("shadows")
    campaign.apply(SetPlayerView(PlayerSettings()))
    campaign.apply(cards.DealHands())
    campaign.store.flush()
    secret = str(campaign.meta[SECRET_KEY])
    code = pc_code(secret, 1)
    wrong = "22222" if code != "22222" else "33333"
    now = [1000.0]
    player = PlayerApp(campaign.store.path, poll=POLL, clock=lambda: now[0])
    hand = campaign.doc("decks", 1)
    assert hand is not None
    first_card = hand["hands"]["1"][0]["rank"]

    def hand_text() -> str:
        return str(player.query_one("#hand").render())

    async with player.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert hand_text() == ""
        for attempt in range(3):
            await pilot.press("p", "tab", *wrong, "enter")
            await pilot.pause()
            assert hand_text() == "", attempt
        assert player.lockout.wait_left(now[0]) == Lockout.FIRST_WAIT
        await pilot.press("p")  # locked: no form opens, the right code cannot be tried yet
        await pilot.pause()
        assert type(player.screen).__name__ != "HandCodeScreen"
        now[0] += Lockout.FIRST_WAIT
        await pilot.press("p", "tab", *code.lower(), "enter")
        await pilot.pause()
        text = hand_text()
        assert "Agnes Thorne — Hand (Minor Arcana)" in text and first_card in text
        assert "The Star" in text  # her held Major Arcana
        await pilot.press("escape")
        await pilot.pause()
        assert hand_text() == ""


def test_codes_are_stable_short_and_unambiguous() -> None:
    codes = {pc_code("s3cret", pc_id) for pc_id in range(1, 200)}
    assert len(codes) == 199
    assert all(len(c) == 5 and not set(c) & set("0O1IL") for c in codes)
    assert pc_code("s3cret", 7) == pc_code("s3cret", 7) != pc_code("other", 7)
    assert code_matches("s3cret", 7, f" {pc_code('s3cret', 7).lower()} ")
    lock = Lockout()
    for n in range(5):
        lock.record(False, 0.0)
        assert lock.wait_left(0.0) == (0 if n < 2 else 5.0 * 2 ** (n - 2))
    lock.record(True, 0.0)
    assert lock.wait_left(0.0) == 0


async def test_a_vanished_or_damaged_save_keeps_the_last_good_view(gm: Any) -> None:
    campaign = gm("shadows")
    campaign.store.flush()
    path = campaign.store.path
    good = path.read_bytes()
    player = PlayerApp(path, poll=POLL)
    async with player.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rows = shown(player)
        path.rename(path.with_suffix(".gone"))
        await settle(pilot, player, lambda: "no such file" in player.problem)
        assert shown(player) == rows
        path.write_bytes(good[:-20])
        await settle(pilot, player, lambda: "not valid JSON" in player.problem)
        assert shown(player) == rows
        assert "last good view" in str(player.query_one("#problem").render())
        os.replace(path.with_suffix(".gone"), path)
        await settle(pilot, player, lambda: player.problem == "")


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ({"foe_health": "exact"}, r"\.player_view: 'foe_health' must be one of label, hidden"),
        ({"show_round": "yes"}, r"\.player_view: 'show_round' must be true or false"),
        ("label", r": 'player_view' must be an object"),
    ],
)
def test_a_hand_edited_bad_setting_is_refused_naming_the_field(
    gm: Any, value: Any, reason: str
) -> None:
    campaign = gm("somnihil")
    path = campaign.store.path
    campaign.store.close()
    data = orjson.loads(path.read_bytes())
    meta_of(data)["player_view"] = value
    path.write_bytes(orjson.dumps(data))
    with pytest.raises(CorruptSave, match=rf"meta\[1\]{reason}"):
        read_campaign(path)


async def test_the_gm_sets_the_view_up_from_the_party_panel(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("4", "V")
            await pilot.pause()
            await pilot.press(*"numbers", "tab", *"no", "enter")
            await pilot.pause()
            meta = app.campaign.meta
            assert meta["player_view"] == {
                "foe_health": "numbers",
                "show_round": False,
                "show_ap": True,
            }
            code = pc_code(meta[SECRET_KEY], 1)
            summary = str(app.screen.query_one("#party-summary").render())
            assert f"player code {code}" in summary
            await pilot.press("u")
            await pilot.pause()
            assert "player_view" not in app.campaign.meta
    finally:
        app.campaign.store.close()

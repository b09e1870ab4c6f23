"""The players' view as data (app/player_view.py), on a demo save the GM's app has open, and
the GM's settings for it by keys. The page and its server: tests/test_players_web.py.

The GM side goes through the GM's own state path (``Campaign.apply`` on a store holding the
save's lock, or the GM's TUI by keys); the players' view only reads the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.commands import combat as cmd
from app.player_settings import SECRET_KEY
from app.player_view import (
    Lockout,
    PlayerSettings,
    build_view,
    code_matches,
    hands_of,
    headline,
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
from tests.games import BUILT_IN


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


def test_hidden_and_defeated_foes_are_absent_and_a_label_replaces_hp(gm: Any) -> None:
    campaign = gm("shadows")
    enc_id, _ = encounter(campaign)
    campaign.apply(cmd.ToggleHidden(enc_id, cid(campaign, "Goblin 1")))
    goblin = cid(campaign, "Goblin 2")
    hp = encounter(campaign)[1].get(goblin).stats["sheet"]["resources"]["health"]["current"]
    campaign.apply(cmd.Damage(enc_id, goblin, amount=str(hp - 1)))
    campaign.apply(cmd.Damage(enc_id, cid(campaign, "Goblin 3"), amount=str(hp)))
    campaign.store.flush()
    game = registry.game("shadows")

    def shown(settings: PlayerSettings) -> dict[str, Any]:
        view = build_view(read_campaign(campaign.store.path), game, settings)
        return {row.name: row for row in view.rows}

    rows = shown(PlayerSettings())
    assert "Goblin 1" not in rows  # hidden by the GM
    assert "Goblin 3" not in rows  # at 0 HP: out of the fight
    assert rows["Goblin 2"].health == "bloodied"
    assert "HP" not in rows["Goblin 2"].health and str(hp) not in rows["Goblin 2"].health
    assert rows["Agnes Thorne"].health == "Health 20/20 · Life 20/20 · Æssence 20/20"
    # A Shadows foe's numbers are its pools (issue 21: Health, Life and Æssence).
    numbers = f"H 1/{hp} · L {hp}/{hp} · Æ {hp}/{hp}"
    assert shown(PlayerSettings(foe_health="numbers"))["Goblin 2"].health == numbers
    hidden = shown(PlayerSettings(foe_health="hidden", show_ap=False))
    assert hidden["Goblin 2"].health == ""
    assert all(row.order == "" for row in hidden.values())


def test_the_headline_says_the_round_and_whose_turn_in_words(gm: Any) -> None:
    campaign = gm("shadows")
    enc_id, _ = encounter(campaign)
    game = registry.game("shadows")

    def line(settings: PlayerSettings | None = None) -> str:
        data = read_campaign(campaign.store.path)
        return headline(build_view(data, game, settings or PlayerSettings()))

    campaign.store.flush()
    assert line() == "Ambush at the Mill · not started"
    campaign.apply(cmd.StartEncounter(enc_id))
    campaign.store.flush()
    actor = er.current_combatant(encounter(campaign)[1])
    assert actor is not None
    assert line() == f"Round 1 · {actor.name}'s turn"
    assert line(PlayerSettings(show_round=False)) == f"{actor.name}'s turn"
    campaign.apply(cmd.ToggleHidden(enc_id, actor.id))  # a hidden foe's turn: no name, no hint
    campaign.store.flush()
    assert line() == "Round 1"


def test_a_bad_major_arcana_entry_is_named_not_a_crash(gm: Any) -> None:
    """Unlocking a hand from a hand-edited save raised AttributeError in the players' view
    (1,095 lines of traceback, issue 23); the hand now says which entry is not a card."""
    campaign = gm("shadows")
    campaign.apply(cards.DealHands())
    campaign.store.flush()
    data = read_campaign(campaign.store.path)
    data["party"]["1"]["lists"]["major_arcana"] = [5, "The Star", {"deck": "major", "rank": "?"}]
    minor, major = hands_of(data, registry.game("shadows"), 1)
    assert minor.cards and minor.problem == ""
    assert major.cards == ()
    assert major.problem == (
        "Not a card in the save's major_arcana: #1 (5), #2 (The Star), "
        "#3 ({'deck': 'major', 'rank': '?'}). Ask the GM to fix it on the party sheet."
    )


def test_each_game_names_the_bands_and_leaves_the_out_foes_out(gm: Any) -> None:
    for game in BUILT_IN:
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


async def test_the_party_panel_shows_where_players_join_and_its_qr_code(tmp_path: Path) -> None:
    """``Q`` on the party panel: the URL and a QR code of it, drawn as the code's modules (the
    predicted URL and the command before ``tableside serve`` runs, its own URL once it does)."""
    import json
    import os
    import socket

    from app.cli_serve import link_path, public_url
    from screens.player_link import PlayerLinkScreen
    from widgets.qr_code import QrCode, qr_modules, qr_text

    app = demo_app(tmp_path, "shadows")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("4", "Q")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayerLinkScreen)
            assert screen.url == public_url("0.0.0.0", 8000)
            note = str(screen.query_one("#link-note").render())
            assert note.startswith("Not served yet. In another terminal: tableside serve ")
            assert note.endswith(" --host 0.0.0.0")
            url = "http://192.168.1.20:8123"
            save = app.campaign.store.path
            record = {"url": url, "pid": os.getpid(), "host": socket.gethostname()}
            link_path(save).write_text(json.dumps(record), encoding="utf-8")
            for _ in range(30):  # looked at again every second
                await pilot.pause(0.1)
                if screen.url == url:
                    break
            assert str(screen.query_one("#link-url").render()) == url
            qr = screen.query_one(QrCode)
            assert qr.text == url
            drawn = qr_text(url)
            # Each cell is two modules: its foreground the top one, its background the bottom.
            modules = qr_modules(url)
            rows = drawn.split("\n")
            assert len(rows) == (len(modules) + 1) // 2
            for y, row in enumerate(rows):
                cells = [row.get_style_at_offset(pilot.app.console, x) for x in range(len(row))]
                assert [c.color.name == "#000000" for c in cells] == modules[2 * y]  # type: ignore[union-attr]
                if 2 * y + 1 < len(modules):
                    dark = [c.bgcolor.name == "#000000" for c in cells]  # type: ignore[union-attr]
                    assert dark == modules[2 * y + 1]
            region = screen.query_one("#link-qr").region
            assert region.bottom <= 24 and region.right <= 80  # the whole code fits 80x24
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, PlayerLinkScreen)
    finally:
        app.campaign.store.close()


async def test_a_server_on_this_machine_only_gets_no_qr_code_but_the_command_to_share_it(
    tmp_path: Path,
) -> None:
    """``tableside serve`` on its default host (localhost): no phone can open its URL, so ``Q``
    draws no code and says how to start it on the table's network (the port it uses kept)."""
    import json
    import os
    import socket

    from app.cli_serve import link_path
    from screens.player_link import PlayerLinkScreen
    from widgets.qr_code import QrCode

    app = demo_app(tmp_path, "shadows")
    save = app.campaign.store.path
    # As tableside serve SAVE --port 8765 leaves it (the record before "listen" was kept too).
    mine = {"pid": os.getpid(), "host": socket.gethostname()}
    records = [
        {"url": "http://localhost:8765", **mine},
        {"url": "http://localhost:8765", "listen": "localhost", "port": 8765, **mine},
        {"url": "http://[::1]:8765", "listen": "::1", "port": 8765, **mine},
    ]
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("4")
            for record in records:
                link_path(save).write_text(json.dumps(record), encoding="utf-8")
                await pilot.press("Q")
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, PlayerLinkScreen)
                assert not screen.query_one(QrCode).display
                note = screen.note
                assert note.startswith("tableside serve listens on this machine only"), note
                assert note.endswith(f"tableside serve {save} --host 0.0.0.0 --port 8765"), note
                shared = {**record, "url": "http://192.168.1.20:8765", "listen": "0.0.0.0"}
                link_path(save).write_text(json.dumps(shared), encoding="utf-8")
                for _ in range(30):  # looked at again every second
                    await pilot.pause(0.1)
                    if screen.scannable:
                        break
                assert screen.query_one(QrCode).display
                assert screen.query_one(QrCode).text == "http://192.168.1.20:8765"
                await pilot.press("escape")
                await pilot.pause()
    finally:
        app.campaign.store.close()


@pytest.mark.parametrize(
    ("game", "status", "word"),
    [
        ("shadows", "incapacitated", "incapacitated"),
        ("shadows", "dead", "dead"),
        ("aspects", "taken out", "taken out"),
        ("nemron", "downed", "downed"),
        ("resolution", "dead", "dead"),
        ("somnihil", "perished", "perished"),
    ],
)
def test_a_pc_out_of_the_fight_stays_in_the_view_in_words(
    gm: Any, game: str, status: str, word: str
) -> None:
    """Down, dying or dead, marked defeated or hidden from the others: a PC never vanishes from
    its own player's phone (the order says its state; its private view shows it whole)."""
    from app.commands.party import ChangePC

    campaign = gm(game)
    enc_id, enc = encounter(campaign)
    pc = next(c for c in enc.combatants if c.side == "pc")
    campaign.apply(cmd.StartEncounter(enc_id))
    campaign.apply(ChangePC(int(str(pc.ref)), "status", (status,)))
    if not next(c for c in encounter(campaign)[1].combatants if c.id == pc.id).defeated:
        campaign.apply(cmd.ToggleDefeated(enc_id, pc.id))
    data = read_campaign(campaign.store.path)
    the_game = registry.game(game)
    view = build_view(data, the_game, PlayerSettings())
    row = next((r for r in view.rows if r.name == pc.name), None)
    assert row is not None, f"{pc.name} vanished from the players' view"
    assert row.state == word
    assert all(r.state == "" for r in view.rows if r.name != pc.name)
    from app.player_view import own_view

    assert own_view(data, the_game, int(str(pc.ref))).state == word


def test_a_pc_the_gm_marks_defeated_is_down_in_the_games_words(gm: Any) -> None:
    campaign = gm("resolution")
    enc_id, enc = encounter(campaign)
    pc = next(c for c in enc.combatants if c.side == "pc")
    campaign.apply(cmd.ToggleDefeated(enc_id, pc.id))
    view = build_view(
        read_campaign(campaign.store.path), registry.game("resolution"), PlayerSettings()
    )
    assert next(r for r in view.rows if r.name == pc.name).state == "down"


def test_each_game_declares_what_a_player_sees_of_their_own_pc_and_the_scene(gm: Any) -> None:
    """The aspects game: fate points, aspects (a created advantage with its free invoke),
    consequences, the scene's aspects; the others: their pools and conditions, Shadows' held
    Major Arcana among its cards."""
    from app.commands.party import ChangePC
    from app.player_view import own_view
    from rulesets.aspects.advantage import CreateAdvantage

    def shown(game: str, campaign: Campaign) -> dict[str, tuple[str, ...]]:
        mine = own_view(read_campaign(campaign.store.path), registry.game(game), 1)
        return {h.title: h.cards for h in (*mine.own, *mine.scene)}

    aspects = gm("aspects")
    enc_id, enc = encounter(aspects)
    aspects.apply(cmd.StartEncounter(enc_id))
    rowan = next(c for c in enc.combatants if c.ref == "1")
    aspects.apply(CreateAdvantage(enc_id, "the scene", "Thick Fog", rowan.name))
    aspects.apply(ChangePC(1, "add_item", ("consequences", "Broken Arm")))
    found = shown("aspects", aspects)
    assert found["Fate points"] == ("1 of 5",)  # a fight is a scene: its first fate point
    assert found["Aspects"] == ("Disgraced Knight", "Owes the Guild")
    assert found["Consequences"] == ("Broken Arm",)
    assert found["Scene aspects"] == (f"Thick Fog (free invoke: {rowan.name})",)
    assert found["Conditions"] == ()

    shadows = gm("shadows")
    found = shown("shadows", shadows)
    assert found["Pools"] == ("Health 20/20", "Life 20/20", "Æssence 20/20")  # AP: the order's
    assert "Scene aspects" not in found
    for game in ("nemron", "resolution", "somnihil"):
        assert shown(game, gm(game))["Pools"]


def test_a_game_without_a_declaration_still_shows_its_players_their_pcs(gm: Any) -> None:
    """A game written for the API 1.0/1.1 declares no own view: its players see their pools."""
    import dataclasses

    from app.player_view import own_view
    from rulesets.players import PlayerViewRules

    campaign = gm("somnihil")
    game = registry.game("somnihil")
    bare = dataclasses.replace(game, players=PlayerViewRules())
    mine = own_view(read_campaign(campaign.store.path), bare, 1)
    assert [h.title for h in mine.own] == ["Pools", "Conditions"] and mine.scene == ()

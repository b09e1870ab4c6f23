"""``tableside serve``'s server (app/player_server.py) through aiohttp's test client: the page,
the pushed view, the private hands and every hostile case of issue 23.

The GM side goes through the GM's own state path (``Campaign.apply`` on a store holding the
save's lock, or the GM's TUI by keys); the server only reads the file.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest
from aiohttp.test_utils import TestClient, TestServer

from app.commands import combat as cmd
from app.commands.players import SetPlayerView
from app.player_server import HANDLER_LIMITS, MAX_PAGES, SERVER, make_app, quiet_logging
from app.player_settings import SECRET_KEY
from app.player_view import Lockout, PlayerSettings, pc_code
from app.queries import current_encounter
from app.state import Campaign
from rulesets import encounter as er
from rulesets.shadows import cards
from tests import test_players_ui
from tests.apphelpers import SIZE, demo_app

POLL = 0.02
gm = test_players_ui.gm
"""The GM's campaign (holding the save's lock, as the GM's app does)."""


@pytest.fixture
def server_log() -> Iterator[io.StringIO]:
    """What the server prints on its terminal, as ``tableside serve`` configures it, every
    line (not only the first of each kind a minute: see test_players_crowd)."""
    out = io.StringIO()
    handler = quiet_logging(out, every=0.0)
    yield out
    for name in ("tableside.serve", "aiohttp.server", "aiohttp.web", "aiohttp.websocket"):
        logger = logging.getLogger(name)
        if handler in logger.handlers:
            logger.removeHandler(handler)
        logger.propagate = True
    logging.getLogger("aiohttp.access").disabled = False


@contextlib.asynccontextmanager
async def players(path: Path, **options: Any) -> AsyncIterator[TestClient[Any, Any]]:
    server = TestServer(make_app(path, poll=POLL, **options))
    await server.start_server(**HANDLER_LIMITS)  # as ``tableside serve`` starts it
    async with TestClient(server) as client:
        yield client


def cid(campaign: Campaign, name: str) -> str:
    found = current_encounter(campaign)
    assert found is not None
    return str(next(c["id"] for c in found[1]["combatants"] if c["name"] == name))


def enc_id(campaign: Campaign) -> int:
    found = current_encounter(campaign)
    assert found is not None
    return found[0]


async def receive(
    ws: aiohttp.ClientWebSocketResponse,
    kind: str,
    until: Callable[[dict[str, Any]], bool] = lambda m: True,
    timeout: float = 10,
) -> dict[str, Any]:
    """The next message of ``kind`` that satisfies ``until`` (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            msg = await ws.receive()
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the socket closed ({msg.type}, {msg.data}, {msg.extra})")
            message = orjson.loads(msg.data)
            if message["type"] == kind and until(message):
                return dict(message)


def names(view: dict[str, Any]) -> set[str]:
    return {row["name"] for row in view["rows"]}


async def test_the_page_and_every_asset_it_uses_come_from_the_server(gm: Any) -> None:
    campaign = gm()
    async with players(campaign.store.path) as client:
        page = await client.get("/")
        html = await page.text()
        assert page.status == 200 and page.content_type == "text/html"
        assert "default-src 'none'" in page.headers["Content-Security-Policy"]
        assert 'name="viewport"' in html and '<html lang="en">' in html
        assert 'aria-live="polite"' in html  # the turn change is announced
        used = re.findall(r'(?:href|src)="([^"]+)"', html)
        assert sorted(used) == ["/icon.svg", "/player.css", "/player.js"]
        for asset in used:
            response = await client.get(asset)
            body = await response.text()
            assert response.status == 200, asset
            # Nothing on the page reaches another host (the SVG's namespace is no request).
            assert not re.search(
                r"https?://", body.replace('xmlns="http://www.w3.org/2000/svg"', "")
            )
        assert not re.search(r"https?://", html)


async def test_the_view_shows_the_order_and_nothing_the_gm_hides(gm: Any) -> None:
    campaign = gm()
    e = enc_id(campaign)
    campaign.apply(SetPlayerView(PlayerSettings()))
    campaign.apply(cmd.ToggleHidden(e, cid(campaign, "Goblin 1")))
    goblin = cid(campaign, "Goblin 2")
    campaign.apply(cmd.Damage(e, goblin, amount="1"))
    campaign.apply(cmd.ToggleDefeated(e, cid(campaign, "Goblin 3")))
    campaign.apply(cmd.StartEncounter(e))
    found = current_encounter(campaign)
    assert found is not None
    actor = er.current_combatant(er.Encounter.from_dict(found[1]))
    while actor is not None and actor.name == "Goblin 1":
        campaign.apply(cmd.NextTurn(e))
        found = current_encounter(campaign)
        assert found is not None
        actor = er.current_combatant(er.Encounter.from_dict(found[1]))
    assert actor is not None
    campaign.store.flush()
    async with players(campaign.store.path) as client, client.ws_connect("/ws") as ws:
        raw = await ws.receive_str()
        view = orjson.loads(raw)
        assert view["headline"] == f"Round 1 · {actor.name}'s turn"
        assert names(view) == {
            "Agnes Thorne",
            "Felix Marrow",
            "Ines Calder",
            "Bram Okafor",
            "Goblin 2",
        }
        rows = {row["name"]: row for row in view["rows"]}
        assert [r["name"] for r in view["rows"] if r["current"]] == [actor.name]
        assert rows["Goblin 2"]["health"] == "hurt"  # the game's label, not numbers
        assert rows["Agnes Thorne"]["health"] == "Health 20/20 · Life 20/20 · Æssence 20/20"
        assert rows["Agnes Thorne"]["order"].endswith(" AP")  # Shadows: AP left
        assert set(rows["Goblin 2"]) == {
            "name",
            "side",
            "current",
            "order",
            "health",
            "conditions",
            "extras",
            "state",
        }
        secret = str(campaign.meta[SECRET_KEY])
        assert secret not in raw and pc_code(secret, 1) not in raw
        assert view["hands"] == "ready" and view["party"][0] == {"id": 1, "name": "Agnes Thorne"}
        assert view["notices"] == []  # the GM's session is open and the save readable


async def test_a_gm_change_reaches_every_open_page(gm: Any) -> None:
    campaign = gm()
    e = enc_id(campaign)
    campaign.apply(cmd.StartEncounter(e))
    campaign.store.flush()
    async with players(campaign.store.path) as client:
        pages = [await client.ws_connect("/ws") for _ in range(3)]
        first = [await receive(ws, "view") for ws in pages]
        assert len({view["headline"] for view in first}) == 1
        campaign.apply(cmd.NextTurn(e))
        campaign.store.flush()
        found = current_encounter(campaign)
        assert found is not None
        actor = er.current_combatant(er.Encounter.from_dict(found[1]))
        assert actor is not None
        for ws in pages:
            view = await receive(ws, "view", lambda m: m["headline"] != first[0]["headline"])
            assert view["headline"] == f"Round 1 · {actor.name}'s turn"
            await ws.close()


async def test_a_gm_change_reaches_the_pages_before_the_save_file_is_rewritten(
    gm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change is in the journal, synced, as it shows on the GM's screen; the save file takes
    it in once the GM's keys pause (app.store). The view follows the journal too: it does not
    wait for the save file."""
    from app import store as store_module

    campaign = gm()
    e = enc_id(campaign)
    campaign.apply(cmd.StartEncounter(e))
    campaign.store.flush()
    monkeypatch.setattr(store_module, "FOLD_SECONDS", 3600)  # the save file is not rewritten
    saved = campaign.store.path.read_bytes()
    async with players(campaign.store.path) as client, client.ws_connect("/ws") as ws:
        first = await receive(ws, "view")
        campaign.apply(cmd.NextTurn(e))
        view = await receive(ws, "view", lambda m: m["headline"] != first["headline"])
        found = current_encounter(campaign)
        assert found is not None
        actor = er.current_combatant(er.Encounter.from_dict(found[1]))
        assert actor is not None
        assert view["headline"] == f"Round 1 · {actor.name}'s turn"
        assert campaign.store.path.read_bytes() == saved, "folded: this test would prove nothing"


async def test_the_page_follows_the_gms_app_by_keys(tmp_path: Path) -> None:
    gm_app = demo_app(tmp_path, "shadows")
    try:
        async with (
            gm_app.run_test(size=SIZE) as gm_pilot,
            players(gm_app.campaign.store.path) as client,
            client.ws_connect("/ws") as ws,
        ):
            view = await receive(ws, "view")
            assert view["headline"] == "Ambush at the Mill · not started"
            await gm_pilot.press("alt+r")  # the GM starts the fight in the combat panel
            gm_app.campaign.store.flush()
            view = await receive(ws, "view", lambda m: m["headline"].startswith("Round 1"))
            found = current_encounter(gm_app.campaign)
            assert found is not None
            actor = er.current_combatant(er.Encounter.from_dict(found[1]))
            assert actor is not None
            assert view["headline"] == f"Round 1 · {actor.name}'s turn"
    finally:
        gm_app.campaign.store.close()


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Host": "evil.example"},  # DNS rebinding: another site's name for this address
        {"Host": "localhost:1"},  # another port
    ],
)
async def test_a_request_from_another_site_is_refused(
    gm: Any, server_log: io.StringIO, headers: dict[str, str]
) -> None:
    campaign = gm()
    async with players(campaign.store.path) as client:
        page = await client.get("/", headers=headers)
        assert page.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError, match="403"):
            await client.ws_connect("/ws", headers=headers)
        own = f"http://{client.host}:{client.port}"
        async with client.ws_connect("/ws", headers={"Origin": own}) as ws:
            assert (await receive(ws, "view"))["rows"]
    lines = server_log.getvalue().splitlines()
    refusals = [line for line in lines if "refused a request" in line]
    assert len(refusals) == 2  # one line each for the page and the socket
    assert all(line.startswith("tableside serve: ") for line in lines)


async def test_the_33rd_page_is_told_the_view_is_full(gm: Any, server_log: io.StringIO) -> None:
    campaign = gm()
    # All from one address here; the limit per address has its own test (test_players_crowd).
    async with players(campaign.store.path, pages_per_address=MAX_PAGES) as client:
        pages = []
        for _ in range(MAX_PAGES):
            ws = await client.ws_connect("/ws")
            await receive(ws, "view")
            pages.append(ws)
        async with client.ws_connect("/ws") as extra:
            full = await receive(extra, "full")
            assert "full: 32 pages are open" in full["message"]
            closing = await extra.receive()
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 1013
        page = await client.get("/")
        assert page.status == 503 and "The players' view is full" in await page.text()
        await pages.pop().close()
        for _ in range(50):  # the server notices the close
            if len(client.app[SERVER].pages) < MAX_PAGES:
                break
            await asyncio.sleep(0.02)
        async with client.ws_connect("/ws") as again:
            assert (await receive(again, "view"))["rows"]
        for ws in pages:
            await ws.close()
    assert server_log.getvalue().count("pages are open") == 2


def _shadows_with_codes(campaign: Campaign) -> str:
    campaign.apply(SetPlayerView(PlayerSettings()))
    campaign.apply(cards.DealHands())
    campaign.store.flush()
    return str(campaign.meta[SECRET_KEY])


async def test_a_hand_shows_only_with_its_code(gm: Any) -> None:
    campaign = gm()
    secret = _shadows_with_codes(campaign)
    hand = campaign.doc("decks", 1)
    assert hand is not None
    first_card = hand["hands"]["1"][0]["rank"]
    code = pc_code(secret, 1)
    wrong = "22222" if code != "22222" else "33333"
    async with players(campaign.store.path) as client, client.ws_connect("/ws") as ws:
        await receive(ws, "view")
        await ws.send_json({"type": "unlock", "pc": 1, "code": wrong})
        refused = await receive(ws, "refused")
        assert refused["message"] == "That is not the code for Agnes Thorne."
        assert set(refused) == {"type", "pc", "reason", "message", "wait"}  # nothing of the hand
        await ws.send_json({"type": "unlock", "pc": 1, "code": f" {code.lower()} "})
        shown = await receive(ws, "hand")
        assert shown["name"] == "Agnes Thorne" and shown["problem"] == ""
        lists = {h["title"]: h["cards"] for h in shown["hands"]}
        assert any(first_card in card for card in lists["Hand (Minor Arcana)"])
        assert any(card.startswith("The Star") for card in lists["Major Arcana held"])
        # The open hand follows the GM: a new deal is pushed to this page.
        campaign.apply(cards.DealHands())
        campaign.store.flush()
        again = await receive(ws, "hand")
        assert again["hands"] != shown["hands"]
        # No codes any more (the GM undid the deals and the settings that made them) close
        # the open hand.
        for _ in range(3):
            campaign.undo()
        campaign.store.flush()
        closed = await receive(ws, "closed")
        assert "type your code again" in closed["message"]


async def test_the_lockout_holds_across_reconnects_and_pages(gm: Any) -> None:
    campaign = gm()
    secret = _shadows_with_codes(campaign)
    code = pc_code(secret, 1)
    wrong = "22222" if code != "22222" else "33333"
    now = [1000.0]
    async with players(campaign.store.path, clock=lambda: now[0]) as client:
        for attempt in range(Lockout.FREE_TRIES):  # each try from a fresh connection
            async with client.ws_connect("/ws") as ws:
                await receive(ws, "view")
                await ws.send_json({"type": "unlock", "pc": 1, "code": wrong})
                assert (await receive(ws, "refused"))["reason"] == "wrong code", attempt
        async with client.ws_connect("/ws") as ws, client.ws_connect("/ws") as other:
            await receive(ws, "view")
            await receive(other, "view")
            await ws.send_json({"type": "unlock", "pc": 1, "code": code})
            locked = await receive(ws, "refused")
            assert locked["reason"] == "locked out" and locked["wait"] == Lockout.FIRST_WAIT
            assert locked["message"] == "Too many wrong codes for Agnes Thorne: try again in 5 s."
            await other.send_json({"type": "unlock", "pc": 1, "code": code})
            assert (await receive(other, "refused"))["reason"] == "locked out"
            # Another PC's code is not locked by Agnes's wrong ones.
            await other.send_json({"type": "unlock", "pc": 2, "code": pc_code(secret, 2)})
            assert (await receive(other, "hand"))["name"] == "Felix Marrow"
            now[0] += Lockout.FIRST_WAIT
            await ws.send_json({"type": "unlock", "pc": 1, "code": code})
            assert (await receive(ws, "hand"))["name"] == "Agnes Thorne"


async def test_a_bad_major_arcana_in_a_hand_edited_save_is_a_message(
    gm: Any, server_log: io.StringIO
) -> None:
    campaign = gm()
    secret = _shadows_with_codes(campaign)
    path = campaign.store.path
    campaign.store.close()
    data = orjson.loads(path.read_bytes())
    data["party"]["1"]["lists"]["major_arcana"] = [5, "The Star", {"deck": "major", "rank": "No"}]
    path.write_bytes(orjson.dumps(data))
    async with players(path) as client, client.ws_connect("/ws") as ws:
        await receive(ws, "view")
        await ws.send_json({"type": "unlock", "pc": 1, "code": pc_code(secret, 1)})
        shown = await receive(ws, "hand")
        assert shown["problem"].startswith(
            "Not a card in the save's major_arcana: #1 (5), #2 (The Star), #3"
        )
        assert "Ask the GM to fix it" in shown["problem"]
        lists = {h["title"]: h["cards"] for h in shown["hands"]}
        assert lists["Major Arcana held"] == [] and lists["Hand (Minor Arcana)"]
        # Not a list at all: the save fails validation; the page says why and keeps its view.
        data["party"]["1"]["lists"]["major_arcana"] = "The Star"
        path.with_suffix(".tmp").write_bytes(orjson.dumps(data))
        path.with_suffix(".tmp").replace(path)  # whole, as an editor saves it
        view = await receive(ws, "view", lambda m: bool(m["notices"]) and "read" in m["notices"][0])
        assert "party[1].lists.major_arcana: must be a list" in view["notices"][0]
        assert "Agnes Thorne" in names(view)  # the last good view stays
    output = server_log.getvalue()
    assert "Traceback" not in output and secret not in output


async def test_an_oversized_or_malformed_message_closes_that_page_only(
    gm: Any, server_log: io.StringIO
) -> None:
    campaign = gm()
    secret = _shadows_with_codes(campaign)
    async with players(campaign.store.path) as client, client.ws_connect("/ws") as calm:
        await receive(calm, "view")
        bad: list[tuple[str | bytes, int]] = [
            ("x" * 5000, 1009),  # too big: aiohttp's limit closes the socket
            ("{not json", 1008),
            ('{"type": "unlock", "pc": "1", "code": "ABCDE"}', 1008),
            ('{"type": "unlock", "pc": 1, "code": "' + "A" * 40 + '"}', 1008),
            (b"\x00\x01", 1003),
        ]
        for payload, code in bad:
            async with client.ws_connect("/ws") as ws:
                await receive(ws, "view")
                if isinstance(payload, bytes):
                    await ws.send_bytes(payload)
                else:
                    await ws.send_str(payload)
                closing = await ws.receive()
                assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == code, payload
        await calm.send_json({"type": "unlock", "pc": 1, "code": pc_code(secret, 1)})
        assert (await receive(calm, "hand"))["name"] == "Agnes Thorne"
    lines = [
        line
        for line in server_log.getvalue().splitlines()
        if "closed a page:" in line or "malformed message" in line
    ]
    assert len(lines) == len(bad)
    assert "Message size 5000 exceeds limit 1024" in lines[0]


async def test_a_malformed_request_is_one_log_line_without_a_traceback(
    gm: Any, server_log: io.StringIO
) -> None:
    campaign = gm()
    secret = _shadows_with_codes(campaign)
    async with players(campaign.store.path) as client:
        port = client.port
        assert port is not None
        requests = [
            b"GARBAGE\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Big: %s\r\n\r\n" % (port, b"a" * 6000),
            b"GET /" + b"a" * 6000 + b" HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: -4\r\n\r\n" % port,
        ]
        for raw in requests:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(raw)
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(200), 5)
            assert re.match(rb"HTTP/1\.[01] 4\d\d ", answer), answer
            writer.close()
        big = await client.get("/ws", headers={"Upgrade": "nonsense", "Connection": "upgrade"})
        assert big.status == 400
    output = server_log.getvalue()
    lines = output.splitlines()
    assert len(lines) == len(requests) + 1, output
    assert all(line.startswith("tableside serve: ") for line in lines)
    assert "Traceback" not in output and secret not in output


async def test_the_page_says_when_the_gm_leaves_or_the_save_vanishes(gm: Any) -> None:
    campaign = gm()
    campaign.store.flush()
    path = campaign.store.path
    async with players(path) as client, client.ws_connect("/ws") as ws:
        view = await receive(ws, "view")
        assert view["notices"] == []
        rows = view["rows"]
        campaign.store.close()  # the GM quits
        view = await receive(ws, "view", lambda m: bool(m["notices"]))
        changed = view["changed"]
        assert re.fullmatch(r"\d\d:\d\d:\d\d", changed)
        assert view["notices"] == [
            f"The GM's session has ended: this is the campaign as of its last change at {changed}."
        ]
        assert view["rows"] == rows
        path.rename(path.with_suffix(".gone"))
        view = await receive(ws, "view", lambda m: len(m["notices"]) == 2)
        assert view["notices"][0] == (
            "The save cannot be read (it is gone: moved or deleted): showing the view as of "
            f"its last change at {changed}."
        )
        assert view["rows"] == rows  # the last good view stays
        path.with_suffix(".gone").rename(path)
        view = await receive(ws, "view", lambda m: len(m["notices"]) == 1)
        assert view["rows"] == rows


async def test_the_server_never_writes_the_save(gm: Any) -> None:
    campaign = gm()
    secret = _shadows_with_codes(campaign)
    path = campaign.store.path
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    async with players(path) as client, client.ws_connect("/ws") as ws:
        await receive(ws, "view")
        for message in ({"type": "unlock", "pc": 1, "code": pc_code(secret, 1)}, {"type": "lock"}):
            await ws.send_json(message)
        await receive(ws, "hand")
        for route in ("/", "/player.js", "/nothing", "/ws"):
            await client.get(route)
        await asyncio.sleep(POLL * 5)
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp
    assert not [p for p in path.parent.iterdir() if p.name.startswith(f".{path.name}.")]


async def test_the_time_of_day_and_light_reach_the_page_only_when_the_gm_allows(gm: Any) -> None:
    """Issue 27: the players' view shows the time of day and the light left when the GM lets it,
    and an advance of the clock is pushed to the page like any other change."""
    from app.commands import clock as clock_cmd

    campaign = gm()
    campaign.apply(clock_cmd.AddTimedEffect("Torch", "1h"))
    campaign.store.flush()
    async with players(campaign.store.path) as client, client.ws_connect("/ws") as ws:
        view = await receive(ws, "view")
        assert view["time"] == ""  # not shown until the GM allows it
        campaign.apply(clock_cmd.ClockSettings(start_hour=8, players=True))
        campaign.store.flush()
        view = await receive(ws, "view", lambda m: bool(m["time"]))
        assert view["time"] == "Day 1, morning · Torch 1 h left"
        campaign.apply(clock_cmd.Advance(step="turn"))  # an exploration turn: 10 minutes
        campaign.store.flush()
        view = await receive(ws, "view", lambda m: m["time"] != "Day 1, morning · Torch 1 h left")
        assert view["time"] == "Day 1, morning · Torch 50 min left"


async def test_the_aspects_game_shows_a_player_what_they_invoke_and_only_to_them(
    gm: Any,
) -> None:
    """Fate points, aspects, consequences and the scene's aspects reach the page whose code
    opened the PC, never another page; a taken-out PC stays in everyone's order in words."""
    from app.commands.party import ChangePC
    from rulesets.aspects.advantage import CreateAdvantage

    campaign = gm("aspects")
    found = current_encounter(campaign)
    assert found is not None
    rowan = next(c for c in found[1]["combatants"] if c["ref"] == "1")["name"]
    campaign.apply(cmd.StartEncounter(found[0]))
    campaign.apply(SetPlayerView(PlayerSettings()))
    campaign.apply(CreateAdvantage(found[0], "the scene", "Thick Fog", rowan))
    campaign.apply(ChangePC(2, "status", ("taken out",)))
    secret = str(campaign.meta[SECRET_KEY])
    async with (
        players(campaign.store.path) as client,
        client.ws_connect("/ws") as mine,
        client.ws_connect("/ws") as other,
    ):
        view = await receive(other, "view")
        assert view["hands"] == "ready"  # every game: the form to open one's own PC
        states = {row["name"]: row["state"] for row in view["rows"] if row["side"] == "pc"}
        assert sorted(states.values()) == ["", "", "", "taken out"]  # four PCs, one out
        await receive(mine, "view")
        await mine.send_json({"type": "unlock", "pc": 1, "code": pc_code(secret, 1)})
        hand = await receive(mine, "hand")
        shown = {h["title"]: h["cards"] for h in hand["hands"]}
        assert shown["Fate points"] == ["1 of 5"]
        assert shown["Aspects"] == ["Disgraced Knight", "Owes the Guild"]
        assert shown["Consequences"] == []
        assert shown["Scene aspects"] == [f"Thick Fog (free invoke: {rowan})"]
        assert hand["state"] == ""
        campaign.apply(ChangePC(1, "adjust", ("fate_points", -1)))
        again = await receive(mine, "hand")  # it follows the GM
        assert {h["title"]: h["cards"] for h in again["hands"]}["Fate points"] == ["0 of 5"]
        await other.send_json({"type": "lock"})
        campaign.apply(cmd.NextTurn(found[0]))
        seen = await receive(other, "view", lambda m: m["headline"] != view["headline"])
        text = orjson.dumps(seen).decode()
        for private in ("Fate points", "Disgraced Knight", "Thick Fog", '"type":"hand"'):
            assert private not in text
        assert seen["following"] is True
        campaign.store.close()  # the GM quits: the page no longer says it follows the GM
        ended = await receive(other, "view", lambda m: bool(m["notices"]))
        assert ended["following"] is False


async def test_one_address_cannot_take_the_tables_pages(gm: Any, server_log: io.StringIO) -> None:
    """A fifth page from one address is told so; a phone at another address still gets in."""
    from app.player_server import PAGES_PER_ADDRESS

    campaign = gm()
    async with players(campaign.store.path) as client:
        pages = []
        for _ in range(PAGES_PER_ADDRESS):
            ws = await client.ws_connect("/ws")
            await receive(ws, "view")
            pages.append(ws)
        async with client.ws_connect("/ws") as extra:
            full = await receive(extra, "full")
            assert full["message"] == (
                "4 pages are open from this device already. Close one, then reload."
            )
        other = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        async with (
            aiohttp.ClientSession(connector=other) as phone,
            phone.ws_connect(f"http://127.0.0.1:{client.port}/ws") as ws,
        ):
            assert (await receive(ws, "view"))["rows"]
        for ws in pages:
            await ws.close()
    assert server_log.getvalue().count("pages are open from that address") == 1

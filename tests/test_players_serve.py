"""``tableside serve`` end to end: the real command on a free port, a client of its websocket,
and (where Chromium is installed) a real headless browser driven by Playwright, emulating a
390×844 phone.

The page's protocol (``app/player_server.py``): the page opens ``/ws``; the server sends JSON
text messages (``{"type": "view", ...}``, ``"hand"``, ``"refused"``, ``"closed"``, ``"full"``)
and takes ``{"type": "unlock", "pc": N, "code": "..."}`` and ``{"type": "lock"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

from app.demo import write_demo

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(save: Path) -> Iterator[str]:
    """``tableside serve SAVE`` on a free port; yields the URL it printed; stops it after."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", str(save), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        url = ""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not url:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("Open "):
                url = line.split()[1]
        assert url == f"http://localhost:{port}", f"no URL printed (exit {proc.poll()})"
        for _ in range(100):  # the URL is printed as aiohttp starts; wait until it accepts
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            time.sleep(0.05)
        yield url
    finally:
        stop_server(proc)


def stop_server(proc: subprocess.Popen[Any]) -> None:
    """Stop a server started in its own session, as Ctrl+C would (killed if it hangs)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


@pytest.fixture
def shadows_save(tmp_path: Path) -> Path:
    return write_demo("shadows", tmp_path / "demo-shadows.json", seed=3)


async def _first_view(url: str) -> dict[str, Any]:
    import aiohttp

    async with aiohttp.ClientSession() as session, session.ws_connect(url + "/ws") as ws:
        message = await ws.receive_json(timeout=20)
        assert isinstance(message, dict)
        return message


def test_serve_pushes_the_view_and_leaves_its_url_for_the_gms_app(shadows_save: Path) -> None:
    from app.cli_serve import link_path, serving_url

    before = shadows_save.read_bytes()
    with serving(shadows_save) as url:
        view = asyncio.run(asyncio.wait_for(_first_view(url), 40))
        assert serving_url(shadows_save) == url  # the party panel's QR code shows this
    assert view["type"] == "view" and view["headline"] == "Ambush at the Mill · not started"
    assert {"Agnes Thorne", "Bram Okafor", "Goblin 1", "Goblin 3"} <= {
        r["name"] for r in view["rows"]
    }
    assert shadows_save.read_bytes() == before
    assert not link_path(shadows_save).exists()  # stopped: the URL is gone with it


def _browser() -> tuple[str | None, str]:
    """Chromium's path, or None and why there is none."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return None, "playwright is not installed (pip install -e '.[test]')"
    for found in (shutil.which("chromium"), CHROMIUM):
        if found and os.path.exists(found):
            return found, ""
    return None, f"no Chromium on PATH or at {CHROMIUM} (Debian: apt-get install -y chromium)"


BROWSER, NO_BROWSER = _browser()
PHONE: ViewportSize = {"width": 390, "height": 844}

# Every element with text of its own, and its computed font size in px.
TEXT_SIZES = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.offsetParent !== null && [...e.childNodes].some(
    n => n.nodeType === 3 && n.textContent.trim()))
  .map(e => [e.id || e.className || e.tagName, parseFloat(getComputedStyle(e).fontSize)])"""
TARGETS = """() => [...document.querySelectorAll('button, select, input, a')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect(); return [e.id, r.width, r.height]; })"""


@pytest.mark.skipif(BROWSER is None, reason=NO_BROWSER)
def test_a_phone_shows_the_view_follows_the_gm_and_opens_a_hand_by_touch(tmp_path: Path) -> None:
    """Headless Chromium as a 390×844 phone at the printed URL while the GM's app holds the save
    (issue 23's "done when")."""
    from playwright.sync_api import sync_playwright

    from app.commands import combat as cmd
    from app.commands.players import SetPlayerView
    from app.player_settings import SECRET_KEY
    from app.player_view import PlayerSettings, pc_code
    from app.queries import current_encounter
    from rulesets import encounter as er
    from rulesets.shadows import cards
    from tests.apphelpers import open_demo

    gm = open_demo(tmp_path, "shadows")  # holds the save's lock, as the GM's TUI does

    def actor() -> str:
        found = current_encounter(gm)
        assert found is not None
        current = er.current_combatant(er.Encounter.from_dict(found[1]))
        assert current is not None
        return current.name

    try:
        found = current_encounter(gm)
        assert found is not None
        enc_id, raw = found
        ids = {c["name"]: c["id"] for c in raw["combatants"]}
        gm.apply(SetPlayerView(PlayerSettings()))
        gm.apply(cards.DealHands())
        gm.apply(cmd.ToggleHidden(enc_id, ids["Goblin 1"]))
        gm.apply(cmd.StartEncounter(enc_id))
        while actor() == "Goblin 1":  # hidden: the players see no name
            gm.apply(cmd.NextTurn(enc_id))
        gm.store.flush()
        secret = str(gm.meta[SECRET_KEY])
        code = pc_code(secret, 1)
        wrong = "22222" if code != "22222" else "33333"
        deck = gm.doc("decks", 1)
        assert deck is not None
        first_card = deck["hands"]["1"][0]["rank"]
        with serving(gm.store.path) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=BROWSER, headless=True, timeout=30_000)
            try:
                context = browser.new_context(
                    viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3
                )
                requests: list[str] = []
                context.on("request", lambda r: requests.append(r.url))
                page = context.new_page()
                page.goto(url, timeout=30_000)
                headline = page.locator("#headline")
                page.wait_for_function(
                    "t => document.getElementById('headline').textContent === t",
                    arg=f"Round 1 · {actor()}'s turn",
                    timeout=20_000,
                )
                # Layout: nothing wider than the phone, the round and the turn on screen.
                widths = page.evaluate(
                    "() => [document.documentElement.scrollWidth, window.innerWidth]"
                )
                assert widths[0] <= widths[1] == PHONE["width"], widths
                box = headline.bounding_box()
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
                acting = page.locator('#order li[aria-current="step"]')
                assert acting.count() == 1 and actor() in acting.inner_text()
                assert "acting now" in acting.inner_text() and acting.is_visible()
                small = [(w, size) for w, size in page.evaluate(TEXT_SIZES) if size < 16]
                assert small == [], small
                tiny = [t for t in page.evaluate(TARGETS) if t[1] < 44 or t[2] < 44]
                assert tiny == [], tiny
                text = page.inner_text("body")
                assert "Goblin 2" in text and "Goblin 1" not in text  # hidden by the GM
                assert secret not in page.content()

                # The GM's change is on the phone within a second (median of three).
                took = []
                for _ in range(3):
                    before = headline.inner_text()
                    gm.apply(cmd.NextTurn(enc_id))
                    while actor() == "Goblin 1":
                        gm.apply(cmd.NextTurn(enc_id))
                    gm.store.flush()
                    start = time.monotonic()
                    page.wait_for_function(
                        "t => document.getElementById('headline').textContent !== t",
                        arg=before,
                        timeout=10_000,
                    )
                    took.append(time.monotonic() - start)
                    assert headline.inner_text().endswith(f"{actor()}'s turn")
                assert sorted(took)[1] < 1.0, took
                assert page.inner_text("#announce") == headline.inner_text()  # live region

                # A hand by touch: refused with a wrong code, shown with the right one.
                page.tap("#hand-open")
                page.select_option("#hand-pc", "1")
                page.tap("#hand-code")
                page.keyboard.type(wrong)
                page.tap("#hand-show")
                message = page.locator("#hand-message")
                message.filter(has_text="That is not the code").wait_for(timeout=5_000)
                assert page.locator("#hand-cards").is_hidden()
                assert first_card not in page.inner_text("body")
                page.tap("#hand-code")
                page.keyboard.type(code.lower())
                page.tap("#hand-show")
                page.locator("#hand-cards").wait_for(state="visible", timeout=5_000)
                cards_text = page.inner_text("#hand-cards")
                assert "Agnes Thorne" in cards_text and first_card in cards_text
                assert "The Star" in cards_text
                # Remembered on this phone: a reload opens it again without the code.
                page.reload()
                page.locator("#hand-cards").wait_for(state="visible", timeout=10_000)
                assert first_card in page.inner_text("#hand-cards")
                widths = page.evaluate(
                    "() => [document.documentElement.scrollWidth, window.innerWidth]"
                )
                assert widths[0] <= widths[1], widths
                page.tap("#contrast")
                assert "contrast" in (page.get_attribute("html", "class") or "")

                # Offline: every request went to the server itself.
                assert requests and all(r.startswith(url + "/") for r in requests), requests
                context.close()
            finally:
                browser.close()
    finally:
        gm.store.close()


def test_serve_refuses_bad_input_with_one_line(
    tmp_path: Path, shadows_save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app import cli

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        cases = [
            ([str(tmp_path / "missing.json")], "missing.json: no such file"),
            ([str(shadows_save), "--port", "70000"], "--port must be between 1 and 65535"),
            ([str(shadows_save), "--host", "127.0.0.1", "--port", str(busy)], "cannot listen"),
        ]
        for argv, message in cases:
            assert cli.main(["serve", *argv]) == 2
            err = capsys.readouterr().err
            assert err.startswith("tableside serve: ") and message in err
            assert err.count("\n") == 1


def test_a_shared_view_prints_an_address_other_devices_can_reach() -> None:
    from app.cli_serve import public_url

    assert public_url("localhost", 8000) == "http://localhost:8000"
    shared = public_url("0.0.0.0", 8123)
    assert shared.startswith("http://") and shared.endswith(":8123")
    assert "0.0.0.0" not in shared


@pytest.mark.skipif(BROWSER is None, reason=NO_BROWSER)
def test_a_phone_shows_its_own_pc_down_and_what_the_aspects_game_lets_it_invoke(
    tmp_path: Path,
) -> None:
    """The aspects demo on a 390x844 phone: the player who typed their code sees their taken
    out PC in words, its fate points, aspects and consequences, and the scene's aspects;
    another phone sees the PC in the order but none of that. When the GM quits, the page no
    longer says it follows the GM."""
    from playwright.sync_api import sync_playwright

    from app.commands import combat as cmd
    from app.commands.party import ChangePC
    from app.commands.players import SetPlayerView
    from app.player_settings import SECRET_KEY
    from app.player_view import PlayerSettings, pc_code
    from app.queries import current_encounter
    from rulesets.aspects.advantage import CreateAdvantage
    from tests.apphelpers import open_demo

    gm = open_demo(tmp_path, "aspects")
    try:
        found = current_encounter(gm)
        assert found is not None
        enc_id, raw = found
        rowan = next(c for c in raw["combatants"] if c["ref"] == "1")
        gm.apply(cmd.StartEncounter(enc_id))
        gm.apply(SetPlayerView(PlayerSettings()))
        gm.apply(CreateAdvantage(enc_id, "the scene", "Thick Fog", rowan["name"]))
        gm.apply(ChangePC(1, "add_item", ("consequences", "Broken Arm")))
        gm.apply(ChangePC(1, "status", ("taken out",)))
        gm.apply(cmd.ToggleDefeated(enc_id, rowan["id"]))
        gm.store.flush()
        code = pc_code(str(gm.meta[SECRET_KEY]), 1)
        with serving(gm.store.path) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=BROWSER, headless=True, timeout=30_000)
            try:
                phones = [
                    browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                    for _ in range(2)
                ]
                mine, other = (phone.new_page() for phone in phones)
                for page in (mine, other):
                    page.goto(url, timeout=30_000)
                    page.locator("#order li").first.wait_for(timeout=20_000)
                row = mine.locator("#order li", has_text=rowan["name"])
                assert row.count() == 1 and "taken out" in row.inner_text()
                mine.tap("#hand-open")
                mine.select_option("#hand-pc", "1")
                mine.tap("#hand-code")
                mine.keyboard.type(code)
                mine.tap("#hand-show")
                mine.locator("#hand-cards").wait_for(state="visible", timeout=5_000)
                cards = mine.inner_text("#hand-cards")
                assert "State: taken out" in cards
                for shown in ("Fate points", "1 of 5", "Disgraced Knight", "Broken Arm"):
                    assert shown in cards
                assert f"Thick Fog (free invoke: {rowan['name']})" in cards
                widths = mine.evaluate(
                    "() => [document.documentElement.scrollWidth, window.innerWidth]"
                )
                assert widths[0] <= widths[1], widths
                small = [(w, size) for w, size in mine.evaluate(TEXT_SIZES) if size < 16]
                assert small == [], small
                if os.environ.get("TABLESIDE_SHOTS"):
                    shots = Path(os.environ["TABLESIDE_SHOTS"])
                    mine.screenshot(path=str(shots / "aspects-mine.png"), full_page=True)
                    other.screenshot(path=str(shots / "aspects-other.png"), full_page=True)
                text = other.inner_text("body")
                assert rowan["name"] in text and "taken out" in text
                for private in ("Fate points", "Disgraced Knight", "Thick Fog"):
                    assert private not in other.content()
                assert other.inner_text("#connection") == "Connected: the view follows the GM."
                gm.store.close()  # the GM quits
                other.locator("#notices", has_text="session has ended").wait_for(timeout=10_000)
                assert "follows the GM." not in other.inner_text("#connection")
                for phone in phones:
                    phone.close()
            finally:
                browser.close()
    finally:
        gm.store.close()

"""``tableside serve`` end to end: a server on a free port, a client speaking textual-serve's
websocket protocol as the browser page does, and (where Debian's Chromium is installed) a real
headless browser driven by Playwright.

textual-serve's protocol (``textual_serve/server.py``, ``app_service.py``): the page opens
``/ws?width=W&height=H``; the client sends JSON text frames (``["stdin", keys]``,
``["resize", {"width", "height"}]``, ``["ping", n]``); the server sends the app's terminal
output as binary frames (escape sequences and text) and JSON text frames for meta messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.demo import write_demo

CHROMIUM = "/usr/bin/chromium"
ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07")


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


async def _screen_text(url: str, wanted: list[str], keys: str = "") -> str:
    """Connect as the page does, optionally type, and collect the terminal output as text."""
    import aiohttp

    ws_url = url.replace("http://", "ws://") + "/ws?width=120&height=36"
    seen = ""
    async with aiohttp.ClientSession() as session, session.ws_connect(ws_url) as ws:
        await ws.send_json(["resize", {"width": 120, "height": 36}])
        deadline = asyncio.get_running_loop().time() + 25
        typed = False
        while asyncio.get_running_loop().time() < deadline:
            try:
                msg = await ws.receive(timeout=2)
            except TimeoutError:
                continue
            if msg.type == aiohttp.WSMsgType.BINARY:
                seen += ANSI.sub("", msg.data.decode("utf-8", "replace"))
            elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
            if all(w in seen for w in wanted):
                if keys and not typed:
                    for key in keys:
                        await ws.send_json(["stdin", key])
                    typed = True
                    continue
                break
        await ws.close()
    return seen


def test_serve_sends_the_initiative_order_over_textual_serves_websocket(
    shadows_save: Path,
) -> None:
    names = ["Agnes Thorne", "Bram Okafor", "Goblin 1", "Goblin 3", "Ambush at the Mill"]
    before = shadows_save.read_bytes()
    with serving(shadows_save) as url:
        text = asyncio.run(asyncio.wait_for(_screen_text(url, names), 40))
    for name in names:
        assert name in text
    assert shadows_save.read_bytes() == before


def _no_chromium_reason() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


@pytest.mark.skipif(_no_chromium_reason() is not None, reason=str(_no_chromium_reason()))
def test_a_real_browser_shows_the_order_and_its_keys_change_nothing(tmp_path: Path) -> None:
    """Headless Chromium at the printed URL while the GM's app holds the save (issue 16's
    "done when"): the order and the current turn arrive, a hidden foe does not, a damaged foe
    comes as a label, and keys typed in the page leave the save byte-identical.

    xterm.js paints on a canvas, so what the page shows is read from the frames its websocket
    received (the same bytes the terminal renders)."""
    from playwright.sync_api import sync_playwright

    from app.commands import combat as cmd
    from app.queries import current_encounter
    from rulesets import encounter as er
    from tests.apphelpers import open_demo

    gm = open_demo(tmp_path, "shadows")  # holds the save's lock, as the GM's TUI does
    try:
        enc_id, raw = current_encounter(gm) or (0, {})
        ids = {c["name"]: c["id"] for c in raw["combatants"]}
        gm.apply(cmd.ToggleHidden(enc_id, ids["Goblin 1"]))
        gm.apply(cmd.Damage(enc_id, ids["Goblin 2"], amount="1"))
        gm.apply(cmd.StartEncounter(enc_id))
        actor = er.current_combatant(er.Encounter.from_dict(current_encounter(gm)[1]))  # type: ignore[index]
        while actor is not None and actor.name == "Goblin 1":  # hidden: players see "—"
            gm.apply(cmd.NextTurn(enc_id))
            actor = er.current_combatant(er.Encounter.from_dict(current_encounter(gm)[1]))  # type: ignore[index]
        assert actor is not None
        gm.store.flush()
        save = gm.store.path
        before = save.read_bytes()
        with serving(save) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, timeout=30_000)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                received: list[str] = []
                sent: list[str] = []

                def watch(ws: Any) -> None:
                    ws.on("framereceived", lambda f: received.append(_frame_text(f)))
                    ws.on("framesent", lambda f: sent.append(_frame_text(f)))

                page.on("websocket", watch)
                page.goto(url, timeout=30_000)
                wanted = ["Agnes Thorne", "Goblin 2", "Round 1", f"{actor.name}'s turn", "hurt"]
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    screen = ANSI.sub("", "".join(received))
                    if all(w in screen for w in wanted):
                        break
                    page.wait_for_timeout(200)
                screen = ANSI.sub("", "".join(received))
                for text in wanted:
                    assert text in screen
                assert "Goblin 1" not in screen
                page.mouse.click(700, 450)
                page.keyboard.type("unhxdpq12345 abc", delay=20)
                for key in ("Enter", "Escape", "Control+p", "Control+z", "Delete", "Tab"):
                    page.keyboard.press(key)
                page.wait_for_timeout(1500)
                assert any('"stdin"' in s for s in sent)  # the keys reached the players' view
                page.close()
            finally:
                browser.close()
        assert save.read_bytes() == before
    finally:
        gm.store.close()


def _frame_text(frame: Any) -> str:
    return frame.decode("utf-8", "replace") if isinstance(frame, bytes) else str(frame)


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

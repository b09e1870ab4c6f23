"""Nothing from a save reaches the terminal raw: the bytes written are read and searched.

Each game's demo campaign, with a roll log and its decks, has every free-text field of every
document, the campaign name and the file name laced with ``tests.hostile.HOSTILE``. The TUI
runs with Textual's headless driver turned into a recording one (it renders exactly as the
real driver does, into a list instead of a tty), every panel is visited and its rows walked,
and the recorded output is searched for raw ESC sequences, C1 controls and bidi or zero-width
characters. The CLI's stdout and stderr are read the same way. ``test_signals`` runs the real
driver in a pty for the header and the file name.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual.drivers.headless_driver import HeadlessDriver

from app import cli
from app.commands.dice import RollDice
from app.demo import write_demo
from app.state import Campaign
from app.store import CampaignStore, atomic_write, read_campaign
from app.tui import TablesideApp
from rulesets.decks import DrawCards
from rulesets.text import has_hidden, json_safe, visible
from tests.apphelpers import SIZE
from tests.conftest import FIXED_NOW
from tests.games import BUILT_IN
from tests.hostile import HOSTILE, leaks, poison

HOSTILE_STEM = "camp\x1b]0;PWN\x07\x1b]52;c;UFdO\x1b\\\x9b2J\u202eevil"


def hostile_save(folder: Path, game: str) -> tuple[Path, int]:
    """A demo save for ``game`` (with rolls and draws) poisoned in every free-text field."""
    path = folder / f"{HOSTILE_STEM}.json"
    write_demo(game, path, seed=5)
    store = CampaignStore.open(path)
    campaign = Campaign(store, rng=random.Random(5), clock=lambda: FIXED_NOW)
    campaign.apply(RollDice("2d6+1"))
    for index, deck in enumerate(campaign.game.decks):  # every deck the game plays with
        campaign.apply(DrawCards(deck.id, 3 if index == 0 else 1))
    store.close()
    data, poisoned = poison(read_campaign(path))
    atomic_write(path, orjson.dumps(data))
    return path, poisoned


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Everything the app writes to its terminal, as the real driver would write it."""
    out: list[str] = []
    monkeypatch.setattr(HeadlessDriver, "is_headless", property(lambda self: False))
    monkeypatch.setattr(HeadlessDriver, "write", lambda self, data: out.append(data))
    yield out


def test_visible_makes_every_attack_visible() -> None:
    shown = visible(HOSTILE)
    assert not leaks(shown)
    assert not has_hidden(shown)
    assert shown.startswith("\u241b]52;c;")  # ␛ stands in for ESC, so the GM sees it
    assert "\u27e8U+202E\u27e9" in shown and "\u27e8U+009B\u27e9" in shown
    assert visible("Goblin [bold]") == "Goblin [bold]"
    assert orjson.loads(json_safe(orjson.dumps(HOSTILE).decode())) == HOSTILE


async def walk(app: TablesideApp, *, edit: bool) -> None:
    """Visit every panel, walk its rows, open the dialogs that quote a document; with
    ``edit``, also load a poisoned NPC into the builder's text fields."""
    async with app.run_test(size=SIZE) as pilot:
        for panel in "1234":
            await pilot.press(panel)
            await pilot.pause()
            for _ in range(8):  # walk the rows so each selected document is drawn
                await pilot.press("down")
            await pilot.pause()
            if panel == "2":
                await pilot.press("m")  # the cards mode shows decks and hands
                await pilot.pause()
            if panel == "3":  # the dialogs that quote the selected NPC
                for dialog in ("a", "r", "x", *("e" if edit else "")):
                    await pilot.press(dialog)
                    await pilot.pause()
                    await pilot.press("escape")
                    await pilot.pause()
            await pilot.press("question_mark")  # every key of the panel
            await pilot.pause()
            await pilot.press("escape")
        await pilot.press("u")  # a toast naming a poisoned change
        await pilot.press("ctrl+y")
        await pilot.pause()
        await pilot.press("ctrl+q")


def poisoned_app(tmp_path: Path, game: str) -> TablesideApp:
    path, poisoned = hostile_save(tmp_path, game)
    assert poisoned > 20, "the walk poisoned too few fields to mean anything"
    store = CampaignStore.open(path)
    return TablesideApp(Campaign(store, rng=random.Random(1), clock=lambda: FIXED_NOW))


@pytest.mark.parametrize("game", BUILT_IN)
async def test_no_escape_from_a_save_reaches_the_terminal(
    tmp_path: Path, game: str, recorded: list[str]
) -> None:
    # Nothing patched in Textual: every place that shows save text makes it visible itself
    # (the GM sees the ␛ instead of nothing), and a text field draws it without them.
    app = poisoned_app(tmp_path, game)
    try:
        await walk(app, edit=False)
    finally:
        app.campaign.store.close()
    written = "".join(recorded)
    assert written, "the recording driver recorded nothing"
    found = leaks(written)
    assert not found, f"{len(found)} raw escapes from the save reached the terminal: {found[:5]}"
    assert "\u241b]52;c;" in written, "the poisoned text was never drawn"
    written.encode("utf-8")  # the raw bytes the real driver writes: no lone surrogate either


@pytest.mark.parametrize("game", ["somnihil", "nemron"])  # the builder is the same in all
async def test_nothing_raw_reaches_the_terminal_from_edit_fields_either(
    tmp_path: Path, game: str, recorded: list[str]
) -> None:
    """A text field being edited holds the text as it is (saving it must not change it), so
    there the field (widgets.text_field) draws it without the hidden characters."""
    app = poisoned_app(tmp_path, game)
    try:
        await walk(app, edit=True)
    finally:
        app.campaign.store.close()
    found = leaks("".join(recorded))
    assert not found, f"{len(found)} raw escapes from the save reached the terminal: {found[:5]}"


def run_cli(argv: list[str]) -> tuple[int, bytes, bytes]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue().encode(), err.getvalue().encode()


@pytest.mark.parametrize("game", BUILT_IN)
def test_no_escape_from_a_save_reaches_stdout(tmp_path: Path, game: str) -> None:
    path, _ = hostile_save(tmp_path, game)
    code, out, err = run_cli(["export", str(path)])
    assert code == 0, err
    assert not leaks(out.decode()) and not leaks(err.decode())
    exported: dict[str, Any] = orjson.loads(out)
    assert exported["name"].startswith(HOSTILE), "export must keep the data exactly"
    code, out, err = run_cli(["draw", "--save", str(path), "--count", "2"])
    assert not leaks(out.decode() + err.decode())
    # errors naming a poisoned file name go to a terminal too
    missing = tmp_path / f"{HOSTILE_STEM}-missing" / "x.json"
    for argv in (["export", str(missing)], ["export", str(tmp_path / HOSTILE_STEM)]):
        code, out, err = run_cli(argv)
        assert code == 2 and err.count(b"\n") == 1
        assert not leaks(err.decode()), err


async def test_a_text_field_draws_a_raw_value_safe_and_keeps_it_as_typed(
    tmp_path: Path, recorded: list[str]
) -> None:
    """A field's value is the text as typed or as saved; what reaches the terminal has no
    escape, and a toast says the text visibly."""
    from tests.apphelpers import demo_app
    from widgets.text_field import TextField

    app = demo_app(tmp_path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            field = TextField(f"raw{HOSTILE}end")
            await app.screen.mount(field)
            await pilot.pause()
            app.notify(f"toast {HOSTILE}")
            await pilot.pause()
            toasts = [n.message for n in app.notices]
            assert field.value == f"raw{HOSTILE}end"
    finally:
        app.campaign.store.close()
    written = "".join(recorded)
    assert "raw]52;c;UFdO" in written
    assert toasts == [f"toast {visible(HOSTILE)}"]
    assert not leaks(written)


def test_every_text_field_of_the_app_is_a_safe_one() -> None:
    """A plain ``Input`` would draw a saved name's escapes raw: the screens and widgets build
    their fields from widgets.text_field."""
    import ast

    root = Path(__file__).resolve().parent.parent
    raw = [
        f"{path.relative_to(root)}:{node.lineno}"
        for folder in ("app", "screens", "widgets")
        for path in sorted((root / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("Input", "TextArea")
    ]
    assert raw == []

"""Keys the GM chooses: a TOML keymap in the user config folder, applied with
Textual's set_keymap; a bad file is one line at start-up and the default keys stay."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.binding import Binding

from app import keymap as km
from app.cli import main
from app.tui import TablesideApp
from screens.help import HelpScreen
from tests.apphelpers import SIZE, demo_app


@pytest.fixture
def keys_file(tmp_path: Path) -> Path:
    """Where the keymap lives under the test's own config folder (conftest sets it)."""
    path = tmp_path / "config" / "tableside" / "keys.toml"
    path.parent.mkdir(parents=True)
    assert km.keymap_path() == path
    return path


def current(app: TablesideApp) -> object:
    enc = next(iter(app.campaign.rows("encounters")))[1]
    return enc["current"]


async def test_space_for_next_turn_works_in_the_tracker_and_help_shows_it(
    tmp_path: Path, keys_file: Path
) -> None:
    keys_file.write_text('"combat.next_turn" = "space"\n')
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        first = current(app)
        await pilot.press("space")
        await pilot.pause()
        second = current(app)
        assert second != first
        await pilot.press("n")  # the default key no longer does it
        await pilot.pause()
        assert current(app) == second
        palette = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert palette["Next turn"] == "key space"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.help_rows)
        assert rows["space"] == "Next turn" and "n" not in rows
    app.campaign.store.close()


async def test_a_games_own_action_is_rebound_by_its_id(tmp_path: Path, keys_file: Path) -> None:
    """Game actions are bindings with ids too (``party.grip_check`` in a Resolution campaign)."""
    keys_file.write_text('"party.grip_check" = "ctrl+g"\n')
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.help_rows)
        assert rows["ctrl+g"] == "Grip check" and "G" not in rows
        await pilot.press("escape", "ctrl+g")
        await pilot.pause()
        assert app.screen.query_one("#form-title")  # the Grip check's form is open
    app.campaign.store.close()


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ('# mine\n"combat.next_turn" = "space"\n"combat.nxt" = "x"\n', 3, "unknown binding id"),
        ('"combat.damage" = "n"\n', 1, "key 'n' taken twice in the Combat panel"),
        ('[combat]\nnext_turn = "d"\n', 2, "key 'd' taken twice in the Combat panel"),
        ('"combat.next_turn" = "space"\n"combat.damage = "x"\n', 2, "not TOML"),
        ('"combat.next_turn" = 3\n', 1, "must be a key"),
        ('\n"combat.next_turn" = "spcae"\n', 2, "combat.next_turn: 'spcae' is not a key"),
        ('"combat.damage" = ["u", "ctl+u"]\n', 1, "combat.damage: 'ctl+u' is not a key"),
    ],
)
async def test_a_bad_keymap_is_one_line_naming_file_and_line_and_defaults_stay(
    tmp_path: Path, keys_file: Path, text: str, line: int, reason: str
) -> None:
    keys_file.write_text(text)
    before = (keys_file.read_bytes(), os.stat(keys_file).st_mtime_ns)
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        said = [str(n.message) for n in app.notices]
        problems = [m for m in said if "Keymap" in m]
        assert len(problems) == 1 and "\n" not in problems[0]
        assert f"{keys_file} line {line}:" in problems[0] and reason in problems[0]
        assert "default keys are used" in problems[0]
        await pilot.press("i", "alt+r")
        await pilot.pause()
        first = current(app)
        await pilot.press("n")
        await pilot.pause()
        assert current(app) != first
    app.campaign.store.close()
    assert (keys_file.read_bytes(), os.stat(keys_file).st_mtime_ns) == before


def test_keys_lists_every_binding_id_with_its_key(
    keys_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys_file.write_text('[combat]\nnext_turn = "space"\n')
    assert main(["keys"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"keymap: {keys_file} (1 key(s) changed)"
    ids = {b.id for g in km.binding_groups(TablesideApp) for b in g.bindings}
    listed = {line.split()[0] for line in out.splitlines()[1:] if line and line[0] != "["}
    assert ids == listed and "app.undo" in ids and "npcs.import" in ids
    row = next(line for line in out.splitlines() if line.startswith("combat.next_turn "))
    assert row.split()[1] == "space" and row.endswith("(default n)")


def test_extra_bindings_fed_in_are_accepted_and_checked(
    keys_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(km, "_EXTRA", {})
    km.register_bindings("combat", [Binding("y", "game_move", "A game's move", id="game.move")])
    groups = km.binding_groups(TablesideApp)
    assert km.parse_keymap('"game.move" = "f9"', keys_file, groups) == {"game.move": "f9"}
    with pytest.raises(km.KeymapError, match=r"line 1: key 'n' taken twice in the Combat panel"):
        km.parse_keymap('"game.move" = "n"', keys_file, groups)


def test_no_keymap_file_imports_no_panel(tmp_path: Path) -> None:
    def fail() -> list[km.Group]:
        raise AssertionError("panels were imported for a missing keymap")

    assert km.load_keymap(TablesideApp, tmp_path / "none.toml", groups=fail) == ({}, None)


def test_every_default_key_is_a_key_name_so_a_keymap_can_copy_it() -> None:
    """The check that refuses a misspelt key must accept every key the app binds itself."""
    from app.keymap import binding_groups, is_key_name, keys_of
    from app.tui import TablesideApp

    keys = [k for g in binding_groups(TablesideApp) for b in g.bindings for k in keys_of(b, {})]
    assert len(keys) > 60
    assert [k for k in keys if not is_key_name(k)] == []
    assert not any(is_key_name(k) for k in ("spcae", "ctl+x", "alt+", "f5x"))


# --- a keymap that is not a small regular file -------------------------------------------------
def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _huge(path: Path) -> None:
    path.write_text("# a comment\n" * 100_000)


def _folder(path: Path) -> None:
    path.mkdir()


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (_zero, "is not a regular file (a device, pipe or socket)"),
        (_fifo, "is not a regular file (a device, pipe or socket)"),
        (_huge, "is 1 MB, larger than the 256 KB allowed"),
        (_folder, "is a folder, not a file"),
    ],
    ids=["dev-zero-link", "fifo", "huge", "folder"],
)
def test_only_a_small_regular_keymap_file_is_read(
    keys_file: Path, capsys: pytest.CaptureFixture[str], make: object, reason: str
) -> None:
    """Before: a link to /dev/zero grew `tableside keys` to 5 GB, a FIFO hung forever."""
    make(keys_file)  # type: ignore[operator]
    assert main(["keys"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"keymap: {keys_file} (Keymap {keys_file}: {reason}; the default keys are used)"


@pytest.mark.parametrize(
    "text", ["a = " + "[" * 500 + "]" * 500, "x" + ".x" * 400 + " = 1"], ids=["array", "table"]
)
def test_a_keymap_nested_hundreds_deep_is_one_line(keys_file: Path, text: str) -> None:
    """Before: 500 levels of nesting crashed `tableside keys` and the TUI with RecursionError."""
    keys_file.write_text(text + "\n")
    keymap, problem = km.load_keymap(TablesideApp, keys_file)
    assert keymap == {}
    assert problem is not None and "\n" not in problem and keys_file.name in problem
    assert problem.endswith("; the default keys are used")


async def test_the_tui_starts_with_the_default_keys_when_the_keymap_is_a_fifo(
    tmp_path: Path, keys_file: Path
) -> None:
    _fifo(keys_file)
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        problems = [str(n.message) for n in app.notices if "Keymap" in str(n.message)]
        assert problems == [f"Keymap {keys_file}: is not a regular file (a device, pipe or socket)"
                            "; the default keys are used"]
    app.campaign.store.close()

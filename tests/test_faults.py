"""Faults found by abusing the real app: each reproduced, each with its fix.

Hand-edited saves that passed validation and then crashed a panel or ``export``; undo after
saving stopped; exit codes after a crash; a full disk (ENOSPC simulated by replacing
``os.write`` / ``os.replace`` in ``app.store``: no root, no tmpfs needed); read-only saves and
folders; the size limit; edits behind our back that keep size and mtime; backups.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual.app import App

from app import cli, schema
from app import store as store_module
from app.commands.dice import RollDice
from app.state import Campaign, CommandError
from app.store import (
    CampaignStore,
    CorruptSave,
    ExternalChange,
    StoreError,
    backup_paths,
    read_campaign,
)
from app.tui import TablesideApp
from tests.apphelpers import SIZE, demo_app
from tests.conftest import FIXED_NOW


@pytest.fixture(autouse=True)
def _no_terminal_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that should be refused but opens must fail the test, not run the TUI here."""

    def opened(self: TablesideApp, **_: Any) -> None:
        raise AssertionError("the save was opened in the TUI instead of being refused")

    monkeypatch.setattr(TablesideApp, "run", opened)


def _demo_data(tmp_path: Path) -> dict[str, Any]:
    app = demo_app(tmp_path)
    app.campaign.store.close()
    return read_campaign(app.campaign.store.path)


def _one_line_refusal(
    capsys: pytest.CaptureFixture[str], path: Path, fragment: str, *, export: bool = True
) -> None:
    before = path.read_bytes()
    for argv in ([str(path)], ["export", str(path)])[: 2 if export else 1]:
        code = cli.main(argv)
        out, err = capsys.readouterr()
        assert code == 2 and out == "", (argv, out, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
        assert fragment in err, (fragment, err)
    assert path.read_bytes() == before


# --- hand-edited saves that passed validation and crashed a panel or export -------------------
def _meta_elsewhere(data: dict[str, Any]) -> None:
    data["meta"] = {"2": data["meta"]["1"]}


def _twin_ids(data: dict[str, Any]) -> None:
    data["party"]["01"] = dict(data["party"]["1"])


def _concepts(data: dict[str, Any]) -> None:
    data["npcs"]["1"]["concepts"] = [1, None]


def _superscript_id(data: dict[str, Any]) -> None:
    data["npcs"]["\u00b2"] = data["npcs"].pop("2")


def _huge_id(data: dict[str, Any]) -> None:
    data["log"]["99999999999999999999999"] = {"at": "t", "kind": "event", "text": "x"}


DEEP = "[" * 300 + "]" * 300
"""A list nested 300 deep, as JSON text (orjson itself will not write one)."""


def _deep_list(data: dict[str, Any]) -> None:
    data["npcs"]["1"]["source"] = {"deep": "DEEP"}


def _dump(data: dict[str, Any]) -> bytes:
    return orjson.dumps(data).replace(b'"DEEP"', DEEP.encode())


def _attribute(data: dict[str, Any]) -> None:
    data["npcs"]["1"]["brawl"] = 300000


def _party_attribute(data: dict[str, Any]) -> None:
    from rulesets.registry import get

    specs = get(data["meta"]["1"]["ruleset"]).sheet.attributes
    key = specs[0].key if specs else "might"
    data["party"]["1"]["attributes"][key] = 300000


HAND_EDITS: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_meta_elsewhere, "meta: must hold exactly one document, with id 1"),
    (_twin_ids, "party[01]: document id must be a number"),
    (_concepts, "'concepts' must be a list of texts"),
    (_superscript_id, "npcs[\u00b2]: document id must be a number"),
    (_huge_id, "document id must be a number"),
    (_deep_list, "nested more than 32 levels deep"),
    (_attribute, "npcs[1].brawl: must be from -5 to 10"),
    (_party_attribute, "must be from"),
]


@pytest.mark.parametrize(
    ("edit", "fragment"), HAND_EDITS, ids=[e.__name__.strip("_") for e, _ in HAND_EDITS]
)
def test_hand_edits_that_crashed_a_panel_are_refused_with_the_place(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: Callable[[dict[str, Any]], None],
    fragment: str,
) -> None:
    data = _demo_data(tmp_path)
    edit(data)
    path = tmp_path / "edited.json"
    path.write_bytes(_dump(data))
    _one_line_refusal(capsys, path, fragment)


def test_a_save_orjson_cannot_write_back_is_refused_on_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the depth rule lifted, what remains is orjson's own limit (255 levels): such a
    # save used to open, then refuse every change as "a number too large".
    monkeypatch.setattr(schema, "MAX_DEPTH", 10_000)
    data = _demo_data(tmp_path)
    _deep_list(data)
    path = tmp_path / "deep.json"
    path.write_bytes(_dump(data))
    with pytest.raises(CorruptSave, match="cannot be saved back by Tableside"):
        CampaignStore.open(path)
    _one_line_refusal(capsys, path, "cannot be saved back by Tableside (Recursion limit")


# --- undo after saving stopped; exit codes ----------------------------------------------------
async def test_undo_and_redo_from_the_palette_after_saving_stopped(tmp_path: Path) -> None:
    from screens.store_error import StoreErrorScreen

    app = demo_app(tmp_path)
    path = app.campaign.store.path
    async with app.run_test(size=SIZE) as pilot:
        app.apply(RollDice("1d6"))
        app.campaign.store.flush()
        path.write_bytes(path.read_bytes().replace(b"Demo", b"Edit"))
        app.apply(RollDice("1d6"))
        for _ in range(50):
            await pilot.pause(0.05)
            if isinstance(app.screen, StoreErrorScreen):
                break
        assert isinstance(app.screen, StoreErrorScreen)
        for title in ("Undo", "Redo"):
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press(*title, "enter")
            await pilot.pause(0.2)
        assert app.is_running and app.return_code is None
        messages = [n.message for n in app.notices]
        assert messages.count("Saving has stopped; changes are not possible.") >= 2
    with contextlib.suppress(StoreError):
        app.campaign.store.close()


def test_a_crash_in_the_app_is_a_failing_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(self: TablesideApp) -> None:
        raise RuntimeError("boom")

    run = App.run

    def run_headless(self: TablesideApp, **_: Any) -> Any:
        return run(self, headless=True, size=SIZE)

    monkeypatch.setattr(TablesideApp, "on_mount", crash)
    monkeypatch.setattr(TablesideApp, "run", run_headless)
    code = cli.main([str(tmp_path / "c.json")])
    assert code == 1
    # the save is closed properly all the same: the lock is free
    CampaignStore.open(tmp_path / "c.json").close()


# --- a full disk -------------------------------------------------------------------------------
class FullDisk:
    """``os.write`` / ``os.replace`` in ``app.store`` as on a full disk: half a write, then ENOSPC."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = True
        real_write, real_replace = os.write, os.replace

        def write(fd: int, data: Any) -> int:
            if self.full:
                real_write(fd, bytes(data[: len(data) // 2]))
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_write(fd, data)

        def replace(src: Any, dst: Any) -> None:
            if self.full and str(src).endswith(".bak.tmp"):
                raise OSError(errno.ENOSPC, "No space left on device")
            real_replace(src, dst)

        monkeypatch.setattr(store_module.os, "write", write)  # type: ignore[attr-defined]
        monkeypatch.setattr(store_module.os, "replace", replace)  # type: ignore[attr-defined]


def _temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_full_disk_keeps_the_snapshot_removes_partial_files_and_resumes(
    campaign_factory: Callable[..., Campaign], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "RETRY_SECONDS", 0.05)
    campaign = campaign_factory()
    path = campaign.store.path
    before = path.read_bytes()
    disk = FullDisk(monkeypatch)
    campaign.apply(RollDice("1d1+1"))
    with pytest.raises(StoreError, match="the disk is full"):
        campaign.store.flush(timeout=5)
    assert campaign.store.unsaved is not None
    assert _temp_files(path.parent) == [], "a partial temp file was left to eat the space"
    assert path.read_bytes() == before
    campaign.apply(RollDice("1d1+2"))  # the GM keeps playing; the newest snapshot waits
    disk.full = False  # space is freed: the writer tries again by itself, no key pressed
    for _ in range(100):
        if campaign.store.unsaved is None:
            break
        time.sleep(0.05)
    assert campaign.store.unsaved is None
    campaign.store.flush(timeout=5)
    totals = [e["total"] for e in read_campaign(path)["log"].values() if e["kind"] == "roll"]
    assert totals == [2, 3]


def test_a_full_disk_at_open_leaves_no_partial_backup(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = CampaignStore.open(save_path)
    store.db.table("log").insert({"at": "t", "kind": "event", "text": "changed"})
    store.commit()
    store.close()
    FullDisk(monkeypatch)
    CampaignStore.open(save_path).close()  # the backup cannot be made; the GM still plays
    assert _temp_files(save_path.parent) == []
    assert not backup_paths(save_path)[0].exists() or backup_paths(save_path)[0].stat().st_size


async def test_the_banner_shows_unsaved_and_ctrl_r_saves_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "RETRY_SECONDS", 3600)  # only the key retries here
    app = demo_app(tmp_path)
    path = app.campaign.store.path
    async with app.run_test(size=SIZE) as pilot:
        disk = FullDisk(monkeypatch)
        app.apply(RollDice("1d1+4"))
        await pilot.pause(0.3)
        banner = app.screen.query_one("#save-banner")
        assert banner.has_class("-shown")
        assert "NOT SAVED" in str(banner.render()) and "disk is full" in str(banner.render())
        await pilot.press("2")  # every panel shows it
        await pilot.pause()
        assert app.screen.query_one("#save-banner").has_class("-shown")
        disk.full = False
        await pilot.press("ctrl+r")
        await pilot.pause(0.3)
        assert not app.screen.query_one("#save-banner").has_class("-shown")
        assert "Saved again: every change is on disk" in [n.message for n in app.notices]
    app.campaign.store.close()
    assert [e.get("total") for e in read_campaign(path)["log"].values()][-1] == 5


# --- read-only saves and folders ----------------------------------------------------------------
def test_a_read_only_save_is_refused_at_open_and_left_as_is(
    save_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    CampaignStore.open(save_path).close()
    save_path.chmod(0o444)
    _one_line_refusal(capsys, save_path, "read-only (mode 0444)", export=False)
    assert stat.S_IMODE(save_path.stat().st_mode) == 0o444


def test_a_save_made_read_only_while_open_is_not_replaced(
    campaign_factory: Callable[..., Campaign], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "RETRY_SECONDS", 3600)
    campaign = campaign_factory()
    path = campaign.store.path
    path.chmod(0o444)
    before = path.read_bytes()
    campaign.apply(RollDice("1d1"))
    with pytest.raises(StoreError, match=r"read-only \(mode 0444\)"):
        campaign.store.flush(timeout=5)
    assert path.read_bytes() == before
    path.chmod(0o644)
    campaign.store.retry()
    campaign.store.flush(timeout=5)
    assert len(read_campaign(path)["log"]) == 1


def test_a_read_only_folder_with_a_lock_file_says_so_at_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    save = folder / "c.json"
    CampaignStore.open(save).close()
    (folder / "c.json.lock").touch()
    folder.chmod(0o555)
    try:
        _one_line_refusal(capsys, save, "the folder is read-only (mode 0555)", export=False)
    finally:
        folder.chmod(0o755)


# --- the size limit -------------------------------------------------------------------------------
def test_the_app_never_writes_a_save_it_would_refuse_to_open(
    campaign_factory: Callable[..., Campaign], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "MAX_SAVE_BYTES", 4_000)
    campaign = campaign_factory()
    refused = 0
    for _ in range(40):
        try:
            campaign.apply(RollDice("1d6"))
        except CommandError as exc:
            assert "past the" in str(exc)
            refused += 1
    assert refused
    campaign.store.flush()
    path = campaign.store.path
    assert path.stat().st_size <= 4_000
    read_campaign(path)  # it opens: never written past the limit


async def test_the_gm_is_warned_well_before_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.save_watch as save_watch

    monkeypatch.setattr(save_watch, "WARN_SAVE_BYTES", 1_000)
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.apply(RollDice("1d6"))
        app.apply(RollDice("1d6"))
        await pilot.pause()
        warnings = [n for n in app.notices if n.title == "Large save"]
        assert len(warnings) == 1 and "changes are refused" in warnings[0].message
    app.campaign.store.close()
    again = demo_app(tmp_path)  # opened already past the mark: told at once
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [n for n in again.notices if n.title == "Large save"]
    again.campaign.store.close()


# --- quieter faults ---------------------------------------------------------------------------
def test_an_edit_of_the_same_size_with_the_mtime_put_back_is_caught(
    campaign_factory: Callable[..., Campaign],
) -> None:
    campaign = campaign_factory()
    path = campaign.store.path
    info = path.stat()
    theirs = path.read_bytes().replace(b'"name":"somnihil"', b'"name":"SOMNIHIL"')
    assert len(theirs) == info.st_size and theirs != path.read_bytes()
    with open(path, "r+b") as f:  # in place: same inode, same size
        f.write(theirs)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    campaign.apply(RollDice("1d6"))
    with pytest.raises(ExternalChange):
        campaign.store.flush(timeout=5)
    assert path.read_bytes() == theirs
    with contextlib.suppress(StoreError):
        campaign.store.close()


def test_backups_rotate_only_when_the_save_changed(save_path: Path) -> None:
    store = CampaignStore.open(save_path)
    store.db.table("log").insert({"at": "t", "kind": "event", "text": "first"})
    store.commit()
    store.close()
    CampaignStore.open(save_path).close()
    newest = backup_paths(save_path)[0].read_bytes()
    for _ in range(3):
        CampaignStore.open(save_path).close()
    assert backup_paths(save_path)[0].read_bytes() == newest
    assert not backup_paths(save_path)[1].exists(), "unchanged openings pushed out history"


def test_the_campaign_survives_a_random_session_on_a_flaky_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes fail at random; every change made is on disk once the disk is well again."""
    monkeypatch.setattr(store_module, "RETRY_SECONDS", 0.01)
    disk = FullDisk(monkeypatch)
    disk.full = False
    store = CampaignStore.open(tmp_path / "c.json")
    campaign = Campaign(store, rng=random.Random(2), clock=lambda: FIXED_NOW)
    rng = random.Random(9)
    for n in range(60):
        disk.full = rng.random() < 0.5
        campaign.apply(RollDice(f"1d1+{n}"))
    disk.full = False
    store.retry()
    store.flush(timeout=10)
    store.close()
    totals = [e["total"] for e in read_campaign(tmp_path / "c.json")["log"].values()]
    assert totals == [n + 1 for n in range(60)]
    assert _temp_files(tmp_path) == []


# --- a big library is drawn lazily ------------------------------------------------------------
async def test_the_npc_library_formats_only_the_rows_in_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10,000 NPCs: the first visit formats a screenful of rows, not the library (it blocked
    the UI for 1.2-1.6 s building every row; bench/npc_library.py times it)."""
    from app.demo import npc_document
    from widgets import npc_library

    app = demo_app(tmp_path)
    app.campaign.store.db.table("npcs").insert_multiple(
        npc_document(f"Foe {i}", ("horde",), i % 4, 1, 0) for i in range(10_000)
    )
    formatted: list[str] = []
    row_cells = npc_library.row_cells

    def counted(doc: dict[str, Any]) -> tuple[str, ...]:
        formatted.append(doc["name"])
        return row_cells(doc)

    monkeypatch.setattr(npc_library, "row_cells", counted)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await pilot.pause()
        library = app.screen.query_one(npc_library.NpcLibrary)
        assert library.row_count == 10_004
        assert 0 < len(formatted) <= SIZE[1], len(formatted)
        await pilot.press("end")
        await pilot.pause()
        assert "Foe 9999" in formatted and len(formatted) <= 2 * SIZE[1]
        assert app.screen.query_one("#npc-selected").shown is not None  # type: ignore[attr-defined]
        await pilot.press("slash", *"Foe 12", "enter")
        await pilot.pause()
        assert library.row_count == 111  # Foe 12, Foe 120-129, Foe 1200-1299
    app.campaign.store.close()


def test_a_new_save_on_a_full_disk_is_refused_and_nothing_keeps_trying(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    before = set(threading.enumerate())
    FullDisk(monkeypatch)
    with pytest.raises(StoreError, match="the disk is full"):
        CampaignStore.open(tmp_path / "new.json")
    assert not (tmp_path / "new.json").exists() and _temp_files(tmp_path) == []
    assert not [t for t in set(threading.enumerate()) - before if t.name == "tableside-autosave"]

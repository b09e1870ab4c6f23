"""Nothing lost, round three: the journal, one save under two names, sync tools.

Each test here failed on the code before these were fixed (the kill loops are in tests/test_kill.py).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from app import cli
from app import store as store_module
from app.commands.dice import RollDice
from app.state import Campaign, CommandError
from app.store import (
    CampaignStore,
    SaveLocked,
    StoreError,
    journal_path,
    read_campaign,
    read_journal,
)

ROOT = Path(__file__).resolve().parents[1]


def _rolls(path: Path) -> list[str]:
    return [e["who"] for e in read_campaign(path)["log"].values() if e["kind"] == "roll"]


# --- shown means saved: the journal ----------------------------------------------------------
def test_a_change_is_on_disk_when_apply_returns(
    campaign_factory: Callable[..., Campaign], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a change waited for the writer thread; a kill right after the result was shown
    lost it (4 of 664 rolls shown on screen were missing after SIGKILL)."""
    monkeypatch.setattr(store_module, "FOLD_SECONDS", 3600)  # the save file is not rewritten
    campaign = campaign_factory()
    path = campaign.store.path
    before = path.read_bytes()
    campaign.apply(RollDice("1d6", who="shown"))
    assert path.read_bytes() == before, "folded already: this test would prove nothing"
    # What a fresh process reads now, as if this one were killed this instant.
    assert _rolls(path) == ["shown"]
    journal = read_journal(path)
    assert journal is not None and len(journal.changes) == 1


def test_a_flush_with_nothing_to_fold_leaves_the_next_change_to_wait(
    campaign_factory: Callable[..., Campaign],
) -> None:
    """A flush that finds the save file whole returned after asking the writer to fold at
    once; the writer cleared that only when its thread next woke, so a change made before then
    was folded at once, beside the key that made it (seen on a loaded CI machine)."""
    campaign = campaign_factory()
    campaign.store.flush()
    writer = campaign.store._writer
    with writer.cond:  # the writer thread cannot run until the check is done
        campaign.store.flush()  # nothing to fold
        assert not writer._now, "the next change would be folded at once"
    campaign.store.close()


def test_the_save_file_is_rewritten_when_the_changes_pause_or_at_the_latest_after_a_while(
    campaign_factory: Callable[..., Campaign], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rewriting the save file (a big campaign's megabytes joined and hashed) right after a key
    ran beside that key's redraw: it waits for the changes to pause, and changes
    that never pause are still in the file :data:`FOLD_LATEST` after the first."""
    # The pause is long beside the 0.1 s between keys, so a loaded machine (a sleep that
    # oversleeps, an apply that waits for the CPU) still sends every key before it.
    monkeypatch.setattr(store_module, "FOLD_QUIET", 2.0)
    monkeypatch.setattr(store_module, "FOLD_LATEST", 60)
    campaign = campaign_factory()
    campaign.store.flush()
    path = campaign.store.path
    before = path.read_bytes()
    for n in range(3):  # a GM pressing keys: each change comes before the pause
        campaign.apply(RollDice("1d6", who=f"burst {n}"))
        time.sleep(0.1)
    assert path.read_bytes() == before, "rewritten while the changes kept coming"
    assert _rolls(path) == ["burst 0", "burst 1", "burst 2"]  # the journal has them all
    deadline = time.monotonic() + 10
    while path.read_bytes() == before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert path.read_bytes() != before, "not rewritten once the changes paused"
    assert [e["who"] for e in orjson.loads(path.read_bytes())["log"].values()][-3:] == [
        "burst 0",
        "burst 1",
        "burst 2",
    ]

    monkeypatch.setattr(store_module, "FOLD_QUIET", 60)
    monkeypatch.setattr(store_module, "FOLD_LATEST", 0.3)
    before = path.read_bytes()
    deadline = time.monotonic() + 10
    n = 0
    while path.read_bytes() == before and time.monotonic() < deadline:
        campaign.apply(RollDice("1d6", who=f"steady {n}"))  # never a pause of FOLD_QUIET
        n += 1
        time.sleep(0.05)
    assert path.read_bytes() != before, "never rewritten while the changes kept coming"


def test_a_journal_left_by_a_kill_is_folded_into_the_save_on_opening(tmp_path: Path) -> None:
    save = tmp_path / "c.json"
    script = textwrap.dedent("""
        import os, random, sys
        from app import store
        store.FOLD_SECONDS = 3600
        from app.commands.dice import RollDice
        from app.state import Campaign
        from app.store import CampaignStore
        s = CampaignStore.open(sys.argv[1])
        s.flush()
        c = Campaign(s, rng=random.Random(1))
        for n in range(5):
            c.apply(RollDice("1d6", who=f"roll {n}"))
        os.kill(os.getpid(), 9)
    """)
    proc = subprocess.run([sys.executable, "-c", script, str(save)], cwd=ROOT, timeout=60)
    assert proc.returncode == -9
    assert journal_path(save).exists()
    assert _rolls(save) == [f"roll {n}" for n in range(5)]  # export's reader replays it
    store = CampaignStore.open(save)
    assert any("recovered from its journal" in note for note in store.notes)
    store.close()
    assert not journal_path(save).exists()
    assert [e["who"] for e in orjson.loads(save.read_bytes())["log"].values()] == [
        f"roll {n}" for n in range(5)
    ]


def test_a_journal_that_does_not_belong_to_the_save_is_kept_aside(tmp_path: Path) -> None:
    """The save was replaced by another program after a kill: its changes are not replayed
    onto a file they do not belong to, nor thrown away."""
    save = tmp_path / "c.json"
    store = CampaignStore.open(save, name="ours")
    campaign = Campaign(store)
    campaign.apply(RollDice("1d6", who="lost in a kill"))
    journal = journal_path(save).read_bytes()
    store.close()
    theirs = save.read_bytes().replace(b'"ours"', b'"theirs"')
    save.write_bytes(theirs)
    journal_path(save).write_bytes(journal)
    store = CampaignStore.open(save)
    try:
        assert store.data["meta"]["1"]["name"] == "theirs"
        assert [n for n in store.notes if "not applied" in n], store.notes
    finally:
        store.close()
    aside = list(tmp_path.glob("c.json.journal-not-applied-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == journal


def test_a_damaged_journal_line_ends_the_replay(tmp_path: Path) -> None:
    save = tmp_path / "c.json"
    store = CampaignStore.open(save)
    store.flush()
    campaign = Campaign(store)
    for n in range(3):
        campaign.apply(RollDice("1d6", who=f"roll {n}"))
    journal = journal_path(save).read_bytes()
    raw = save.read_bytes()
    store.close()
    save.write_bytes(raw)
    lines = journal.split(b"\n")
    # the first change's line keeps its checksum; the second's text is changed under it
    lines[2] = lines[2].replace(b"roll 1", b"roll X")
    journal_path(save).write_bytes(b"\n".join(lines))
    assert "roll X" not in str(_rolls(save))


# --- one save, two names -----------------------------------------------------------------------
@pytest.mark.parametrize("how", ["hard link", "hard link after saving", "symlink", "dot-dot"])
def test_one_save_under_two_names_is_refused_as_a_second_instance(
    tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: two hard links to one save opened twice, each wrote its own name and the
    campaign split silently."""
    first = tmp_path / "a" / "campaign.json"
    first.parent.mkdir()
    other_folder = tmp_path / "b"
    other_folder.mkdir()
    CampaignStore.open(first).close()
    other = other_folder / "same.json"
    if how == "symlink":
        other.symlink_to(first)
    elif how == "dot-dot":
        other = other_folder / ".." / "a" / "campaign.json"
    else:
        os.link(first, other)
    store = CampaignStore.open(first)
    try:
        if how == "hard link after saving":
            Campaign(store).apply(RollDice("1d6"))  # the first name now holds a new file
            store.flush()
        with pytest.raises(SaveLocked, match="already open in another Tableside") as info:
            CampaignStore.open(other)
        assert f"pid {os.getpid()}" in str(info.value)
        assert cli.main([str(other)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "already open" in err
    finally:
        store.close()
    CampaignStore.open(other).close()  # free again once the first is closed


# --- sync and backup tools ---------------------------------------------------------------------
@pytest.mark.parametrize("tool", ["touch", "identical copy moved over it", "removed"])
def test_what_sync_tools_do_to_the_save_is_not_a_conflict(
    campaign_factory: Callable[..., Campaign], tool: str
) -> None:
    """Before: a touch, or an identical copy moved over the save, stopped saving for good with
    "changed by another program", and the change in progress was lost."""
    campaign = campaign_factory()
    path = campaign.store.path
    campaign.apply(RollDice("1d6", who="before"))
    campaign.store.flush()
    if tool == "touch":
        os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    elif tool == "removed":
        path.unlink()
    else:
        copy = path.with_name("sync-tmp")
        shutil.copy2(path, copy)
        os.replace(copy, path)
    campaign.apply(RollDice("1d6", who="after"))
    campaign.store.flush(timeout=10)
    assert campaign.store.error is None
    assert _rolls(path) == ["before", "after"]
    assert [e["who"] for e in orjson.loads(path.read_bytes())["log"].values()] == [
        "before",
        "after",
    ]


def test_a_removed_save_folder_says_so_and_keeps_the_changes(
    campaign_factory: Callable[..., Campaign], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "RETRY_SECONDS", 3600)  # only the GM's retry, here
    campaign = campaign_factory(path=Path(os.environ["TABLESIDE_SAVES"]) / "sub" / "c.json")
    path = campaign.store.path
    told: list[StoreError | None] = []
    campaign.store.on_status = told.append
    campaign.apply(RollDice("1d6", who="kept"))
    campaign.store.flush()
    shutil.rmtree(path.parent)
    campaign.apply(RollDice("1d6", who="in progress"))  # the change in progress
    with pytest.raises(StoreError) as info:
        campaign.store.flush(timeout=10)
    assert "its folder" in str(info.value) and "was removed" in str(info.value)
    assert "changed by another program" not in str(info.value)
    assert told and told[0] is not None and "was removed" in str(told[0])
    assert campaign.store.error is None  # a passing problem: saving has not stopped
    campaign.store.retry()  # ctrl+r: the folder is made again and the campaign saved there
    campaign.store.flush(timeout=10)
    assert _rolls(path) == ["kept", "in progress"]
    assert told[-1] is None


def test_a_change_is_refused_not_lost_once_saving_has_stopped(
    campaign_factory: Callable[..., Campaign],
) -> None:
    campaign = campaign_factory()
    path = campaign.store.path
    campaign.apply(RollDice("1d6"))
    campaign.store.flush()
    path.write_bytes(path.read_bytes().replace(b"somnihil", b"SOMNIHIL", 1))
    campaign.apply(RollDice("1d6"))
    with contextlib.suppress(StoreError):
        campaign.store.flush(timeout=10)
    assert campaign.store.error is not None
    count = len(campaign.store.data["log"])
    with pytest.raises(StoreError):
        campaign.apply(RollDice("1d6"))
    assert len(campaign.store.data["log"]) == count, "a change kept in memory only"
    with contextlib.suppress(StoreError):
        campaign.store.close()


def test_the_same_save_opened_through_the_cli_while_a_roll_is_journalled(
    campaign_factory: Callable[..., Campaign], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``tableside export`` while the TUI runs: it reads the save and its journal."""
    monkeypatch.setattr(store_module, "FOLD_SECONDS", 3600)
    campaign = campaign_factory()
    campaign.store.flush()
    campaign.apply(RollDice("1d6", who="not folded yet"))
    assert cli.main(["export", str(campaign.store.path)]) == 0
    exported = orjson.loads(capsys.readouterr().out)
    assert [e["who"] for e in exported["log"]] == ["not folded yet"]


def test_a_number_too_large_for_a_save_is_refused_whatever_path_it_came_by(
    campaign_factory: Callable[..., Campaign],
) -> None:
    """The store's last line of defence: a command that writes what the reader would refuse
    (here a round past 2**53, as an import once did) is refused, and nothing is written."""
    from app.commands.combat import NewEncounter
    from app.state import Transaction

    campaign = campaign_factory()
    campaign.apply(NewEncounter("Fight"))
    eid = max(int(k) for k in campaign.store.data["encounters"])

    class Sneaky:
        label = "Sneaky"

        def run(self, tx: Transaction) -> list[str]:
            doc = tx.get("encounters", eid)
            doc["round"] = 2**53 + 1
            tx.put("encounters", eid, doc)
            return ["done"]

    before = orjson.dumps(campaign.store.data)
    with pytest.raises(CommandError, match=r"encounters\[\d+\]\.round: 9007199254740993"):
        campaign.apply(Sneaky())
    assert orjson.dumps(campaign.store.data) == before
    campaign.store.flush()
    read_campaign(campaign.store.path)  # still opens


# --- a full disk while a dialog is open ----------------------------------------------------------
@pytest.mark.parametrize("dialog", ["d", "question_mark", "ctrl+t", "ampersand"])
async def test_the_not_saved_banner_shows_over_every_dialog_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dialog: str
) -> None:
    """Before: 30 rolls shown in the quick-roll dialog on a full disk, nothing saved and no
    warning; the banner appeared only once the dialog closed."""
    from screens.panel import PanelScreen
    from tests.apphelpers import SIZE, demo_app
    from tests.test_faults import FullDisk

    monkeypatch.setattr(store_module, "RETRY_SECONDS", 3600)
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(dialog)
        await pilot.pause()
        assert not isinstance(app.screen, PanelScreen)
        disk = FullDisk(monkeypatch)
        if dialog == "d":
            await pilot.press(*"1d1+4", "enter")  # rolled in the dialog itself
        else:
            app.apply(RollDice("1d1+4"))  # a change made while the dialog is open
        banner = app.screen.query_one("#save-banner")  # no pause: said as the write fails
        assert banner.has_class("-shown") and "NOT SAVED" in str(banner.render())
        assert "disk is full" in str(banner.render())
        await pilot.pause()
        region = banner.region
        assert region.y == 0 and region.width == SIZE[0], region  # over the top row, whole
        disk.full = False
        await pilot.press("ctrl+r")
        for _ in range(50):
            await pilot.pause(0.05)
            if not banner.has_class("-shown"):
                break
        assert not banner.has_class("-shown")
    app.campaign.store.close()
    assert [e["total"] for e in read_campaign(app.campaign.store.path)["log"].values()
            if e["kind"] == "roll"] == [5]


# --- hand-edited saves that opened and then crashed a panel (item 6) ------------------------------
def _edited_demo(tmp_path: Path, game: str, change: Callable[[dict[str, Any]], None]) -> Path:
    from app.demo import write_demo

    path = write_demo(game, tmp_path / f"{game}.json", seed=1)
    data = orjson.loads(path.read_bytes())
    change(data)
    path.write_bytes(orjson.dumps(data))
    return path


def _first(table: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda data: next(iter(data[table].values()))


@pytest.mark.parametrize(
    ("game", "change", "fragment"),
    [
        ("nemron", lambda d: _first("party")(d)["skills"].update(Brawling=5),
         "party[1].skills.Brawling: must be a rank 0..4, not 5"),
        ("nemron", lambda d: _first("party")(d)["skills"].update(Brawling="x"),
         "party[1].skills.Brawling: must be a whole rank 0..4, not 'x'"),
        ("nemron", lambda d: _first("party")(d).update(domains={"Brawling": "Grappler"}),
         "party[1].domains: must be an object of skill: [feature, ...]"),
        ("nemron", lambda d: _first("party")(d)["tracks"]["limbs"].update(head={"hp": "9"}),
         "party[1].tracks.limbs.head: needs whole-number 'hp' and 'max'"),
        ("shadows", lambda d: _first("npcs")(d).update(concepts=["a", "b", "c", "d"]),
         "npcs[1].concepts: an NPC has at most 3 concepts, not 4"),
    ],
    ids=["rank-5", "rank-x", "domains", "limb", "four-concepts"],
)
def test_a_hand_edited_value_a_panel_cannot_read_refuses_the_save_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str,
    change: Callable[[dict[str, Any]], None], fragment: str,
) -> None:
    """Before: rank 5 or "x" crashed the party panel (RuleError: rank must be 0..4), and four
    concepts crashed the NPC panel and `export --format ii`; the save opened."""
    path = _edited_demo(tmp_path, game, change)
    before = path.read_bytes()
    for argv in ([str(path)], ["export", str(path)], ["export", "--format", "ii", str(path)]):
        assert cli.main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1, err
        assert str(path) in err and fragment in err and "Traceback" not in err, err
    assert path.read_bytes() == before


# --- escapes in what is written for a terminal or an editor (item 7) ------------------------------
HOSTILE = "Bob\x1b[2J\x07\x9b31m\u202egnp.exe\u200b"


async def test_the_session_log_written_by_L_makes_every_hidden_character_visible(
    tmp_path: Path,
) -> None:
    """Before: `L` wrote ESC, C1, bidi and BEL raw (export --format markdown cleaned them)."""
    from app.commands.dice import RollDice
    from rulesets.text import has_hidden
    from tests.apphelpers import SIZE, demo_app

    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        app.apply(RollDice("1d1+4", who=HOSTILE))
        await pilot.press("2")  # the tray
        await pilot.pause()
        await pilot.press("L")
        await pilot.pause()
    app.campaign.store.close()
    written = next(tmp_path.rglob("*-session-*.md")).read_text(encoding="utf-8")
    assert "Bob␛\\[2J␇⟨U+009B⟩31m⟨U+202E⟩gnp.exe⟨U+200B⟩" in written
    assert not any(has_hidden(line) for line in written.splitlines())


def test_where_makes_a_hostile_saves_folder_visible(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Before: `tableside --where` printed $TABLESIDE_SAVES raw (an ESC reached the terminal)."""
    monkeypatch.setenv("TABLESIDE_SAVES", str(tmp_path / "x\x1b]0;pwned\x07"))
    assert cli.main(["--where"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "x␛]0;pwned␇" in out


# --- noise (item 9) -------------------------------------------------------------------------------
def test_import_5e_of_a_file_of_another_format_says_the_count_not_every_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: 41,611 `skipped #n` lines for a big file of another format."""
    other = tmp_path / "other.json"
    other.write_bytes(orjson.dumps([{"title": f"song {n}", "bpm": n} for n in range(20_000)]))
    assert cli.main(["import-5e", str(other)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 5, err
    assert err[0].startswith("tableside import-5e: skipped #")
    assert err[-1] == "tableside import-5e: skipped 19,996 more entries"


def test_a_fifo_in_the_journals_place_or_as_the_last_campaign_does_not_hang_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Variants of the keymap's FIFO: every small file Tableside reads beside a save."""
    from app import paths
    from app.demo import write_demo

    path = write_demo("shadows", tmp_path / "fifo.json", seed=1)
    os.mkfifo(journal_path(path))
    journal = read_journal(path)
    assert journal is not None and journal.unreadable and not journal.changes
    monkeypatch.setenv("TABLESIDE_SAVES", str(tmp_path))
    os.mkfifo(tmp_path / paths.LAST_FILE)
    assert paths.last_campaign() is None

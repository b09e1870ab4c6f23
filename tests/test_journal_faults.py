"""Nothing lost, round four: the journal under faults, and the files around a save.

Each test here failed on the code before: a replay that could not grow the journal truncated
it, damaged journals were dropped in silence, journals that cannot be written raised
tracebacks, a second kill during recovery read as another program's change, new saves ignored
the umask, and links or a FIFO planted beside a save were followed.
"""

from __future__ import annotations

import errno
import os
import random
import resource
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from app import store as store_module
from app.commands.dice import RollDice
from app.export import write_session_log
from app.state import Campaign
from app.store import (
    CampaignStore,
    journal_path,
    lock_path,
    owner_path,
    read_campaign,
)

ROOT = Path(__file__).resolve().parents[1]
ROLLS = [f"roll {n}" for n in range(5)]


def _rolls(data: dict[str, object]) -> list[str]:
    log = data["log"]
    assert isinstance(log, dict)
    return [e["who"] for e in log.values() if e["kind"] == "roll"]


def _killed_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, bytes, bytes]:
    """A save and the journal a kill left beside it: five rolls the save file lacks.
    Returns the save's path, its bytes and the journal's bytes."""
    for name in ("FOLD_SECONDS", "FOLD_QUIET", "FOLD_LATEST"):
        monkeypatch.setattr(store_module, name, 3600.0)  # the save file is not rewritten
    save = tmp_path / "c.json"
    store = CampaignStore.open(save)
    campaign = Campaign(store, rng=random.Random(1))
    for who in ROLLS:
        campaign.apply(RollDice("1d6", who=who))
    raw, journal = save.read_bytes(), journal_path(save).read_bytes()
    store.close()  # as if killed: the files put back as the kill left them
    monkeypatch.undo()
    save.write_bytes(raw)
    journal_path(save).write_bytes(journal)
    assert _rolls(read_campaign(save)) == ROLLS
    return save, raw, journal


def _cli(*argv: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=cap,
    )


# --- a replay that cannot grow the journal -----------------------------------------------------
def test_a_replay_that_cannot_grow_the_journal_keeps_every_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``RLIMIT_FSIZE`` at the journal's size: the fold line cannot be appended, nor the save
    written. Before: the failed append truncated the journal to 0 bytes, every change lost."""
    save, raw, journal = _killed_session(tmp_path, monkeypatch)
    done = _cli("clock", str(save), limit=len(journal))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "not saved" in done.stderr, done.stderr
    assert journal_path(save).read_bytes() == journal
    assert save.read_bytes() == raw
    assert _rolls(read_campaign(save)) == ROLLS
    # With room again, the next opening folds them in.
    CampaignStore.open(save).close()
    assert not journal_path(save).exists()
    assert _rolls(read_campaign(save)) == ROLLS


# --- damaged journals --------------------------------------------------------------------------
def _flip_head_bit(journal: bytes) -> bytes:
    at = journal.index(b'"base":"') + 12  # inside the digest
    return journal[:at] + bytes([journal[at] ^ 0x01]) + journal[at + 1 :]


def _lines(journal: bytes) -> list[bytes]:
    return journal.split(b"\n")[:-1]


def _join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def _damage_line_3(journal: bytes) -> bytes:
    lines = _lines(journal)
    lines[3] = lines[3].replace(b"roll 2", b"roll X")
    return _join(lines)


def _repeat_line_2(journal: bytes) -> bytes:
    lines = _lines(journal)
    return _join([*lines[:3], lines[2], *lines[3:]])


def _swap_lines_3_4(journal: bytes) -> bytes:
    lines = _lines(journal)
    lines[3], lines[4] = lines[4], lines[3]
    return _join(lines)


DAMAGE: dict[str, tuple[Callable[[bytes], bytes], int, int, bool]] = {
    # how: (damage, changes recovered, lines not applied, kept aside)
    "a flipped bit in the head line": (_flip_head_bit, 5, 0, True),
    "CRLF line ends": (lambda j: j.replace(b"\n", b"\r\n"), 5, 0, False),
    "a byte-order mark": (lambda j: b"\xef\xbb\xbf" + j, 5, 0, False),
    "a damaged middle line": (_damage_line_3, 2, 3, True),
    "a duplicated middle line": (_repeat_line_2, 5, 0, True),
    "two middle lines swapped": (_swap_lines_3_4, 2, 3, True),
}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_journal_replays_what_is_proven_and_keeps_the_rest_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    damage, recovered, unproven, aside = DAMAGE[how]
    save, _, journal = _killed_session(tmp_path, monkeypatch)
    damaged = damage(journal)
    journal_path(save).write_bytes(damaged)
    assert _rolls(read_campaign(save)) == ROLLS[:recovered]  # export and the players' view
    store = CampaignStore.open(save)
    try:
        assert _rolls(store.data) == ROLLS[:recovered]
        kept = sorted(tmp_path.glob("c.json.journal-damaged-*"))
        if aside:
            assert len(kept) == 1 and kept[0].read_bytes() == damaged
            said = [n for n in store.notes if kept[0].name in n]
            assert said, store.notes
            assert f"{recovered} change(s) recovered, {unproven} line(s)" in said[0]
        else:
            assert kept == []
            assert any("5 change(s)" in n for n in store.notes), store.notes
    finally:
        store.close()
    assert _rolls(read_campaign(save)) == ROLLS[:recovered]
    assert not journal_path(save).exists()


def test_a_journal_too_large_to_be_ours_is_kept_aside_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save, raw, journal = _killed_session(tmp_path, monkeypatch)
    with journal_path(save).open("r+b") as fh:
        fh.truncate(130 * 2**20)  # sparse: 130 MB without writing them
    store = CampaignStore.open(save)
    try:
        kept = list(tmp_path.glob("c.json.journal-not-applied-*"))
        assert len(kept) == 1 and kept[0].stat().st_size == 130 * 2**20
        assert any("130 MB" in n and kept[0].name in n for n in store.notes), store.notes
    finally:
        store.close()


# --- journals that cannot be written -----------------------------------------------------------
def test_a_journal_that_is_a_folder_opens_the_save_read_only_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save, raw, _ = _killed_session(tmp_path, monkeypatch)
    journal_path(save).unlink()
    journal_path(save).mkdir()
    shown = _cli("clock", str(save))
    assert shown.returncode == 0 and "Now:" in shown.stdout, shown.stderr
    advanced = _cli("clock", str(save), "--advance", "1h")
    assert advanced.returncode == 2 and "Traceback" not in advanced.stderr, advanced.stderr
    assert "Read-only: c.json.journal is a folder" in advanced.stderr
    store = CampaignStore.open(save)
    try:
        assert store.read_only is not None and "is a folder" in store.read_only
        with pytest.raises(store_module.StoreError, match="Read-only: c.json.journal is a folder"):
            Campaign(store).apply(RollDice("1d6", who="refused"))
    finally:
        store.close()
    assert journal_path(save).is_dir() and save.read_bytes() == raw


def test_a_read_only_journal_is_replayed_into_memory_and_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mode 0444 (root ignores it for writing; its owner asked for it all the same)."""
    save, raw, journal = _killed_session(tmp_path, monkeypatch)
    journal_path(save).chmod(0o444)
    store = CampaignStore.open(save)
    try:
        assert _rolls(store.data) == ROLLS
        assert store.read_only is not None and "c.json.journal" in store.read_only
        assert "5 change(s)" in store.read_only
    finally:
        store.close()
    assert journal_path(save).read_bytes() == journal and save.read_bytes() == raw


# --- a second kill during recovery -------------------------------------------------------------
def test_a_kill_during_recovery_after_a_torn_line_is_recovery_not_another_programs_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first kill cut a line short; the recovery folding the journal is killed once the
    save is written. Before: its fold line followed the torn piece, no reader found it, and
    the next opening called the save "changed by another program"."""
    save, _, journal = _killed_session(tmp_path, monkeypatch)
    journal_path(save).write_bytes(journal + b'{"seq":6,"docs":[["log","7"')

    def killed(self: CampaignStore) -> None:
        raise KeyboardInterrupt  # the kill, once the save file holds the fold

    with monkeypatch.context() as patch:
        patch.setattr(CampaignStore, "_drop_journal", killed)
        with pytest.raises(KeyboardInterrupt):
            CampaignStore.open(save)
    store = CampaignStore.open(save)
    try:
        assert not [n for n in store.notes if "another program" in n], store.notes
        assert _rolls(store.data) == ROLLS
    finally:
        store.close()
    assert list(tmp_path.glob("c.json.journal-*")) == []


# --- permissions and side files ----------------------------------------------------------------
@pytest.mark.parametrize("umask", [0o077, 0o022])
def test_new_saves_and_session_logs_are_for_the_gm_alone(tmp_path: Path, umask: int) -> None:
    """They hold the players' hand codes. Before: 0644 whatever the umask."""
    old = os.umask(umask)
    try:
        store = CampaignStore.open(tmp_path / "c.json")
        try:
            Campaign(store).apply(RollDice("1d6", who="a roll"))
            log = write_session_log(store.data, store.path)
        finally:
            store.close()
    finally:
        os.umask(old)
    for path in (tmp_path / "c.json", log):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE(lock_path(tmp_path / "c.json").stat().st_mode) == 0o644 & ~umask


@pytest.mark.parametrize("side", ["owner", "lock", "journal temp"])
def test_a_link_planted_at_a_side_files_name_is_not_written_through(
    tmp_path: Path, side: str
) -> None:
    save = tmp_path / "c.json"
    CampaignStore.open(save).close()
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    planted = {
        "owner": owner_path(save),
        "lock": lock_path(save),
        "journal temp": tmp_path / f".c.json.journal.{os.getpid()}.tmp",
    }[side]
    if side != "journal temp":
        planted.unlink(missing_ok=True)
        planted.symlink_to(victim)
    try:
        store = CampaignStore.open(save)
    except store_module.StoreError as exc:
        assert side == "lock" and "not a regular file" in str(exc)
    else:
        if side == "journal temp":  # leftover temp files are cleaned at opening: planted now
            planted.symlink_to(victim)
        Campaign(store).apply(RollDice("1d6", who="a roll"))  # starts a journal
        store.close()
    assert victim.read_bytes() == b"precious"


def test_a_fifo_at_the_owner_files_name_does_not_block_opening(tmp_path: Path) -> None:
    save = tmp_path / "c.json"
    CampaignStore.open(save).close()
    os.mkfifo(owner_path(save))
    script = "import sys; from app.store import CampaignStore; CampaignStore.open(sys.argv[1]).close()"
    done = subprocess.run(
        [sys.executable, "-c", script, str(save)], cwd=ROOT, timeout=30, capture_output=True
    )
    assert done.returncode == 0, done.stderr


def test_a_campaign_folder_others_can_write_is_named_in_a_warning(tmp_path: Path) -> None:
    folder = tmp_path / "open-to-all"
    folder.mkdir()
    folder.chmod(0o777)
    store = CampaignStore.open(folder / "c.json")
    try:
        assert any(str(folder) in n and "other users" in n for n in store.notes), store.notes
    finally:
        store.close()
    folder.chmod(0o700)
    store = CampaignStore.open(folder / "c.json")
    try:
        assert not [n for n in store.notes if "other users" in n]
    finally:
        store.close()


async def test_the_tui_on_a_journal_it_cannot_write_says_read_only_and_refuses_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.tui import TablesideApp

    save, raw, journal = _killed_session(tmp_path, monkeypatch)
    journal_path(save).chmod(0o444)
    app = TablesideApp(Campaign(CampaignStore.open(save)))
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            banner = str(app.screen.query_one("#save-banner").render())
            assert "Read-only: c.json.journal is read-only" in banner, banner
            await pilot.press("d", *"1d6", "enter")
            await pilot.pause()
            assert app.is_running and _rolls(app.campaign.store.data) == ROLLS
    finally:
        app.campaign.store.close()
    assert journal_path(save).read_bytes() == journal and save.read_bytes() == raw


async def test_the_tui_opened_on_a_full_disk_shows_the_recovered_changes_and_the_banner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the failed fold line truncated the journal, and the opening raised."""
    from app.tui import TablesideApp

    save, raw, journal = _killed_session(tmp_path, monkeypatch)
    real_write = os.write
    full = [True]

    def write(fd: int, data: bytes) -> int:
        if full[0]:
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(store_module, "RETRY_SECONDS", 3600.0)  # only the GM's ctrl+r
    monkeypatch.setattr(os, "write", write)
    app = TablesideApp(Campaign(CampaignStore.open(save)))
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            banner = str(app.screen.query_one("#save-banner").render())
            assert "disk is full" in banner, banner
            assert journal_path(save).read_bytes() == journal and save.read_bytes() == raw
            assert _rolls(app.campaign.store.data) == ROLLS
            full[0] = False
            await pilot.press("ctrl+r")
            app.campaign.store.flush(timeout=10)
    finally:
        app.campaign.store.close()
    assert not journal_path(save).exists() and _rolls(read_campaign(save)) == ROLLS

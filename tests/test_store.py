"""The campaign store: atomic writes, one instance per save, damaged saves left untouched."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import orjson
import pytest

from app import schema
from app.store import (
    CampaignStore,
    CorruptSave,
    ExternalChange,
    SaveLocked,
    atomic_write,
    backup_paths,
    newest_good_backup,
    read_campaign,
)

ROOT = Path(__file__).resolve().parents[1]


def test_new_save_is_written_with_schema_version(save_path: Path) -> None:
    store = CampaignStore.open(save_path, ruleset="nemron", name="Ash")
    store.close()
    data = orjson.loads(save_path.read_bytes())
    assert data["meta"]["1"] == {
        "schema_version": schema.SCHEMA_VERSION,
        "ruleset": "nemron",
        "name": "Ash",
        "clock": {
            "seconds": 0, "start_hour": 8, "next_id": 1, "players": False,
            "effects": [], "checks": [],
        },
    }


def test_atomic_write_keeps_permissions_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "c.json"
    target.write_bytes(b"{}")
    os.chmod(target, 0o600)
    atomic_write(target, b'{"a": 1}')
    assert target.read_bytes() == b'{"a": 1}'
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]


def test_atomic_write_does_not_write_through_a_link_planted_at_its_temp_name(
    tmp_path: Path,
) -> None:
    """In a folder others can write to, a link at the temp file's (guessable) name must not
    make the write land on the file it points at."""
    import threading

    target, victim = tmp_path / "c.json", tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    planted = tmp_path / f".c.json.{os.getpid()}.{threading.get_ident()}.tmp"
    planted.symlink_to(victim)
    atomic_write(target, b'{"a": 1}')  # the link is removed, a file of our own made
    assert victim.read_bytes() == b"precious"
    assert target.read_bytes() == b'{"a": 1}' and not planted.exists()


def test_leftover_temp_files_are_cleaned_on_open(save_path: Path) -> None:
    CampaignStore.open(save_path).close()
    junk = save_path.with_name(f".{save_path.name}.999.1.tmp")
    junk.write_bytes(b"half a write")
    CampaignStore.open(save_path).close()
    assert not junk.exists()


def test_commits_are_written_in_order_and_flushed_on_close(save_path: Path) -> None:
    store = CampaignStore.open(save_path)
    table = store.db.table("log")
    for i in range(50):
        table.insert({"at": "t", "kind": "event", "text": str(i)})
        store.commit()
    store.close()
    data = read_campaign(save_path)
    assert [d["text"] for d in data["log"].values()] == [str(i) for i in range(50)]


def test_second_instance_is_refused_naming_the_holder(save_path: Path) -> None:
    store = CampaignStore.open(save_path)
    try:
        with pytest.raises(SaveLocked) as info:
            CampaignStore.open(save_path)
        assert str(save_path) in str(info.value)
        assert f"pid {os.getpid()}" in str(info.value)
    finally:
        store.close()
    CampaignStore.open(save_path).close()  # released: opens again


def test_second_process_is_refused_with_a_clear_message(save_path: Path) -> None:
    store = CampaignStore.open(save_path)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "app", "export", str(save_path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0  # export only reads; it never needs the lock
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                textwrap.dedent(f"""
                from app.store import CampaignStore, SaveLocked
                try:
                    CampaignStore.open({str(save_path)!r})
                except SaveLocked as exc:
                    print(exc)
                    raise SystemExit(3)
            """),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 3
        assert "already open in another Tableside" in proc.stdout
        assert str(save_path) in proc.stdout
    finally:
        store.close()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "is empty"),
        (b'{"meta": {"1": {"schema_version": 2, "ruleset": "somnihil"', "not valid JSON"),
        (b"[1, 2, 3]", "must be an object of tables"),
        (
            b'{"meta": {"1": {"schema_version": 99, "ruleset": "somnihil", "name": "x"}}}',
            "newer than",
        ),
        (
            b'{"meta": {"1": {"schema_version": 2, "ruleset": "chess", "name": "x"}}}',
            "'chess' is not an installed game",
        ),
        (
            b'{"meta": {"1": {"schema_version": 2, "ruleset": "somnihil", "name": "x"}},'
            b' "party": {"1": {"name": 5}}}',
            "party[1]: 'name' must be text",
        ),
        (
            b'{"meta": {"1": {"schema_version": 2, "ruleset": "somnihil", "name": "x"}},'
            b' "party": {"1": {"name": "A", "resources": {"hp": {"current": "lots", "max": 3}}}}}',
            "party[1].resources.hp",
        ),
    ],
)
def test_corrupt_save_is_reported_and_left_byte_identical(
    save_path: Path, content: bytes, reason: str
) -> None:
    save_path.write_bytes(content)
    with pytest.raises(CorruptSave) as info:
        CampaignStore.open(save_path)
    assert reason in str(info.value)
    assert str(save_path) in str(info.value)
    assert save_path.read_bytes() == content
    CampaignStore.open(save_path.with_name("other.json")).close()  # the lock was released


def test_folder_in_place_of_save_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "c.json"
    folder.mkdir()
    with pytest.raises(CorruptSave, match="is a folder"):
        CampaignStore.open(folder)


def test_backups_rotate_and_newest_good_one_is_found(save_path: Path) -> None:
    store = CampaignStore.open(save_path, name="first")
    store.close()
    for session in range(4):
        store = CampaignStore.open(save_path)
        store.db.table("log").insert({"at": "t", "kind": "event", "text": f"session {session}"})
        store.commit()
        store.close()
    assert all(p.exists() for p in backup_paths(save_path))
    save_path.write_bytes(b"garbage")
    assert newest_good_backup(save_path) == backup_paths(save_path)[0]


def test_external_change_stops_the_writer_instead_of_clobbering(save_path: Path) -> None:
    store = CampaignStore.open(save_path)
    other = b'{"meta": {"1": {"schema_version": 2, "ruleset": "somnihil", "name": "theirs"}}}'
    save_path.write_bytes(other)
    os.utime(save_path, ns=(1, 1))
    store.db.table("log").insert({"at": "t", "kind": "event", "text": "ours"})
    store.commit()
    with pytest.raises(ExternalChange):
        store.flush(timeout=10)
    with pytest.raises(ExternalChange):
        store.close()
    assert save_path.read_bytes() == other


def test_migration_from_v1_fixture(tmp_path: Path) -> None:
    fixture = Path(__file__).parent / "fixtures" / "campaign_v1.json"
    save = tmp_path / "old.json"
    save.write_bytes(fixture.read_bytes())
    store = CampaignStore.open(save)
    try:
        meta = store.db.table("meta").get(doc_id=1)
        assert meta is not None and meta["schema_version"] == schema.SCHEMA_VERSION
        entry = next(iter(store.data["log"].values()))
        assert entry["kind"] == "roll" and entry["who"] == "GM"
    finally:
        store.close()

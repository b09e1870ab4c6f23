"""GEN-07 torture: two instances, damaged and hand-edited saves, and migration of every schema.

Extends tests/test_store.py and tests/test_cli.py (which hold one example of each) to loops:
each damaged save goes through the real launch path (``tableside SAVE``, with the TUI's ``run``
replaced by a tripwire) and ``tableside export``; both must answer with one line naming the
file and the reason, exit 2, and leave the file byte-identical with its mtime unchanged.
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from app import cli, schema
from app.launch import LaunchError, open_campaign
from app.store import CampaignStore, SaveLocked, StoreError, export_campaign, read_campaign

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
V2 = FIXTURES / "campaign_v2.json"
NEWEST = FIXTURES / "campaign_v3.json"
"""A shadows demo campaign after 14 steps of the kill-loop session (tests/killsession.py),
written by schema v2: every table non-empty. Frozen: never regenerate it after a v3."""


@pytest.fixture(autouse=True)
def _no_tui(monkeypatch: pytest.MonkeyPatch) -> None:
    """If a damaged save were ever accepted, ``tableside SAVE`` would start the TUI: fail."""

    def tripwire(self: object, *args: object, **kwargs: object) -> None:
        raise AssertionError("the TUI started on a save that should have been refused")

    monkeypatch.setattr("app.tui.TablesideApp.run", tripwire)


def _state(path: Path) -> tuple[bytes, int] | None:
    if path.is_symlink() or not path.is_file():
        return None
    return path.read_bytes(), path.stat().st_mtime_ns


def _files(folder: Path) -> set[str]:
    """What lies beside the save, bar the lock file a refused open may leave (empty)."""
    return {p.name for p in folder.iterdir() if not p.name.endswith(".lock")}


def _refused(capsys: pytest.CaptureFixture[str], path: Path, fragment: str) -> None:
    """The launch path and export both refuse ``path`` cleanly and touch nothing."""
    before, files = _state(path), _files(path.parent)
    for argv in ([str(path)], ["export", str(path)]):
        code = cli.main(argv)
        out, err = capsys.readouterr()
        line = err.strip()
        assert code == 2 and out == "", (argv, out, err)
        assert len(line.splitlines()) == 1 and "Traceback" not in line, err
        assert str(path) in line and fragment in line, (fragment, line)
    assert _state(path) == before, "the save changed"
    assert _files(path.parent) == files, "files appeared or vanished beside the save"


def _write(folder: Path, name: str, content: bytes) -> Path:
    path = folder / name
    path.write_bytes(content)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # an mtime a rewrite could not keep
    return path


# --- migration -----------------------------------------------------------------------------------
def _fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("campaign_v*.json"))


def test_gen07_there_is_a_fixture_for_every_schema_version() -> None:
    versions = {orjson.loads(p.read_bytes())["meta"]["1"]["schema_version"] for p in _fixtures()}
    assert versions == set(range(1, schema.SCHEMA_VERSION + 1)), (
        "bumping SCHEMA_VERSION needs a fixture written by the new version "
        "(tests/fixtures/campaign_v<N>.json)"
    )


def test_gen07_current_fixture_has_every_table_filled() -> None:
    data = read_campaign(NEWEST)
    assert all(data[table] for table in schema.TABLES), {t: len(data[t]) for t in schema.TABLES}


@pytest.mark.parametrize("fixture", _fixtures(), ids=lambda p: p.stem)
def test_gen07_every_schema_version_opens_and_round_trips(fixture: Path, tmp_path: Path) -> None:
    original = fixture.read_bytes()
    save = tmp_path / fixture.name
    save.write_bytes(original)
    first = read_campaign(save)
    assert next(iter(first["meta"].values()))["schema_version"] == schema.SCHEMA_VERSION
    store = CampaignStore.open(save)
    try:
        assert store.data == first
        store.commit()  # written back by this version
    finally:
        store.close()
    again = read_campaign(save)
    assert again == first
    assert export_campaign(save)["schema_version"] == schema.SCHEMA_VERSION
    reopened = CampaignStore.open(save)
    reopened.close()
    assert fixture.read_bytes() == original


# --- two instances -------------------------------------------------------------------------------
HOLDER = textwrap.dedent("""
    import random, sys
    from app.commands.dice import RollDice
    from app.state import Campaign
    from app.store import CampaignStore
    store = CampaignStore.open(sys.argv[1])
    campaign = Campaign(store, rng=random.Random(1))
    campaign.apply(RollDice("1d6", who="holder before"))
    store.flush()
    print("holding", flush=True)
    assert sys.stdin.readline().strip() == "write"
    campaign.apply(RollDice("1d6", who="holder after"))
    store.close()
    print("closed", flush=True)
""")


def test_gen07_a_save_held_by_another_process_is_refused_100_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "held.json"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(save)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().strip() == "holding", holder.stderr
        before = _state(save)
        who = f"pid {holder.pid}"
        attempts: list[Callable[[], object]] = [
            lambda: CampaignStore.open(save),
            lambda: open_campaign(save),
            lambda: CampaignStore.open(save, create=False),
        ]
        for attempt in range(100):
            if attempt % 4 == 3:  # the real command line, in-process
                assert cli.main([str(save)]) == 2
                err = capsys.readouterr().err.strip()
                assert len(err.splitlines()) == 1
                message = err
            else:
                with pytest.raises(SaveLocked) as info:
                    attempts[attempt % 4]()
                message = str(info.value)
            assert str(save) in message and who in message, message
            assert "already open in another Tableside" in message
            assert _state(save) == before
        for _ in range(3):  # and as a separate process, the way a GM would start a second one
            proc = subprocess.run(
                [sys.executable, "-m", "app", str(save)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert proc.returncode == 2 and proc.stdout == ""
            assert len(proc.stderr.strip().splitlines()) == 1 and who in proc.stderr
        assert _state(save) == before
        holder.stdin.write("write\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "closed", holder.stderr
        assert holder.wait(timeout=30) == 0
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    whos = [entry.get("who") for entry in read_campaign(save)["log"].values()]
    assert "holder before" in whos and "holder after" in whos
    CampaignStore.open(save).close()  # released when the holder closed


# --- damaged and hand-edited saves ---------------------------------------------------------------
def _v2_bytes() -> bytes:
    return V2.read_bytes().rstrip()


def test_gen07_truncated_saves_are_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _v2_bytes()
    rng = random.Random(7)
    offsets = [0, 1, len(good) - 1, *rng.sample(range(2, len(good) - 1), 27)]
    for offset in offsets:
        path = _write(tmp_path, f"cut-{offset}.json", good[:offset])
        _refused(capsys, path, "is empty" if offset == 0 else "is not valid JSON")


def test_gen07_flipped_bytes_are_refused_or_still_a_valid_campaign(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _v2_bytes()
    rng = random.Random(8)
    refused = 0
    for n in range(30):
        damaged = bytearray(good)
        at = rng.randrange(len(damaged))
        damaged[at] ^= rng.randrange(1, 256)
        path = _write(tmp_path, f"flip-{n}.json", bytes(damaged))
        try:
            read_campaign(path)
        except StoreError:
            refused += 1
            _refused(capsys, path, "")
        else:  # a flip inside a name or a number can leave a valid campaign: it must open
            assert export_campaign(path)["ruleset"] == "shadows"
    assert refused >= 15, refused


def _mutations() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    """(id, change to a valid campaign, fragment of the refusal) for every field the app reads."""
    wrong: dict[str, object] = {
        "text": 5,
        "int": "7",
        "int?": "7",
        "text?": 5,
        "bool": "yes",
        "list": {"a": 1},
        "texts": [1, None],  # the NPC concepts that crashed the panel
        "ints": [1, "2"],
        "object": [1],
    }
    cases: list[tuple[str, Callable[[dict[str, Any]], None], str]] = []

    def setter(table: str, key: str, value: object) -> Callable[[dict[str, Any]], None]:
        def change(data: dict[str, Any]) -> None:
            next(iter(data[table].values()))[key] = value

        return change

    for table, fields in schema.FIELDS.items():
        for key, kind in fields.items():
            cases.append((f"{table}.{key}", setter(table, key, wrong[kind]), f"'{key}' must be"))
    for table in ("party", "npcs", "encounters"):
        cases.append((f"{table}.name", setter(table, "name", None), "'name' must be text"))
    for key in ("at", "kind"):
        cases.append((f"log.{key}", setter("log", key, ["x"]), f"'{key}' must be text"))

    def nested(path: str, value: object, fragment: str) -> None:
        table, *keys = path.split(".")

        def change(data: dict[str, Any]) -> None:
            doc = next(iter(data[table].values()))
            if table == "encounters":
                doc = data[table][str(data["meta"]["1"]["current_encounter"])]
            for key in keys[:-1]:
                doc = doc[int(key)] if isinstance(doc, list) else doc[key]
            if isinstance(doc, list):
                doc[int(keys[-1])] = value
            else:
                doc[keys[-1]] = value

        cases.append((path, change, fragment))

    combatant_fields: dict[str, object] = {
        "side": "ghost",
        "initiative": [1],
        "quickness": "fast",
        "ap": [1],
        "economy": [1],
        "conditions": {"a": 1},
        "stats": [1],
        "turn_round": "x",
        "ended_round": "x",
    }
    for key, value in combatant_fields.items():
        nested(f"encounters.combatants.0.{key}", value, "cannot be read as an encounter")
    nested("encounters.model", "chess", "cannot be read as an encounter")
    nested("encounters.combatants.0", "Goblin", "combatants[0]: must be an object")
    nested("party.attributes.body", "strong", "attributes.body")
    nested("party.resources.health", {"current": 3}, "resources.health")
    nested("party.lists.major_arcana", "The Fool", "lists.major_arcana")
    nested("decks.draw_pile", [{"deck": "minor", "rank": "Ace", "suit": "Nope"}], "deck")
    nested("decks.discard", [], "not whole")
    nested("decks.deck", "jokers", "unknown deck")
    return cases


@pytest.mark.parametrize(
    ("change", "fragment"),
    [(c, f) for _, c, f in _mutations()],
    ids=[i for i, _, _ in _mutations()],
)
def test_gen07_wrong_types_in_every_table_are_refused_naming_the_place(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[dict[str, Any]], None],
    fragment: str,
) -> None:
    data = orjson.loads(V2.read_bytes())
    edited = copy.deepcopy(data)
    change(edited)
    assert edited != data
    path = _write(tmp_path, "edited.json", orjson.dumps(edited))
    _refused(capsys, path, fragment)


def _meta(**fields: object) -> bytes:
    return orjson.dumps({"meta": {"1": fields}})


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"{}", "meta: table missing or empty"),
        (b'{"meta": {}}', "meta: table missing or empty"),
        (b'{"meta": []}', "meta: table missing or empty"),
        (b'{"meta": {"1": 5}}', "meta: document must be an object"),
        (_meta(ruleset="shadows", name="x"), "schema_version: missing"),
        (_meta(schema_version=2, name="x"), "meta.ruleset"),
        (_meta(schema_version=2, ruleset="shadows"), "'name' must be text"),
        (_meta(schema_version=schema.SCHEMA_VERSION + 1, ruleset="shadows", name="x"), "newer than this Tableside"),
        (_meta(schema_version=10**6, ruleset="shadows", name="x"), "upgrade Tableside"),
        (_meta(schema_version=0, ruleset="shadows", name="x"), "not a known version"),
        (_meta(schema_version=-1, ruleset="shadows", name="x"), "not a known version"),
        (_meta(schema_version="2", ruleset="shadows", name="x"), "not a whole number"),
        (_meta(schema_version=2.5, ruleset="shadows", name="x"), "not a whole number"),
        (_meta(schema_version=True, ruleset="shadows", name="x"), "not a whole number"),
        (
            b'{"meta": {"1": {"schema_version": 2, "ruleset": "shadows", "name": "x"}}, '
            b'"party": []}',
            "party: must be an object of documents",
        ),
        (
            b'{"meta": {"1": {"schema_version": 2, "ruleset": "shadows", "name": "x"}}, '
            b'"npcs": {"one": {"name": "x"}}}',
            "document id must be a number",
        ),
        (
            b'{"meta": {"1": {"schema_version": 2, "ruleset": "shadows", "name": "x"}}, '
            b'"log": {"1": {"kind": "roll"}}}',
            "'at' must be text",
        ),
        (b'"a campaign"', "must be an object of tables"),
        (b"null", "must be an object of tables"),
        (b"\xef\xbb\xbf{}", "not valid JSON"),
        (b"   \n\t ", "is empty"),
        (b"\xff\xfe{\x00}\x00", "not valid JSON"),
    ],
)
def test_gen07_missing_fields_and_unknown_versions_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, fragment: str
) -> None:
    _refused(capsys, _write(tmp_path, "hand.json", content), fragment)


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: os.urandom(50 * 1024 * 1024), "not valid JSON"),
        (lambda: b"[" * (50 * 1024 * 1024), "not valid JSON"),
        (lambda: b'"' + b"a" * (50 * 1024 * 1024) + b'"', "must be an object of tables"),
        (lambda: b" " * (50 * 1024 * 1024), "is empty"),
    ],
    ids=["random", "nesting", "one-string", "blank"],
)
def test_gen07_fifty_megabytes_of_junk_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Callable[[], bytes], fragment: str
) -> None:
    _refused(capsys, _write(tmp_path, "junk.json", make()), fragment)


def test_gen07_a_save_too_large_to_be_a_campaign_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:  # sparse: 100 MB on paper, nothing on the disk
        fh.truncate(100 * 1024 * 1024)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    _refused(capsys, path, "too large")


def test_gen07_a_folder_in_place_of_a_save_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "c.json"
    folder.mkdir()
    (folder / "inside").write_text("x")
    _refused(capsys, folder, "is a folder")
    assert [p.name for p in folder.iterdir()] == ["inside"]


@pytest.mark.parametrize(
    ("target", "fragment"),
    [
        ("missing.json", "is a link to nothing"),
        ("loop.json", "is a link to nothing"),
        ("folder", "which is not a file"),
        ("junk.json", "is not valid JSON"),
    ],
)
def test_gen07_links_to_nothing_or_to_junk_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, fragment: str
) -> None:
    (tmp_path / "folder").mkdir()
    _write(tmp_path, "junk.json", b"{junk")
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / target)
    if target == "loop.json":
        (tmp_path / "loop.json").symlink_to(link)
    junk = _state(tmp_path / "junk.json")
    code = cli.main([str(link)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and fragment in err, err
    assert str(link) in err or str(tmp_path / target) in err
    code = cli.main(["export", str(link)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and fragment in err, err
    assert link.is_symlink() and os.readlink(link) == str(tmp_path / target)
    assert _state(tmp_path / "junk.json") == junk
    assert not (tmp_path / "missing.json").exists()


def test_gen07_a_link_to_a_save_is_followed_and_written_through(tmp_path: Path) -> None:
    """The GM keeps the campaign in a synced folder and links to it: Tableside edits the real
    file (atomically, beside it, with its backups) and the link stays a link."""
    real = tmp_path / "synced" / "campaign.json"
    real.parent.mkdir()
    real.write_bytes(V2.read_bytes())
    link = tmp_path / "saves" / "campaign.json"
    link.parent.mkdir()
    link.symlink_to(real)
    campaign = open_campaign(link, seed=1)
    try:
        from app.commands.dice import RollDice

        campaign.apply(RollDice("1d6", who="through the link"))
        campaign.store.flush()
        with pytest.raises(SaveLocked):  # the link and the file are one save
            CampaignStore.open(real)
    finally:
        campaign.store.close()
    assert link.is_symlink() and link.resolve() == real
    whos = [e.get("who") for e in read_campaign(real)["log"].values()]
    assert "through the link" in whos
    assert sorted(p.name for p in link.parent.iterdir()) == ["campaign.json"]
    assert (real.parent / "campaign.json.bak1").exists()


def test_gen07_an_unreadable_save_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, "locked.json", V2.read_bytes())
    path.chmod(0)
    if os.geteuid() == 0:
        # root reads a mode-000 file anyway; make the read fail the way it does for a GM.
        real_read = Path.read_bytes

        def denied(self: Path) -> bytes:
            if self == path:
                raise PermissionError(13, "Permission denied", str(self))
            return real_read(self)

        monkeypatch.setattr(Path, "read_bytes", denied)
    try:
        before = path.stat().st_mtime_ns
        _refused_unreadable(capsys, path)
        assert path.stat().st_mtime_ns == before
    finally:
        monkeypatch.undo()
        path.chmod(0o644)
    assert path.read_bytes() == V2.read_bytes()


def _refused_unreadable(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    for argv in ([str(path)], ["export", str(path)]):
        code = cli.main(argv)
        err = capsys.readouterr().err.strip()
        assert code == 2 and len(err.splitlines()) == 1, err
        assert str(path) in err and "permission denied" in err, err
    with pytest.raises(LaunchError, match="left untouched"):
        open_campaign(path)


@pytest.mark.parametrize("content", [b"{junk", b"", b"[" * 100_000])
def test_gen07_damaged_saves_give_one_line_from_a_real_process(
    tmp_path: Path, content: bytes
) -> None:
    """The in-process checks above, once through ``python -m app`` itself: no traceback."""
    path = _write(tmp_path, "bad.json", content)
    for argv in ([str(path)], ["export", str(path)]):
        proc = subprocess.run(
            [sys.executable, "-m", "app", *argv],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2 and proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1 and str(path) in proc.stderr
    assert _state(path) == (content, 1_000_000_000)

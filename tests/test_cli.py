"""The command-line contract: forms, JSON keys and exit codes (0 ok, 2 bad usage or input)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app import __version__
from app.cli import main
from app.store import CampaignStore
from tests.games import BUILT_IN

ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_json_keys_and_seed_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "4d6kh3", "--seed", "5", "--json", "--times", "3")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3
    assert set(rows[0]) == {"expr", "total", "dice", "dropped", "text"}
    assert all(len(r["dice"]) == 4 and r["total"] == sum(sorted(r["dice"])[1:]) for r in rows)
    # The die kh3 does not keep is named by its position, and is the lowest.
    for r in rows:
        (gone,) = r["dropped"]
        assert r["dice"][gone] == min(r["dice"])
    _, again, _ = run(capsys, "roll", "4d6kh3", "--seed", "5", "--json", "--times", "3")
    assert again == out


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("2d", "column"),
        ("1000000d1000000", "more than"),
        ("1d1e1", "explodes on every face"),
        ("x" * 300, "limit"),
        ("١d6", "ASCII"),
    ],
)
def test_gen01_bad_roll_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], expr: str, fragment: str
) -> None:
    code, out, err = run(capsys, "roll", expr)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err


def test_bad_usage_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "roll")
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "--ruleset", "chess")
    assert code == 2 and "unknown game 'chess'" in err


def test_export_prints_the_documented_schema(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "c.json"
    CampaignStore.open(save, ruleset="aspects", name="Harbour").close()
    code, out, _ = run(capsys, "export", str(save))
    doc = json.loads(out)
    assert code == 0
    assert set(doc) == {
        "schema_version",
        "ruleset",
        "name",
        "party",
        "npcs",
        "encounters",
        "log",
        "decks",
        "clock",
    }
    assert doc["ruleset"] == "aspects" and doc["name"] == "Harbour"
    assert doc["schema_version"] == 3 and doc["clock"]["seconds"] == 0


def test_export_of_a_corrupt_save_names_it_and_keeps_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "c.json"
    save.write_bytes(b"{nope")
    code, _, err = run(capsys, "export", str(save))
    assert code == 2 and str(save) in err and "not valid JSON" in err
    assert save.read_bytes() == b"{nope"


def test_open_corrupt_save_refuses_and_points_at_backup(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "c.json"
    CampaignStore.open(save).close()
    CampaignStore.open(save).close()  # opening a good save makes a backup
    save.write_bytes(b"\x00garbage")
    code, _, err = run(capsys, str(save))
    assert code == 2
    assert str(save) in err and "left untouched" in err and "--from-backup" in err
    assert save.read_bytes() == b"\x00garbage"


def test_python_dash_m_app_matches_and_reports_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "app", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == f"tableside {__version__}"
    proc = subprocess.run(
        [sys.executable, "-m", "app", "roll", "(1d6,1d10,1d8)kh1", "--json", "--seed", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    row = json.loads(proc.stdout)
    assert proc.returncode == 0 and 1 <= row["total"] <= 10 and len(row["dice"]) == 3


def test_second_tableside_on_the_same_save_exits_2_naming_it(tmp_path: Path) -> None:
    save = tmp_path / "held.json"
    holder = CampaignStore.open(save)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "app", str(save)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2
        assert str(save) in proc.stderr and "already open in another Tableside" in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    finally:
        holder.close()


def test_an_unknown_demo_lists_every_installed_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TABLESIDE_SAVES", str(tmp_path))
    code = main(["--demo", "chess"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "unknown game 'chess'; installed games:" in err
    for game_id in BUILT_IN:
        assert f"{game_id} (" in err
    assert "Shadows of Humanity" in err
    assert list(tmp_path.iterdir()) == []  # nothing written for a game that is not there

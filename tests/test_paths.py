"""Where campaigns live: $TABLESIDE_SAVES, else ./saves if it exists, else the user
data folder; ``tableside --where`` says which."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import paths
from app.cli import main


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current folder without saves/, and a user data folder of our own."""
    cwd = tmp_path / "somewhere"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.delenv("TABLESIDE_SAVES", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return cwd


def test_the_environment_wins(elsewhere: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (elsewhere / "saves").mkdir()
    monkeypatch.setenv("TABLESIDE_SAVES", str(elsewhere / "mine"))
    assert paths.saves_dir() == elsewhere / "mine"
    assert paths.saves_home()[1].startswith("$TABLESIDE_SAVES")


def test_saves_here_is_used_only_when_it_exists(elsewhere: Path, tmp_path: Path) -> None:
    assert paths.saves_dir() == tmp_path / "data" / "tableside"
    assert not (elsewhere / "saves").exists()  # asking creates nothing here
    (elsewhere / "saves").mkdir()
    assert paths.saves_dir() == elsewhere / "saves"


def test_two_folders_share_one_campaign_folder(
    elsewhere: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = paths.new_campaign_path("campaign").parent
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    assert paths.new_campaign_path("campaign").parent == first == tmp_path / "data" / "tableside"


def test_where_prints_the_folder_in_use_and_why(
    elsewhere: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--where"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == str(tmp_path / "data" / "tableside")
    assert "user data folder" in out[1]
    (elsewhere / "saves").mkdir()
    assert main(["--where"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == str(elsewhere / "saves") and "./saves" in out[1]

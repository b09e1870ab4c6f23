"""The ``tableside npc`` and ``tableside import-5e`` contract (NPC-01..03, NPC-09)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.demo import write_demo
from app.store import CampaignStore, read_campaign

SAMPLE = Path(__file__).parent / "fixtures" / "srd5e-monsters-sample.json"


def _json(capsys: pytest.CaptureFixture[str]) -> object:
    return json.loads(capsys.readouterr().out)


def test_npc02_attribute_build_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["npc", "--brawl", "2", "--wit", "1", "--will", "1", "--json"]) == 0
    out = _json(capsys)
    assert out == {
        "hd": 3,
        "ac": 13,
        "hit_die": "d8",
        "hp": 15,
        "hp_roll": "3d8",
        "move": 30,
        "effort": "1",
        "save": 15,
        "shock": "2/18",
        "attacks": 1,
        "powers": 1,
        "atk_mod": {"brawl": 5, "wit": 3, "will": 3},
        "atk_dmg": {"brawl": "2d6", "will": "1d6"},
        "morale": 8,
    }


def test_npc03_quick_build_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["npc", "--hd", "5", "--json"]) == 0
    out = _json(capsys)
    assert isinstance(out, dict)
    assert (out["hp"], out["hp_roll"], out["stats"], out["atk_mod"], out["atk_dmg"]) == (
        25,
        "5d8",
        2,
        5,
        7,
    )


def test_npc_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["npc", "--hd", "4"]) == 0
    out = capsys.readouterr().out
    assert "HP 19 (4d8)" in out and "Quick build HD 4" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["npc", "--hd", "21"],
        ["npc", "--hd", "-1"],
        ["npc", "--brawl", "9", "--wit", "0", "--will", "0"],
        ["npc", "--brawl", "-4", "--wit", "0", "--will", "0"],
        ["npc", "--brawl", "1"],
        ["npc", "--hd", "3", "--brawl", "1"],
        ["npc", "--hd", "x"],
    ],
)
def test_npc_bad_input_exits_2_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_npc09_import_sample_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import-5e", str(SAMPLE), "--json"]) == 0
    out = _json(capsys)
    assert isinstance(out, list) and len(out) == 25
    devil = next(m for m in out if m["name"] == "Chain Devil")
    assert (devil["cr"], devil["brawl"], devil["wit"], devil["will"], devil["hd"]) == (
        "8",
        4,
        2,
        2,
        7,
    )
    assert devil["hit_die"] == "d10" and "hp_roll" in devil


def test_npc09_import_skips_malformed_by_name_and_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monsters = json.loads(SAMPLE.read_text())[:2]
    broken = dict(monsters[1], strength="huge")
    path = tmp_path / "m.json"
    path.write_text(json.dumps([monsters[0], broken, 7]))
    assert main(["import-5e", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)) == 1
    lines = captured.err.strip().splitlines()
    assert len(lines) == 2
    assert f"#1 {broken['name']}" in lines[0] and "#2" in lines[1]


def test_npc09_import_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.json"
    path.write_text("{ not json")
    assert main(["import-5e", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["import-5e", str(tmp_path / "missing.json")]) == 2


def test_npc09_import_save_adds_to_library(tmp_path: Path) -> None:
    save = tmp_path / "c.json"
    write_demo("resolution", save, seed=1)
    before = len(read_campaign(save)["npcs"])
    assert main(["import-5e", str(SAMPLE), "--save", str(save)]) == 0
    npcs = list(read_campaign(save)["npcs"].values())
    assert len(npcs) == before + 25
    assert any(n.get("source", {}).get("cr") == "8" for n in npcs)


def test_npc09_import_locked_save_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "c.json"
    write_demo("resolution", save, seed=1)
    store = CampaignStore.open(save)
    try:
        assert main(["import-5e", str(SAMPLE), "--save", str(save)]) == 2
    finally:
        store.close()
    assert capsys.readouterr().err.count("\n") == 1


def test_npc09_import_corrupt_save_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "c.json"
    save.write_text("garbage")
    assert main(["import-5e", str(SAMPLE), "--save", str(save)]) == 2
    assert capsys.readouterr().err.count("\n") == 1

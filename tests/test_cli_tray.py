"""``tableside odds`` and ``tableside draw``: the contract's forms, JSON keys and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.cli import main
from app.demo import write_demo
from app.store import CampaignStore, read_campaign


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_gen02_odds_of_an_expression_is_a_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2d6", "--json")
    dist = json.loads(out)["distribution"]
    assert code == 0 and dist["7"] == pytest.approx(6 / 36)
    assert sum(dist.values()) == pytest.approx(1)


def test_gen02_odds_with_target_is_success_and_failure(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "2d6+1 >= 8", "--json")
    document = json.loads(out)
    assert document["bands"] == {"success": 21 / 36, "failure": 15 / 36}
    assert document["exact"] == {"success": "7/12", "failure": "5/12"}
    assert document["notes"] == []


@pytest.mark.parametrize(
    ("argv", "bands"),
    [
        (
            ["--game", "somnihil", "--adv"],
            ["Triumph", "Success", "Tough Choice", "Failure", "Catastrophe"],
        ),
        (
            ["--game", "somnihil", "--dis"],
            ["Triumph", "Success", "Tough Choice", "Failure", "Catastrophe"],
        ),
        (
            ["--game", "aspects", "--skill", "2"],
            ["Total Success", "Good Success", "Success", "Mild Success", "Failure"],
        ),
        (["--game", "nemron", "--pool", "d6,d10,d8", "--dc", "7"], ["success", "failure"]),
        (
            ["--game", "resolution", "--dc", "10", "--dice", "d20", "--mod", "3"],
            ["success", "failure"],
        ),
        (
            ["--game", "shadows", "--draw", "three", "--bonus", "12", "--difficulty", "normal"],
            ["Critical Failure", "Failure", "Success", "Critical Success"],
        ),
    ],
)
def test_gen02_game_odds_use_the_rules_band_names(
    capsys: pytest.CaptureFixture[str], argv: list[str], bands: list[str]
) -> None:
    code, out, _ = run(capsys, "odds", *argv, "--json")
    result = json.loads(out)["bands"]
    assert code == 0 and list(result) == bands
    assert sum(result.values()) == pytest.approx(1)


def test_odds_exact_values(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "--game", "somnihil", "--adv", "--json")
    assert json.loads(out)["bands"]["Triumph"] == pytest.approx(39 / 400)
    _, out, _ = run(
        capsys, "odds", "--game", "nemron", "--pool", "d6,d10,d8", "--dc", "7", "--json"
    )
    assert json.loads(out)["bands"]["success"] == pytest.approx(11 / 20)


def test_odds_table_without_json_has_bars(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--game", "aspects")
    assert code == 0 and "Total Success" in out and "█" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["1d6e"],
        [],
        ["--game", "nemron"],
        ["--game", "shadows", "--difficulty", "wild"],
        ["2d6", "--game", "aspects"],
    ],
)
def test_bad_odds_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, "odds", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1


def test_soh01_draw_fresh_deck_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "draw", "--count", "56", "--json", "--seed", "4")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 56
    assert set(rows[0]) == {"deck", "rank", "value", "suit", "reversed", "name"}
    assert len({(r["rank"], r["suit"]) for r in rows}) == 56
    code, out, _ = run(capsys, "draw", "--deck", "major", "--count", "2", "--json")
    assert all(json.loads(line)["deck"] == "major" for line in out.splitlines())


def test_soh01_draw_from_save_continues_the_campaign_deck(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_demo("shadows", tmp_path / "c.json", seed=1)
    _, first, _ = run(capsys, "draw", "--save", str(path), "--count", "2", "--json")
    _, second, _ = run(capsys, "draw", "--save", str(path), "--count", "2", "--json")
    saved = read_campaign(path)
    deck = next(iter(saved["decks"].values()))
    names = [json.loads(line)["name"] for line in (first + second).splitlines()]
    assert [c["name"] for c in deck["discard"]] == names
    assert len(deck["draw_pile"]) == 52
    assert any(e.get("text", "").startswith("Minor Arcana drawn") for e in saved["log"].values())


def test_draw_from_locked_or_corrupt_save_is_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_demo("shadows", tmp_path / "c.json")
    store = CampaignStore.open(path)
    try:
        code, _, err = run(capsys, "draw", "--save", str(path))
        assert code == 2 and err.count("\n") == 1
    finally:
        store.close()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "draw", "--save", str(bad))
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "draw", "--count", "0")
    assert code == 2


def test_draw_from_a_save_that_does_not_exist_leaves_nothing_behind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "nonexistent.json"
    code, _, err = run(capsys, "draw", "--save", str(missing))
    assert code == 2 and err.count("\n") == 1 and "no such file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    code, _, _ = run(capsys, "draw", "--save", str(tmp_path / "no-folder" / "c.json"))
    assert code == 2 and not (tmp_path / "no-folder").exists()


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--game", "somnihil", "--skill", "3"], "--skill"),
        (["--game", "aspects", "--adv"], "--adv"),
        (["--game", "nemron", "--pool", "d6,d8", "--dc", "7", "--mod", "1"], "--mod"),
        (["--game", "resolution", "--bonus", "2"], "--bonus"),
        (["--game", "shadows", "--dc", "9"], "--dc"),
        (["2d6", "--skill", "3"], "--skill"),
    ],
)
def test_a_flag_the_check_does_not_use_is_an_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], flag: str
) -> None:
    code, out, err = run(capsys, "odds", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"tableside odds: {flag} is not an option of") or err.startswith(
        f"tableside odds: {flag} is an option of a game's check"
    )


# --- draw: the decks are the game's ------------------------------------------------------------


def test_soh01_draw_output_is_the_contract_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    """The tarot moved into Shadows' package; a seeded draw prints what it printed before."""
    _, out, _ = run(capsys, "draw", "--seed", "4", "--count", "5")
    assert out.splitlines() == [
        "Page of Coins", "Ace of Swords", "King of Swords", "9 of Coins", "8 of Coins",
    ]  # fmt: skip
    _, out, _ = run(capsys, "draw", "--deck", "major", "--seed", "9", "--count", "4")
    assert out.splitlines() == [
        "The Hanged Man (reversed)", "The Star (reversed)", "The High Priestess (reversed)",
        "The Lovers",
    ]  # fmt: skip
    _, out, _ = run(capsys, "draw", "--game", "shadows", "--deck", "major", "--seed", "9", "--json")
    assert json.loads(out) == {
        "deck": "major", "rank": "The Hanged Man", "value": 12, "suit": None,
        "reversed": True, "name": "The Hanged Man",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--game", "somnihil"], "tableside draw: Somnihil plays with no deck of cards"),
        (["--game", "shadows", "--deck", "tarot"], "Shadows of Humanity has no deck 'tarot'"),
        (["--deck", "runes"], "tableside draw: no installed game has a deck 'runes'"),
        (["--deck", "minor", "--count", "57"], "between 1 and 56 (the Minor Arcana)"),
    ],
)
def test_a_deck_the_game_does_not_have_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = run(capsys, "draw", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and said in err


def test_drawing_from_a_game_without_decks_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_demo("somnihil", tmp_path / "c.json", seed=1)
    before = path.read_bytes()
    code, out, err = run(capsys, "draw", "--save", str(path), "--deck", "minor")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "Somnihil plays with no deck of cards" in err
    assert path.read_bytes() == before
    shadows = write_demo("shadows", tmp_path / "s.json", seed=1)
    code, _, err = run(capsys, "draw", "--save", str(shadows), "--game", "somnihil")
    assert code == 2 and "the campaign plays shadows, not somnihil" in err


def test_a_save_from_before_the_decks_were_a_games_keeps_drawing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A schema-3 Shadows save (its decks as ``{"kind": "minor", ...}`` documents) opens and
    draws on from where it was, both decks."""
    path = tmp_path / "old.json"
    shutil.copy(Path(__file__).parent / "fixtures" / "campaign_v3.json", path)
    old = {doc["kind"]: doc for doc in read_campaign(path)["decks"].values()}
    assert len(old["minor"]["draw_pile"]) == 55 and len(old["major"]["draw_pile"]) == 20
    code, out, _ = run(capsys, "draw", "--save", str(path), "--count", "2", "--json")
    drawn = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and drawn == old["minor"]["draw_pile"][:2]
    code, out, _ = run(capsys, "draw", "--save", str(path), "--deck", "major", "--json")
    # The card drawn (Death), not the Star Agnes holds: the read-back once left the party out,
    # so the held Star fell onto the discards after the drawn card and was printed instead.
    assert code == 0 and json.loads(out) == old["major"]["draw_pile"][0]
    new = {doc["kind"]: doc for doc in read_campaign(path)["decks"].values()}
    assert len(new["minor"]["draw_pile"]) == 53
    # SOH-04: the Star Agnes holds (her sheet) left the Major deck's pile for her hand.
    assert [c["name"] for c in new["major"]["hands"]["1"]] == ["The Star"]
    assert len(new["major"]["draw_pile"]) == 18

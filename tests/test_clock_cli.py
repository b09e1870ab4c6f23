"""``tableside clock`` (a contract for scripts), the clock in the save's schema, the export and
the Markdown session log, and what the players' view is given (issue 27)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any, cast

import orjson
import pytest

from app import schema
from app.cli import main
from app.commands import clock as cmd
from app.commands.party import ChangePC
from app.demo import write_demo
from app.export import markdown_log
from app.player_view import PlayerSettings, build_view, clock_for_players
from app.state import Campaign
from app.store import CampaignStore, export_document, read_campaign
from rulesets import clock, registry
from rulesets.nemron import rules as nemron

FIXTURES = Path(__file__).parent / "fixtures"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def nemron_save(tmp_path: Path, torso: int = 0, energy: int = 0) -> Path:
    path = write_demo("nemron", tmp_path / "n.json", seed=1)
    campaign = Campaign(CampaignStore.open(path), rng=random.Random(1))
    if torso:
        campaign.apply(ChangePC(1, "step", ("limb", "torso", -torso)))
    if energy:
        campaign.apply(ChangePC(1, "adjust", ("energy", -energy)))
    campaign.store.close()
    return path


def first_pc(path: Path) -> dict[str, Any]:
    return cast(dict[str, Any], read_campaign(path)["party"]["1"])


def test_clock_json_has_the_time_the_minutes_and_what_happened(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = nemron_save(tmp_path)
    code, out, err = run(capsys, "clock", str(path), "--json")
    assert (code, err) == (0, "")
    shown = json.loads(out)
    assert {"time", "minutes", "lines"} <= set(shown)
    assert (shown["time"], shown["minutes"], shown["lines"]) == ("Day 1 08:00 morning", 0, [])
    code, out, _ = run(capsys, "clock", str(path), "--advance", "1h30m", "--json")
    shown = json.loads(out)
    assert (code, shown["time"], shown["minutes"]) == (0, "Day 1 09:30 morning", 90)
    assert shown["lines"] == ["Day 1 08:00 morning → 09:30 · 1 h 30 min"]
    code, out, _ = run(capsys, "clock", str(path), "--advance", "2d")
    assert code == 0 and out.splitlines()[-1] == "Now: Day 3 09:30 morning"


@pytest.mark.parametrize("duration", ["10x", "", "0m", "2 fortnights", "400d", "١h"])
def test_a_bad_duration_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, duration: str
) -> None:
    path = nemron_save(tmp_path)
    before = path.read_bytes()
    code, out, err = run(capsys, "clock", str(path), "--advance", duration)
    assert code == 2 and out == "" and err.count("\n") == 1 and "tableside clock:" in err
    assert path.read_bytes() == before


def test_clock_refuses_a_save_the_tui_holds_and_bad_usage(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = nemron_save(tmp_path)
    holder = CampaignStore.open(path)
    try:
        code, out, err = run(capsys, "clock", str(path), "--advance", "1h")
        assert code == 2 and out == "" and err.count("\n") == 1 and str(path) in err
    finally:
        holder.close()
    assert clock.read(read_campaign(path)["meta"]["1"]).seconds == 0
    code, _, err = run(capsys, "clock", str(path), "--advance", "1h", "--rest", "1h")
    assert code == 2 and "not allowed with" in err
    code, _, err = run(capsys, "clock", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err


def test_nem11_eight_hours_of_rest_heal_a_damaged_limb_and_restore_energy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = nemron_save(tmp_path, torso=6, energy=4)
    before = first_pc(path)
    top = nemron.limbs_of(before)["torso"]["max"]
    code, out, _ = run(capsys, "clock", str(path), "--rest", "8h", "--json", "--seed", "5")
    assert code == 0
    after = first_pc(path)
    sides = nemron.rank_die(after["attributes"]["constitution"])
    healing = random.Random(5).randint(1, sides)  # the one Constitution roll the rest made
    assert nemron.limbs_of(after)["torso"]["hp"] == min(top, top - 6 + healing)
    energy = after["resources"]["energy"]
    assert energy["current"] == energy["max"]  # NEM-10: 1 an hour, 8 hours
    lines = json.loads(out)["lines"]
    assert f"Kesh Varn: Constitution d{sides} heals {healing} per limb" in lines


def test_nem10_nem11_an_hour_of_plain_time_heals_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = nemron_save(tmp_path, torso=6, energy=4)
    before = first_pc(path)
    code, _, _ = run(capsys, "clock", str(path), "--advance", "1h")
    assert code == 0
    after = first_pc(path)
    assert after["tracks"] == before["tracks"]
    assert after["resources"]["energy"] == before["resources"]["energy"]
    code, _, _ = run(capsys, "clock", str(path), "--effort", "2h")
    assert first_pc(path)["resources"]["energy"]["current"] == (
        before["resources"]["energy"]["current"] - 2
    )


def test_gen07_a_v2_save_gets_a_clock_at_its_start(tmp_path: Path) -> None:
    save = tmp_path / "old.json"
    shutil.copy(FIXTURES / "campaign_v2.json", save)
    assert "clock" not in orjson.loads(save.read_bytes())["meta"]["1"]
    meta = read_campaign(save)["meta"]["1"]
    assert meta["schema_version"] == schema.SCHEMA_VERSION == 3
    assert clock.read(meta) == clock.Clock()


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"seconds": "noon"}, "meta[1].clock: 'seconds' must be a whole number"),
        ({"effects": [{"id": 1, "name": "Torch"}]}, "needs whole-number 'id' and 'ends'"),
        ({"checks": [{"id": 1, "every": 5, "chance": [1, 6], "table": []}]}, "'every'"),
        ("soon", "meta[1].clock: must be an object"),
    ],
)
def test_a_hand_edited_clock_is_refused_naming_the_field(
    tmp_path: Path, bad: object, words: str
) -> None:
    data = orjson.loads((FIXTURES / "campaign_v3.json").read_bytes())
    data["meta"]["1"]["clock"] = bad
    with pytest.raises(schema.SchemaError) as caught:
        schema.validate(data)
    assert words in str(caught.value)


def test_export_and_markdown_carry_the_clock(tmp_path: Path) -> None:
    path = write_demo("somnihil", tmp_path / "s.json", seed=1)
    campaign = Campaign(CampaignStore.open(path), rng=random.Random(2))
    campaign.apply(cmd.AddTimedEffect("Torch", "1h"))
    campaign.apply(cmd.Advance(step="watch"))
    campaign.undo()  # an undone change leaves the log with it
    campaign.apply(cmd.Advance(step="hour"))
    campaign.store.close()
    data = read_campaign(path)
    exported = export_document(data)
    assert exported["schema_version"] == 3
    assert exported["clock"]["seconds"] == clock.HOUR
    text = markdown_log(data)
    assert "Day 1 08:00 morning → 09:00 · an hour" in text
    assert "Torch burns out at 09:00" in text
    assert "a watch" not in text


def test_the_players_view_shows_the_time_and_light_only_when_the_gm_allows() -> None:
    data = read_campaign(FIXTURES / "campaign_v3.json")
    game = registry.game("shadows")
    assert clock_for_players(data, game) == ""
    data["meta"]["1"]["clock"]["players"] = True
    assert clock_for_players(data, game) == "Day 1, morning · Torch 50 min left"
    assert build_view(data, game, PlayerSettings()).time == "Day 1, morning · Torch 50 min left"

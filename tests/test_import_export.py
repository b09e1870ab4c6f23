"""Other tools' files in and out (issue 17): ``tableside import``, ``import-5e`` again,
``export --format ii|markdown``, and files that must be refused rather than read forever."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app.cli import main
from app.demo import write_demo
from app.state import Campaign
from app.store import CampaignStore, read_campaign

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLE = FIXTURES / "srd5e-monsters-sample.json"
II_LIBRARY = FIXTURES / "improved-initiative-library.json"
II_ENCOUNTER = FIXTURES / "improved-initiative-encounter.json"
REPO = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def npcs(save: Path) -> list[dict[str, Any]]:
    return list(read_campaign(save)["npcs"].values())


# --- importing the same file again ----------------------------------------------------------
def test_importing_the_same_5e_file_twice_updates_instead_of_duplicating(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = write_demo("resolution", tmp_path / "c.json", seed=1)
    before = len(npcs(save))
    code, out, _ = run(capsys, "import-5e", str(SAMPLE), "--save", str(save))
    assert code == 0 and out.splitlines()[-1] == "25 added, 0 updated, 0 left alone"
    code, out, _ = run(capsys, "import-5e", str(SAMPLE), "--save", str(save))
    assert code == 0 and out.splitlines()[-1] == "0 added, 0 updated, 25 left alone"
    saved = npcs(save)
    assert len(saved) == before + 25
    assert [n["name"] for n in saved].count("Chain Devil") == 1


def test_a_changed_monster_is_updated_and_the_gms_own_npc_is_never_touched(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = write_demo("resolution", tmp_path / "c.json", seed=1)
    monsters = json.loads(SAMPLE.read_text(encoding="utf-8"))[:3]
    own = dict(monsters[2], name=npcs(save)[0]["name"])  # the GM's NPC's name, from 5e
    first = tmp_path / "m.json"
    first.write_text(json.dumps(monsters[:2]))
    assert main(["import-5e", str(first), "--save", str(save)]) == 0
    stronger = [dict(monsters[0], strength=30), monsters[1], own]
    first.write_text(json.dumps(stronger))
    capsys.readouterr()
    code, out, _ = run(capsys, "import", str(first), "--save", str(save), "--json")
    report = json.loads(out)
    assert code == 0 and report["format"] == "5e SRD"
    assert (report["added"], report["updated"], report["unchanged"]) == (1, 1, 1)
    saved = npcs(save)
    changed = [n for n in saved if n["name"] == monsters[0]["name"]]
    assert len(changed) == 1 and changed[0]["brawl"] == 10
    assert [n["name"] for n in saved].count(own["name"]) == 2  # the GM's one and the import


def test_import_in_the_npc_panel_updates_too(tmp_path: Path) -> None:
    from app.commands.npcs import ImportNpcs
    from app.importing import convert_file
    from tests.apphelpers import open_demo

    campaign = open_demo(tmp_path, "resolution")
    converted = convert_file(II_LIBRARY)
    campaign.apply(ImportNpcs(converted.conversions, converted.kind))
    lines = campaign.apply(ImportNpcs(converted.conversions, converted.kind))
    assert lines[-1].endswith("(0 added, 0 updated, 3 left alone)")
    names = [d["name"] for _, d in campaign.rows("npcs")]
    assert names.count("Goblin") == 2  # the demo's own Goblin and the imported one, once
    campaign.undo()
    campaign.undo()
    assert "Bandit Captain" not in [d["name"] for _, d in campaign.rows("npcs")]
    campaign.store.close()


# --- Improved Initiative ------------------------------------------------------------------------
def test_an_improved_initiative_library_imports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = write_demo("resolution", tmp_path / "c.json", seed=1)
    code, out, err = run(capsys, "import", str(II_LIBRARY), "--save", str(save), "--json")
    report = json.loads(out)
    assert (code, err, report["format"]) == (0, "", "Improved Initiative")
    assert (report["added"], report["updated"], report["unchanged"]) == (3, 0, 0)
    captain = next(n for n in npcs(save) if n["name"] == "Bandit Captain")
    # NPC-09: Brawl = best of Str/Con mods (15, 14 -> +2), Wit Dex/Int (16, 14 -> +3), Will
    # Wis/Cha (11, 14 -> +2); CR 2 gives two power slots, the reaction before the attacks.
    assert (captain["brawl"], captain["wit"], captain["will"]) == (2, 3, 2)
    assert captain["powers"] == ["Parry", "Scimitar"]
    source = captain["source"]
    assert (source["system"], source["cr"], source["ac"], source["hp"], source["hit_dice"]) == (
        "Improved Initiative",
        "2",
        15,
        65,
        "10d8",
    )
    goblin = next(n for n in npcs(save) if n["name"] == "Goblin" and "source" in n)
    assert goblin["powers"] == ["Nimble Escape"]


def test_an_improved_initiative_encounter_imports_its_statblocks_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "import", str(II_ENCOUNTER), "--json")
    report = json.loads(out)
    assert code == 0 and [n["name"] for n in report["npcs"]] == ["Goblin"]  # PCs left out


def test_import_tells_formats_apart_and_refuses_neither(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "import", str(SAMPLE))
    assert code == 0 and out.startswith("5e SRD: 25 statblock(s)")
    other = tmp_path / "other.json"
    other.write_text('{"hello": "world"}')
    code, out, err = run(capsys, "import", str(other))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "neither Improved Initiative statblocks nor a 5e SRD monster list" in err


def test_export_ii_then_import_into_a_new_campaign_loses_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from app.commands.npcs import SaveNpc, npc_document

    source = write_demo("resolution", tmp_path / "a.json", seed=1)
    assert main(["import-5e", str(SAMPLE), "--save", str(source)]) == 0
    capsys.readouterr()
    campaign = Campaign(CampaignStore.open(source))
    campaign.apply(SaveNpc(npc_document("Thug", ["brutal"], quick_hd=4, powers=["Shove"])))
    campaign.store.close()
    code, out, _ = run(capsys, "export", str(source), "--format", "ii")
    assert code == 0
    exported = tmp_path / "library.json"
    exported.write_text(out)
    doc = json.loads(out)
    assert doc["ImprovedInitiative.SavedEncounters"]
    target = tmp_path / "b.json"
    CampaignStore.open(target, ruleset="resolution").close()
    code, _, err = run(capsys, "import", str(exported), "--save", str(target))
    assert (code, err) == (0, "")

    def kept(doc: dict[str, object]) -> tuple[object, ...]:
        block = doc["statblock"]
        assert isinstance(block, dict)
        return (
            doc["name"],
            block["hp"],
            block["ac"],
            doc["brawl"],
            doc["wit"],
            doc["will"],
            doc["powers"],
            doc["concepts"],
        )

    before = sorted(kept(n) for n in npcs(source))
    after = sorted(kept(n) for n in npcs(target))
    assert len(before) == len(after) > 25
    assert after == before
    thug = next(n for n in npcs(target) if n["name"] == "Thug")
    assert thug["quick_hd"] == 4  # a quick build comes back as one (its HP is the table's)


def test_export_ii_encounter_carries_hp_order_and_round(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = write_demo("resolution", tmp_path / "a.json", seed=1)
    code, out, _ = run(capsys, "export", str(save), "--format", "ii")
    doc = json.loads(out)
    key = doc["ImprovedInitiative.SavedEncounters"][0]
    fight = doc[f"ImprovedInitiative.SavedEncounters.{key}"]
    stored = next(iter(read_campaign(save)["encounters"].values()))
    assert [c["Alias"] for c in fight["Combatants"]] == [c["name"] for c in stored["combatants"]]
    assert fight["RoundCounter"] == stored["round"]
    npc = next(c for c in fight["Combatants"] if c["StatBlock"]["Player"] == "")
    assert npc["CurrentHP"] > 0 and npc["StatBlock"]["Source"] == "Tableside"
    assert {"Name", "HP", "AC", "Abilities", "Challenge", "Traits", "Actions"} <= set(
        npc["StatBlock"]
    )


def test_export_session_needs_markdown(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = write_demo("resolution", tmp_path / "a.json", seed=1)
    code, out, err = run(capsys, "export", str(save), "--session", "1")
    assert code == 2 and out == "" and "--session is only used by --format markdown" in err
    code, out, err = run(capsys, "export", str(save), "--format", "markdown", "--session", "9")
    assert code == 2 and err.count("\n") == 1 and "no session 9" in err


# --- Markdown session log ---------------------------------------------------------------------
def test_markdown_log_of_a_short_fight_reads_as_a_session_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import random

    from app.commands import combat
    from app.commands.party import PartyAction

    save = write_demo("somnihil", tmp_path / "a.json", seed=3)
    campaign = Campaign(CampaignStore.open(save), rng=random.Random(1))
    campaign.apply(PartyAction("session"))
    fight_id = campaign.rows("encounters")[0][0]
    hero = campaign.rows("encounters")[0][1]["combatants"][0]["id"]
    campaign.apply(combat.StartEncounter(fight_id))
    campaign.apply(combat.Damage(fight_id, hero, "1d6"))
    campaign.apply(combat.NextTurn(fight_id))
    campaign.apply(combat.EndEncounter(fight_id))
    campaign.store.close()
    code, out, _ = run(capsys, "export", str(save), "--format", "markdown", "--session", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "# Demo campaign: session log"
    assert "## Session 1" in lines and "### Fight: Ambush at the Mill" in lines
    fight_at = lines.index("### Fight: Ambush at the Mill")
    roll = next(i for i, line in enumerate(lines) if "rolls 1d6 → " in line)
    assert roll > fight_at and "**Vesna Kade**" in lines[roll]
    assert any(line.endswith("Ambush at the Mill ends after 1 round") for line in lines)


def test_markdown_shows_typed_names_literally() -> None:
    from app.export import md

    assert md("*Bob* [the] <b> #1") == r"\*Bob\* \[the\] \<b> #1"


# --- files that must be refused, not read forever ---------------------------------------------
def _cli(
    *argv: str, timeout: float = 20, memory: int | None = None
) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "app", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
    )


@pytest.mark.parametrize("command", ["import-5e", "import"])
def test_a_device_is_refused_not_read_until_memory_runs_out(command: str) -> None:
    done = _cli(command, "/dev/zero", memory=1024 * 1024 * 1024)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "not a regular file" in done.stderr


@pytest.mark.parametrize("command", ["import-5e", "import"])
def test_a_fifo_is_refused_not_waited_on(command: str, tmp_path: Path) -> None:
    fifo = tmp_path / "monsters.json"
    os.mkfifo(fifo)
    try:
        done = _cli(command, str(fifo), timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tableside {command} on a FIFO was still waiting after 20 s")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "not a regular file" in done.stderr


def test_a_file_too_large_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import importing

    monkeypatch.setattr(importing, "MAX_IMPORT_BYTES", 1024)
    big = tmp_path / "big.json"
    big.write_text(json.dumps([{"name": "x" * 2000}]))
    with pytest.raises(importing.ImportFileError, match="too large for a statblock file"):
        importing.read_json(big)


async def test_a_key_in_the_tray_writes_the_session_log_beside_the_save(tmp_path: Path) -> None:
    from tests.apphelpers import SIZE, demo_app

    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r", "n", "2", "L")
        await pilot.pause()
        save = app.campaign.store.path
        written = save.with_name(f"{save.stem}-session-1.md")
        text = written.read_text(encoding="utf-8")
        assert text.startswith("# Demo campaign: session log")
        assert "### Fight: Ambush at the Mill" in text
        said = str(app.screen.query_one("#event-line", Static).render())
        assert str(written) in said.replace("\n", "")
    app.campaign.store.close()


@pytest.mark.parametrize("command", ["import-5e", "import"])
def test_a_folder_or_a_nul_in_the_path_is_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (str(tmp_path), "bad\x00name.json"):
        code, out, err = run(capsys, command, path)
        assert code == 2 and out == "" and err.count("\n") == 1


# --- an Improved Initiative encounter becomes a fight -----------------------------------------
def _fight(save: Path, name: str) -> dict[str, Any]:
    encounters = read_campaign(save)["encounters"].values()
    found: list[dict[str, Any]] = [e for e in encounters if e["name"] == name]
    assert len(found) == 1, [e["name"] for e in read_campaign(save)["encounters"].values()]
    return found[0]


def test_reading_an_ii_encounter_numbers_unnamed_foes_and_keeps_tags() -> None:
    from rulesets import improved_initiative as ii

    [saved] = ii.encounters_in(json.loads(II_ENCOUNTER.read_text(encoding="utf-8")))
    assert (saved.name, saved.round, saved.active_id) == ("Goblin ambush", 2, "c1")
    assert [(e.name, e.player, e.current_hp, e.initiative) for e in saved.entries] == [
        ("Goblin 1", False, 4, 15),
        ("Goblin 2", False, 7, 9),
        ("Aria", True, 24, 18),
    ]
    assert saved.entries[1].hidden and saved.entries[1].tags == (ii.Tag("Poisoned", 2),)
    assert ii.encounters_in({"Combatants": "no"}) == [] and ii.encounters_in([1, 2]) == []


def test_importing_an_ii_encounter_recreates_the_fight_on_its_turn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = write_demo("resolution", tmp_path / "c.json", seed=1)
    encounter = json.loads(II_ENCOUNTER.read_text(encoding="utf-8"))
    encounter["Combatants"][2]["Alias"] = "Mara Quell"  # a player the party has
    file = tmp_path / "ambush.json"
    file.write_text(json.dumps(encounter))
    code, out, err = run(capsys, "import", str(file), "--save", str(save), "--json")
    report = json.loads(out)
    assert (code, err) == (0, "")
    assert report["encounters"] == [
        {"name": "Goblin ambush", "combatants": 3, "round": 2, "left_out": []}
    ]
    fight = _fight(save, "Goblin ambush")
    rows = fight["combatants"]
    assert isinstance(rows, list)
    assert [(c["name"], c["side"], c["initiative"]) for c in rows] == [
        ("Mara Quell", "pc", 18),
        ("Goblin 1", "npc", 15),
        ("Goblin 2", "npc", 9),
    ]
    assert (fight["round"], fight["started"]) == (2, True)
    assert fight["current"] == rows[1]["id"]  # the goblin whose turn it was
    assert rows[2]["hidden"] and [e["name"] for e in rows[2]["conditions"]] == ["Poisoned"]
    assert rows[2]["conditions"][0]["remaining"] == 2
    data = read_campaign(save)
    made = next(k for k, e in data["encounters"].items() if e["name"] == "Goblin ambush")
    assert next(iter(data["meta"].values()))["current_encounter"] == int(made)
    code, out, _ = run(capsys, "import", str(file), "--save", str(save), "--json")
    assert json.loads(out)["encounters"][0]["name"] == "Goblin ambush (2)"
    code, out, _ = run(capsys, "import", str(file), "--save", str(save), "--no-fight", "--json")
    assert code == 0 and "encounters" not in json.loads(out)
    assert len(read_campaign(save)["encounters"]) == 3


def test_a_player_not_in_the_party_is_left_out_and_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = write_demo("somnihil", tmp_path / "c.json", seed=1)
    code, out, _ = run(capsys, "import", str(II_ENCOUNTER), "--save", str(save))
    assert code == 0
    assert "Encounter Goblin ambush: 2 combatant(s), round 2" in out.splitlines()
    assert "  left out: Aria" in out.splitlines()


def test_exporting_a_fight_to_ii_and_importing_it_back_gives_the_same_fight(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import random

    from app.commands import combat

    save = write_demo("resolution", tmp_path / "a.json", seed=3)
    campaign = Campaign(CampaignStore.open(save), rng=random.Random(2))
    fight_id, stored = campaign.rows("encounters")[0]
    campaign.apply(combat.RollInitiative(fight_id))
    campaign.apply(combat.StartEncounter(fight_id))
    fight = campaign.doc("encounters", fight_id)
    assert fight is not None
    goblin = next(c for c in fight["combatants"] if c["ref"]
                  and c["side"] == "npc")
    campaign.apply(combat.Damage(fight_id, goblin["id"], "2"))
    campaign.apply(combat.NextTurn(fight_id))
    original = campaign.doc("encounters", fight_id)
    assert original is not None
    campaign.store.close()
    code, out, _ = run(capsys, "export", str(save), "--format", "ii")
    exported = tmp_path / "ii.json"
    exported.write_text(out)
    code, out, err = run(capsys, "import", str(exported), "--save", str(save))
    assert (code, err) == (0, "")
    again = _fight(save, f"{stored['name']} (2)")

    def shape(fight: dict[str, Any]) -> list[tuple[object, ...]]:
        rows = fight["combatants"]
        assert isinstance(rows, list)
        return [(c["name"], c["side"], c["initiative"], c["stats"].get("hp")) for c in rows]

    assert shape(again) == shape(original)
    assert again["round"] == original["round"] == 1
    names = {c["id"]: c["name"] for c in again["combatants"]}
    was = {c["id"]: c["name"] for c in original["combatants"]}
    assert names[again["current"]] == was[original["current"]]

"""The game API 1.2: what a sixth game's author had to read Tableside's source for, said by
the API (every check in the tray, the PC's sheet where a hook needs it, attribute steps and
labels per attribute, the built-in turn orders to subclass, hooks at a fight's start and end,
morale as the game's choice, its own save migrations, a pick that forgets the last roller).

Each game here is the toy Duel game (tests/test_toy_game.py) with the part under test changed.
"""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual.widgets import Static

from app import cli
from app.commands.combat import EndEncounter, StartEncounter
from app.launch import LaunchError, open_campaign
from app.state import Campaign
from app.store import CampaignStore, read_campaign
from app.tui import TablesideApp
from rulesets import encounter as er
from rulesets import registry
from rulesets.base import AttributeSpec, RuleError
from rulesets.checks import Check, CheckInput, Preset, Setup
from rulesets.game import API_VERSION, Game, api_problem
from rulesets.sheet import SheetRules
from rulesets.table import Tx
from screens.party import PartyScreen
from tests.apphelpers import SIZE, footer_words, screen_text
from tests.conftest import FIXED_NOW
from tests.test_toy_game import DUEL, _spec

Opener = Callable[[Game], TablesideApp]


@pytest.fixture
def play(tmp_path: Path) -> Iterator[Opener]:
    withdrawn: list[Callable[[], None]] = []

    def open_game(game: Game) -> TablesideApp:
        withdrawn.append(registry.register(game))
        store = CampaignStore.open(tmp_path / "duel.json", ruleset=game.id)
        return TablesideApp(Campaign(store, rng=random.Random(3), clock=lambda: FIXED_NOW))

    yield open_game
    for withdraw in withdrawn:
        withdraw()


@pytest.fixture
def registered() -> Iterator[Callable[[Game], Game]]:
    withdrawn: list[Callable[[], None]] = []

    def register(game: Game) -> Game:
        withdrawn.append(registry.register(game))
        return registry.game(game.id)

    yield register
    for withdraw in withdrawn:
        withdraw()


def _saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


def _setup_text(app: TablesideApp) -> str:
    return " ".join(str(app.screen.query_one("#check-setup", Static).render()).split())


def test_the_api_is_1_2_and_games_written_for_1_0_and_1_1_still_load() -> None:
    import tableside_api

    assert API_VERSION == "1.2" == tableside_api.API_VERSION
    assert api_problem("1.0") == api_problem("1.1") == api_problem("1.2") == ""
    assert "newer Tableside" in api_problem("1.3")
    assert DUEL.api_version == "1.0"


def test_the_api_exports_what_the_guide_names() -> None:
    import tableside_api

    for name in (
        "Initiative",
        "APRounds",
        "ChosenNext",
        "INITIATIVE",
        "Answers",
        "CliFlag",
        "Table",
    ):
        assert name in tableside_api.__all__, name
    assert issubclass(tableside_api.Initiative, tableside_api.TurnOrder)
    assert tableside_api.Hit.__annotations__["answers"] in ("Answers", tableside_api.Answers)


# --- every check in the tray ----------------------------------------------------------------
def _two_checks() -> Game:
    duel = DUEL.checks.checks[0]
    bonus = duel.inputs[0]
    nerve = Check(
        id="nerve",
        name="Nerve check",
        inputs=(dataclasses.replace(bonus, key="nerve", label="Nerve"),),
        spec=lambda setup: _spec(Setup({"bonus": setup.values["nerve"]}, setup.who)),
        legend="4+ holds",
    )
    return dataclasses.replace(DUEL, checks=dataclasses.replace(DUEL.checks, checks=(duel, nerve)))


async def test_every_check_a_game_states_is_reachable_in_the_tray(play: Opener) -> None:
    """Before: the tray only ever showed a game's first check; a second was unreachable."""
    app = play(_two_checks())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        assert "Bonus: 0" in _setup_text(app) and "Next check" in footer_words(app)
        await pilot.press("X")
        await pilot.pause()
        assert "Nerve: 0" in _setup_text(app)
        await pilot.press("right_square_bracket", "right_square_bracket", "c")
        await pilot.pause()
        rolls = [e for e in _saved(app)["log"].values() if e["kind"] == "roll"]
        assert [e["expression"] for e in rolls] == ["d6+2 vs 4"]
        await pilot.press("X")
        await pilot.pause()
        assert "Bonus: 0" in _setup_text(app)
    app.campaign.store.close()


def test_odds_on_the_command_line_take_any_check_and_its_inputs(
    registered: Callable[[Game], Game], capsys: pytest.CaptureFixture[str]
) -> None:
    registered(_two_checks())
    assert cli.main(["odds", "--game", "duel", "--check", "nerve", "--nerve", "2", "--json"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert out["exact"] == {"Hit": "5/6", "Miss": "1/6"}
    assert cli.main(["odds", "--game", "duel", "--check", "dodge"]) == 2
    assert "Duel has no check 'dodge' (its checks: duel, nerve)" in capsys.readouterr().err


# --- the PC's sheet where a hook needs it ----------------------------------------------------
async def test_preset_tags_and_turn_note_are_told_the_sheet(play: Opener) -> None:
    """Before: preset got the encounter and the roller's id only; tags and turn_note no sheet."""
    seen: dict[str, Any] = {}

    def preset(encounter: Any, who: int | None, pc: Mapping[str, Any] | None) -> Preset | None:
        seen["preset"] = None if pc is None else pc["name"]
        return Preset({"bonus": 2}, "steady hands") if pc is not None else None

    def tags(c: er.Combatant, sheet: Mapping[str, Any] | None) -> list[str]:
        grit = sheet["resources"]["grit"]["current"] if sheet else "-"
        return [f"grit {grit}"]

    def turn_note(enc: er.Encounter, c: er.Combatant, sheet: Mapping[str, Any] | None) -> str:
        return "gritty" if sheet else ""

    checks = dataclasses.replace(DUEL.checks, preset=preset)
    fight = dataclasses.replace(DUEL.fight, tags=tags, turn_note=turn_note)
    app = play(dataclasses.replace(DUEL, checks=checks, fight=fight, api_version="1.2"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        await pilot.press("1", "ctrl+n", "enter", "p", "i", "alt+r")
        await pilot.pause()
        row = next(line for line in screen_text(app) if "Robin" in line and "6/6" in line)
        assert "grit 6" in row and "gritty" in row
        await pilot.press("2")  # Robin's turn: Robin rolls
        await pilot.pause()
        assert seen["preset"] == "Robin" and "Who: Robin" in _setup_text(app)
        assert "Bonus: 2" in _setup_text(app) and "steady hands" in _setup_text(app)
    app.campaign.store.close()


async def test_a_pick_forgets_the_last_rollers_choice(play: Opener) -> None:
    """Before: a pick input kept the previous roller's value (a skill this one lacks)."""

    def skills(pc: Mapping[str, Any] | None) -> Sequence[str]:
        return [] if pc is None else list(pc.get("lists", {}).get("skills", []))

    duel = DUEL.checks.checks[0]
    pick = CheckInput("skill", "Skill", "pick", default="", press="k", options=skills)
    check = dataclasses.replace(duel, inputs=(*duel.inputs, pick))
    app = play(dataclasses.replace(DUEL, checks=dataclasses.replace(DUEL.checks, checks=(check,))))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Robin", "enter", "a", *"Marian", "enter")
        await pilot.pause()
        robin = app.campaign.rows("party")[0][0]
        app.campaign.store.data["party"][str(robin)].setdefault("lists", {})["skills"] = ["Archery"]
        await pilot.press("2", "p", "k")
        await pilot.pause()
        assert "Skill: Archery" in _setup_text(app)
        await pilot.press("p")  # Marian has no Archery
        await pilot.pause()
        assert "Skill: none" in _setup_text(app)
    app.campaign.store.close()


# --- attributes: steps and labels ------------------------------------------------------------
def _dice_attributes() -> Game:
    die = AttributeSpec(
        "agility", "Agility", 6, 4, 12, steps=(4, 6, 8, 10, 12), text=lambda v: f"d{v}"
    )
    smarts = AttributeSpec("smarts", "Smarts", 1, 1, 5)
    sheet = dataclasses.replace(DUEL.ruleset.sheet, attributes=(die, smarts))
    shown = SheetRules(attribute_text=lambda value, key: f"{key} {value}")
    return dataclasses.replace(
        DUEL, ruleset=dataclasses.replace(DUEL.ruleset, sheet=sheet), sheet=shown
    )


async def test_an_attribute_steps_along_its_own_values_and_reads_its_own_way(
    play: Opener,
) -> None:
    """Before: + and - stepped every attribute by 1 (d6 -> d8 could not be an attribute) and
    attribute_text was not told which attribute it formats."""
    app = play(_dice_attributes())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        text = "\n".join(screen_text(app))
        assert "d6" in text and "smarts 1" in text
        screen = app.screen
        assert isinstance(screen, PartyScreen)
        await pilot.press("tab")  # into the sheet's fields
        for _ in range(12):  # down the sheet to Agility, as a GM would with j
            if screen.selected_field == "attr:agility":
                break
            await pilot.press("j")
        assert screen.selected_field == "attr:agility"
        await pilot.press("plus")
        await pilot.pause()
        assert _saved(app)["party"]["1"]["attributes"]["agility"] == 8
        assert "d8" in "\n".join(screen_text(app))
        assert any("Agility d8" in str(e.get("text", "")) for e in _saved(app)["log"].values())
    app.campaign.store.close()


# --- a fight's start and end -----------------------------------------------------------------
def _fight_hooks(seen: list[str]) -> Game:
    def start(tx: Tx, enc_id: int) -> list[str]:
        doc = tx.get("encounters", enc_id)
        doc["combatants"][0]["stats"]["omen"] = "crow"
        tx.put("encounters", enc_id, doc)
        seen.append(f"start round {doc['round']}")
        return ["An omen: a crow"]

    def end(tx: Tx, enc_id: int) -> list[str]:
        seen.append(f"end started={tx.get('encounters', enc_id)['started']}")
        return ["The crow flies"]

    fight = dataclasses.replace(DUEL.fight, fight_start=start, fight_end=end)
    return dataclasses.replace(DUEL, fight=fight)


def _campaign_with_a_fight(game: Game, tmp_path: Path) -> tuple[Campaign, int]:
    from app.commands.combat import AddParty, NewEncounter
    from app.commands.party import AddPC

    campaign = Campaign(
        CampaignStore.open(tmp_path / "f.json", ruleset=game.id), rng=random.Random(1)
    )
    campaign.apply(AddPC("Robin"))
    campaign.apply(NewEncounter("Road"))
    ((enc_id, _),) = campaign.rows("encounters")
    campaign.apply(AddParty(enc_id))
    return campaign, enc_id


def test_what_fight_start_writes_stands_and_fight_end_runs(
    registered: Callable[[Game], Game], tmp_path: Path
) -> None:
    """Before: fight_start's writes to the encounter were dropped without a word; no hook ran
    when a fight ended."""
    seen: list[str] = []
    game = registered(_fight_hooks(seen))
    campaign, enc_id = _campaign_with_a_fight(game, tmp_path)
    lines = campaign.apply(StartEncounter(enc_id))
    assert "An omen: a crow" in lines and seen == ["start round 1"]
    doc = campaign.doc("encounters", enc_id)
    assert doc is not None and doc["combatants"][0]["stats"]["omen"] == "crow"
    assert doc["started"] and doc["current"] is not None
    assert "The crow flies" in campaign.apply(EndEncounter(enc_id))
    assert seen[-1] == "end started=False"
    campaign.undo()
    assert campaign.doc("encounters", enc_id)["started"]  # type: ignore[index]
    campaign.store.close()


def test_a_game_turns_morale_off(registered: Callable[[Game], Game], tmp_path: Path) -> None:
    from rulesets import fight as fr

    for morale, expected in ((True, True), (False, False)):
        game = registered(
            dataclasses.replace(DUEL, fight=dataclasses.replace(DUEL.fight, morale=morale))
        )
        campaign, enc_id = _campaign_with_a_fight(game, tmp_path / str(morale))

        @dataclasses.dataclass(frozen=True)
        class Look:
            encounter_id: int
            expected: bool
            label: str = "look"

            def run(self, tx: Tx) -> list[str]:
                fight = fr.load(tx, self.encounter_id)
                hd = er.Combatant(id="g", name="Goblin", side="npc", stats={"hp": 3, "hp_max": 3})
                assert fight.checks_morale(hd) is self.expected
                return []

        campaign.apply(Look(enc_id, expected))
        campaign.store.close()


# --- a game's own save migrations ------------------------------------------------------------
def _renamed(data: dict[str, Any]) -> None:
    for pc in data.get("party", {}).values():
        grit = pc.get("resources", {}).pop("grit", None)
        if grit is not None:
            pc["resources"]["nerve"] = grit


def test_an_older_save_of_a_game_is_migrated_by_the_game_not_refused(
    registered: Callable[[Game], Game], tmp_path: Path
) -> None:
    """Before: after the sheet changed, the older save was refused (exit 2)."""
    from rulesets.base import ResourceSpec

    path = tmp_path / "old.json"
    registered(DUEL)
    old = Campaign(CampaignStore.open(path, ruleset="duel"), rng=random.Random(1))
    from app.commands.party import AddPC

    old.apply(AddPC("Robin"))
    old.store.close()
    assert "game_version" not in read_campaign(path)["meta"]["1"]

    sheet = dataclasses.replace(DUEL.ruleset.sheet, resources=(ResourceSpec("nerve", "Nerve", 6),))
    newer = dataclasses.replace(
        DUEL,
        ruleset=dataclasses.replace(DUEL.ruleset, sheet=sheet),
        save_version=2,
        migrations={1: _renamed},
    )
    registered(newer)
    campaign = open_campaign(path)
    try:
        (robin,) = [pc for _, pc in campaign.rows("party")]
        assert robin["resources"] == {"nerve": {"current": 6, "max": 6}}
        assert campaign.meta["game_version"] == 2
    finally:
        campaign.store.close()

    def refuses(data: dict[str, Any]) -> None:
        raise RuleError("the grit of 2025 is gone")

    registered(dataclasses.replace(newer, save_version=3, migrations={1: _renamed, 2: refuses}))
    with pytest.raises(LaunchError, match="Duel could not migrate version 2: the grit of 2025"):
        open_campaign(path)


# --- mypy finds the game API in an editable install -------------------------------------------
LOCAL_INDEX = Path("/opt/pypi/simple")
"""Where this machine's pip finds setuptools and wheel offline (the build's requirements)."""

GAME_FILE = """from tableside_api import API_VERSION, Game, TurnOrder

VERSION: str = API_VERSION


def order() -> TurnOrder:
    return TurnOrder()


def wrong() -> Game:
    return 3
"""


def _mypy(game: Path, python: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--strict"]
        + ["--python-executable", str(python), game.name],
        capture_output=True,
        text=True,
        cwd=game.parent,
        check=False,
    )
    return done.stdout


@pytest.mark.skipif(not LOCAL_INDEX.is_dir(), reason="no offline package index for the build")
def test_mypy_finds_tableside_api_in_the_guides_editable_install(tmp_path: Path) -> None:
    """Before: with the guide's ``pip install -e`` set-up, mypy could not find
    ``tableside_api``. The cause: for Tableside's flat layout, and its ``tableside_api`` mapped
    from ``rulesets/api`` (package-dir), setuptools' default editable mode installs an import
    hook (a MetaPathFinder in ``__editable___tableside_*_finder.py``), and mypy resolves
    imports by walking search paths, never through import hooks. The guide's set-up now asks
    for ``editable_mode=strict``: a tree of links (``tableside_api/`` among them) named by a
    ``.pth`` path, which mypy reads. Checked on a copy of the checkout (strict mode writes its
    link tree under the project's ``build/``)."""
    import shutil

    root = Path(__file__).resolve().parents[1]
    checkout = tmp_path / "tableside"
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(root / name, checkout / name)
    for package in ("app", "screens", "widgets", "rulesets"):
        shutil.copytree(
            root / package, checkout / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps"]
    index = ["--index-url", LOCAL_INDEX.as_uri()]
    # The set-up exactly as the guide gives it: its options after the checkout's path.
    guide = (root / "docs" / "writing-a-game.md").read_text(encoding="utf-8")
    found = re.search(r"pip install -e /path/to/tableside((?: --\S+ \S+)*)", guide)
    assert found is not None, "the guide gives no editable install of a Tableside checkout"
    subprocess.run(
        [*pip, *index, "-e", str(checkout), *found[1].split()],
        check=True,
        capture_output=True,
    )
    game = tmp_path / "mygame" / "mygame.py"
    game.parent.mkdir()
    game.write_text(GAME_FILE, encoding="utf-8")
    said = _mypy(game, python)
    assert "Cannot find implementation or library stub" not in said, said
    assert 'Incompatible return value type (got "int", expected "Game")' in said, said
    assert said.count("error:") == 1, said


def test_no_docstring_of_the_game_api_points_a_game_at_rulesets() -> None:
    """A game imports ``tableside_api`` only: what it reads of the API names nothing else."""
    import inspect

    import tableside_api

    found = []
    for name in tableside_api.__all__:
        value = getattr(tableside_api, name)
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        docs = [(name, inspect.getdoc(value) or "")]
        if inspect.isclass(value):
            docs += [
                (f"{name}.{k}", inspect.getdoc(v) or "")
                for k, v in vars(value).items()
                if callable(v) or isinstance(v, property)
            ]
        found += [where for where, doc in docs if "rulesets." in doc]
    assert found == []

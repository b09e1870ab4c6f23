"""A sixth game installed as a real package, through its entry point, and played by keys
(the game author's side).

tests/fixtures/toy_game is the example of docs/writing-a-game.md: a package of its own
(``tableside-duel``) that imports only ``tableside_api`` and registers ``duel`` in the
``tableside.games`` group. It is pip-installed here once per test process, offline, into a
temporary folder (never into the test venv), which each test puts on ``sys.path``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app.launch import open_campaign
from app.store import read_campaign
from app.tui import TablesideApp
from rulesets import registry
from tableside_api.testing import check_game, installed_games
from tests.apphelpers import SIZE
from widgets.combat_table import CombatTable

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "toy_game"
GUIDE = ROOT / "docs" / "writing-a-game.md"


def _wheel(source: Path, folder: Path) -> Path:
    """The fixture package as a wheel, made from its pyproject.toml (name, version, entry
    points, packages): the test venv's setuptools (65) cannot build one without the ``wheel``
    package, and the test must stay offline, so the few files a wheel is are written here."""
    project = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))
    meta = project["project"]
    name, version = meta["name"].replace("-", "_"), meta["version"]
    info = f"{name}-{version}.dist-info"
    entries = "".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()) + "\n"
        for group, points in meta["entry-points"].items()
    )
    files = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": entries,
    }
    for package in project["tool"]["setuptools"]["packages"]:
        for module in sorted((source / package).glob("*.py")):
            files[f"{package}/{module.name}"] = module.read_text(encoding="utf-8")
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
        archive.writestr(
            f"{info}/RECORD", "".join(f"{p},,\n" for p in files) + f"{info}/RECORD,,\n"
        )
    return wheel


@pytest.fixture(scope="session")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy game pip-installed, as a wheel of its package, into a folder of its own (never
    the test venv): offline, no index, no dependencies. One per xdist worker."""
    work = tmp_path_factory.mktemp("toy_game")
    wheel = _wheel(FIXTURE, work)
    site = work / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
         "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    assert (site / "tableside_duel" / "game.py").is_file()
    assert list(site.glob("tableside_duel-1.0.0.dist-info/entry_points.txt"))
    return site


@pytest.fixture
def duel_installed(toy_site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(toy_site))
    for cache in ("_failed", "_loaded", "_origins"):
        monkeypatch.setattr(registry, cache, {}, raising=False)
    registry._entry_points.cache_clear()
    yield toy_site
    registry._entry_points.cache_clear()
    for name in [
        m for m in sys.modules if m == "tableside_duel" or m.startswith("tableside_duel.")
    ]:
        del sys.modules[name]


def test_the_toy_game_is_installed_through_its_entry_point_and_passes_the_kit(
    duel_installed: Path, tmp_path: Path, _isolated_saves: Path
) -> None:
    assert "duel" in installed_games()
    assert registry.origin("duel") == "tableside_duel"
    assert registry.game("duel").name == "Duel"
    check_game("duel", tmp_path)


def test_installing_the_toy_game_leaves_the_test_venv_alone(duel_installed: Path) -> None:
    import importlib.metadata
    import sysconfig

    venv = Path(sysconfig.get_paths()["purelib"])
    assert not list(venv.glob("tableside_duel*")) and duel_installed != venv
    dists = importlib.metadata.distributions(path=[str(venv)])
    assert "tableside-duel" not in {d.metadata["Name"] for d in dists}
    assert (duel_installed / "tableside_duel" / "game.py").is_file()


def _saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


def _encounter(app: TablesideApp) -> dict[str, Any]:
    (enc,) = _saved(app)["encounters"].values()
    return dict(enc)


def _foe_grit(app: TablesideApp) -> dict[str, int]:
    foe = next(c for c in _encounter(app)["combatants"] if c["side"] != "pc")
    return dict(foe["stats"]["sheet"]["resources"]["grit"])


async def test_the_installed_toy_game_is_played_by_keys(
    duel_installed: Path, tmp_path: Path
) -> None:
    campaign = open_campaign(tmp_path / "duel.json", ruleset="duel", seed=7)
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        assert _saved(app)["meta"]["1"]["ruleset"] == "duel"

        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        (robin,) = _saved(app)["party"].values()
        assert robin["name"] == "Robin" and robin["resources"]["grit"] == {"current": 6, "max": 6}

        await pilot.press("1", "ctrl+n", "enter")
        await pilot.pause()
        await pilot.press("p")
        await pilot.press("q", *"Slime", "tab", "tab", "3", "enter")
        await pilot.pause()
        assert [c["name"] for c in _encounter(app)["combatants"]] == ["Robin", "Slime"]
        assert _foe_grit(app) == {"current": 3, "max": 3}

        await pilot.press("i", "alt+r")
        await pilot.pause()
        first = _encounter(app)
        assert first["round"] == 1 and first["current"] is not None
        await pilot.press("n")
        await pilot.pause()
        assert _encounter(app)["current"] != first["current"]
        await pilot.press("n")
        await pilot.pause()
        assert (_encounter(app)["round"], _encounter(app)["current"]) == (2, first["current"])

        # The tray states the installed game's check: the bonus by its key, its exact odds.
        await pilot.press("2", "right_square_bracket")
        await pilot.pause()
        assert "d6+1 vs 4" in str(app.screen.query_one("#check-setup", Static).render())
        chart = str(app.screen.query_one("#odds-chart").render())
        assert "Hit   66.7%" in chart and "Miss  33.3%" in chart  # 4 of 6 faces hit with +1
        await pilot.press("c")
        await pilot.pause()
        rolls = [e for e in _saved(app)["log"].values() if e.get("kind") == "roll"]
        duel = [e for e in rolls if str(e["expression"]).startswith("d6+1 vs 4")]
        assert len(duel) == 1 and duel[0]["band"] in ("Hit", "Miss")

        # Damage to the foe through the game's foe sheet, shown in its row, then undone.
        await pilot.press("1")
        await pilot.pause()
        order = [c["name"] for c in _encounter(app)["combatants"]]
        await pilot.press("k", "k", *["j"] * order.index("Slime"))
        table = app.screen.query_one("#combatants", CombatTable)
        await pilot.press("t", "2", "enter")
        await pilot.pause()
        assert _foe_grit(app) == {"current": 1, "max": 3}
        row = " ".join(str(cell) for cell in table.get_row_at(order.index("Slime")))
        assert "1/3 Grit" in row
        await pilot.press("u")
        await pilot.pause()
        assert _foe_grit(app) == {"current": 3, "max": 3}
    campaign.store.close()
    saved = read_campaign(tmp_path / "duel.json")
    assert saved["meta"]["1"]["ruleset"] == "duel"
    assert saved["party"]["1"]["resources"]["grit"]["current"] == 6


def _guide_files() -> dict[str, str]:
    """The guide's code blocks that stand for a fixture file: a block right after a line
    ``<!-- file: PATH -->``."""
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```\n", text, flags=re.S)
    return dict(blocks)


def test_the_guide_shows_the_toy_game_as_it_is() -> None:
    files = {path: code for path, code in _guide_files().items() if "toy_game" in path}
    wanted = {"pyproject.toml", "tableside_duel/__init__.py", "tableside_duel/game.py"}
    assert {Path(p).relative_to("tests/fixtures/toy_game").as_posix() for p in files} == wanted
    for path, code in files.items():
        assert code == (ROOT / path).read_text(encoding="utf-8"), f"{path} drifted from the guide"

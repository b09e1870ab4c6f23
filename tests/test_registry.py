"""The registry opens a game Tableside ships without reading installed packages' metadata
(a cost of every start-up), and its list of those games agrees with what pyproject.toml registers."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rulesets import registry

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_games_are_the_entry_points_pyproject_registers() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"][registry.GROUP] == registry.SHIPPED
    installed = {name: ep.value for name, ep in registry._entry_points().items()}
    assert registry.SHIPPED.items() <= installed.items()


def test_opening_a_shipped_game_reads_no_package_metadata() -> None:
    code = (
        "import sys\n"
        "from rulesets import registry\n"
        "game = registry.game('shadows')\n"
        "print(game.name, 'importlib.metadata' in sys.modules)\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert ran.stdout.split()[-1] == "False", ran.stdout
    assert ran.stdout.startswith(registry.game("shadows").name)


def test_a_shipped_game_is_listed_and_known_like_any_other() -> None:
    assert set(registry.SHIPPED) <= set(registry.ids())
    assert all(registry.is_known(game_id) for game_id in registry.SHIPPED)
    assert registry.origin("nemron") == "rulesets.nemron"


def test_opening_a_demo_from_the_command_line_reads_no_package_metadata(tmp_path: Path) -> None:
    """Nor loads OpenSSL's bindings (hashlib) for the save's digest: both were a cost on every
    start-up."""
    code = (
        "import sys\n"
        "from app import tui\n"
        "tui.TablesideApp.run = lambda self, **kw: None\n"
        "from app import cli\n"
        "print(cli.main(['--demo', 'nemron']), 'importlib.metadata' in sys.modules,\n"
        "      'hashlib' in sys.modules)\n"
    )
    env = {**os.environ, "TABLESIDE_SAVES": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert ran.stdout.split() == ["0", "False", "False"], ran.stdout + ran.stderr
    assert list(tmp_path.glob("demo-nemron-*.json"))


def test_the_help_names_every_installed_game(capsys: pytest.CaptureFixture[str]) -> None:
    from app import cli

    with pytest.raises(SystemExit) as ended:
        cli.main(["--help"])
    assert ended.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    games = ", ".join(registry.ids())
    assert f"game of a new campaign ({games}); default {registry.DEFAULT}" in text
    assert text.endswith(f"Games: {games}.")

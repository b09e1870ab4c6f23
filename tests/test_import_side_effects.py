"""Importing Tableside changes nothing for the process; the TUI puts back what it changed.

The players' server (``tableside serve``) and every other command run with Python's own
garbage-collector settings: only the TUI's launch raises them, for its start-up.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from tests.apphelpers import SIZE, demo_app

ROOT = Path(__file__).resolve().parent.parent


def test_importing_the_app_leaves_the_collector_as_python_has_it() -> None:
    code = (
        "import gc\n"
        "before = (gc.get_threshold(), gc.isenabled())\n"
        "import app, app.tui, app.cli, app.cli_serve, app.launch\n"
        "print(before == (gc.get_threshold(), gc.isenabled()), gc.get_threshold())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split()[0] == "True", done.stdout


async def test_the_app_puts_the_collector_back_when_it_ends(tmp_path: Path) -> None:
    before = gc.get_threshold()
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
    app.campaign.store.close()
    assert gc.get_threshold() == before
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_the_command_that_opens_the_tui_puts_the_collector_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from app import cli

    before = gc.get_threshold()
    assert cli.main(["--where"]) == 0
    assert gc.get_threshold() == before
    assert capsys.readouterr().out

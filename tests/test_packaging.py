"""A wheel built from the checkout holds every module and stylesheet (pipx and
uv tool install build a wheel; one that lacked app.commands started with a traceback).
.ci/run goes further: it installs the wheel in a fresh venv outside the checkout and runs it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("app", "screens", "widgets", "rulesets")


def test_the_wheel_ships_every_module_and_stylesheet(tmp_path: Path) -> None:
    # Built from a clean copy: pip builds in the source tree and reuses a build/ folder left by
    # an earlier build, which would hide a package the configuration no longer finds.
    source = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for package in PACKAGES:
        shutil.copytree(REPO / package, source / package, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("tableside-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    wanted = {
        path.relative_to(REPO).as_posix()
        for package in PACKAGES
        for pattern in ("*.py", "*.tcss")
        for path in (REPO / package).rglob(pattern)
        if "__pycache__" not in path.parts
    }
    assert "app/commands/__init__.py" in wanted
    # The game API's folder ships under its public name (pyproject.toml's package-dir), once.
    api = {p for p in wanted if p.startswith("rulesets/api/")}
    assert "rulesets/api/testing.py" in api
    wanted = (wanted - api) | {p.replace("rulesets/api/", "tableside_api/", 1) for p in api}
    assert sorted(wanted - shipped) == []
    assert not any(name.startswith("rulesets/api/") for name in shipped)

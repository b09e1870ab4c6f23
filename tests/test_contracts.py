"""Import contracts: what may import what, read from the source (every import, local ones too).

- ``rulesets`` imports none of ``app``, ``screens``, ``widgets``, ``textual``, ``rich``;
- the state path (``app/state.py``, ``app/store.py``, ``app/schema.py``, ``app/commands/``)
  imports no Textual;
- widgets import nothing of ``app``; the app's core (state, store, schema, queries,
  commands) imports no screen or widget;
- screens and widgets reach the app through a small protocol, never by importing ``app.tui``
  (nor the command line or the launcher), and the app's modules import each other, the
  screens and the widgets without a cycle;
- the shell (``app/``, ``screens/``, ``widgets/``) names no game: no game id in its text and no
  import of a game's package. A game is a plug-in.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHELL = ("app", "screens", "widgets")
GAME_PACKAGES = sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/game.py"))
"""A game's package declares its Game in game.py; other packages of rulesets (turn_orders) are
the shared core every game builds on."""


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources(*packages: str) -> list[Path]:
    return sorted(p for pkg in packages for p in (ROOT / pkg).rglob("*.py"))


def _imports(path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``path`` imports at run time (type-checking-only imports left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    package = _module(path).rsplit(".", 1)[0] if path.name != "__init__.py" else _module(path)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            yield base, node.lineno
            for alias in node.names:  # "from rulesets import shadows" imports a package too
                yield f"{base}.{alias.name}", node.lineno


def _offenders(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in paths
        for name, line in _imports(path)
        if name.split(".")[0] in forbidden or any(name.startswith(f + ".") for f in forbidden)
    ]


# The game API's test kit (tableside_api.testing) drives the app's own campaign and keymap:
# it is a test tool shipped beside the rules, not a rule, so it alone may import the shell.
TEST_KIT = ROOT / "rulesets" / "api" / "testing.py"


def test_rulesets_import_no_app_screens_widgets_textual_or_rich() -> None:
    rules = [p for p in _sources("rulesets") if p != TEST_KIT]
    assert TEST_KIT.is_file() and len(rules) == len(_sources("rulesets")) - 1
    bad = _offenders(rules, ("app", "screens", "widgets", "textual", "rich"))
    assert bad == []


def test_the_game_api_imports_only_rules() -> None:
    """tableside_api itself (what a game imports) stays pure: a game importing it in its own
    process loads no Textual and no app."""
    bad = _offenders(
        [ROOT / "rulesets" / "api" / "__init__.py"],
        ("app", "screens", "widgets", "textual", "rich"),
    )
    assert bad == []


def test_the_state_path_imports_no_textual() -> None:
    paths = [ROOT / "app" / f for f in ("state.py", "store.py", "schema.py")]
    paths += sorted((ROOT / "app" / "commands").rglob("*.py"))
    assert _offenders(paths, ("textual", "rich")) == []


def test_screens_and_widgets_do_not_import_the_app_shell() -> None:
    bad = _offenders(
        _sources("screens", "widgets"), ("app.tui", "app.cli", "app.launch", "app.cli_base")
    )
    assert bad == []


def test_widgets_import_no_app() -> None:
    """A widget shows what it is handed; it never reaches into the app package."""
    assert _offenders(_sources("widgets"), ("app",)) == []


CORE = ("state.py", "store.py", "schema.py", "journal.py", "queries.py", "bounded.py")


def test_the_apps_core_imports_no_screen_or_widget() -> None:
    """The state path (state, store, schema, queries, commands) sits below the
    screens: it imports none of them, so a script or the server can use it without a UI."""
    paths = [ROOT / "app" / f for f in CORE if (ROOT / "app" / f).exists()]
    paths += sorted((ROOT / "app" / "commands").rglob("*.py"))
    assert len(paths) > 8
    assert _offenders(paths, ("screens", "widgets", "textual", "rich")) == []


def test_no_import_cycle_in_the_shell() -> None:
    shell = {_module(p): p for p in _sources(*SHELL)}
    graph = {
        name: {dep for dep, _ in _imports(path) if dep in shell and dep != name}
        for name, path in shell.items()
    }
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                cycles.append([*trail[trail.index(dep) :], dep] if dep in trail else [node, dep])
            elif dep not in state:
                visit(dep, [*trail, dep])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_shell_names_no_game() -> None:
    """The plug-in check: ``grep -rEo '"(somnihil|…)"' app screens widgets`` finds none."""
    pattern = re.compile(r"[\"'](" + "|".join(map(re.escape, GAME_PACKAGES)) + r")[\"']")
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _sources(*SHELL)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []
    assert len(GAME_PACKAGES) >= 5


def test_the_shell_imports_no_game_package() -> None:
    bad = _offenders(_sources(*SHELL), tuple(f"rulesets.{g}" for g in GAME_PACKAGES))
    assert bad == []


@pytest.mark.parametrize("game", ["shadows", "aspects"])
def test_only_the_open_games_package_is_imported(tmp_path: Path, game: str) -> None:
    """A campaign loads its own game: every panel visited, no other game's package imported."""
    code = f"""
import asyncio, sys
from pathlib import Path
from app.demo import write_demo
from app.launch import open_campaign
from app.tui import TablesideApp

path = write_demo({game!r}, Path({str(tmp_path / "demo.json")!r}), seed=1)
campaign = open_campaign(path)
app = TablesideApp(campaign)

async def visit():
    async with app.run_test(size=(120, 36)) as pilot:
        for key in "1234":
            await pilot.press(key)
            await pilot.pause()

asyncio.run(visit())
campaign.store.close()
print(",".join(sorted({{m.split(".")[1] for m in sys.modules
                       if m.startswith("rulesets.") and m.count(".") >= 1}})))
"""
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded = set(proc.stdout.strip().splitlines()[-1].split(","))
    assert game in loaded
    assert loaded.isdisjoint(set(GAME_PACKAGES) - {game})

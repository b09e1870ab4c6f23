"""Build the app on a demo campaign with a seeded rng and a fixed clock, for Pilot and snapshots."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from app.demo import write_demo
from app.state import Campaign
from app.store import CampaignStore
from app.textual_compat import screen_lines
from app.tui import TablesideApp
from tests.conftest import FIXED_NOW
from widgets.footer import TablesideFooter

SIZE = (120, 36)


def open_demo(folder: Path, game: str = "somnihil", seed: int = 3) -> Campaign:
    path = folder / f"demo-{game}.json"
    if not path.exists():
        write_demo(game, path, seed=seed)
    store = CampaignStore.open(path)
    return Campaign(store, rng=random.Random(seed), clock=lambda: FIXED_NOW)


def demo_app(
    folder: Path, game: str = "somnihil", seed: int = 3, *, danger_meter: bool = False
) -> TablesideApp:
    """The app on a fresh demo campaign; close ``app.campaign.store`` when done. The tracker's
    danger meter is off unless asked for: its worker would race a snapshot."""
    return TablesideApp(open_demo(folder, game, seed), danger_meter=danger_meter)


def screen_text(app: TablesideApp) -> list[str]:
    """The top screen as the GM reads it: one string per terminal row (styles dropped)."""
    return list(screen_lines(app.screen))


def footer_words(app: TablesideApp) -> set[str]:
    """The words of the keys the top screen's Footer draws now (its palette key's too)."""
    return {key.description for key in app.screen.query_one(TablesideFooter).shown}


async def select_combatant(pilot: Pilot[None], cid: str) -> None:
    """In the combat tracker: move the selection (j/k) onto the combatant with that id."""
    from app.queries import current_encounter
    from screens.combat import CombatScreen

    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen)
    found = current_encounter(pilot.app.campaign)  # type: ignore[attr-defined]
    assert found is not None
    row = [c["id"] for c in found[1]["combatants"]].index(cid)
    while screen.table.cursor_row != row:
        await pilot.press("j" if screen.table.cursor_row < row else "k")
    await pilot.pause()


def last_roll(app: TablesideApp) -> dict[str, Any]:
    """The newest dice roll in the roll log."""
    return [e for e in app.campaign.log_entries() if e.get("kind") == "roll"][-1]


def running_encounter(app: TablesideApp) -> dict[str, Any]:
    """The current encounter's document as saved."""
    from app.queries import current_encounter

    found = current_encounter(app.campaign)
    assert found is not None
    return found[1]


def combatant_named(app: TablesideApp, name: str) -> dict[str, Any]:
    return next(c for c in running_encounter(app)["combatants"] if c["name"] == name)


async def select_named(pilot: Pilot[None], name: str) -> None:
    """In the combat tracker: move the selection onto the combatant of that name."""
    app = pilot.app
    assert isinstance(app, TablesideApp)
    await select_combatant(pilot, combatant_named(app, name)["id"])


def pane_text(app: TablesideApp) -> str:
    """What the pane right of the tracker's table reads (right of its border), each run of
    blanks as one space: ``HP 5/5 (3d8)``."""
    lines = screen_text(app)[1:-1]
    return "\n".join(" ".join(line.split("▏", 1)[1].split()) for line in lines if "▏" in line)


def under_table(app: TablesideApp) -> str:
    """The line under the tracker's table as the GM reads it: the amount line, or the exchange
    view or the find bar shown in its place."""
    from screens.combat.amount_line import UnderTable

    shown = [line for line in app.screen.query(UnderTable) if line.display]
    assert len(shown) == 1, shown
    return str(shown[0].render())

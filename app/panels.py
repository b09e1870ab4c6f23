"""The four panels as the app's modes, each imported when first shown: only the opening
panel's widgets cost start-up time. The panel keys (1-4) and the palette switch between
them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from textual.app import App, SystemCommand
from textual.screen import Screen

from screens.panel import PANELS


def _combat() -> Screen[None]:
    from screens.combat import CombatScreen

    return CombatScreen()


def _tray() -> Screen[None]:
    from screens.tray import TrayScreen

    return TrayScreen()


def _npcs() -> Screen[None]:
    from screens.npcs import NpcScreen

    return NpcScreen()


def _party() -> Screen[None]:
    from screens.party import PartyScreen

    return PartyScreen()


MODES: dict[str, str | Callable[[], Screen[None]]] = {
    "combat": _combat,
    "tray": _tray,
    "npcs": _npcs,
    "party": _party,
}
"""The app's modes: a panel's name to what builds it."""


def panel_commands(app: App[Any]) -> Iterator[SystemCommand]:
    """The palette's entry for each panel, with its key."""
    for key, panel, title in PANELS:
        yield SystemCommand(
            f"Panel: {title}",
            f"Switch to the {title} panel ({key})",
            lambda p=panel: app.switch_mode(p),
        )

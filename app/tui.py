"""The Tableside app: four panels as modes, global keys, and the bridge to the campaign."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterable
from typing import ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from app.messages import CampaignChanged
from app.state import Campaign, Command, CommandError
from app.store import StoreError
from screens.panel import PANELS

# Modals (help, quick roll, store error) are imported when first opened: none is on the first
# frame, so their widgets and stylesheets stay out of start-up.


# Panels are imported when first shown: only the opening panel's widgets cost start-up time.
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


class TablesideApp(App[None]):
    """A keyboard-driven table companion. Every change goes through :attr:`campaign`."""

    TITLE = "Tableside"
    CSS_PATH = "tui.tcss"
    ENABLE_COMMAND_PALETTE = True
    MODES: ClassVar[dict[str, str | Callable[[], Screen[None]]]] = {  # type: ignore[assignment]
        "combat": _combat,
        "tray": _tray,
        "npcs": _npcs,
        "party": _party,
    }
    DEFAULT_MODE = "combat"
    # Panel keys are shown in every panel's header tabs, so the Footer keeps its room for the
    # panel's own keys; help and the palette still list them.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "panel('combat')", "Combat", id="panel.combat", show=False),
        Binding("2", "panel('tray')", "Tray", id="panel.tray", show=False),
        Binding("3", "panel('npcs')", "NPCs", id="panel.npcs", show=False),
        Binding("4", "panel('party')", "Party", id="panel.party", show=False),
        Binding("d", "quick_roll", "Quick roll", id="app.quick_roll"),
        Binding("u,ctrl+z", "undo", "Undo", id="app.undo"),
        Binding("ctrl+y", "redo", "Redo", id="app.redo"),
        Binding("question_mark", "help", "Keys", id="app.help"),
        Binding(
            "escape",
            "leave_field",
            "Leave a text field (then a digit switches panel)",
            show=False,
            id="app.leave_field",
        ),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(self, campaign: Campaign) -> None:
        super().__init__()
        self.campaign = campaign
        campaign.listeners.append(self._on_campaign_change)
        campaign.store.on_error = self._on_store_error
        self._store_failed = False
        self.keymap: dict[str, str] = {}
        """The GM's keymap in effect (binding id -> keys), for screens that list keys."""

    def on_ready(self) -> None:
        # Load the dice parser in the background once the first frame is on screen, so the first
        # roll is instant. Started on mount, its ~130 ms of grammar building held the GIL
        # against composing and painting the opening panel.
        from rulesets.dice import warm_up

        self.run_worker(warm_up, thread=True, group="warm-up", exit_on_error=False)

    def on_mount(self) -> None:
        # The loaded campaign (a 5,000-NPC library is ~10^6 objects) and the widget tree live
        # as long as the app: moved out of the collector's sight, a full collection no longer
        # lands on a keypress as a 30 ms pause.
        self.call_after_refresh(gc.freeze)
        self._load_keymap()

    def _load_keymap(self) -> None:
        from app.keymap import load_keymap, register_bindings
        from screens.panel import action_bindings

        # The open game's actions are rebindable by their ids like the panels' own keys.
        for _key, panel, _title in PANELS:
            register_bindings(panel, action_bindings(self.campaign.game, panel))  # type: ignore[arg-type]
        keymap, problem = load_keymap(type(self))
        if keymap:
            self.keymap = keymap
            self.set_keymap(keymap)
        if problem:
            self.notify(problem, title="Keymap", severity="warning", timeout=20, markup=False)

    def get_key_display(self, binding: Binding) -> str:
        """A key as a GM types it: ``]``, ``?``, ``alt+n``, ``ctrl+z`` (Textual writes ``^z``)."""
        text = super().get_key_display(binding)
        return "ctrl+" + text[1:] if len(text) > 1 and text.startswith("^") else text

    # --- the one way to change anything ----------------------------------------------------------
    def apply(self, command: Command) -> list[str] | None:
        """Apply a command; on refusal tell the GM why and return None."""
        if self._store_failed:
            self.notify("Saving has stopped; changes are not possible.", severity="error")
            return None
        try:
            lines = self.campaign.apply(command)
        except CommandError as exc:
            self.notify(str(exc), title="Not done", severity="warning", markup=False)
            return None
        except StoreError as exc:
            self._on_store_error(exc)
            return None
        return lines

    def _on_campaign_change(self, tables: list[str]) -> None:
        self.screen.post_message(CampaignChanged(tables))

    def _on_store_error(self, exc: StoreError) -> None:
        # Called from the writer thread; hop to the UI thread.
        def show() -> None:
            from screens.store_error import StoreErrorScreen

            if self._store_failed:
                return
            self._store_failed = True
            self.push_screen(StoreErrorScreen(str(exc)))

        if self._thread_id == threading.get_ident():
            show()
        else:
            self.call_from_thread(show)

    # --- actions ---------------------------------------------------------------------------------
    def action_panel(self, panel: str) -> None:
        self.switch_mode(panel)

    def action_quick_roll(self) -> None:
        from screens.quick_roll import QuickRollScreen

        self.push_screen(QuickRollScreen())

    def action_undo(self) -> None:
        label = self.campaign.undo()
        self._say(f"Undid: {label}" if label else "Nothing to undo")

    def action_redo(self) -> None:
        label = self.campaign.redo()
        self._say(f"Redid: {label}" if label else "Nothing to redo")

    def _say(self, line: str) -> None:
        """A change's outcome on the panel's event line; a toast only where there is none."""
        from screens.panel import PanelScreen

        if isinstance(self.screen, PanelScreen):
            self.screen.show_result([line])
        else:
            self.notify(line, markup=False)

    def action_help(self) -> None:
        from screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen))

    def action_leave_field(self) -> None:
        self.screen.set_focus(None)

    async def action_quit(self) -> None:
        self._close_store()
        self.exit()

    def _close_store(self) -> None:
        # A failed store has already been shown to the GM; quitting must still work.
        with contextlib.suppress(StoreError):
            self.campaign.store.flush(timeout=10)

    # --- command palette ---------------------------------------------------------------------------
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        textual_own = list(super().get_system_commands(screen))
        yield from textual_own
        titles = {command.title.casefold() for command in textual_own}
        for key, _pid, title in PANELS:
            yield SystemCommand(
                f"Panel: {title}",
                f"Switch to the {title} panel ({key})",
                lambda p=_pid: self.switch_mode(p),
            )
        from screens.help import key_rows

        # One entry per action that works now, named as the Footer names it, with its keys:
        # the panel's own keys, the open game's actions for the panel and the app's keys.
        for row in key_rows(screen):
            if row.action.startswith("panel(") or row.description.casefold() in titles:
                continue
            yield SystemCommand(
                row.description,
                f"{row.description} ({row.keys})",
                lambda action=row.action, s=(self if row.from_app else screen): self.call_later(
                    s.run_action, action
                ),
            )

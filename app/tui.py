"""The Tableside app: four panels as modes, global keys, and the bridge to the campaign.

The app is the shell that holds the parts together, each in a module of its own: the keys in
order (:mod:`app.key_queue`), the save and its banner (:mod:`app.save_watch`), a game's
failures (:mod:`app.game_faults`), the toasts said (:mod:`app.notices`), the panels
(:mod:`app.panels`), the clock's keys (:mod:`app.clock_actions`), the collector
(:mod:`app.collector`) and the work behind the first frame (:mod:`app.first_frame`).
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable, Iterable
from typing import ClassVar

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widget import Widget

from app import css_cache
from app.clock_actions import ClockActions
from app.clock_keys import CLOCK_BINDINGS
from app.collector import Collector
from app.first_frame import FirstFrame
from app.game_faults import GameFaults, HookFailed
from app.key_queue import KeyQueue
from app.messages import CampaignChanged
from app.notices import Notice, Notices
from app.panels import MODES, panel_commands
from app.save_watch import SaveWatch
from app.state import Campaign, Command, CommandError
from app.store import SaveTooLarge, StoreError
from app.textual_compat import GameSafe
from app.typing_pause import TypingPause
from screens.panel import PANELS, PanelScreen
from widgets.footer import TablesideFooter

# Modals (help, quick roll, store error) are imported when first opened: none is on the first
# frame, so their widgets and stylesheets stay out of start-up.


class TablesideApp(GameSafe, App[None]):
    """A keyboard-driven table companion. Every change goes through :attr:`campaign`."""

    TITLE = "Tableside"
    CSS_PATH = "tui.tcss"
    ENABLE_COMMAND_PALETTE = True
    MODES: ClassVar[dict[str, str | Callable[[], Screen[None]]]] = MODES
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
        # priority: a dialog (a modal) hides the App's other keys, and the NOT SAVED banner shows
        # over dialogs too, so the key it names must work there.
        Binding(
            "ctrl+r", "retry_save", "Retry saving", show=False, id="app.retry_save", priority=True
        ),
        # The campaign clock, from every panel: shift and the number row climbs the steps.
        *CLOCK_BINDINGS,
    ]
    FOOTER: ClassVar[tuple[str, ...]] = (
        *("app.help", "app.undo", "app.quick_roll", "app.redo", "app.quit"),
    )
    """The app's keys in each panel's Footer, after the panel's own, most needed first."""

    def __init__(
        self, campaign: Campaign, *, handle_signals: bool = False, danger_meter: bool = True
    ) -> None:
        super().__init__()
        self.campaign = campaign
        self._handle_signals = handle_signals
        self.danger_meter = danger_meter
        """The tracker plays the fight out after each change (its danger meter); off, the
        meter's line is not shown (a snapshot that must not wait on a worker)."""
        campaign.listeners.append(self._on_campaign_change)
        self.keymap: dict[str, str] = {}
        """The GM's keymap in effect (binding id -> keys), for screens that list keys."""
        self._changed_now: list[str] | None = None
        """While :meth:`apply` applies a command: the tables it changed."""
        self.typing_pause = TypingPause(started=False)
        """When the GM last pressed a key: background counts wait for the keys to go quiet."""
        self._ui_thread = threading.get_ident()
        self._told = Notices()
        self.saves = SaveWatch(self, campaign, self._on_ui_thread)
        self.faults = GameFaults(self, campaign, self._told, self._on_ui_thread)
        self._collector = Collector(self)
        self._keys = KeyQueue(self, super().on_event, self._collector.key_through)
        self._first_frame = FirstFrame(self, then=self.typing_pause.start)
        self._clock = ClockActions(self, campaign, self.apply)
        # Parsed CSS shared across Textual's reparses and kept for the next start, while the
        # app runs (put back as Textual has it when it ends).
        self._stop_sharing_parses = css_cache.share_parses()

    @property
    def notices(self) -> list[Notice]:
        """What the app told the GM in toasts this session, oldest first (the newest
        :data:`app.notices.NOTICES_KEPT`): the app checks it before saying a thing twice,
        tests read it."""
        return self._told.kept

    @property
    def save_problem(self) -> str | None:
        """Why the newest changes are not on disk yet (the panels' banner); None: saved."""
        return self.saves.problem

    def _on_ui_thread(self) -> bool:
        return self._ui_thread == threading.get_ident()

    async def on_event(self, event: events.Event) -> None:
        # Keys go through the queue one at a time (app.key_queue: Textual would run the app's
        # bindings behind keys typed since).
        if isinstance(event, (events.Key, events.MouseDown)):
            self.typing_pause.key()
        if self._keys.takes(event):
            await self._keys.put(event)
            return
        await super().on_event(event)

    def type_ahead_ready(self, target: Widget) -> None:
        """The prompt's field has focus: the keys held for it go on, oldest first."""
        self._keys.type_ahead_ready()

    @on(TablesideFooter.KeysShown)
    def _first_frame_whole(self) -> None:
        self._first_frame.shown()

    def on_load(self) -> None:
        # Textual runs the app's messages on this thread; the store's writer thread and the
        # game guard's listeners hop to it with call_from_thread.
        self._ui_thread = threading.get_ident()
        self._collector.stop_until_first_frame()

    def on_mount(self) -> None:
        self.saves.opened()
        if self._handle_signals:
            # SIGTERM (kill, a shutdown) and SIGHUP (the terminal window closed) end the app
            # as ctrl+q does: Textual leaves the alternate screen and turns mouse tracking
            # off, the save is flushed, and launch() removes the lock and owner files. By
            # default Python died on the spot and left all of them behind.
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(signum, self._on_signal)
        self._load_keymap()
        self.faults.listen()

    def on_unmount(self) -> None:
        self.faults.stop()
        if self._stop_sharing_parses is not None:
            self._stop_sharing_parses()
        self._collector.restore()

    # --- a game's failure (app.game_faults) ------------------------------------------------------
    def on_hook_failed(self, message: HookFailed) -> None:
        self.faults.say(message.fault)

    def game_key_clash(self, text: str) -> None:
        self.faults.key_clash(text)

    def game_failed(self, error: Exception) -> bool:
        return self.faults.failed(error)

    def _load_keymap(self) -> None:
        from app.keymap import load_keymap, register_bindings
        from screens.panel import action_bindings

        # The open game's actions are rebindable by their ids like the panels' own keys.
        for _key, panel, _title in PANELS:
            register_bindings(panel, action_bindings(self.campaign.game, panel))
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

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        notice = Notice.shown(message, title, severity)
        self._told.add(notice)
        super().notify(
            notice.message,
            title=notice.title,
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    # --- the one way to change anything ----------------------------------------------------------
    def apply(
        self, command: Command, refused: Callable[[str], None] | None = None
    ) -> list[str] | None:
        """Apply a command; on refusal tell the GM why (``refused``: hand it the message
        instead) and return None."""
        if self.saves.stopped():
            return None
        self._changed_now = []
        try:
            lines = self.campaign.apply(command)
        except CommandError as exc:
            if refused is not None:
                refused(str(exc))
            else:
                self.notify(str(exc), title="Not done", severity="warning", markup=False)
            return None
        except StoreError as exc:
            self.saves.not_saved(exc)
            return None
        finally:
            changed, self._changed_now = self._changed_now, None
        if changed:
            # A method call down to the panel the change came from: its redraw is part of the
            # key that made the change, not a message handled after it.
            screen = self.screen
            if isinstance(screen, PanelScreen):
                screen.campaign_changed(changed)
            else:
                screen.post_message(CampaignChanged(changed))
        return lines

    def _on_campaign_change(self, tables: list[str]) -> None:
        if self._changed_now is not None and self._on_ui_thread():
            self._changed_now += tables  # told once the change is made (apply)
        else:
            self.screen.post_message(CampaignChanged(tables))
        self.saves.warn_if_large()

    # --- actions ---------------------------------------------------------------------------------
    def action_panel(self, panel: str) -> None:
        self.switch_mode(panel)

    def action_quick_roll(self) -> None:
        from screens.quick_roll import QuickRollScreen

        self.push_screen(QuickRollScreen())

    def action_undo(self) -> None:
        self._step(self.campaign.undo, "Undid", "Nothing to undo")

    def action_redo(self) -> None:
        self._step(self.campaign.redo, "Redid", "Nothing to redo")

    def _step(self, step: Callable[[], str | None], done: str, nothing: str) -> None:
        """Undo or redo, guarded like every other change (the palette reaches them too)."""
        if self.saves.stopped():
            return
        try:
            label = step()
        except (StoreError, SaveTooLarge) as exc:
            self.saves.not_saved(exc)
            return
        self._say(f"{done}: {label}" if label else nothing)

    def _say(self, line: str) -> None:
        """A change's outcome on the panel's event line; a toast only where there is none."""
        from screens.panel import PanelScreen

        if isinstance(self.screen, PanelScreen):
            self.screen.show_result([line])
        else:
            self.notify(line, markup=False)

    # --- the campaign clock (app.clock_actions) ---------------------------------------------------
    def action_clock(self, step: str) -> None:
        """!, @, #, $, %, ^: a round, a turn, an hour, a watch, the game's rest, a day."""
        self._clock.step(step)

    def action_clock_typed(self) -> None:
        """&: time passes for as long as the GM types, resting or at hard effort."""
        self._clock.typed()

    def action_fight_came_up(self) -> None:
        """*: what the encounter check brought up becomes the running fight."""
        self._clock.fight_came_up()

    def action_clock_screen(self) -> None:
        """ctrl+t: the clock's timed effects and encounter checks, to add or remove."""
        self._clock.open()

    def action_games(self) -> None:
        from screens.games import GamesScreen

        if not isinstance(self.screen, GamesScreen):
            self.push_screen(GamesScreen(str(self.campaign.meta.get("ruleset", "")), []))

    def action_help(self) -> None:
        from screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen))

    def action_leave_field(self) -> None:
        self.screen.set_focus(None)

    # --- the save (app.save_watch) -----------------------------------------------------------------
    def _on_signal(self) -> None:
        self.saves.close()
        self.exit()

    def action_retry_save(self) -> None:
        self.saves.retry()

    async def action_quit(self) -> None:
        if self.saves.may_quit():
            self.saves.close()
            self.exit()

    # --- command palette ---------------------------------------------------------------------------
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        textual_own = list(super().get_system_commands(screen))
        yield from textual_own
        titles = {command.title.casefold() for command in textual_own}
        yield from panel_commands(self)
        yield SystemCommand(
            "Installed games",
            "Every game installed, the open one marked; a broken one with the reason",
            self.action_games,
        )
        from screens.help import key_rows

        # One entry per action that works now, named as help names it: the panel's own keys,
        # the open game's actions for the panel and the app's keys. Its second line says its
        # keys (and what a game's action does), not its name again: "Add party" over
        # "Add party (p)" read as two entries.
        for row in key_rows(screen):
            if row.action.startswith("panel(") or row.description.casefold() in titles:
                continue
            titles.add(row.description.casefold())
            yield SystemCommand(
                row.description,
                f"key {row.keys}" + (f" · {row.detail}" if row.detail else ""),
                lambda action=row.action, s=(self if row.from_app else screen): self.call_later(
                    s.run_action, action
                ),
            )

"""The Tableside app: four panels as modes, global keys, and the bridge to the campaign."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from app import BACKSTOP_THRESHOLDS, USUAL_THRESHOLDS, css_cache
from app.clock_keys import CLOCK_BINDINGS
from app.messages import CampaignChanged
from app.state import Campaign, Command, CommandError
from app.store import MAX_SAVE_BYTES, WARN_SAVE_BYTES, ReadOnlySave, SaveTooLarge, StoreError
from app.textual_compat import GameSafe
from rulesets import guard
from rulesets.text import visible
from screens.panel import PANELS
from widgets.footer import TablesideFooter

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


def panel_stylesheets() -> list[Path]:
    """The stylesheets of the screens (the panels' and dialogs' CSS_PATH files), as Textual
    names them (resolved paths)."""
    import screens

    folder = Path(screens.__file__).parent
    return sorted(path.resolve() for path in folder.rglob("*.tcss"))


def _warm_up() -> None:
    """Once the first frame is on screen, in a thread: the dice parser (the first roll is then
    instant) and the other panels' code (their first visit then builds widgets, not imports:
    the imports were a third of a first visit to the NPC panel)."""
    import importlib

    from rulesets.dice import warm_up

    warm_up()
    # The tracker's commands first (app.lazy: the screen imports them on first use): the GM's
    # first key is most likely a tracker key.
    modules = ("app.commands.combat", "app.commands.npcs")
    for module in (*modules, "screens.tray", "screens.npcs", "screens.party", "screens.help"):
        importlib.import_module(module)


def _settle_collector() -> None:
    """At the first whole frame: what start-up built moves out of the collector's sight (the
    loaded campaign, a 5,000-NPC library is ~10^6 objects, and the widget tree live as long as
    the app, so a full collection no longer lands on a keypress as a pause), and the
    collector runs again, with its own thresholds only a backstop: the app collects when the
    keys pause (:func:`collect_due`). (app.launch raised them for the imports; the app stops
    it from its Load event: at 100,000 its first collection came just before the first whole
    frame and took a large part of it.)"""
    gc.freeze()
    gc.set_threshold(*BACKSTOP_THRESHOLDS)
    gc.enable()


def collect_due() -> int | None:
    """Collect what the keys left, as Python's own thresholds would: the app calls this when
    the keys pause (:data:`COLLECT_AFTER`), their results on screen. At those thresholds a
    300-combatant ``n`` ran the collector six to seven times before its frame, and a full
    collection now and then on top. Returns the generation
    collected, None when none was due."""
    young, older, oldest = gc.get_count()
    limit_young, limit_older, limit_oldest = USUAL_THRESHOLDS
    if young < limit_young:
        return None
    generation = (2 if oldest >= limit_oldest else 1) if older >= limit_older else 0
    gc.collect(generation)
    return generation


_NOW = frozenset({"ctrl+q", "ctrl+c"})
"""Keys never queued behind others: quitting works even while a key is stuck."""
KEY_TIMEOUT = 0.5
"""Longest a key may take to pass through its widgets before the next is sent anyway."""
PANEL_STYLES_AFTER = 0.25
"""Seconds after the first whole frame that the other panels' stylesheets are read."""
PROMPT_WAIT = 1.0
"""Longest keys are held for a prompt whose field has not taken focus."""
COLLECT_AFTER = 0.1
"""Seconds with no key after which the collector runs (:func:`collect_due`): a key's frame is
on screen well within it (even at 300 combatants), and a GM's next key rarely comes sooner.
Not the frame itself: a change reaches the panel as a message, after the key is through, so
Textual's after-refresh callbacks ran before the change was even drawn."""


NOTICES_KEPT = 100
"""Toasts :attr:`TablesideApp.notices` keeps (a session says a few dozen at most)."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One toast as the GM saw it (names from the save made visible)."""

    message: str
    title: str
    severity: SeverityLevel


class HookFailed(Message):
    """A game's hook failed on a thread of its own (the odds worked out off the UI thread)."""

    def __init__(self, fault: guard.GameHookError) -> None:
        super().__init__()
        self.fault = fault


class TablesideApp(GameSafe, App[None]):
    """A keyboard-driven table companion. Every change goes through :attr:`campaign`."""

    TITLE = "Tableside"
    CSS_PATH = "tui.tcss"
    ENABLE_COMMAND_PALETTE = True
    MODES: ClassVar[dict[str, str | Callable[[], Screen[None]]]] = {
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
        campaign.store.on_error = self._on_store_error
        campaign.store.on_status = self._on_save_status
        self._store_failed = False
        self.keymap: dict[str, str] = {}
        """The GM's keymap in effect (binding id -> keys), for screens that list keys."""
        self.save_problem: str | None = None
        """Why the newest changes are not on disk yet (the panels' banner); None: saved."""
        self._size_warned = False
        self._keys: deque[events.Key] = deque()
        self._key_in_flight: int | None = None
        self._key_serial = 0
        self._collection: Timer | None = None
        self._held_for: Screen[object] | None = None
        self._held_since = 0.0
        self._quit_unsaved = False
        self._faults_said: set[str] = set()
        self.notices: list[Notice] = []
        """What the app told the GM in toasts this session, oldest first (the newest
        :data:`NOTICES_KEPT`): the app checks it before saying a thing twice, tests read it."""
        self._ui_thread = threading.get_ident()
        self._collector_before: tuple[tuple[int, ...], bool] = (gc.get_threshold(), gc.isenabled())
        self._warmed = False
        # Parsed CSS shared across Textual's reparses and kept for the next start, while the
        # app runs (put back as Textual has it when it ends).
        self._stop_sharing_parses = css_cache.share_parses()

    # --- keys in order: each key is handled before the next, prompts get keys typed ahead ---
    # Textual forwards a key to the focused widget and runs the app's bindings when it comes
    # back up, through the app's own queue, behind keys typed since: typed fast on a busy
    # machine, ``d 1d1+1 enter 1d1+2 enter`` sent digits to the panel before the quick roll
    # opened, or appended the second roll to the first before enter was handled (7 of 8
    # logged). So a key is forwarded only when the one before it has been through every
    # widget it bubbles to, and a prompt (``TYPE_AHEAD`` on its screen) gets the keys typed
    # before its field had focus.
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and event.key not in _NOW:
            self._keys.append(event)
            await self._pump_keys()
            return
        await super().on_event(event)

    async def _pump_keys(self) -> None:
        while self._keys and self._key_in_flight is None and not self._hold_for_prompt():
            key = self._keys.popleft()
            if self._type_run(key):
                continue
            target = self.focused or self.screen
            self._key_serial += 1
            token = self._key_serial
            self._key_in_flight = token
            # A key whose widget goes away mid-way (a panel switch) must not stall the rest.
            self.set_timer(KEY_TIMEOUT, lambda t=token: self._key_done(t))
            await super().on_event(key)
            self._follow_key(list(target.ancestors_with_self), 0, token)

    def _type_run(self, first: events.Key) -> bool:
        """Type ``first`` and the printable keys queued behind it into the focused text field
        at once; False (nothing done) unless there is such a run.

        A terminal without bracketed paste sends a paste as one key per character: handled
        one by one, each waiting for the one before to bubble through every widget, a long
        paste cost a round of messages and a frame per character. A printable key in a
        plain text field only types itself (the field stops it before any binding but a
        priority one), so the run is the same text, with one change and one frame.
        """
        field = self.focused
        if not (
            isinstance(field, Input)
            and field.type == "text"
            and not field.restrict
            and first.is_printable
            and self._keys
            and self._keys[0].is_printable
        ):
            return False
        priority = {k for k, b in self.active_bindings.items() if b.binding.priority}
        if first.key in priority:
            return False
        chars = [first.character or ""]
        while self._keys and self._keys[0].is_printable and self._keys[0].key not in priority:
            chars.append(self._keys.popleft().character or "")
        text = "".join(chars)
        start, end = sorted(field.selection)
        if field.max_length:
            room = max(0, field.max_length - (len(field.value) - (end - start)))
            if len(text) > room:
                text = text[:room]
                field.restricted()  # once, as the first key past the bound would
        if text:
            field.replace(text, start, end)
        return True

    def _follow_key(self, chain: list[DOMNode], index: int, token: int) -> None:
        """Queue behind the key on each node it may bubble to; at the app, it is done."""
        if self._key_in_flight != token:
            return
        if index == len(chain) or not chain[index].call_later(
            self._follow_key, chain, index + 1, token
        ):
            self._key_done(token)

    def _key_done(self, token: int) -> None:
        if self._key_in_flight == token:
            self._key_in_flight = None
            if gc.isenabled():  # off until the first whole frame
                if self._collection is not None:
                    self._collection.stop()
                self._collection = self.set_timer(COLLECT_AFTER, collect_due)
            if self._keys:
                self.call_later(self._pump_keys)

    def _hold_for_prompt(self) -> bool:
        """True while the open prompt's field has not taken focus yet (at most PROMPT_WAIT)."""
        field_id = getattr(self.screen, "TYPE_AHEAD", None)
        focused = self.focused
        if field_id is None or (focused is not None and focused.id == field_id):
            return False
        if self._held_for is not self.screen:
            self._held_for, self._held_since = self.screen, time.monotonic()
            # If the field never takes focus, the held keys still go on after the second.
            self.set_timer(PROMPT_WAIT + 0.05, self._pump_keys)
        return time.monotonic() - self._held_since < PROMPT_WAIT

    def type_ahead_ready(self, target: Widget) -> None:
        """The prompt's field has focus: the keys held for it go on, oldest first."""
        if self._keys:
            self.call_later(self._pump_keys)

    @on(TablesideFooter.KeysShown)
    def _first_frame_whole(self) -> None:
        # Load the dice parser and the other panels in the background once the first frame is
        # on screen whole, so the first roll and the first visits are instant. Its grammar
        # building holds the GIL: started on mount it held up composing the opening
        # panel, started at Ready (the first layout) it held up the Footer's keys.
        if not self._warmed:
            self._warmed = True
            self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        _settle_collector()
        self.run_worker(_warm_up, thread=True, group="warm-up", exit_on_error=False)
        # A moment later: restyling the panel on screen holds the interpreter while Textual's
        # writer thread is still sending the first frame to the terminal.
        self.set_timer(PANEL_STYLES_AFTER, self._load_panel_styles)

    def _load_panel_styles(self) -> None:
        """Every panel's and dialog's stylesheet joins the app's once the first frame is up.
        Textual reads a screen's CSS_PATH when the screen first shows, and then parses all the
        app's CSS again and restyles every widget of every panel: a first visit to the tray
        spent part of its time restyling the tracker behind it."""
        stylesheet = self.stylesheet
        fresh = [p for p in panel_stylesheets() if not stylesheet.has_source(str(p), "")]
        if fresh:
            for path in fresh:
                stylesheet.read(path)
            stylesheet.reparse()
            stylesheet.update(self)
        parses = css_cache.parses_to_save()
        if parses is not None:  # the next start reads the first frame's CSS parsed
            save = partial(css_cache.save_parses, parses)
            self.run_worker(save, thread=True, group="css-cache", exit_on_error=False)

    def on_load(self) -> None:
        # Textual runs the app's messages on this thread; the store's writer thread and the
        # game guard's listeners hop to it with call_from_thread.
        self._ui_thread = threading.get_ident()
        self._collector_before = (gc.get_threshold(), gc.isenabled())
        # No collection until the first whole frame (_settle_collector): start-up makes
        # objects that live all session, and next to no garbage.
        gc.disable()

    def on_mount(self) -> None:
        self._warn_if_large()  # a save opened already large says so at once
        for note in self.campaign.store.notes:  # a journal recovered, or kept aside
            self.notify(note, title="Save", severity="warning", timeout=30, markup=False)
        # The NOT SAVED banner follows the GM into every dialog, not only the panels.
        self.screen_change_signal.subscribe(self, self._show_save_problem)
        store = self.campaign.store
        # Found while opening, before this app listened: a save opened read-only, or the
        # journal's changes not yet written into the save file (a full disk).
        problem = store.read_only or (None if store.unsaved is None else str(store.unsaved))
        if problem is not None:
            self.save_problem = problem
            self.call_after_refresh(lambda: self._show_save_problem(self.screen))
        if self._handle_signals:
            # SIGTERM (kill, a shutdown) and SIGHUP (the terminal window closed) end the app
            # as ctrl+q does: Textual leaves the alternate screen and turns mouse tracking
            # off, the save is flushed, and launch() removes the lock and owner files. By
            # default Python died on the spot and left all of them behind.
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(signum, self._on_signal)
        self._load_keymap()
        guard.listeners.append(self._on_game_fault)

    def on_unmount(self) -> None:
        with contextlib.suppress(ValueError):
            guard.listeners.remove(self._on_game_fault)
        if self._stop_sharing_parses is not None:
            self._stop_sharing_parses()
        # The collector as the app found it: the process may go on (a test, a script).
        thresholds, enabled = self._collector_before
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()

    # --- a game's hook that raised (rulesets.guard) ------------------------------------------------
    def _on_game_fault(self, fault: guard.GameHookError) -> None:
        """Said once a session per hook, after the key that met it: a refusal that already
        said it (a command rolled back, a form's message) is not said twice."""
        if self._ui_thread == threading.get_ident():
            self.call_later(self._say_fault, fault)
        else:
            # Posted, not called: a hook's own thread (slow odds) must not wait for the UI,
            # which may be waiting a moment for that thread.
            self.post_message(HookFailed(fault))

    def on_hook_failed(self, message: HookFailed) -> None:
        self._say_fault(message.fault)

    def game_key_clash(self, text: str) -> None:
        if text in self._faults_said:
            return
        self._faults_said.add(text)
        self.notify(text, title="The game's keys", severity="warning", timeout=20, markup=False)

    def game_failed(self, error: Exception) -> bool:
        fault = self.campaign.game_fault(error)
        if fault is None:
            return False
        if fault is not error:
            self._say_fault(fault)  # a hook's failure was said by its listener already
        return True

    def _say_fault(self, fault: guard.GameHookError) -> None:
        text = str(fault)
        # Once per hook: a column that fails fails for every row, each with its own words.
        hook = f"{fault.game}: {fault.hook}"
        if fault.said or hook in self._faults_said:
            return
        self._faults_said.add(hook)
        if any(text in notice.message for notice in self.notices[-10:]):
            return
        self.notify(text, title="The game failed", severity="error", timeout=15, markup=False)

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
        # Toasts quote names, labels and file names from the save: made visible here, once.
        notice = Notice(visible(message), visible(title), severity)
        self.notices = [*self.notices[-(NOTICES_KEPT - 1) :], notice]
        super().notify(
            notice.message,
            title=notice.title,
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    # --- the one way to change anything ----------------------------------------------------------
    def _saving_stopped(self) -> bool:
        """True (and the GM told) when saving has stopped: no change may be made then."""
        if self._store_failed:
            self.notify("Saving has stopped; changes are not possible.", severity="error")
        return self._store_failed

    def apply(
        self, command: Command, refused: Callable[[str], None] | None = None
    ) -> list[str] | None:
        """Apply a command; on refusal tell the GM why (``refused``: hand it the message
        instead) and return None."""
        if self._saving_stopped():
            return None
        try:
            lines = self.campaign.apply(command)
        except CommandError as exc:
            if refused is not None:
                refused(str(exc))
            else:
                self.notify(str(exc), title="Not done", severity="warning", markup=False)
            return None
        except ReadOnlySave as exc:
            self.notify(exc.reason, title="Not saved", severity="error", markup=False)
            return None
        except StoreError as exc:
            self._on_store_error(exc)
            return None
        return lines

    def _on_campaign_change(self, tables: list[str]) -> None:
        self.screen.post_message(CampaignChanged(tables))
        self._warn_if_large()

    def _warn_if_large(self) -> None:
        """Once a session, well before the limit: the GM still has room to trim."""
        size = self.campaign.store.size
        if size > WARN_SAVE_BYTES and not self._size_warned:
            self._size_warned = True
            self.notify(
                f"The save is {size / 2**20:.0f} MB; past {MAX_SAVE_BYTES // 2**20} MB changes "
                "are refused. Trim the log or the NPC library.",
                title="Large save",
                severity="warning",
                timeout=30,
                markup=False,
            )

    def _on_save_status(self, problem: StoreError | None) -> None:
        # From the writer thread: a write failed for a passing reason, or works again.
        def show() -> None:
            self.save_problem = None if problem is None else str(problem)
            self._show_save_problem(self.screen)
            if problem is None:
                self.notify("Saved again: every change is on disk", markup=False)

        if self._ui_thread == threading.get_ident():
            show()
        else:
            self.call_from_thread(show)

    def _show_save_problem(self, screen: Screen[Any]) -> None:
        """The banner on ``screen``: a panel has its own; a dialog gets one over its top row,
        so a roll made in the quick-roll dialog on a full disk says at once it is not saved."""
        if hasattr(screen, "show_save_problem"):
            screen.show_save_problem()
            return
        from screens.panel import SaveBanner

        found = list(screen.query(SaveBanner))
        if found:
            found[0].show_problem(self.save_problem)
        elif self.save_problem is not None:
            banner = SaveBanner(markup=False, id="save-banner", classes="-over")
            screen.mount(banner)
            banner.show_problem(self.save_problem)

    def _on_store_error(self, exc: StoreError) -> None:
        # Called from the writer thread; hop to the UI thread.
        def show() -> None:
            from screens.store_error import StoreErrorScreen

            if self._store_failed:
                return
            self._store_failed = True
            self.push_screen(StoreErrorScreen(str(exc)))

        if self._ui_thread == threading.get_ident():
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
        self._step(self.campaign.undo, "Undid", "Nothing to undo")

    def action_redo(self) -> None:
        self._step(self.campaign.redo, "Redid", "Nothing to redo")

    def _step(self, step: Callable[[], str | None], done: str, nothing: str) -> None:
        """Undo or redo, guarded like every other change (the palette reaches them too)."""
        if self._saving_stopped():
            return
        try:
            label = step()
        except ReadOnlySave as exc:
            self.notify(exc.reason, title="Not saved", severity="error", markup=False)
            return
        except StoreError as exc:
            self._on_store_error(exc)
            return
        except SaveTooLarge as exc:
            self.notify(str(exc), title="Not saved", severity="error", markup=False)
            return
        self._say(f"{done}: {label}" if label else nothing)

    def _say(self, line: str) -> None:
        """A change's outcome on the panel's event line; a toast only where there is none."""
        from screens.panel import PanelScreen

        if isinstance(self.screen, PanelScreen):
            self.screen.show_result([line])
        else:
            self.notify(line, markup=False)

    # --- the campaign clock ----------------------------------------------------------------------
    def _tell(self, lines: list[str]) -> None:
        """What a change did, where the GM looks: the panel's event line, or the open modal's."""
        show = getattr(self.screen, "show_result", None)
        if callable(show):
            show(lines)
        else:
            self.notify("\n".join(lines[:8]), markup=False)

    def action_clock(self, step: str) -> None:
        """!, @, #, $, %, ^: a round, a turn, an hour, a watch, the game's rest, a day."""
        from app.commands.clock import Advance
        from app.queries import fight_running

        fight = fight_running(self.campaign) if step == "rest" else None
        if fight is None:
            self._time_passes(Advance(step=step))
            return
        from screens.party_prompt import PartyConfirm

        def answered(yes: bool | None) -> None:
            if yes:
                self._time_passes(Advance(step=step))

        question = f"{fight} is still running. Rest the whole party anyway?"
        self.push_screen(PartyConfirm(question, "rests"), answered)

    def _time_passes(self, command: Command) -> None:
        lines = self.apply(command)
        if lines:
            self._tell(lines)

    def action_clock_typed(self) -> None:
        """&: time passes for as long as the GM types, resting or at hard effort."""
        from app.commands.clock import Advance
        from rulesets import clock
        from rulesets.table import Field as FormField
        from screens.form import FormScreen

        said: list[str] = []

        def submit(values: dict[str, Any]) -> str | None:
            refusal: list[str] = []
            command = Advance(str(values["duration"]), str(values["activity"]))
            said.extend(self.apply(command, refused=refusal.append) or [])
            return refusal[0] if refusal else None

        def done(values: dict[str, Any] | None) -> None:
            if values is not None and said:
                self._tell(said)

        activities = self.campaign.game.time.activities
        fields = [
            FormField("duration", "How long? (10m, 1h, 8h, 2d, 1h30m)", "1h"),
            FormField(
                "activity",
                "What the party does",
                clock.TIME,
                "choice",
                choices=tuple(dict.fromkeys((clock.TIME, *activities))),
            ),
        ]
        self.push_screen(FormScreen("Time passes", fields, submit=submit), done)

    def action_fight_came_up(self) -> None:
        """*: what the encounter check brought up becomes the running fight."""
        from app.commands.clock import FightWhatCameUp

        lines = self.apply(FightWhatCameUp())
        if lines:
            from screens.clock import ClockScreen

            if isinstance(self.screen, ClockScreen):
                self.pop_screen()
            self.switch_mode("combat")
            self.call_after_refresh(self._tell, lines)

    def action_clock_screen(self) -> None:
        """ctrl+t: the clock's timed effects and encounter checks, to add or remove."""
        from screens.clock import ClockScreen

        if not isinstance(self.screen, ClockScreen):
            self.push_screen(ClockScreen())

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

    def _on_signal(self) -> None:
        self._close_store()
        self.exit()

    def action_retry_save(self) -> None:
        if self.campaign.store.unsaved is None:
            self.notify("Everything is saved", markup=False)
            return
        self.campaign.store.retry()
        self.notify("Trying to save again…", markup=False)

    async def action_quit(self) -> None:
        store = self.campaign.store
        if store.unsaved is not None and not self._quit_unsaved:
            store.retry()
            with contextlib.suppress(StoreError):
                store.flush(timeout=5)
            if store.unsaved is not None:
                self._quit_unsaved = True
                self.notify(
                    "Your newest changes are not saved (see the banner). Free space or make "
                    "the save writable, then ctrl+r; ctrl+q again quits without them.",
                    title="Not saved",
                    severity="error",
                    markup=False,
                )
                return
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

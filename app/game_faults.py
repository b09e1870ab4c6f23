"""A game's failure as the GM meets it: one message per failing hook a session, never the end
of the session (``app.textual_compat.GameSafe`` catches it; this says it).

A hook fails under a key, a repaint or a worker of its own (the odds worked out off the UI
thread, :mod:`rulesets.guard` tells its listeners); a game's actions that could not be bound
(their key is the panel's or the app's own) are said once too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.message import Message

from app.notices import Notices
from app.state import Campaign
from rulesets import guard


class HookFailed(Message):
    """A game's hook failed on a thread of its own (the odds worked out off the UI thread)."""

    def __init__(self, fault: guard.GameHookError) -> None:
        super().__init__()
        self.fault = fault


class GameFaults:
    """What the open game did wrong, told once; the app hands it what it catches."""

    def __init__(
        self,
        app: App[Any],
        campaign: Campaign,
        notices: Notices,
        on_ui_thread: Callable[[], bool],
    ) -> None:
        self._app = app
        self._campaign = campaign
        self._notices = notices
        self._on_ui_thread = on_ui_thread
        self._said: set[str] = set()

    def listen(self) -> None:
        """Hear of hooks that failed where no key saw them (the app's Mount)."""
        guard.listeners.append(self._heard)

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            guard.listeners.remove(self._heard)

    def _heard(self, fault: guard.GameHookError) -> None:
        """Said once a session per hook, after the key that met it: a refusal that already
        said it (a command rolled back, a form's message) is not said twice."""
        if self._on_ui_thread():
            self._app.call_later(self.say, fault)
        else:
            # Posted, not called: a hook's own thread (slow odds) must not wait for the UI,
            # which may be waiting a moment for that thread.
            self._app.post_message(HookFailed(fault))

    def key_clash(self, text: str) -> None:
        """A game's action left unbound: said once a session."""
        if text in self._said:
            return
        self._said.add(text)
        self._app.notify(
            text, title="The game's keys", severity="warning", timeout=20, markup=False
        )

    def failed(self, error: Exception) -> bool:
        """True (and the GM told, once) when ``error`` is the open game's failure."""
        fault = self._campaign.game_fault(error)
        if fault is None:
            return False
        if fault is not error:
            self.say(fault)  # a hook's failure was said by its listener already
        return True

    def say(self, fault: guard.GameHookError) -> None:
        """Tell the GM ``fault``: once per hook, and not when a recent toast said it."""
        text = str(fault)
        # Once per hook: a column that fails fails for every row, each with its own words.
        hook = f"{fault.game}: {fault.hook}"
        if fault.said or hook in self._said:
            return
        self._said.add(hook)
        if self._notices.said_lately(text):
            return
        self._app.notify(text, title="The game failed", severity="error", timeout=15, markup=False)

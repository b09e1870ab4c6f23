"""Keys in order: each key is handled before the next, and a prompt gets the keys typed ahead.

Textual forwards a key to the focused widget and runs the app's bindings when it comes back
up, through the app's own queue, behind keys typed since: typed fast on a busy machine,
``d 1d1+1 enter 1d1+2 enter`` sent digits to the panel before the quick roll opened, or
appended the second roll to the first before enter was handled. So a key is forwarded only
when the one before it has been through every widget it bubbles to, and a prompt
(``TYPE_AHEAD`` on its screen) gets the keys typed before its field had focus.
docs/textual-workarounds.md has the reproduction for Textual.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeGuard

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Input

NOW = frozenset({"ctrl+q", "ctrl+c"})
"""Keys never queued behind others: quitting works even while a key is stuck."""
KEY_TIMEOUT = 0.5
"""Longest a key may take to pass through its widgets before the next is sent anyway."""
PROMPT_WAIT = 1.0
"""Longest keys are held for a prompt whose field has not taken focus."""


class KeyQueue:
    """The app's keys, handed to Textual one at a time.

    ``deliver`` is Textual's own handling of an event by the app (``App.on_event``);
    ``through`` is called each time a key has been through every widget it bubbles to.
    """

    def __init__(
        self,
        app: App[Any],
        deliver: Callable[[events.Event], Awaitable[None]],
        through: Callable[[], None],
    ) -> None:
        self._app = app
        self._deliver = deliver
        self._through = through
        self._keys: deque[events.Key] = deque()
        self._key_in_flight: int | None = None
        self._key_serial = 0
        self._held_for: Screen[object] | None = None
        self._held_since = 0.0

    def takes(self, event: events.Event) -> TypeGuard[events.Key]:
        """True for a key the queue hands on in its turn (not one forwarded, not a :data:`NOW`
        key): pass it to :meth:`put`; anything else goes to Textual at once."""
        return isinstance(event, events.Key) and not event.is_forwarded and event.key not in NOW

    async def put(self, key: events.Key) -> None:
        self._keys.append(key)
        await self._pump_keys()

    def type_ahead_ready(self) -> None:
        """The prompt's field has focus: the keys held for it go on, oldest first."""
        if self._keys:
            self._app.call_later(self._pump_keys)

    async def _pump_keys(self) -> None:
        app = self._app
        while self._keys and self._key_in_flight is None and not self._hold_for_prompt():
            key = self._keys.popleft()
            if self._type_run(key):
                continue
            target = app.focused or app.screen
            self._key_serial += 1
            token = self._key_serial
            self._key_in_flight = token
            # A key whose widget goes away mid-way (a panel switch) must not stall the rest.
            app.set_timer(KEY_TIMEOUT, lambda t=token: self._key_done(t))
            await self._deliver(key)
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
        field = self._app.focused
        if not (
            isinstance(field, Input)
            and field.type == "text"
            and not field.restrict
            and first.is_printable
            and self._keys
            and self._keys[0].is_printable
        ):
            return False
        priority = {k for k, b in self._app.active_bindings.items() if b.binding.priority}
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
            self._through()
            if self._keys:
                self._app.call_later(self._pump_keys)

    def _hold_for_prompt(self) -> bool:
        """True while the open prompt's field has not taken focus yet (at most PROMPT_WAIT)."""
        app = self._app
        field_id = getattr(app.screen, "TYPE_AHEAD", None)
        focused = app.focused
        if field_id is None or (focused is not None and focused.id == field_id):
            return False
        if self._held_for is not app.screen:
            self._held_for, self._held_since = app.screen, time.monotonic()
            # If the field never takes focus, the held keys still go on after the second.
            app.set_timer(PROMPT_WAIT + 0.05, self._pump_keys)
        return time.monotonic() - self._held_since < PROMPT_WAIT

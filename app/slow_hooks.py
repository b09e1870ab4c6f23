"""A game's hook that may take long (its odds), worked out off the UI thread with a time limit.

A sixth game's odds hook that takes 20 s froze the whole app: the tray computed it on the UI
thread before it drew anything. A :class:`Work` runs the hook on a thread of its own. The tray
waits :data:`AT_ONCE` for it, so a quick hook (every built-in game's) is drawn with the key that
asked for it, as before; a slow one is drawn when it is done (the thread posts a message, which
is thread-safe), and past the panel's limit it is the game's fault like a raise: one message
naming the game and the hook. A thread cannot be stopped: a hook past its limit runs on, its
answer ignored. Rules stay pure: only the shell knows about threads and time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

AT_ONCE = 0.5
"""Seconds a panel waits for a hook before it draws without its answer."""


class Work(Generic[T]):
    """One call of a hook on a thread of its own; ``finished`` is called (on that thread)
    when it ends, if the panel stopped waiting for it."""

    def __init__(self, hook: Callable[[], T], finished: Callable[[], None]) -> None:
        self.value: T | None = None
        self.error: BaseException | None = None
        self.timed_out = False
        self._finished = finished
        self._waited = threading.Event()
        self.done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(hook,), daemon=True)
        self._thread.start()

    def _run(self, hook: Callable[[], T]) -> None:
        try:
            self.value = hook()
        except Exception as exc:  # handed to the panel, which says it as the game's fault
            self.error = exc
        self.done.set()
        if self._waited.is_set():
            self._finished()

    def wait(self, seconds: float = AT_ONCE) -> bool:
        """Wait up to ``seconds``; True if the hook is done (else ``finished`` will be called)."""
        self.done.wait(seconds)
        self._waited.set()
        # Done between the wait and the flag: the thread may not call back, so say it here.
        return self.done.is_set()

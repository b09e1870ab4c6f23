"""Background counts wait while the GM types.

The danger meter plays the fight out a thousand times in a thread after each change. Python
runs one thread's code at a time, so a count running beside a key's handling shares the
interpreter with it and the key reaches the screen later (twice as late, and more, in a fight
of 300). A count therefore waits at its next pause point (``between`` in
:mod:`rulesets.danger`) from the moment a key arrives until the keys have been quiet for
:data:`QUIET_SECONDS`: the GM sees each key at once, and the meter once the typing stops. A
count made stale by the keys meanwhile is cancelled where it waits, having cost nothing.

Counts also wait for the app's first frame: a count started as the tracker opens would share
the interpreter with drawing it (and import the odds library meanwhile).

The UI thread only writes the time of the newest key (one float); the worker reads it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

QUIET_SECONDS = 0.3
"""How long the keys must have been quiet before a count goes on: longer than the gap between
two keys of a GM typing an amount or stepping through turns."""
POLL_SECONDS = 0.05
"""How often a waiting count looks whether it was cancelled or the keys went quiet."""


class TypingPause:
    """When the GM last pressed a key, and a wait for the keys to go quiet (module docstring).

    ``clock`` and ``sleep`` are injected so that tests need not wait; ``started=False`` holds
    every count until :meth:`start` (the app's first frame).
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        *,
        started: bool = True,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self.last_key = float("-inf")
        """When the newest key arrived (by ``clock``)."""
        self.started = started
        """False until the app's first frame is on screen: counts wait for it."""

    def start(self) -> None:
        """The first frame is on screen whole: counts may go on once the keys are quiet."""
        self.started = True

    def key(self) -> None:
        """A key arrived (on the UI thread): counts pause until the keys are quiet again."""
        self.last_key = self._clock()

    def quiet_in(self) -> float:
        """Seconds until the keys count as quiet (0: they are)."""
        if not self.started:
            return POLL_SECONDS
        return max(0.0, self.last_key + QUIET_SECONDS - self._clock())

    def wait_quiet(self, cancelled: Callable[[], bool]) -> bool:
        """In a worker: return True once the keys are quiet, False as soon as ``cancelled``
        says the count is no longer wanted."""
        while (left := self.quiet_in()) > 0:
            if cancelled():
                return False
            self._sleep(min(left, POLL_SECONDS))
        return not cancelled()

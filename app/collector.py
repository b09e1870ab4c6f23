"""The garbage collector while the app runs: off until the first whole frame, then run by the
app when the keys pause, with the collector's own thresholds only a backstop.

What start-up builds (the loaded campaign, a 5,000-NPC library is ~10^6 objects, and the
widget tree) lives as long as the app, so it is frozen out of the collector's sight at the
first whole frame: a full collection then no longer lands on a keypress as a pause.
"""

from __future__ import annotations

import gc
from typing import Any

from textual.app import App
from textual.timer import Timer

from app import BACKSTOP_THRESHOLDS, USUAL_THRESHOLDS

COLLECT_AFTER = 0.1
"""Seconds with no key after which the collector runs (:func:`collect_due`): a key's frame is
on screen well within it (even at 300 combatants), and a GM's next key rarely comes sooner.
Not the frame itself: a change reaches the panel as a message, after the key is through, so
Textual's after-refresh callbacks ran before the change was even drawn."""


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


def settle_collector() -> None:
    """At the first whole frame: what start-up built moves out of the collector's sight and
    the collector runs again, its own thresholds only a backstop: the app collects when the
    keys pause (:func:`collect_due`). (app.launch raised them for the imports; the app stops
    it from its Load event: at 100,000 its first collection came just before the first whole
    frame and took a large part of it.)"""
    gc.freeze()
    gc.set_threshold(*BACKSTOP_THRESHOLDS)
    gc.enable()


class Collector:
    """The collector as one app runs it, and as the app found it (put back when it ends)."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._before: tuple[tuple[int, ...], bool] = (gc.get_threshold(), gc.isenabled())
        self._collection: Timer | None = None

    def stop_until_first_frame(self) -> None:
        """From the app's Load event: start-up makes objects that live all session, and next
        to no garbage, so nothing is collected until :func:`settle_collector`."""
        self._before = (gc.get_threshold(), gc.isenabled())
        gc.disable()

    def key_through(self) -> None:
        """A key is through: collect once the keys pause (a later key puts it off again)."""
        if gc.isenabled():  # off until the first whole frame
            if self._collection is not None:
                self._collection.stop()
            self._collection = self._app.set_timer(COLLECT_AFTER, collect_due)

    def restore(self) -> None:
        """The collector as the app found it: the process may go on (a test, a script)."""
        thresholds, enabled = self._before
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()

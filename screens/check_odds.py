"""The tray's odds chart, working a game's odds out off the UI thread (:mod:`app.slow_hooks`).

A game's odds hook may be slow (or never return): the chart asks it in a thread, says the odds
are being worked out meanwhile, and posts :class:`CheckOdds.Ready` when they are in, so the
tray draws the setup again. A hook past the tray's time limit is refused as the game's fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from textual.message import Message

from app.slow_hooks import Work
from rulesets import guard
from rulesets.base import RuleError
from rulesets.checks import CheckSpec
from rulesets.guard import GameHookError, WrongValue, one_line
from widgets.odds_chart import OddsChart


def _bands(work: Work[Mapping[str, Fraction]]) -> dict[str, Any]:
    """A finished hook's odds; its failure raised as the refusal the setup shows."""
    if work.error is not None:
        if isinstance(work.error, ValueError):
            raise work.error
        raise RuleError(f"The odds failed ({one_line(work.error)})")
    return dict(work.value or {})


class CheckOdds(OddsChart):
    """The chart, and the odds a slow hook is still working out (or gave up on)."""

    class Ready(Message):
        """Odds are in (or a hook gave up): the setup they are for is drawn again."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.working: dict[str, Work[Mapping[str, Fraction]]] = {}
        """Odds being worked out (or given up on), by the setup they are for."""

    def odds(self, key: str, spec: CheckSpec, game: str, limit: float) -> dict[str, Any] | None:
        """The odds of ``spec`` (``key`` names its setup): None while a slow hook works;
        RuleError or ValueError where the hook refused or failed, or took over ``limit``
        seconds (``game``'s fault)."""
        work = self.working.get(key)
        if work is None:
            work = Work(spec.odds, lambda: self._ready(key))
            if work.wait():
                return _bands(work)
            hook = str(getattr(spec.odds, "__tableside_hook__", "odds"))
            self.working = {k: w for k, w in self.working.items() if not w.done.is_set()}
            self.working[key] = work
            self.set_timer(limit, lambda: self._too_slow(key, hook, game, limit))
        if work.timed_out or work.done.is_set():
            return _bands(work)
        return None

    def _too_slow(self, key: str, hook: str, game: str, limit: float) -> None:
        work = self.working.get(key)
        if work is None or work.done.is_set():
            return
        work.timed_out = True
        work.error = GameHookError(game, hook, WrongValue(f"took longer than {limit:g} s"))
        guard.report(work.error)
        self.post_message(self.Ready(key))

    def _ready(self, key: str) -> None:
        self.post_message(self.Ready(key))  # thread-safe: the hook's thread says it is done

    def on_check_odds_ready(self, message: Ready) -> None:
        # Asked here, on the UI thread: a hook may finish before its work is kept above.
        if message.key not in self.working:
            message.stop()

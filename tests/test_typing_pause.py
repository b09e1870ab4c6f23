"""Background counts wait while the GM types (app.typing_pause): the danger meter's count
holds at its pause points from a key until the keys have been quiet, and a count cancelled
meanwhile ends where it waits."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from app.typing_pause import POLL_SECONDS, QUIET_SECONDS, TypingPause
from rulesets import danger, registry
from screens.combat import CombatScreen
from tests.apphelpers import SIZE, demo_app


class FakeClock:
    """A clock that moves only when slept on, or when a test moves it."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_a_key_holds_counts_until_the_keys_have_been_quiet() -> None:
    clock = FakeClock()
    pause = TypingPause(clock, clock.sleep)
    assert pause.quiet_in() == 0.0  # no key yet
    pause.key()
    assert pause.quiet_in() == pytest.approx(QUIET_SECONDS)
    clock.now += QUIET_SECONDS / 2
    assert pause.quiet_in() == pytest.approx(QUIET_SECONDS / 2)
    pause.key()  # a second key starts the quiet over
    assert pause.quiet_in() == pytest.approx(QUIET_SECONDS)
    clock.now += QUIET_SECONDS
    assert pause.quiet_in() == 0.0


def test_a_waiting_count_goes_on_once_quiet_in_steps_of_the_poll() -> None:
    clock = FakeClock()
    pause = TypingPause(clock, clock.sleep)
    pause.key()
    assert pause.wait_quiet(lambda: False) is True
    assert sum(clock.slept) >= QUIET_SECONDS
    assert max(clock.slept) <= POLL_SECONDS
    assert pause.quiet_in() == 0.0
    clock.slept.clear()
    assert pause.wait_quiet(lambda: False) is True  # already quiet: no wait at all
    assert clock.slept == []


def test_a_count_cancelled_while_it_waits_ends_there() -> None:
    clock = FakeClock()
    pause = TypingPause(clock, clock.sleep)
    pause.key()
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) >= 3

    assert pause.wait_quiet(cancelled) is False
    assert pause.quiet_in() > 0  # it did not wait the quiet out
    assert pause.wait_quiet(lambda: True) is False


def test_an_estimate_asks_between_before_it_reads_the_encounter() -> None:
    # No encounter 99 in these tables: a count that read first would raise, not stop.
    game = registry.game("resolution")
    found = danger.estimate_encounter({}, game, 99, 10, random.Random(1), None, lambda: False)
    assert found is None


async def test_the_meter_counts_only_once_the_keys_are_quiet(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution", danger_meter=True)
    clock = FakeClock()
    app.typing_pause = TypingPause(clock)  # the real sleep: the worker polls in real time
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        counts = {w for w in app.workers if w.group == "danger"}
        await pilot.press("n")
        assert clock.now == app.typing_pause.last_key  # the key was seen
        for _ in range(10):
            await asyncio.sleep(POLL_SECONDS)
        assert screen.danger_estimate is None  # the keys are not quiet: no count yet
        assert {w for w in app.workers if w.group == "danger"} <= counts
        clock.now += QUIET_SECONDS
        for _ in range(400):
            await app.workers.wait_for_complete()
            await asyncio.sleep(0.02)
            if screen.danger_estimate is not None:
                break
        assert screen.danger_estimate is not None
    app.campaign.store.close()

"""The tracker's danger floor: the one-line meter under the encounter's title and its detail.

After each change to the campaign the fight is played out again (:mod:`rulesets.danger`) in a
thread worker, one at a time: a newer change cancels the one still running, and a result that
arrives for a state already changed is dropped. The worker reads a shallow copy of the save's
tables taken at the change; nothing it does reaches the save. A game whose exchange cannot play
the fight out says so on the line, and nothing else changes.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from textual.worker import Worker, WorkerState, get_current_worker

from screens.combat.forms import CombatForms

if TYPE_CHECKING:
    from rulesets.danger import Estimate
    from rulesets.game import Game

METER_RUNS = 1000
"""Fights per estimate on the meter: its interval is about ±3 points."""
METER_SEED = 0
"""The meter's seed: the same fight shows the same figures."""
GROUP = "danger"
NO_ESTIMATE = "Danger: no estimate for this game"


def compute(
    data: dict[str, dict[str, Any]], game: Game, encounter_id: int, token: object
) -> tuple[object, Estimate | str | None]:
    """In the worker thread: the estimate of the encounter, or why there is none (a line);
    None when a newer change cancelled it."""
    from rulesets import danger

    worker = get_current_worker()

    def between() -> bool:
        time.sleep(0)  # hand the interpreter to the keys
        return not worker.is_cancelled

    rng = random.Random(METER_SEED)
    try:
        fight = danger.encounter_fight(data, game, encounter_id, rng)
        prepared = danger.prepare(fight)
    except danger.NoEstimate:
        return token, NO_ESTIMATE
    except Exception as exc:  # a game's hook failed: the line says so, the session goes on
        if "each side" in str(exc):
            return token, "Danger: add foes and the party for an estimate"
        return token, NO_ESTIMATE
    try:
        return token, danger.simulate(prepared, METER_RUNS, rng, between)
    except Exception:  # the same: one line
        return token, NO_ESTIMATE


class CombatDanger(CombatForms):
    """The danger meter (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._danger_token: object = None
        self.danger_estimate: Estimate | None = None
        """The newest estimate of the encounter as it stands (None: none yet, or none)."""
        self.danger_line = ""

    def danger_follow(self) -> None:
        """After a refresh: estimate the encounter again if the campaign changed."""
        if not getattr(self.app, "danger_meter", True):
            self.query_one("#danger-meter").display = False
            return
        if self.encounter_id is None:
            self._danger_show("")
            return
        token = (self.encounter_id, self.campaign.version)
        if token == self._danger_token:
            return
        self._danger_token = token
        self.danger_estimate = None
        data = {t: dict(rows) for t, rows in self.campaign.store.data.items() if t != "log"}
        eid, game = self.encounter_id, self.game
        self.run_worker(
            lambda: compute(data, game, eid, token),
            name="danger",
            group=GROUP,
            thread=True,
            exclusive=True,
            exit_on_error=False,
        )

    def danger_done(self, worker: Worker[Any]) -> None:
        """A worker finished: show its estimate unless the fight has changed since."""
        if worker.group != GROUP or worker.state != WorkerState.SUCCESS:
            return
        found = worker.result
        if not isinstance(found, tuple) or found[0] != self._danger_token:
            return  # stale: a newer estimate is on its way
        result = found[1]
        if result is None:
            return
        if isinstance(result, str):
            self.danger_estimate = None
            self._danger_show(result)
            return
        from rulesets import danger

        self.danger_estimate = result
        self._danger_show(danger.meter(result))

    def _danger_show(self, line: str) -> None:
        self.danger_line = line
        self._set_text("#danger-meter", line)

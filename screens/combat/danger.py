"""The tracker's danger meter: the one-line meter under the encounter's title, and the build to a
danger (ctrl+b).

After each change to the campaign the fight is played out again (:mod:`rulesets.danger`) in a
thread worker, one at a time, once the GM's keys are quiet (:mod:`app.typing_pause`): a newer
change cancels the one still running, and a result that arrives for a state already changed is
dropped. The worker reads a shallow copy of the save's tables taken as it starts; nothing it
does reaches the save. A game whose exchange cannot play
the fight out says so on the line, and nothing else changes.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.widgets import Static
from textual.worker import Worker, WorkerState, get_current_worker

from screens.combat.amount_line import update_sized
from screens.form import Field
from widgets.literal import literal

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.timer import Timer

    from app.state import Campaign
    from app.typing_pause import TypingPause
    from rulesets.danger import Choices, Estimate, Proposal
    from rulesets.game import Game

METER_RUNS = 1000
"""Fights per estimate on the meter: its interval is about ±3 points."""
METER_SEED = 0
"""The meter's seed: the same fight shows the same figures."""
GROUP = "danger"
BUILD_GROUP = "danger-build"
NO_ESTIMATE = "Danger: no estimate for this game"


def compute(
    data: dict[str, dict[str, Any]],
    game: Game,
    encounter_id: int,
    token: object,
    choices: Choices | None = None,
    typing: TypingPause | None = None,
) -> tuple[object, Estimate | str | None]:
    """In the worker thread: the estimate of the encounter, or why there is none (a line);
    None when a newer change cancelled it. With ``typing``, the count waits at each pause
    point while the GM types, and before it starts (:mod:`app.typing_pause`)."""
    worker = get_current_worker()

    def cancelled() -> bool:
        return worker.is_cancelled

    def between() -> bool:
        if typing is not None and not typing.wait_quiet(cancelled):
            return False
        time.sleep(PAUSE_SECONDS)  # hand the interpreter and the core to the keys
        return not worker.is_cancelled

    if not between():
        return token, None
    from rulesets import danger

    rng = random.Random(METER_SEED)
    try:
        found = danger.estimate_encounter(
            data, game, encounter_id, METER_RUNS, rng, choices, between
        )
    except danger.NoEstimate:
        return token, NO_ESTIMATE
    except Exception as exc:  # a game's hook failed: the line says so, the session goes on
        if "each side" in str(exc):
            return token, "Danger: no fight to estimate (it needs someone up on each side)"
        return token, NO_ESTIMATE
    return token, found


def tables(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """The save's tables as they are now, for a worker (each table copied, not its documents:
    a change replaces a document, never edits it), the roll log left out."""
    return {t: dict(rows) for t, rows in campaign.store.data.items() if t != "log"}


PAUSE_SECONDS = 0.001
"""A worker's pause every few fights (:data:`rulesets.danger.BATCH`): the core goes to the
keys, whatever else the machine runs."""
SWITCH_SECONDS = 0.0002
"""The interpreter's switch interval while a worker counts. The UI thread waits for the
interpreter after every wake-up of its event loop; at the default 5 ms, a key's many wake-ups
behind a counting thread took up to a second. Only a thread that waits asks for the switch, so
the count itself loses next to nothing."""
_counting = 0


def in_thread(node: DOMNode, work: Callable[[], object], group: str) -> None:
    """Run ``work`` in a thread worker of ``group``, cancelling the one still running; the keys
    keep the interpreter while it runs (:data:`SWITCH_SECONDS`)."""

    def counted() -> object:
        global _counting
        with _lock:
            if _counting == 0:
                _before[0] = sys.getswitchinterval()
                sys.setswitchinterval(SWITCH_SECONDS)
            _counting += 1
        try:
            return work()
        finally:
            with _lock:
                _counting -= 1
                if _counting == 0:
                    sys.setswitchinterval(_before[0])

    node.run_worker(
        counted, name=group, group=group, thread=True, exclusive=True, exit_on_error=False
    )


_lock = threading.Lock()
_before = [sys.getswitchinterval()]


def _yield() -> bool:
    time.sleep(PAUSE_SECONDS)  # hand the interpreter and the core to the keys
    return True


class DangerMeter(Static):
    """The one-line meter under the encounter's title: it counts the fight again in a worker
    after each change and keeps the newest estimate (module docstring). It also runs the build
    to a danger (ctrl+b) and posts what it found."""

    class Said(Message):
        """A line for under the table: what a build to a danger found, or why nothing fits."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Proposed(Message):
        """A build to a danger found its foes: the quick add form, ``preset`` filled in."""

        def __init__(self, preset: dict[str, str], title: str) -> None:
            super().__init__()
            self.preset = preset
            self.title = title

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.build_ask: tuple[str, str, int] = ("Foe", "count", 1)
        """The name, what is varied, and the other value of the build under way."""
        self.token: object = None
        """What the estimate under way is of (encounter, campaign version, target rules)."""
        self.estimate: Estimate | None = None
        """The newest estimate of the encounter as it stands (None: none yet, or none)."""
        self.line = ""
        self.wrapped: dict[int, tuple[int, tuple[int, int]]] = {}
        self.choices: Choices | None = None
        """How each side picks its targets, as the GM set them in the detail (None: the
        party at random, the foes as the game declares)."""
        self.typing: TypingPause | None = None
        """The app's keys, which a count waits for (:mod:`app.typing_pause`)."""
        self.due: tuple[Campaign, int, object] | None = None
        """The count to start once the keys are quiet (campaign, encounter, token)."""
        self.start_timer: Timer | None = None

    def follow(
        self,
        campaign: Campaign,
        encounter_id: int | None,
        enabled: bool = True,
        typing: TypingPause | None = None,
    ) -> None:
        """After a refresh: estimate the encounter again if the campaign changed (unless the
        app runs without the meter). ``typing``: the app's keys, which the count waits for
        while the GM types."""
        if typing is not None:
            self.typing = typing
        if not enabled or not getattr(self.app, "danger_meter", True):
            self.display = False
            return
        if encounter_id is None:
            self.show_line("")
            return
        token = (encounter_id, campaign.version, self.choices)
        if token == self.token:
            return
        self.token = token
        self.estimate = None
        self.workers.cancel_group(self, GROUP)  # a count of the fight as it was
        self.due = (campaign, encounter_id, token)
        if self.start_timer is None:
            self._start_when_quiet()

    def _start_when_quiet(self) -> None:
        """Start the count that is due once the keys are quiet (:mod:`app.typing_pause`): a
        count started at each key only to wait would cost every key a thread, a copy of the
        save's tables and its worker's messages."""
        self.start_timer = None
        if self.due is None:
            return
        wait = self.typing.quiet_in() if self.typing is not None else 0.0
        if wait > 0:
            self.start_timer = self.set_timer(wait, self._start_when_quiet)
            return
        campaign, encounter_id, token = self.due
        self.due = None
        data = tables(campaign)
        game, choices, typing = campaign.game, self.choices, self.typing
        in_thread(self, lambda: compute(data, game, encounter_id, token, choices, typing), GROUP)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker finished: show its estimate unless the fight has changed since."""
        worker = event.worker
        if worker.state != WorkerState.SUCCESS:
            return
        if worker.group == BUILD_GROUP:
            event.stop()
            self._build_done(worker)
            return
        if worker.group != GROUP:
            return
        found = worker.result
        if not isinstance(found, tuple) or found[0] != self.token:
            return  # stale: a newer estimate is on its way
        result = found[1]
        if result is None:
            return
        if isinstance(result, str):
            self.estimate = None
            self.show_line(result)
            return
        from rulesets import danger

        self.estimate = result
        self.show_line(danger.meter(result))

    def show_line(self, line: str) -> None:
        if line != self.line:
            self.line = line
            update_sized(self, literal(line, limit=1000), self.wrapped)

    def choose(self, choices: Choices | None, campaign: Campaign, encounter_id: int | None) -> None:
        """The detail closed: with new target rules, the meter counts again with them."""
        if choices is not None and choices != self.choices:
            self.choices = choices
            self.show_line("Danger: counting…")
            self.follow(campaign, encounter_id, True)

    def open_detail(self, campaign: Campaign, encounter_id: int | None) -> None:
        """The estimate whole (per PC, the rounds as a chart); its target rules, once the GM
        changes them there, count again."""
        from screens.danger_detail import DangerDetail

        estimate = self.estimate
        if estimate is None:
            self.notify(self.line or "Danger: still counting", timeout=3)
            return

        def chosen(choices: Choices | None) -> None:
            self.choose(choices, campaign, encounter_id)

        self.app.push_screen(DangerDetail(estimate), chosen)

    # --- build to a danger ----------------------------------------------------------------------
    def ask_build(self, campaign: Campaign, eid: int) -> None:
        """The build's form (the band, what to find); its answers start the search."""
        from screens.form import FormScreen

        def done(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.post_message(self.Said(self.build_to(campaign, eid, values)))

        self.app.push_screen(FormScreen("Build to a danger", build_fields()), done)

    def build_to(self, campaign: Campaign, eid: int, values: Mapping[str, Any]) -> str:
        """Search in a worker for the value that brings the fight into the band (it posts
        :class:`Proposed` or :class:`Said` when done); what to say meanwhile."""
        wanted, vary = str(values["band"]), str(values["vary"])
        name, fixed = str(values["name"] or "Foe"), int(values["fixed"] or 1)
        data = tables(campaign)
        game = campaign.game
        what = "HD" if vary == "hd" else "count"
        self.build_ask = (name, vary, fixed)
        span = BUILD_RANGES[vary]
        add = quick_foes(eid, name, vary, fixed)
        typing = self.typing
        in_thread(self, lambda: search(data, game, eid, wanted, span, add, typing), BUILD_GROUP)
        return f"Danger: finding the {what} that makes it {wanted}…"

    def _build_done(self, worker: Worker[Any]) -> None:
        """The search finished: the quick add form, filled in; or why nothing fits."""
        from rulesets.danger import Proposal

        found = worker.result
        if isinstance(found, str):
            self.post_message(self.Said(found))
            return
        if not isinstance(found, Proposal):
            return
        name, vary, fixed = self.build_ask
        what = "HD" if vary == "hd" else "count"
        if found.value is None:
            self.post_message(self.Said(proposal_line(found, what)))
            return
        hd, count = (found.value, fixed) if vary == "hd" else (fixed, found.value)
        said = f"{count} × HD {hd}: {proposal_line(found, what)}"
        self.post_message(self.Said(said))
        preset = {"name": name, "count": str(count), "hd": str(hd)}
        self.post_message(self.Proposed(preset, f"Quick add · {said}"))


def build_fields() -> list[Field]:
    """The build to a danger's form: the band, what to find, and the other."""
    from rulesets.danger import BANDS

    return [
        Field("band", "Band (easy, hard, deadly)", "hard", "choice", choices=tuple(BANDS)),
        Field("vary", "Find the HD or the count", "count", "choice", choices=("count", "hd")),
        Field("name", "Name", "Foe"),
        Field("fixed", "The other: the HD (finding the count) or how many", "1", "int"),
    ]


BUILD_RUNS = 400
"""Fights per value tried when building to a danger (its interval: about ±4 points)."""
BUILD_RANGES = {"hd": (0, 20), "count": (1, 12)}
"""What a build to a danger varies, and over what."""


def search(
    data: dict[str, dict[str, Any]],
    game: Game,
    encounter_id: int,
    wanted: str,
    span: tuple[int, int],
    add: Callable[[Any, int], object],
    typing: TypingPause | None = None,
) -> Proposal | str:
    """In a worker thread: the value in ``span`` for which ``add(tx, value)`` (foes added on a
    scratch copy of the save's tables) brings the fight into the band ``wanted``; or why there
    is none (a line)."""
    from rulesets import danger

    worker = get_current_worker()

    def cancelled() -> bool:
        return worker.is_cancelled

    def between() -> bool:
        # A build runs to the end (its answer is asked for), pausing only while the GM types.
        if typing is not None:
            typing.wait_quiet(cancelled)
        return _yield()

    def at(value: int) -> Estimate:
        if worker.is_cancelled:
            raise danger.NoEstimate("cancelled")
        tx = danger.Scratch(data, game, random.Random(METER_SEED))
        add(tx, value)
        rng = random.Random(METER_SEED)
        found = danger.estimate_encounter(
            tx.data, game, encounter_id, BUILD_RUNS, rng, None, between
        )
        assert found is not None  # between never stops it
        return found

    try:
        return danger.propose(at, span[0], span[1], wanted)
    except danger.NoEstimate:
        return "No estimate for this game: nothing to build to"
    except Exception as exc:  # a game's hook or a refused build: one line
        return f"No estimate: {exc}"


def quick_foes(encounter_id: int, name: str, vary: str, fixed: int) -> Callable[[Any, int], object]:
    """What a build from quick add tries: ``fixed`` foes of each HD, or each count of HD
    ``fixed``."""
    from app.commands.combat import QuickAdd

    def add(tx: Any, value: int) -> object:
        hd, count = (value, fixed) if vary == "hd" else (fixed, value)
        return QuickAdd(encounter_id, name=name, count=count, health=None, hd=hd).run(tx)

    return add


def proposal_line(found: Proposal, what: str) -> str:
    """``"4 × HD 1: hard · party wins 71% ±4 · …"``'s tail, or why nothing fits."""
    from rulesets.danger import meter

    if found.value is None or found.found is None:
        near = f" (nearest: {meter(found.found)})" if found.found is not None else ""
        return f"No {what} makes it {found.band}{near}"
    return f"{found.band} · " + meter(found.found).removeprefix("Danger: ")

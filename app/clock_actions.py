"""The campaign clock's keys (:mod:`app.clock_keys`) as the app runs them, from every panel and
from the clock's own modal: time passes by a step or as long as the GM types, the fight an
encounter check brought up starts, the clock's effects and checks open."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from app.state import Campaign, Command

Apply = Callable[[Command, Callable[[str], None] | None], list[str] | None]
"""The app's one way to change anything (``TablesideApp.apply``)."""


def tell(app: App[Any], lines: list[str]) -> None:
    """What a change did, where the GM looks: the panel's event line, or the open modal's."""
    show = getattr(app.screen, "show_result", None)
    if callable(show):
        show(lines)
    else:
        app.notify("\n".join(lines[:8]), markup=False)


class ClockActions:
    """The clock's actions for one app; each change goes through ``apply``."""

    def __init__(self, app: App[Any], campaign: Campaign, apply: Apply) -> None:
        self._app = app
        self._campaign = campaign
        self._apply = apply

    def step(self, step: str) -> None:
        """!, @, #, $, %, ^: a round, a turn, an hour, a watch, the game's rest, a day."""
        from app.commands.clock import Advance
        from app.queries import fight_running

        # A game whose rests need peace refuses one in a fight, and says why: nothing to ask.
        asks = step == "rest" and not self._campaign.game.time.rest_needs_peace
        fight = fight_running(self._campaign) if asks else None
        if fight is None:
            self._time_passes(Advance(step=step))
            return
        from screens.party_prompt import PartyConfirm

        def answered(yes: bool | None) -> None:
            if yes:
                self._time_passes(Advance(step=step))

        question = f"{fight} is still running. Rest the whole party anyway?"
        self._app.push_screen(PartyConfirm(question, "rests"), answered)

    def _time_passes(self, command: Command) -> None:
        lines = self._apply(command, None)
        if lines:
            tell(self._app, lines)

    def typed(self) -> None:
        """&: time passes for as long as the GM types, resting or at hard effort."""
        from app.commands.clock import Advance
        from rulesets import clock
        from rulesets.table import Field as FormField
        from screens.form import FormScreen

        said: list[str] = []

        def submit(values: dict[str, Any]) -> str | None:
            refusal: list[str] = []
            command = Advance(str(values["duration"]), str(values["activity"]))
            said.extend(self._apply(command, refusal.append) or [])
            return refusal[0] if refusal else None

        def done(values: dict[str, Any] | None) -> None:
            if values is not None and said:
                tell(self._app, said)

        activities = self._campaign.game.time.activities
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
        self._app.push_screen(FormScreen("Time passes", fields, submit=submit), done)

    def fight_came_up(self) -> None:
        """*: what the encounter check brought up becomes the running fight."""
        from app.commands.clock import FightWhatCameUp

        lines = self._apply(FightWhatCameUp(), None)
        if lines:
            from screens.clock import ClockScreen

            app = self._app
            if isinstance(app.screen, ClockScreen):
                app.pop_screen()
            app.switch_mode("combat")
            app.call_after_refresh(tell, app, lines)

    def open(self) -> None:
        """ctrl+t: the clock's timed effects and encounter checks, to add or remove."""
        from screens.clock import ClockScreen

        if not isinstance(self._app.screen, ClockScreen):
            self._app.push_screen(ClockScreen())

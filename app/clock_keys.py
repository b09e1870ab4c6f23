"""The campaign clock's keys, live in every panel: shift and the number row climbs
the steps of time (a round, a turn, an hour, a watch, a rest, a day), ``&`` takes a typed
duration, ``*`` makes the fight from what an encounter check brought up, ``ctrl+t`` opens the
clock's effects and checks. Their own module, so the app binds them everywhere and the clock's
modal (where the app's keys do not reach) binds the same ones, as the GM's keymap has them.
"""

from __future__ import annotations

from textual.binding import Binding

CLOCK_BINDINGS: tuple[Binding, ...] = (
    Binding("exclamation_mark", "clock('round')", "Time: a round", id="clock.round", show=False),
    Binding("at", "clock('turn')", "Time: an exploration turn (10 min)", id="clock.turn",
            show=False),
    Binding("number_sign", "clock('hour')", "Time: an hour", id="clock.hour", show=False),
    Binding("dollar_sign", "clock('watch')", "Time: a watch (4 h)", id="clock.watch",
            show=False),
    Binding("percent_sign", "clock('rest')", "Time: a night's rest (the game's rest)",
            id="clock.rest", show=False),
    Binding("circumflex_accent", "clock('day')", "Time: a day", id="clock.day", show=False),
    Binding("ampersand", "clock_typed", "Time passes: type how long", id="clock.typed",
            show=False),
    Binding("asterisk", "fight_came_up", "Make the fight from what came up", id="clock.fight",
            show=False),
    Binding("ctrl+t", "clock_screen", "Clock: timed effects, encounter checks", id="clock.open",
            show=False),
)  # fmt: skip
"""The clock's keys: free in every panel of every game, and out of a text field's
way (a field takes printable keys first, as it does the panel digits)."""

"""Shadows of Humanity's time: its round.

Reading: a round lasts 15 seconds on the campaign clock, because the text describes a round as
"roughly 15 seconds or so (four per minute)". The game has no rest that takes time: AP come
back each round and a new scene or session is not in-game time. A rest on the clock (``%``)
lets the time pass and says that the text recovers nothing by it.
"""

from __future__ import annotations

from rulesets.clock import TimeRules

ROUND_SECONDS = 15

NO_REST = (
    "nothing is recovered: the text gives no rest and no recovery of Health, Life or "
    "Æssence (AP come back each round); the GM rules what rest brings"
)

TIME_RULES = TimeRules(round_seconds=ROUND_SECONDS, rest_hours={}, rest_names={}, no_rest=NO_REST)

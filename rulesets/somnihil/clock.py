"""Somnihil's time: Regroup and Rest take time (SOM-07); AP and spells known do not move with
time but with sessions (SOM-04, SOM-10).

Reading: a Regroup ("rest for a short time without conflict") takes an hour; a Rest ("a full
night's rest") takes eight, because the text gives no lengths and a night's sleep is eight
hours; a typed rest of one to seven hours is a Regroup, of eight or more a Rest.
Reading: AP come back with a new session and spells known grow by one a session, never with
in-game time: a Rest, or a week passing, leaves them as they are, and a new session (a meeting
at the real table) does not move the clock, because the text ties both to "the next time
everyone meets to play".
Reading: a round lasts 10 seconds on the campaign clock, because a Cipher's turn moves them as
far as their body "is capable of moving within ten seconds of time within the scene" (the
text gives a round no other length).
Reading: a Regroup ("rest for a short time without conflict") and a Rest ("a full night's rest
while in a safe place") are refused while a fight runs: a fight is conflict, and not safe.
"""

from __future__ import annotations

from rulesets.clock import REST, Passage, TimeRules
from rulesets.table import Tx


def _session_bound(tx: Tx, passage: Passage) -> list[str]:
    """SOM-04/10: said once when the Ciphers rest, so no one waits for their AP."""
    if passage.activity == REST and passage.rest == "rest":
        return ["AP and spells known move with sessions, not with rest: a new session restores AP"]
    return []


ROUND_SECONDS = 10
"""SOM-11: a turn's movement is "within ten seconds of time within the scene"."""

TIME_RULES = TimeRules(
    round_seconds=ROUND_SECONDS,
    rest_needs_peace='a Regroup is rest "without conflict", a Rest is "in a safe place"',
    rest_hours={"regroup": 1, "rest": 8},
    rest_names={"regroup": "Regroup", "rest": "Rest"},
    passing=_session_bound,
)

"""The aspects game's time: wounds dated on the campaign's calendar, and consequences offered to
the GM for downgrade once they have had time to heal (ASP-07).

Injuries, consequences and temporary aspects carry the campaign date they were received
(``"received": "Day 3"``, from the campaign clock), no longer the real-world date of the
session. When the clock passes a consequence's healing time, the advance says so and marks it
``"due": true``: the party sheet reads it as due to heal, and the GM downgrades it into a
negative aspect (or leaves it: a due consequence is an offer, not a rule).

Reading: "after a few weeks" is three weeks: a consequence received on day N is offered for
downgrade from day N + 21, because "a few" is read as three and no other length is given.
Reading: minor injuries and negative aspects are not offered: the text heals them "over time
through roleplay", so the GM removes them when the story says (their age is on the sheet).
Reading: an entry dated before the campaign had a clock (a real-world date, or none) counts
from Day 1, because it was received no later than that.
"""

from __future__ import annotations

from typing import Any

from rulesets.clock import Passage, TimeRules, day_number, read
from rulesets.table import Tx

HEALING_DAYS = 21
"""ASP-07: days before a consequence is offered for downgrade."""


def received_day(entry: Any) -> int:
    """The campaign day a wound was received (Day 1 for one without a campaign date)."""
    received = entry.get("received", "") if isinstance(entry, dict) else ""
    return day_number(str(received)) or 1


def due_to_heal(entry: Any, today: int) -> bool:
    """ASP-07: a consequence that has had its healing time by ``today`` (a campaign day)."""
    return today - received_day(entry) >= HEALING_DAYS


def _offer_downgrades(tx: Tx, passage: Passage) -> list[str]:
    """ASP-07: each consequence whose healing time has come is offered, once."""
    today = read(tx).day(passage.end)
    lines = []
    for doc_id, pc in tx.all("party"):
        held = pc.get("lists", {}).get("consequences", [])
        offered = False
        for index, entry in enumerate(held):
            if isinstance(entry, dict) and entry.get("due"):
                continue
            if not due_to_heal(entry, today):
                continue
            held[index] = (
                {**entry, "due": True}
                if isinstance(entry, dict)
                else {"name": str(entry), "due": True}
            )
            name = held[index].get("name", "?")
            when = held[index].get("received") or "before the clock"
            lines.append(
                f"{pc.get('name', '?')}: {name} (received {when}) has had {HEALING_DAYS} days "
                "to heal: it may downgrade into a negative aspect"
            )
            offered = True
        if offered:
            tx.put("party", doc_id, pc)
    return lines


TIME_RULES = TimeRules(rest_hours={}, rest_names={}, passing=_offer_downgrades)

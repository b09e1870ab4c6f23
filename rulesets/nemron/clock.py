"""Nemron's time: Energy spent by hard effort and recovered by rest (NEM-10), limbs healed
every eight hours of rest (NEM-11). The rests themselves are the sheet's (``rules.rest``); here
is how long they take and what an hour of hard effort costs.

Reading: a stretch of hard effort costs each PC 1 Energy per whole hour (a stretch under an hour
costs nothing), because the text prices effort "for every hour".
Reading: "every eight hours of rest" counts the hours of one rest: a rest an encounter breaks
off is the hours rested so far, and plain time (an hour passing, a day's travel) heals nothing
and restores no Energy, because the text heals and recovers "when resting".
Reading: a PC without Energy left still goes on (the GM rules what exhaustion does): the line
says so and Energy stays at 0, because the text gives no penalty for running out.
Reading: a rest of any length from an hour is a short rest of those hours; from eight hours it
is the long rest (one healing roll per eight hours), the sheet's own two rests.
Reading: a rest is refused while a fight runs, because Energy and limbs come back "when
resting" and "every eight hours of rest", and a fight is not rest. A dead character rests
nothing back (no Energy, no healing): the text heals the injured, not the dead.
"""

from __future__ import annotations

from rulesets.base import Character
from rulesets.clock import EFFORT, REST, TIME, Passage, TimeRules
from rulesets.nemron import rules
from rulesets.table import Tx


def hard_effort(pc: Character, hours: int) -> str:
    """NEM-10: an hour of hard effort costs 1 Energy; what is not there is not spent."""
    energy = pc["resources"]["energy"]
    spent = min(hours, int(energy["current"]))
    energy["current"] = int(energy["current"]) - spent
    name = pc.get("name", "?")
    if spent < hours:
        return f"{name}: {hours} h of hard effort, out of Energy after {spent} (0 left)"
    return f"{name}: -{spent} Energy for {hours} h of hard effort ({energy['current']} left)"


def _passing(tx: Tx, passage: Passage) -> list[str]:
    return _training(tx, passage) + _effort(tx, passage)


def _training(tx: Tx, passage: Passage) -> list[str]:
    """NEM-13: every day that passes logs two hours of each training; the 30th learns it."""
    lines = []
    for doc_id, pc in tx.all("party"):
        if pc.get("status") == "dead" or not pc.get("training"):
            continue
        said = rules.train(pc, passage.start, passage.end)
        if said:
            lines += said
            tx.put("party", doc_id, pc)
    return lines


def _effort(tx: Tx, passage: Passage) -> list[str]:
    if passage.activity != EFFORT or passage.hours < 1:
        return []
    lines = []
    for doc_id, pc in tx.all("party"):
        if pc.get("status") == "dead" or "energy" not in pc.get("resources", {}):
            continue
        lines.append(hard_effort(pc, passage.hours))
        tx.put("party", doc_id, pc)
    return lines


TIME_RULES = TimeRules(
    rest_needs_peace='Energy and limbs come back "when resting", and a fight is not rest',
    rest_hours={"rest": rules.HEALING_INTERVAL_HOURS},
    rest_names={"regroup": "Short rest", "rest": "Rest"},
    activities=(TIME, REST, EFFORT),
    passing=_passing,
)

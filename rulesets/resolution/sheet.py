"""Resolution on the party sheet: hit points, Grip and System Strain by its rules, permanent
deliria, a night's rest, and the Grip check as a sheet action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.base import Character, RuleError
from rulesets.resolution import clock, rules
from rulesets.sheet import Adding, Rest, RestCall, SheetRules
from rulesets.table import Action, Command, Context, Field, PcChange, Tx, need_pc


def _hp(tx: Tx, pc: Character, delta: int) -> list[str]:
    return rules.damage(pc, -delta) if delta < 0 else rules.heal(pc, delta)


def _grip(tx: Tx, pc: Character, delta: int) -> list[str] | None:
    """RR-03: losing Grip may leave the character lost; regaining it is a plain +1."""
    return rules.lose_grip(pc, -delta) if delta < 0 else None


def _strain(tx: Tx, pc: Character, delta: int) -> list[str]:
    if delta > 0:
        return rules.add_system_strain(pc, delta)
    return rules.recover_system_strain(pc, -delta)


def _accept(tx: Tx, pc: Character, values: Mapping[str, Any]) -> list[str]:
    """RR-04: a delirium is accepted for good, with a d20 roll that moves Grip."""
    name = str(values.get("text", "")).strip()
    if not name:
        raise RuleError("a delirium needs a name")
    result, lines = rules.accept_delirium(tx.rng, pc, name)
    return [tx.log_roll(pc["name"], result), *lines]


def _night(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    """RR-05: a night's rest (every whole eight hours of the rest is a night)."""
    return clock.night_rest(pc, max(1, call.hours // clock.NIGHT_HOURS))


ORDINARY, MAJOR = "ordinary", "major"


def _grip_check(ctx: Context, values: Mapping[str, Any]) -> Command:
    """RR-03: roll under the current Grip; a failure costs 1 Grip (2 for a major event)."""
    major = values.get("event") == MAJOR

    def rule(tx: Tx, pc: Character) -> list[str]:
        result, lines = rules.make_grip_check(tx.rng, pc, major=major)
        return [tx.log_roll(pc["name"], result), *lines]

    return PcChange(need_pc(ctx, "A Grip check"), "Grip check", rule)


SHEET = SheetRules(
    adjust={"hp": _hp, "grip": _grip, "system_strain": _strain},
    adding={
        "deliria": Adding(
            "Accept a Delirium (permanent; rolls d20 for Grip)",
            lambda pc, target: (Field("text", "Delirium"),),
            _accept,
        )
    },
    remove={"deliria": lambda tx, pc, name: rules.remove_delirium(pc, name)},
    headers={
        "deliria": lambda pc: f"{len(pc.get('lists', {}).get('deliria', []))} "
        "(permanent, never removed)"
    },
    rests={"rest": Rest(_night)},
)
ACTIONS: tuple[Action, ...] = (
    Action(
        "grip_check",
        "party",
        "G",
        "Grip check",
        _grip_check,
        description="Grip check: roll under Grip; a failure costs Grip",
        needs="pc",
        form=lambda ctx: (
            Field(
                "event",
                "Event (a failure costs 1 Grip, 2 if major)",
                ORDINARY,
                kind="choice",
                choices=(ORDINARY, MAJOR),
            ),
        ),
    ),
)

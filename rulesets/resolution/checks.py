"""Resolution in the tray: 2d6 or d20 against an SWN DC, Grip checks and deliria (RR-01..04)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.base import CheckResult, RuleError
from rulesets.checks import (
    Check,
    CheckInput,
    CheckRules,
    CheckSpec,
    CliFlag,
    Setup,
    need_roller,
    require_game,
    roller,
)
from rulesets.resolution import rules as resolution
from rulesets.table import Action, Command, Context, Field, Tx, need_pc

GAME = resolution.RULESET.id
DCS = (6, 8, 10, 12, 14)


def dc_note(dc: int) -> str:
    """RR-01: ``"Average: CE DM +0, 5e DC 15"`` for a DC (any value, off-table ones converted)."""
    ce = resolution.convert_dc(dc, "swn", "ce")
    dnd = resolution.convert_dc(dc, "swn", "5e")
    try:
        row = resolution.dc_row(dc)
        prefix = f"{row.ce_difficulty}: "
    except resolution.RuleError:
        prefix = ""
    return f"{prefix}CE DM {ce:+d}, 5e DC {dnd}"


@dataclass(frozen=True)
class ResolutionCheck:
    """RR-01/02: 2d6 or d20 + modifier against an SWN DC; the log names the CE DM and 5e DC."""

    who: int | None = None
    dc: int = 8
    modifier: int = 0
    dice: str = "2d6"

    @property
    def label(self) -> str:
        return f"Check vs DC {self.dc}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        name, _ = roller(tx, self.who)
        result = resolution.check(tx.rng, self.dc, self.modifier, self.dice)
        result = CheckResult(
            result.expression, result.total, result.dice, result.band, dc_note(self.dc),
            result.natural,
        )  # fmt: skip
        return [tx.log_roll(name, result)]


@dataclass(frozen=True)
class GripCheck:
    """RR-03: d20 roll-under the character's Grip; a failure costs 1 Grip (2 if major)."""

    who: int | None = None
    major: bool = False

    @property
    def label(self) -> str:
        return "Grip check"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        doc = need_roller(tx, self.who, "a Grip check")
        assert self.who is not None
        if resolution.is_lost(doc):
            raise RuleError(f"{doc['name']} is lost; there is no Grip left to check")
        result, changes = resolution.make_grip_check(tx.rng, doc, self.major)
        lines = [tx.log_roll(str(doc["name"]), result)]
        if changes:
            tx.put("party", self.who, doc)
        return lines + changes


@dataclass(frozen=True)
class AcceptDelirium:
    """RR-04: the character takes a permanent delirium and rolls d20 against deliria held."""

    who: int | None
    delirium: str

    @property
    def label(self) -> str:
        return f"Delirium: {self.delirium}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        doc = need_roller(tx, self.who, "a Delirium roll")
        assert self.who is not None
        result, changes = resolution.accept_delirium(tx.rng, doc, self.delirium)
        tx.put("party", self.who, doc)
        return [tx.log_roll(str(doc["name"]), result), *changes]


ROLLS = {
    "check": "check vs DC",
    "grip": "Grip check",
    "grip major": "Grip check, major event (fail: −2 Grip)",
}
"""What ``c`` rolls: the check against the DC, or the character's Grip check (RR-03)."""


def _grip_spec(setup: Setup, major: bool) -> CheckSpec:
    if setup.pc is None or setup.who is None:
        raise RuleError("a Grip check is rolled for a character: pick one with p")
    if resolution.is_lost(setup.pc):
        raise RuleError(f"{setup.pc.get('name', '?')} is lost; there is no Grip left to check")
    grip = int(setup.pc.get("resources", {}).get("grip", {}).get("current", 0))
    cost = resolution.MAJOR_GRIP_LOSS if major else resolution.GRIP_LOSS
    return CheckSpec(
        summary=f"d20 under Grip {grip} (a failure costs {cost} Grip)",
        odds=lambda: resolution.grip_odds(grip),
        command=GripCheck(setup.who, major),
        odds_title="under Grip",
    )


def _spec(setup: Setup) -> CheckSpec:
    what = str(setup.values.get("roll", "check"))
    if what != "check":
        return _grip_spec(setup, major=what == "grip major")
    dice, dc, mod = str(setup.values["dice"]), int(setup.values["dc"]), int(setup.values["mod"])
    notes = [dc_note(dc)]
    if setup.pc is not None:
        grip = setup.pc.get("resources", {}).get("grip", {})
        held = len(setup.pc.get("lists", {}).get("deliria", []))
        notes.append(
            f"Grip {grip.get('current', '?')}/{grip.get('max', '?')} (g roll-under) · "
            f"{held} deliria (l)"
        )
    # A d20 is rolled against the DC's 5e column (RR-01): the line says the number to reach.
    target = resolution.target_dc(dc, dice)
    against = f"5e DC {target} (SWN DC {dc})" if dice == "d20" else f"DC {dc}"
    return CheckSpec(
        summary=f"{dice}{mod:+d} vs {against}",
        odds=lambda: resolution.odds(dc, mod, dice),
        command=ResolutionCheck(setup.who, dc, mod, dice),
        odds_title="vs DC",
        notes=tuple(notes),
    )


CHECK = Check(
    id="check",
    name="check vs DC",
    inputs=(
        CheckInput("dice", "Dice", "cycle", default="2d6", press="t", choices=("2d6", "d20")),
        CheckInput(
            "dc",
            "DC",
            "number",
            default=8,
            steps=("plus", "minus"),
            minimum=1,
            maximum=30,
            stops=DCS,
        ),
        CheckInput(
            "mod",
            "Modifier",
            "number",
            default=0,
            steps=("right_square_bracket", "left_square_bracket"),
            minimum=-20,
            maximum=20,
            show=lambda v: f"{int(v):+d}",
        ),
        CheckInput(
            "roll",
            "Roll",
            "cycle",
            default="check",
            press="k",
            choices=tuple(ROLLS),
            show=lambda v: ROLLS.get(str(v), str(v)),
        ),
    ),  # fmt: skip
    spec=_spec,
    legend="total ≥ DC succeeds; the DC is also given in CE and 5e terms · "
    "a Grip check succeeds under the Grip",
    flags=(
        CliFlag("dc", "the DC (SWN)", "int"),
        CliFlag("dice", "2d6 or d20"),
        CliFlag("mod", "the modifier", "int"),
    ),
)


def _can_check_grip(ctx: Context) -> bool:
    pc = ctx.pc
    return pc is not None and not resolution.is_lost(pc)


def _grip(ctx: Context, values: Mapping[str, Any]) -> Command:
    return GripCheck(need_pc(ctx, "A Grip check"))


def _delirium(ctx: Context, values: Mapping[str, Any]) -> Command:
    return AcceptDelirium(need_pc(ctx, "A delirium"), str(values["delirium"]))


CHECKS = CheckRules(checks=(CHECK,))
ACTIONS: tuple[Action, ...] = (
    Action(
        "grip_check", "tray", "g", "Grip check", _grip, needs="pc", available=_can_check_grip,
        description="Grip check: d20 roll-under the character's Grip",
    ),
    Action(
        "delirium", "tray", "l", "Delirium", _delirium, needs="pc",
        available=lambda ctx: ctx.pc_id is not None,
        description="Accept a delirium: the character rolls against deliria held",
        form=lambda ctx: (Field("delirium", "Which delirium is accepted?", suggestions=()),),
        title=lambda ctx: f"{ctx.pc_name} accepts a delirium",
    ),
)  # fmt: skip

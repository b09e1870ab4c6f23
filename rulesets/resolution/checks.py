"""Resolution in the tray: 2d6 or d20 against an SWN DC, Grip checks and deliria (RR-01..04)."""

from __future__ import annotations

from collections.abc import Mapping
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
from rulesets.values import frozen

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


@frozen
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


@frozen
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


@frozen
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


@frozen
class OpposedCheck:
    """RR-02: the NPC rolls first and its total (at least its morale, if the GM uses that
    minimum) is the DC of the roller's check; both rolls go in the log."""

    who: int | None = None
    modifier: int = 0
    npc_modifier: int = 0
    dice: str = "2d6"
    minimum_dc: int | None = None

    @property
    def label(self) -> str:
        return "Opposed check"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        name, _ = roller(tx, self.who)
        result = resolution.opposed_check(
            tx.rng, self.modifier, self.npc_modifier, self.dice, self.minimum_dc
        )
        npc = tx.log_roll("NPC", result.npc_roll)
        pc = result.pc_roll
        shown = CheckResult(
            pc.expression, pc.total, pc.dice, pc.band, "opposed: the NPC's roll is the DC",
            pc.natural,
        )  # fmt: skip
        return [npc, tx.log_roll(name, shown)]


ROLLS = {
    "check": "check vs DC",
    "grip": "Grip check",
    "grip major": "Grip check, major event (fail: −2 Grip)",
    "opposed": "opposed: the NPC's roll is the DC",
}
"""What ``c`` rolls: the check against the DC, the character's Grip check (RR-03), or the
opposed check (RR-02)."""
OPPOSED = "opposed"
MORALES = (0, *range(4, 15))
"""RR-02's optional minimum DC, the NPC's morale (7 + Will: 4 at Will −3 to 14 at +7); 0: none."""


def _opposed(values: Mapping[str, Any]) -> bool:
    return values.get("roll") == OPPOSED


def _morale_shown(value: Any) -> str:
    return f"{value} (the NPC's morale)" if int(value) else "none"


def opposed_spec(who: int | None, values: Mapping[str, Any]) -> CheckSpec:
    """RR-02 as set up: the roller's dice and modifier against the NPC's, its morale the
    optional floor; both rolls' exact odds together."""
    dice, mod = str(values["dice"]), int(values["mod"])
    npc_mod, morale = int(values.get("npc_mod", 0)), int(values.get("morale", 0))
    floor = f", DC at least {morale}" if morale else ""
    return CheckSpec(
        summary=f"{dice}{mod:+d} vs the NPC's {dice}{npc_mod:+d}{floor}",
        odds=lambda: resolution.opposed_odds(mod, npc_mod, dice, morale or None),
        command=OpposedCheck(who, mod, npc_mod, dice, morale or None),
        odds_title="vs the NPC's roll",
        notes=("the NPC rolls first and its total is the DC; a tie goes to the roller",),
    )


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
    if what == OPPOSED:
        return opposed_spec(setup.who, setup.values)
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
        CheckInput(
            "dice", "Dice", "cycle", default="2d6", press="t", choices=("2d6", "d20"), keep="roll"
        ),
        CheckInput(
            "dc",
            "DC",
            "number",
            default=8,
            steps=("plus", "minus"),
            minimum=1,
            maximum=30,
            stops=DCS,
            when=lambda v: not _opposed(v),
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
            keep="roll",
        ),
        CheckInput(
            "roll",
            "Roll",
            "cycle",
            default="check",
            press="k",
            choices=tuple(ROLLS),
            show=lambda v: ROLLS.get(str(v), str(v)),
            keep="roll",
        ),
        CheckInput(
            "npc_mod",
            "NPC's modifier",
            "number",
            default=0,
            steps=("right_curly_bracket", "left_curly_bracket"),
            minimum=-20,
            maximum=20,
            show=lambda v: f"{int(v):+d}",
            when=_opposed,
            keep="roll",
        ),
        CheckInput(
            "morale",
            "Minimum DC",
            "number",
            default=0,
            steps=("greater_than_sign", "less_than_sign"),
            minimum=0,
            maximum=20,
            stops=MORALES,
            show=_morale_shown,
            when=_opposed,
        ),
    ),  # fmt: skip
    spec=_spec,
    legend="total ≥ DC succeeds; the DC is also given in CE and 5e terms · "
    "a Grip check succeeds under the Grip · opposed: the NPC's roll is the DC",
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


def _opposed_form(ctx: Context) -> tuple[Field, ...]:
    setup = ctx.setup
    morale = int(setup.get("morale", 0) or 0)
    return (
        Field("npc_mod", "NPC's modifier (its attribute; d20: twice it)",
              str(int(setup.get("npc_mod", 0) or 0)), "int", minimum=-20, maximum=20),
        Field("morale", "Minimum DC: the NPC's morale (blank: none)",
              str(morale) if morale else "", "optint", minimum=1, maximum=30),
    )  # fmt: skip


def _opposed_values(ctx: Context, values: Mapping[str, Any]) -> dict[str, Any]:
    setup = {"dice": "2d6", "mod": 0, **ctx.setup}
    return {**setup, "npc_mod": int(values.get("npc_mod") or 0), "morale": values.get("morale") or 0}


def _opposed_title(ctx: Context) -> str:
    spec = opposed_spec(ctx.pc_id, _opposed_values(ctx, ctx.setup))
    win = spec.odds()[resolution.SUCCESS]
    return f"Opposed check, {ctx.pc_name}: {spec.summary} · {float(win):.1%} to win"


def _opposed_check(ctx: Context, values: Mapping[str, Any]) -> Command:
    return opposed_spec(ctx.pc_id, _opposed_values(ctx, values)).command


ACTIONS: tuple[Action, ...] = (
    Action(
        "opposed", "tray", "o", "Opposed check", _opposed_check, show=False,
        form=_opposed_form, title=_opposed_title,
        description="Opposed check: the NPC's roll sets the DC, its morale the minimum",
    ),
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

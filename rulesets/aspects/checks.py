"""Aspects in the tray: 2d6 + skill, and fate points spent on the roll (ASP-01..03)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.aspects import advantage
from rulesets.aspects import rules as aspects
from rulesets.base import RuleError
from rulesets.checks import (
    Check,
    CheckInput,
    CheckRules,
    CheckSpec,
    CliFlag,
    Setup,
    require_game,
    roller,
)
from rulesets.table import Action, Command, Context, Doc, Field, Tx, need_pc, roll_line

GAME = aspects.RULESET.id
ROLL_KEY = "aspects_roll"
"""The live :class:`~rulesets.aspects.AspectsRoll` kept on its log entry while fate is spent."""


def _roll_to_dict(roll: aspects.AspectsRoll) -> dict[str, Any]:
    return {
        "dice": list(roll.dice),
        "skill": roll.skill,
        "opposing": roll.opposing,
        "modifier": roll.modifier,
        "fate_spent_by": list(roll.fate_spent_by),
        "notes": list(roll.notes),
    }


def _roll_from_dict(data: dict[str, Any]) -> aspects.AspectsRoll:
    return aspects.AspectsRoll(
        dice=tuple(int(d) for d in data.get("dice", ())),
        skill=int(data.get("skill", 0)),
        opposing=int(data.get("opposing", 0)),
        modifier=int(data.get("modifier", 0)),
        fate_spent_by=tuple(str(w) for w in data.get("fate_spent_by", ())),
        notes=tuple(str(n) for n in data.get("notes", ())),
    )


@dataclass(frozen=True)
class AspectsCheck:
    """ASP-01: 2d6 + skill (− the NPC's skill), five bands and the failure grade."""

    who: int | None = None
    skill: int = 0
    opposing: int = 0

    @property
    def label(self) -> str:
        return f"Roll 2d6{self.skill:+d}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        name, _ = roller(tx, self.who)
        roll = aspects.roll_2d6(tx.rng, self.skill, self.opposing)
        extra = {"who_id": self.who, ROLL_KEY: _roll_to_dict(roll)}
        return [tx.log_roll(name, roll.result, extra=extra)]


def last_aspects_roll(rows: list[tuple[int, Doc]]) -> int | None:
    """The log doc id of the newest aspects roll fate can still be spent on."""
    for doc_id, entry in reversed(rows):
        if entry.get("kind") == "roll" and ROLL_KEY in entry:
            return doc_id
    return None


@dataclass(frozen=True)
class SpendFate:
    """ASP-02/03: the roller spends a fate point on their roll: reroll (keep either) or invoke.

    ``action`` is ``"reroll"`` (``keep`` = ``"better"``, ``"first"`` or ``"second"``) or
    ``"invoke"`` (+2, or −2 with ``against``; then ``payer`` is who invokes against the roller).
    One fate point per character per roll.
    """

    log_id: int
    action: str = "reroll"
    keep: str = "better"
    aspect: str = "an aspect"
    against: bool = False
    payer: int | None = None

    @property
    def label(self) -> str:
        return "Fate point: reroll" if self.action == "reroll" else f"Invoke {self.aspect}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        entry = tx.get("log", self.log_id)
        if ROLL_KEY not in entry:
            raise RuleError("that log line is not an aspects roll")
        roll = _roll_from_dict(entry[ROLL_KEY])
        payer_id = self.payer if self.payer is not None else entry.get("who_id")
        if payer_id is None:
            raise RuleError("a fate point is spent by a character: the GM has none")
        payer = tx.get("party", int(payer_id))
        if self.action == "reroll":
            first, second = aspects.reroll(payer, roll, tx.rng)
            roll = _choose(first, second, self.keep)
            note = f"rolled {sum(first.dice)} then {sum(second.dice)}, kept {sum(roll.dice)}"
            roll = aspects.AspectsRoll(
                roll.dice, roll.skill, roll.opposing, roll.modifier, roll.fate_spent_by,
                (*roll.notes, note),
            )  # fmt: skip
        elif self.action == "invoke":
            roll = aspects.invoke_aspect(payer, roll, self.aspect, against=self.against)
        else:
            raise RuleError(f"unknown fate point use {self.action!r}")
        tx.put("party", int(payer_id), payer)
        entry.update(roll.result.as_log())
        entry[ROLL_KEY] = _roll_to_dict(roll)
        tx.put("log", self.log_id, entry)
        # The roll's own entry now shows the new result; the event says who paid for what.
        how = "reroll" if self.action == "reroll" else f"invoke {self.aspect}"
        return [f"{payer.get('name', '?')} spends a fate point ({how}): {roll_line(entry)}"]


@dataclass(frozen=True)
class FreeInvoke:
    """ASP-04: ``who`` uses the free invoke of an advantage they created (on ``holder``) on a
    roll: +2 to their own, −2 against another's, or a reroll. No fate point is paid, so it
    does not count against one fate point per roll."""

    log_id: int
    who: str
    holder: str
    aspect: str
    effect: str = "+2"
    encounter_id: int | None = None

    @property
    def label(self) -> str:
        return f"Free invoke: {self.aspect}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        entry = tx.get("log", self.log_id)
        if ROLL_KEY not in entry:
            raise RuleError("that log line is not an aspects roll")
        places = advantage.Places(tx, self.encounter_id)
        entries, key = places.of(self.holder)
        lines = aspects.use_free_invoke(entries, self.holder, self.aspect, self.who)
        roll = aspects.invoke_effect(
            _roll_from_dict(entry[ROLL_KEY]),
            self.who,
            self.aspect,
            self.effect,
            "free invoke",
            tx.rng,
        )
        places.save(key)
        entry.update(roll.result.as_log())
        entry[ROLL_KEY] = _roll_to_dict(roll)
        tx.put("log", self.log_id, entry)
        return [*lines, roll_line(entry)]


def free_invoke_form(ctx: Context, who: str) -> tuple[Field, ...]:
    """Which of ``who``'s free invokes, and what it does to the newest roll (+2 on their own,
    −2 on another's by default)."""
    choices = tuple(advantage.free_choices(ctx.read, who))
    log_id = last_aspects_roll(ctx.read.rows("log"))
    entry = ctx.read.doc("log", log_id) if log_id is not None else None
    own = entry is not None and str(entry.get("who", "")).casefold() == who.casefold()
    effect = aspects.INVOKE_EFFECTS[0] if own else aspects.INVOKE_EFFECTS[1]
    return (
        Field("aspect", "Aspect", choices[0] if choices else "", "choice", choices=choices),
        Field("effect", "It gives", effect, "choice", choices=aspects.INVOKE_EFFECTS),
    )


def make_free_invoke(ctx: Context, who: str, values: Mapping[str, Any]) -> Command:
    chosen = advantage.free_choices(ctx.read, who).get(str(values.get("aspect", "")))
    if chosen is None:
        raise RuleError(f"{who} has no free invoke on {values.get('aspect')!r}")
    running = advantage.running_encounter(ctx.read)
    return FreeInvoke(
        _last_roll(ctx),
        who,
        chosen[0],
        chosen[1],
        str(values.get("effect") or "+2"),
        running[0] if running is not None else None,
    )


def has_free_invoke(ctx: Context, who: str) -> bool:
    return last_aspects_roll(ctx.read.rows("log")) is not None and bool(
        advantage.free_choices(ctx.read, who)
    )


def _choose(
    first: aspects.AspectsRoll, second: aspects.AspectsRoll, keep: str
) -> aspects.AspectsRoll:
    if keep == "first":
        return first
    if keep == "second":
        return second
    return second if second.total > first.total else first


def _spec(setup: Setup) -> CheckSpec:
    skill, opposing = int(setup.values["skill"]), int(setup.values["opposing"])
    against = f" − {opposing}" if opposing else ""
    return CheckSpec(
        summary=f"2d6{skill:+d}{against}",
        odds=lambda: aspects.odds(skill, opposing),
        command=AspectsCheck(setup.who, skill, opposing),
        odds_title="2d6",
    )


CHECK = Check(
    id="check",
    name="2d6 check",
    inputs=(
        CheckInput(
            "skill",
            "Skill",
            "number",
            default=0,
            steps=("right_square_bracket", "left_square_bracket"),
            minimum=-30,
            maximum=30,
            show=lambda v: f"{int(v):+d}",
        ),
        CheckInput(
            "opposing",
            "NPC's skill",
            "number",
            default=0,
            steps=("right_curly_bracket", "left_curly_bracket"),
            minimum=0,
            maximum=30,
        ),
    ),  # fmt: skip
    spec=_spec,
    legend="f fate point: reroll, keep the better · v / V invoke an aspect ±2 · "
    "one fate point per roll",
    flags=(
        CliFlag("skill", "skill bonus", "int"),
        CliFlag("opposing", "the NPC's skill", "int"),
    ),
)


def _last_roll(ctx: Context) -> int:
    log_id = last_aspects_roll(ctx.read.rows("log"))
    if log_id is None:
        raise RuleError("Roll first (c), then spend the fate point")
    return log_id


def _roller_can_pay(ctx: Context) -> bool:
    """A roll to spend on, made by a character (the GM has no fate points)."""
    log_id = last_aspects_roll(ctx.read.rows("log"))
    entry = ctx.read.doc("log", log_id) if log_id is not None else None
    return entry is not None and entry.get("who_id") is not None


def _can_invoke_against(ctx: Context) -> bool:
    return ctx.pc_id is not None and last_aspects_roll(ctx.read.rows("log")) is not None


def _reroll(ctx: Context, values: Mapping[str, Any]) -> Command:
    return SpendFate(_last_roll(ctx), "reroll")


def _invoke(against: bool) -> Any:
    def make(ctx: Context, values: Mapping[str, Any]) -> Command:
        payer = ctx.pc_id if against else None
        return SpendFate(
            _last_roll(ctx), "invoke", aspect=str(values["aspect"]), against=against, payer=payer
        )

    return make


def _aspect_form(ctx: Context) -> tuple[Field, ...]:
    return (Field("aspect", "Aspect"),)


def _roller(ctx: Context) -> str:
    return ctx.pc_name if ctx.pc_id is not None else ""


def _advantage_form(ctx: Context) -> tuple[Field, ...]:
    places = advantage.holder_names(ctx.read)
    return (
        Field("aspect", "Aspect created"),
        Field("on", "On", aspects.SCENE, "choice", choices=places),
    )


def _advantage(ctx: Context, values: Mapping[str, Any]) -> Command:
    running = advantage.running_encounter(ctx.read)
    return advantage.CreateAdvantage(
        running[0] if running is not None else None,
        str(values.get("on") or aspects.SCENE),
        str(values.get("aspect", "")),
        ctx.pc_name,
    )


def _compel_form(ctx: Context) -> tuple[Field, ...]:
    found = advantage.aspects_of(ctx.pc)
    return (Field("aspect", "The aspect compelled", found[0] if found else "", suggestions=found),)


def _compel(ctx: Context, values: Mapping[str, Any]) -> Command:
    return advantage.compel(need_pc(ctx, "A compel"), str(values.get("aspect", "")))


CHECKS = CheckRules(checks=(CHECK,))
ACTIONS: tuple[Action, ...] = (
    Action(
        "fate_reroll", "tray", "f", "Fate reroll", _reroll, available=_roller_can_pay,
        description="Spend a fate point: reroll the last roll, keep the better",
    ),
    Action(
        "invoke", "tray", "v", "Invoke +2", _invoke(False), available=_roller_can_pay,
        form=_aspect_form, title=lambda ctx: "Invoke which aspect (+2)?",
    ),
    Action(
        "invoke_against", "tray", "V", "Invoke −2", _invoke(True),
        available=_can_invoke_against,
        show=False, form=_aspect_form, title=lambda ctx: "Invoke which aspect against the roll (−2)?",
    ),
    Action(
        "free_invoke", "tray", "U", "Free invoke",
        lambda ctx, v: make_free_invoke(ctx, _roller(ctx), v),
        description="Use the free invoke of an advantage the roller created: +2, −2 or a reroll",
        available=lambda ctx: has_free_invoke(ctx, _roller(ctx)),
        form=lambda ctx: free_invoke_form(ctx, _roller(ctx)),
        title=lambda ctx: f"{ctx.pc_name}'s free invoke on the last roll",
    ),
    Action(
        "advantage", "tray", "D", "Create an advantage", _advantage, needs="pc", show=False,
        description="The roller creates an advantage: a temporary aspect with one free invoke",
        form=_advantage_form, title=lambda ctx: f"{ctx.pc_name} creates an advantage",
    ),
    Action(
        "compel", "tray", "C", "Compel", _compel, needs="pc", show=False,
        description="Compel the roller: an aspect causes a problem, +1 fate point",
        form=_compel_form, title=lambda ctx: f"Compel {ctx.pc_name}",
    ),
)  # fmt: skip

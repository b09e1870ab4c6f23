"""Aspects in the tray: 2d6 + skill, and fate points spent on the roll (ASP-01..03)."""

from __future__ import annotations

from collections.abc import Mapping
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
from rulesets.values import frozen

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
        **({"rerolled": [list(d) for d in roll.rerolled]} if roll.rerolled else {}),
    }


def _roll_from_dict(data: dict[str, Any]) -> aspects.AspectsRoll:
    return aspects.AspectsRoll(
        dice=tuple(int(d) for d in data.get("dice", ())),
        skill=int(data.get("skill", 0)),
        opposing=int(data.get("opposing", 0)),
        modifier=int(data.get("modifier", 0)),
        fate_spent_by=tuple(str(w) for w in data.get("fate_spent_by", ())),
        notes=tuple(str(n) for n in data.get("notes", ())),
        rerolled=_pair(data.get("rerolled")),
    )


def _pair(value: Any) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A saved reroll's two rolls of dice; anything else (none, a hand edit) is none."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    first, second = (tuple(int(d) for d in dice) for dice in value)
    return first, second


@frozen
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
    """The log doc id of the newest roll, if fate can still be spent on it (an aspects check);
    None when there is none, or when the newest roll is another (a defence rolled in an
    attack, a foe's roll): fate never lands on an older roll than the one just made."""
    for doc_id, entry in reversed(rows):
        if entry.get("kind") == "roll":
            return doc_id if ROLL_KEY in entry else None
    return None


@frozen
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
        if self.against and (self.payer is None or str(self.payer) == str(entry.get("who_id"))):
            # ASP-03: −2 is invoked against someone else's roll, and its invoker pays.
            raise RuleError("−2 is invoked against another's roll: name who invokes (and pays)")
        if payer_id is None:
            raise RuleError("a fate point is spent by a character: the GM has none")
        payer = tx.get("party", int(payer_id))
        if self.action == "reroll":
            first, second = aspects.reroll(payer, roll, tx.rng)
            keep = self.keep
            if keep == "better":
                keep = "second" if second.total > first.total else "first"
            roll = aspects.keep_reroll(second, str(entry.get("who") or payer["name"]), keep)
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
        said = f"{payer.get('name', '?')} spends a fate point ({how}): {roll_line(entry)}"
        return [said + _other_hint(roll)]


def _other_hint(roll: aspects.AspectsRoll) -> str:
    """After a reroll: the key that keeps the other result (the player's choice, ASP-03)."""
    if roll.rerolled is None:
        return ""
    first, second = roll.rerolled
    other = first if tuple(roll.dice) == tuple(second) else second
    return f" · k keeps {sum(other)} instead"


@frozen
class KeepReroll:
    """ASP-03: the player keeps the other result of a rerolled roll (the first, or the reroll)."""

    log_id: int
    keep: str = "other"

    @property
    def label(self) -> str:
        return "Keep the other roll"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, GAME)
        entry = tx.get("log", self.log_id)
        if ROLL_KEY not in entry:
            raise RuleError("that log line is not an aspects roll")
        who = str(entry.get("who") or "GM")
        roll = aspects.keep_reroll(_roll_from_dict(entry[ROLL_KEY]), who, self.keep)
        entry.update(roll.result.as_log())
        entry[ROLL_KEY] = _roll_to_dict(roll)
        tx.put("log", self.log_id, entry)
        return [roll_line(entry) + _other_hint(roll)]


@frozen
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
        return [*lines, roll_line(entry) + _other_hint(roll)]


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
    legend="f fate point: reroll (k keeps the other result) · v invoke +2 (the roller pays) · "
    "V −2 against the roll (its invoker pays) · one fate point per roll",
    flags=(
        CliFlag("skill", "skill bonus", "int"),
        CliFlag("opposing", "the NPC's skill", "int"),
    ),
)


NOT_A_CHECK = (
    "The last roll is not a check fate can be spent on (a defence in an attack: type fate in "
    "its answer, A); roll first (c), then spend the fate point"
)


def _last_roll(ctx: Context) -> int:
    log_id = last_aspects_roll(ctx.read.rows("log"))
    if log_id is None:
        raise RuleError(NOT_A_CHECK)
    return log_id


def _last_entry(ctx: Context) -> Doc | None:
    log_id = last_aspects_roll(ctx.read.rows("log"))
    return ctx.read.doc("log", log_id) if log_id is not None else None


def _roller_can_pay(ctx: Context) -> bool:
    """A roll to spend on, made by a character (the GM has no fate points)."""
    entry = _last_entry(ctx)
    return entry is not None and entry.get("who_id") is not None


def _cannot_pay(pc: Doc, entry: Doc) -> str:
    """Why ``pc`` cannot spend a fate point on the roll ``entry`` now ("": it can; ASP-02)."""
    name = str(pc.get("name", "?"))
    if name in (entry.get(ROLL_KEY) or {}).get("fate_spent_by", ()):
        return f"{name} has already spent a Fate Point on this roll (one per roll)"
    fate = (pc.get("resources") or {}).get("fate_points") or {}
    if int(fate.get("current", 0)) < 1:
        return f"{name} has no Fate Points"
    return ""


def _roller_pays(ctx: Context) -> tuple[Field, ...]:
    """The roller pays (a reroll, a +2): told at once when they cannot, before any question."""
    entry = _last_entry(ctx)
    if entry is None:
        raise RuleError(NOT_A_CHECK)
    who = entry.get("who_id")
    pc = ctx.read.doc("party", int(who)) if who is not None else None
    if pc is None:
        raise RuleError("The GM rolled: the GM has no fate points (V invokes against it)")
    if reason := _cannot_pay(pc, entry):
        raise RuleError(reason)
    return ()


def _payers_against(ctx: Context, entry: Doc) -> list[tuple[int, str]]:
    """Who may invoke −2 against the roll (ASP-03): every other character who can pay."""
    roller = entry.get("who_id")
    return [
        (pid, str(pc.get("name", "?")))
        for pid, pc in ctx.read.rows("party")
        if str(pid) != str(roller) and not _cannot_pay(pc, entry)
    ]


def _in_play(ctx: Context, first: Doc | None = None) -> tuple[str, ...]:
    """Aspects in play as suggestions: ``first``'s own, then every character's and the
    scene's (created advantages included)."""
    names = list(advantage.aspects_of(first))
    for _, pc in ctx.read.rows("party"):
        names += advantage.aspects_of(pc)
    for _holder, entries, _ in advantage.holders([], advantage.running_encounter(ctx.read)):
        names += [str(e.get("name") if isinstance(e, dict) else e) for e in entries]
    return tuple(dict.fromkeys(n for n in names if n))


def _reroll(ctx: Context, values: Mapping[str, Any]) -> Command:
    return SpendFate(_last_roll(ctx), "reroll")


def _invoke(ctx: Context, values: Mapping[str, Any]) -> Command:
    return SpendFate(_last_roll(ctx), "invoke", aspect=str(values["aspect"]))


def _invoke_form(ctx: Context) -> tuple[Field, ...]:
    _roller_pays(ctx)
    entry = _last_entry(ctx) or {}
    roller = ctx.read.doc("party", int(entry["who_id"]))
    return (Field("aspect", "Aspect", suggestions=_in_play(ctx, roller)),)


def _invoke_title(ctx: Context) -> str:
    entry = _last_entry(ctx) or {}
    return f"{entry.get('who', '?')} invokes an aspect: +2 to their roll (1 Fate Point)"


def _against_form(ctx: Context) -> tuple[Field, ...]:
    """Who invokes (and pays), never the roller; the aspect. Refused at once when nobody can."""
    entry = _last_entry(ctx)
    if entry is None:
        raise RuleError("Roll first (c), then invoke against the roll")
    payers = _payers_against(ctx, entry)
    if not payers:
        raise RuleError(
            f"Nobody can invoke against {entry.get('who', 'the')}'s roll: each other character "
            "has no Fate Points or has spent one on it"
        )
    names = tuple(name for _, name in payers)
    chosen = next((name for pid, name in payers if pid == ctx.pc_id), names[0])
    invoker = ctx.read.doc("party", next(pid for pid, name in payers if name == chosen))
    return (
        Field("who", "Who invokes (pays 1 FP)", chosen, "choice", choices=names),
        Field("aspect", "Aspect", suggestions=_in_play(ctx, invoker)),
    )


def _against_title(ctx: Context) -> str:
    entry = _last_entry(ctx) or {}
    return f"Invoke an aspect against {entry.get('who', '?')}'s roll: −2 (the invoker pays)"


def _invoke_against(ctx: Context, values: Mapping[str, Any]) -> Command:
    entry = _last_entry(ctx)
    if entry is None:
        raise RuleError("Roll first (c), then invoke against the roll")
    name = str(values.get("who") or "")
    payer = next((pid for pid, n in _payers_against(ctx, entry) if n == name), None)
    if payer is None:
        raise RuleError(f"{name or 'Nobody'} cannot invoke against this roll")
    return SpendFate(
        _last_roll(ctx), "invoke", aspect=str(values["aspect"]), against=True, payer=payer
    )


def _rerolled(ctx: Context) -> bool:
    entry = _last_entry(ctx)
    return entry is not None and bool((entry.get(ROLL_KEY) or {}).get("rerolled"))


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
        form=_roller_pays,
        description="Spend a fate point: reroll the last roll (k keeps the other result)",
    ),
    Action(
        "keep_other", "tray", "k", "Keep the other", lambda ctx, v: KeepReroll(_last_roll(ctx)),
        available=_rerolled, show=False,
        description="After a reroll: keep the other result (the player's choice)",
    ),
    Action(
        "invoke", "tray", "v", "Invoke +2", _invoke, available=_roller_can_pay,
        form=_invoke_form, title=_invoke_title,
        description="The roller invokes an aspect: +2 to their roll (1 Fate Point)",
    ),
    Action(
        "invoke_against", "tray", "V", "Invoke −2", _invoke_against,
        available=lambda ctx: _last_entry(ctx) is not None,
        show=False, form=_against_form, title=_against_title,
        description="Another character invokes an aspect against the roll: −2, they pay 1 FP",
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

"""Nemron in the tray: rank-dice pools against a DC, and the GM's choice on Good Drama (NEM-01..05).

The pool is at least one attribute and any number of skill or ability nodes (the text's
``Awareness › Marksmanship › Pistol``: a weapon adds its rank die and its minimum DC), or the
three-attribute initiative pool. Good Drama offers Luck, an automatic success or a dramatic
event: the roll waits for the GM's choice (``good_drama`` on its log entry) instead of always
granting Luck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from rulesets.nemron import rules as nemron
from rulesets.table import Action, Command, Context, Doc, Field, Tx, roll_line
from rulesets.values import frozen

BOONS = {
    "": "no boon or penalty",
    "lesser boon": "lesser boon (+d8 keep highest)",
    "greater boon": "greater boon (+d12 keep highest)",
    "lesser penalty": "lesser penalty (+d8 keep lowest)",
    "greater penalty": "greater penalty (+d4 keep lowest)",
}


INITIATIVE = "initiative"
"""The attribute choice that rolls the initiative pool, Agility › Awareness › Sense (NEM-05)."""
NO_WEAPON = -1
DRAMA_KEY = "good_drama"
"""On a character's Good Drama roll: ``"pending"`` until the GM chooses, then the choice."""
DRAMA_CHOICES = {
    "luck": "+1 Luck",
    "success": "an automatic success",
    "event": "a dramatic event (the GM describes it)",
}


def _node_rank(pc: Doc, name: str) -> int:
    """A skill, ability or attribute node's rank on the sheet, found by name (any case)."""
    for table in ("skills", "abilities", "attributes"):
        for key, rank in (pc.get(table) or {}).items():
            if str(key).casefold() == name.casefold():
                return int(rank)
    raise RuleError(f"{pc.get('name', 'this character')} has no node {name!r}")


def character_pool(
    pc: Doc, attribute: str, skills: tuple[str, ...], nodes: tuple[str, ...], weapon_rank: int
) -> list[int]:
    """NEM-01/05: the pool a character rolls: the attribute (or the initiative pool), the
    skills, any further nodes, and the weapon's rank die."""
    if attribute == INITIATIVE:
        pool = nemron.initiative_pool(pc)
    else:
        pool = nemron.pool_for(pc, attribute, skills)
    pool += nemron.pool_from_ranks(_node_rank(pc, n) for n in nodes)
    if weapon_rank != NO_WEAPON:
        pool.append(nemron.rank_die(weapon_rank))
    return pool


@frozen
class NemronCheck:
    """NEM-01..05: the PC's attribute and nodes as rank dice, one net boon or penalty, keep
    the highest against the DC after its minimums; the drama d20 beside it (Good Drama: the GM
    chooses Luck, an automatic success or an event, :class:`ChooseGoodDrama`).
    """

    who: int | None = None
    attribute: str = "power"
    skills: tuple[str, ...] = ()
    dc: int = 4
    boons: tuple[str, ...] = ()
    penalties: tuple[str, ...] = ()
    specialised: bool = False
    pool: tuple[int, ...] = ()
    """Die sides to roll for the GM (no PC); ignored when ``who`` is set."""
    nodes: tuple[str, ...] = ()
    """Further skill, ability or attribute nodes of the character in the pool."""
    weapon_rank: int = NO_WEAPON

    @property
    def label(self) -> str:
        return f"Check vs DC {self.dc}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, nemron.RULESET.id)
        name, doc = roller(tx, self.who)
        sides = (
            character_pool(doc, self.attribute, self.skills, self.nodes, self.weapon_rank)
            if doc is not None
            else nemron.normalise_pool(self.pool or (6,))
        )
        boon = nemron.net_modifier(self.boons, self.penalties)
        weapon = self.weapon_rank if self.weapon_rank != NO_WEAPON else None
        result = nemron.check(
            tx.rng, sides, self.dc, boon, specialised=self.specialised, weapon_rank=weapon,
            drama=True,
        )  # fmt: skip
        good = nemron.drama_of(result) == nemron.GOOD_DRAMA and self.who is not None
        extra: dict[str, Any] = {"who_id": self.who}
        if good:
            extra[DRAMA_KEY] = "pending"
        lines = [tx.log_roll(name, result, extra=extra)]
        if good:
            lines.append(f"{name}: Good Drama: Luck, an automatic success or an event?")
        return lines


def newest_good_drama(rows: list[tuple[int, Doc]], who: int | None) -> int | None:
    """The log id of the character's newest roll if it has Good Drama still to choose."""
    if who is None:
        return None
    for doc_id, entry in reversed(rows):
        if entry.get("kind") == "roll" and entry.get("who_id") == who:
            return doc_id if entry.get(DRAMA_KEY) == "pending" else None
    return None


@frozen
class ChooseGoodDrama:
    """NEM-03: the GM's choice on a Good Drama roll: +1 Luck, an automatic success, or an event."""

    log_id: int
    choice: str = "luck"

    @property
    def label(self) -> str:
        return f"Good Drama: {DRAMA_CHOICES.get(self.choice, self.choice)}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, nemron.RULESET.id)
        if self.choice not in DRAMA_CHOICES:
            raise RuleError(f"Good Drama gives one of: {', '.join(DRAMA_CHOICES)}")
        entry = tx.get("log", self.log_id)
        if entry.get(DRAMA_KEY) != "pending" or entry.get("who_id") is None:
            raise RuleError("that roll has no Good Drama left to choose")
        who = int(entry["who_id"])
        doc = tx.get("party", who)
        lines: list[str] = []
        if self.choice == "luck":
            lines += nemron.apply_drama(doc, nemron.GOOD_DRAMA)
            tx.put("party", who, doc)
        elif self.choice == "success":
            entry["band"] = nemron.SUCCESS
        entry[DRAMA_KEY] = self.choice
        entry["detail"] = f"{entry.get('detail', '')}; Good Drama: {DRAMA_CHOICES[self.choice]}"
        tx.put("log", self.log_id, entry)
        return [*lines, f"{doc.get('name', '?')}: Good Drama, {DRAMA_CHOICES[self.choice]}: "
                f"{roll_line(entry)}"]  # fmt: skip


def _parse_pool(text: str) -> tuple[int, ...]:
    """``"d6,d10,d8"`` (or ``"6 10 8"``) to die sides; blank, 0 or none: the default (a d6)."""
    if text.strip().casefold() in ("0", "none"):
        return ()
    parts = [p for p in text.replace(",", " ").split() if p]
    return tuple(nemron.normalise_pool(parts)) if parts else ()


def _skills(pc: Doc | None) -> list[str]:
    return sorted(pc.get("skills", {})) if pc is not None else []


def _parse_nodes(text: str) -> tuple[str, ...]:
    """``"Marksmanship, Stealth"`` to node names; blank or none: no further nodes."""
    if text.strip().casefold() in ("", "none", "0"):
        return ()
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _weapon_text(rank: Any) -> str:
    if int(rank) == NO_WEAPON:
        return "none"
    return f"rank {rank} (d{nemron.rank_die(int(rank))}, DC at least {int(rank) + 1})"


def _boon(value: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if not value:
        return (), ()
    grade, side = value.split()[0], value.split()[-1]
    return ((grade,), ()) if side == "boon" else ((), (grade,))


def _spec(setup: Setup) -> CheckSpec:
    attribute = str(setup.values["attribute"])
    skill = str(setup.values["skill"])
    # A skill picked for one character is not carried to the next one's sheet.
    known = setup.pc.get("skills", {}) if setup.pc is not None else {}
    skills = (skill,) if skill and skill in known else ()
    dc = int(setup.values["dc"])
    boon_text = str(setup.values["boon"])
    boons, penalties = _boon(boon_text) if boon_text in BOONS else ((), ())
    boon = boon_text or None
    given = tuple(setup.values["pool"] or ())
    nodes = tuple(setup.values.get("nodes") or ())
    weapon_rank = int(setup.values.get("weapon", NO_WEAPON))
    weapon = weapon_rank if weapon_rank != NO_WEAPON else None
    specialised = bool(setup.values.get("specialised", False))
    if setup.pc is not None:
        pool = character_pool(setup.pc, attribute, skills, nodes, weapon_rank)
        first = "Initiative" if attribute == INITIATIVE else attribute.capitalize()
        names = [first, *skills, *nodes, *([f"weapon rank {weapon}"] if weapon is not None else [])]
        what = f"{' › '.join(names)}: "
    else:
        pool = nemron.normalise_pool(given or (6,))
        what = "GM's pool: "
    target = nemron.minimum_dc(dc, specialised, weapon)
    against = f"DC {target}" + (f" (asked {dc})" if target != dc else "")
    return CheckSpec(
        summary=f"{what}{nemron.pool_text(pool)} keep highest vs {against}",
        odds=lambda: nemron.odds(pool, dc, boon, specialised=specialised, weapon_rank=weapon),
        command=NemronCheck(
            setup.who,
            attribute,
            skills,
            dc,
            boons,
            penalties,
            specialised,
            pool=tuple(pool),
            nodes=nodes,
            weapon_rank=weapon_rank,
        ),  # fmt: skip
        odds_title="pool",
    )


def _from_flags(given: Mapping[str, Any]) -> dict[str, Any]:
    # --boon is handed to the rules as typed ("lesser", "greater penalty"): they read it.
    kept = {k: given[k] for k in ("dc", "boon") if k in given}
    return {"pool": _parse_pool(str(given.get("pool") or "")), **kept}


CHECK = Check(
    id="check",
    name="pool check",
    inputs=(
        CheckInput(
            "attribute",
            "Attribute",
            "cycle",
            default=nemron.ATTRIBUTES[0][0],
            press="a",
            choices=(*(k for k, _ in nemron.ATTRIBUTES), INITIATIVE),
            show=lambda v: (
                "Initiative (Agility › Awareness › Sense)"
                if v == INITIATIVE
                else str(v).capitalize()
            ),
            keep="roll",
        ),
        CheckInput("skill", "Skill", "pick", default="", press="k", options=_skills, keep="roller"),
        CheckInput(
            "nodes",
            "More nodes",
            "typed",
            default=(),
            press="n",
            parse=_parse_nodes,
            hint="Further skills, abilities or attributes, e.g. Marksmanship, Stealth (blank: none)",
            show=lambda v: ", ".join(v) if v else "none",
            unparse=lambda v: ", ".join(v),
            keep="roll",
        ),
        CheckInput(
            "weapon",
            "Weapon",
            "cycle",
            default=NO_WEAPON,
            press="w",
            choices=(NO_WEAPON, *range(nemron.MAX_RANK + 1)),
            show=_weapon_text,
            keep="roll",
        ),
        CheckInput(
            "specialised",
            "Specialised skill",
            "cycle",
            default=False,
            press="z",
            choices=(False, True),
            show=lambda v: "yes (DC at least 3)" if v else "no",
            keep="roller",
        ),
        CheckInput(
            "boon",
            "Boon or penalty",
            "cycle",
            default="",
            press="b",
            choices=tuple(BOONS),
            show=lambda v: BOONS.get(str(v), str(v)),
            keep="roll",
        ),
        CheckInput("dc", "DC", "number", default=4, steps=("plus", "minus"), minimum=1, maximum=20),
        CheckInput(
            "pool",
            "GM's pool",
            "typed",
            default=(),
            parse=_parse_pool,
            hint="The GM's dice pool, e.g. d6,d10,d8 (0 or blank: a d6)",
            show=lambda v: nemron.pool_text(v) if v else "d6",
            unparse=lambda v: ",".join(f"d{s}" for s in v),
        ),
    ),  # fmt: skip
    spec=_spec,
    legend="the highest die kept meets the DC to succeed · the drama d20 is rolled beside it",
    flags=(
        CliFlag("pool", "the dice pool, e.g. d6,d10,d8", required=True),
        CliFlag("dc", "the DC", "int", required=True),
        CliFlag("boon", "lesser/greater boon or penalty"),
    ),
    from_flags=_from_flags,
)


def _good_drama_roll(ctx: Context) -> int:
    log_id = newest_good_drama(ctx.read.rows("log"), ctx.pc_id)
    if log_id is None:
        raise RuleError("The character's newest roll has no Good Drama to choose")
    return log_id


def _choose_drama(ctx: Context, values: Mapping[str, Any]) -> Command:
    wanted = str(values["choice"])
    choice = next((k for k, v in DRAMA_CHOICES.items() if wanted in (k, v)), wanted)
    return ChooseGoodDrama(_good_drama_roll(ctx), choice)


def _drama_form(ctx: Context) -> tuple[Field, ...]:
    return (
        Field(
            "choice", "Good Drama gives", DRAMA_CHOICES["luck"], "choice",
            choices=tuple(DRAMA_CHOICES.values()),
        ),
    )  # fmt: skip


CHECKS = CheckRules(checks=(CHECK,))
ACTIONS: tuple[Action, ...] = (
    Action(
        "good_drama", "tray", "G", "Good Drama", _choose_drama, needs="pc",
        available=lambda ctx: newest_good_drama(ctx.read.rows("log"), ctx.pc_id) is not None,
        description="Good Drama: +1 Luck, an automatic success or a dramatic event",
        form=_drama_form, title=lambda ctx: f"{ctx.pc_name}'s Good Drama",
    ),
)  # fmt: skip

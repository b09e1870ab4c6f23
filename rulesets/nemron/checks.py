"""Nemron in the tray: an attribute and a skill as rank dice against a DC (NEM-01..04)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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
from rulesets.table import Action, Doc, Tx

BOONS = {
    "": "no boon or penalty",
    "lesser boon": "lesser boon (+d8 keep highest)",
    "greater boon": "greater boon (+d12 keep highest)",
    "lesser penalty": "lesser penalty (+d8 keep lowest)",
    "greater penalty": "greater penalty (+d4 keep lowest)",
}


@dataclass(frozen=True)
class NemronCheck:
    """NEM-01..04: the PC's attribute and skills as rank dice, one net boon or penalty, keep
    the highest against the DC after its minimums; the drama d20 beside it (Good Drama: +1 Luck).
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

    @property
    def label(self) -> str:
        return f"Check vs DC {self.dc}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, nemron.RULESET.id)
        name, doc = roller(tx, self.who)
        sides = (
            nemron.pool_for(doc, self.attribute, self.skills)
            if doc is not None
            else nemron.normalise_pool(self.pool or (6,))
        )
        boon = nemron.net_modifier(self.boons, self.penalties)
        result = nemron.check(
            tx.rng, sides, self.dc, boon, specialised=self.specialised, drama=True
        )
        lines = [tx.log_roll(name, result)]
        drama = nemron.drama_of(result)
        if drama == nemron.GOOD_DRAMA and doc is not None and self.who is not None:
            lines += nemron.apply_drama(doc, drama)
            tx.put("party", self.who, doc)
        return lines


def _parse_pool(text: str) -> tuple[int, ...]:
    """``"d6,d10,d8"`` (or ``"6 10 8"``) to die sides; blank, 0 or none: the default (a d6)."""
    if text.strip().casefold() in ("0", "none"):
        return ()
    parts = [p for p in text.replace(",", " ").split() if p]
    return tuple(nemron.normalise_pool(parts)) if parts else ()


def _skills(pc: Doc | None) -> list[str]:
    return sorted(pc.get("skills", {})) if pc is not None else []


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
    if setup.pc is not None:
        pool = nemron.pool_for(setup.pc, attribute, skills)
        what = f"{attribute.capitalize()} + {', '.join(skills) or 'no skill'}: "
    else:
        pool = nemron.normalise_pool(given or (6,))
        what = "GM's pool: "
    return CheckSpec(
        summary=f"{what}{nemron.pool_text(pool)} keep highest vs DC {dc}",
        odds=lambda: nemron.odds(pool, dc, boon),
        command=NemronCheck(setup.who, attribute, skills, dc, boons, penalties, pool=tuple(pool)),
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
            choices=tuple(k for k, _ in nemron.ATTRIBUTES),
            show=str.capitalize,
        ),
        CheckInput("skill", "Skill", "pick", default="", press="k", options=_skills),
        CheckInput(
            "boon",
            "Boon or penalty",
            "cycle",
            default="",
            press="b",
            choices=tuple(BOONS),
            show=lambda v: BOONS.get(str(v), str(v)),
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

CHECKS = CheckRules(checks=(CHECK,))
ACTIONS: tuple[Action, ...] = ()

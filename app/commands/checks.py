"""The tray's one-key checks: each game's check rolled inside the transaction, into the log.

Rolls happen in :meth:`run` with ``tx.rng`` (never before the command), so undo and redo
replay the same dice, and a check that changes a sheet (a natural 1's AP, Grip lost, Good
Drama's Luck, a fate point spent) changes it in the same undoable step as the roll.

``who`` is a party doc id, or None for the GM rolling for the world.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.commands.dice import log_roll, roll_line
from app.state import CommandError, Transaction
from rulesets.aspects import rules as aspects
from rulesets.base import CheckResult
from rulesets.nemron import rules as nemron
from rulesets.resolution import rules as resolution
from rulesets.somnihil import rules as somnihil

GM = "GM"


def _pc(tx: Transaction, who: int | None) -> tuple[str, dict[str, Any] | None]:
    if who is None:
        return GM, None
    doc = tx.get("party", who)
    return str(doc.get("name", "?")), doc


def _need_pc(tx: Transaction, who: int | None, what: str) -> dict[str, Any]:
    if who is None:
        raise CommandError(f"{what} is rolled for a character: pick one with p")
    return tx.get("party", who)


def _require_game(tx: Transaction, game: str) -> None:
    if tx.ruleset.id != game:
        raise CommandError(f"this check belongs to {game}, the campaign plays {tx.ruleset.id}")


# --- Somnihil --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SomnihilCheck:
    """SOM-01/02/04/06: d20 (two with an edge), the band and its setbacks; a natural 1 gives
    the rolling Cipher 1 AP back."""

    who: int | None = None
    edge: int = 0
    """+1 advantage, -1 disadvantage, 0 plain (SOM-02)."""

    @property
    def label(self) -> str:
        return {1: "Check with advantage", -1: "Check with disadvantage"}.get(self.edge, "Check")

    def run(self, tx: Transaction) -> list[str]:
        _require_game(tx, "somnihil")
        name, doc = _pc(tx, self.who)
        result = somnihil.check(tx.rng, advantage=self.edge)
        lines = [log_roll(tx, name, result)]
        if doc is not None and self.who is not None:
            gained = somnihil.recover_ap_from_roll(doc, result)
            if gained:
                tx.put("party", self.who, doc)
                lines += gained
        return lines


# --- Resolution ------------------------------------------------------------------------------


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

    def run(self, tx: Transaction) -> list[str]:
        _require_game(tx, "resolution")
        name, _ = _pc(tx, self.who)
        result = resolution.check(tx.rng, self.dc, self.modifier, self.dice)
        detail = dc_note(self.dc)
        result = CheckResult(
            result.expression, result.total, result.dice, result.band, detail, result.natural
        )
        return [log_roll(tx, name, result)]


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
class GripCheck:
    """RR-03: d20 roll-under the character's Grip; a failure costs 1 Grip (2 if major)."""

    who: int | None = None
    major: bool = False

    @property
    def label(self) -> str:
        return "Grip check"

    def run(self, tx: Transaction) -> list[str]:
        _require_game(tx, "resolution")
        doc = _need_pc(tx, self.who, "a Grip check")
        assert self.who is not None
        if resolution.is_lost(doc):
            raise CommandError(f"{doc['name']} is lost; there is no Grip left to check")
        result, changes = resolution.make_grip_check(tx.rng, doc, self.major)
        lines = [log_roll(tx, str(doc["name"]), result)]
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

    def run(self, tx: Transaction) -> list[str]:
        _require_game(tx, "resolution")
        doc = _need_pc(tx, self.who, "a Delirium roll")
        assert self.who is not None
        result, changes = resolution.accept_delirium(tx.rng, doc, self.delirium)
        tx.put("party", self.who, doc)
        return [log_roll(tx, str(doc["name"]), result), *changes]


# --- Nemron ----------------------------------------------------------------------------------


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

    def run(self, tx: Transaction) -> list[str]:
        _require_game(tx, "nemron")
        name, doc = _pc(tx, self.who)
        sides = (
            nemron.pool_for(doc, self.attribute, self.skills)
            if doc is not None
            else nemron.normalise_pool(self.pool or (6,))
        )
        boon = nemron.net_modifier(self.boons, self.penalties)
        result = nemron.check(
            tx.rng, sides, self.dc, boon, specialised=self.specialised, drama=True
        )
        lines = [log_roll(tx, name, result)]
        drama = nemron.drama_of(result)
        if drama == nemron.GOOD_DRAMA and doc is not None and self.who is not None:
            lines += nemron.apply_drama(doc, drama)
            tx.put("party", self.who, doc)
        return lines


# --- Aspects ---------------------------------------------------------------------------------

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

    def run(self, tx: Transaction) -> list[str]:
        _require_game(tx, "aspects")
        name, _ = _pc(tx, self.who)
        roll = aspects.roll_2d6(tx.rng, self.skill, self.opposing)
        entry = {
            "at": tx.now(),
            "kind": "roll",
            "who": name,
            "who_id": self.who,
            **roll.result.as_log(),
            ROLL_KEY: _roll_to_dict(roll),
        }
        tx.insert("log", entry)
        return [roll_line(entry)]


def last_aspects_roll(rows: list[tuple[int, dict[str, Any]]]) -> int | None:
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

    def run(self, tx: Transaction) -> list[str]:
        _require_game(tx, "aspects")
        entry = tx.get("log", self.log_id)
        if ROLL_KEY not in entry:
            raise CommandError("that log line is not an aspects roll")
        roll = _roll_from_dict(entry[ROLL_KEY])
        payer_id = self.payer if self.payer is not None else entry.get("who_id")
        if payer_id is None:
            raise CommandError("a fate point is spent by a character: the GM has none")
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
            raise CommandError(f"unknown fate point use {self.action!r}")
        tx.put("party", int(payer_id), payer)
        entry.update(roll.result.as_log())
        entry[ROLL_KEY] = _roll_to_dict(roll)
        tx.put("log", self.log_id, entry)
        return [roll_line(entry)]


def _choose(
    first: aspects.AspectsRoll, second: aspects.AspectsRoll, keep: str
) -> aspects.AspectsRoll:
    if keep == "first":
        return first
    if keep == "second":
        return second
    return second if second.total > first.total else first

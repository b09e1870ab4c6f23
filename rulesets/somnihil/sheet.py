"""Somnihil on the party sheet: AP and vitality by its rules, spells with their Protocols, the
fates of a perished Cipher, and its new session, regroup and rest.

SOM-09: a Cipher hollowed into a Shill becomes an NPC: its statblock joins the NPC library,
its spells as the Shill's powers ("the Chronicler may transfer the Cipher's abilities, gear,
and spells"), and the party sheet keeps it as an NPC (no roller in the tray, no turn, no
session). Reading: the new Shill's statblock is Brawl 1, Wit 1, Will 1, because the text
gives a Shill no numbers; the GM edits it in the NPC library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesets import npc
from rulesets.base import Character
from rulesets.sheet import Adding, Rest, RestCall, SheetRules
from rulesets.somnihil import rules
from rulesets.table import Action, Field, Tx


def _vitality(tx: Tx, pc: Character, delta: int) -> list[str] | None:
    """SOM-08: a loss of vitality is damage (it may leave the Cipher perished)."""
    return list(rules.apply_damage(pc, -delta, tx.rng).log) if delta < 0 else None


def _ap(tx: Tx, pc: Character, delta: int) -> list[str]:
    """SOM-04: spending and regaining AP."""
    return rules.spend_ap(pc, -delta) if delta < 0 else rules.award_ap(pc, delta)


def _spell_form(pc: Character, target: str) -> Sequence[Field]:
    return (
        Field("name", "Spell name"),
        Field("protocol", "Protocol", kind="choice", choices=tuple(rules.PROTOCOLS)),
    )


def _learn(tx: Tx, pc: Character, values: Mapping[str, Any]) -> list[str]:
    """SOM-10: a spell of at most two Protocols, within the spells-known limit."""
    return rules.learn_spell(pc, str(values.get("name", "")), str(values.get("protocol", "")))


def _spells_header(pc: Character) -> str:
    count = len(pc.get("lists", {}).get("spells", []))
    limit = rules.spells_known_limit(int(pc.get("sessions", 0)))
    known = ", ".join(rules.protocols_known(pc)) or "none yet"
    return f"{count}/{limit} known · Protocols: {known} (at most {rules.MAX_PROTOCOLS})"


def _statuses(pc: Character) -> list[tuple[str, str]]:
    """Every status; for a perished Cipher, SOM-09's fates spelt out (the player's choice)."""
    perished = pc.get("status") == rules.PERISHED
    return [
        (s, f"{s}: {rules.FATES[s]}" if perished and s in rules.FATES else s)
        for s in rules.STATUSES
    ]


def _set_status(tx: Tx, pc: Character, status: str) -> list[str] | None:
    """SOM-09: a perished Cipher's new status is the fate the player chose; a Shill joins
    the NPC library."""
    if status in rules.FATES and pc.get("status") == rules.PERISHED:
        lines = rules.choose_fate(pc, status)
        if pc.get("status") == rules.SHILL:
            tx.insert("npcs", shill_npc(pc))
            lines.append(f"{pc.get('name', '?')} (Shill) is in the NPC library")
        return lines
    return None


SHILL_ATTRIBUTES = (1, 1, 1)
"""Brawl, Wit, Will of a new Shill (the module's Reading)."""


def shill_npc(pc: Character) -> dict[str, Any]:
    """SOM-09: the NPC library's document of a Cipher hollowed into a Shill."""
    name = f"{pc.get('name', '?')} (Shill)"
    spells = pc.get("lists", {}).get("spells", [])
    powers = [
        f"{s.get('name')} ({s.get('protocol', '?')})" for s in spells if isinstance(s, dict)
    ]
    return npc.library_document(
        name,
        ("Shill", "serves the Stiffs"),
        *SHILL_ATTRIBUTES,
        powers=powers,
        notes=f"Was the Cipher {pc.get('name', '?')}; serves the Stiffs until destroyed",
    )


def _session(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    return rules.new_session(pc)


def _regroup(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    return rules.regroup(pc)


def _rest(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    return rules.rest(pc)


SHEET = SheetRules(
    adjust={"vitality": _vitality, "ap": _ap},
    adding={"spells": Adding("Learn a spell", _spell_form, _learn)},
    remove={"spells": lambda tx, pc, name: rules.forget_spell(pc, name)},
    headers={"spells": _spells_header},
    statuses=_statuses,
    set_status=_set_status,
    rests={
        "session": Rest(_session),
        "regroup": Rest(_regroup),
        "rest": Rest(_rest),
    },
)
ACTIONS: tuple[Action, ...] = ()

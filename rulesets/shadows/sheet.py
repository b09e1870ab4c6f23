"""Shadows on the party sheet: held Major Arcana read with their meaning, AP per round back at a
new scene, and a new session that returns every held Major Arcana but the one a PC carries over."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.base import Character
from rulesets.decks import load_deck, save_deck
from rulesets.shadows import rules, tarot
from rulesets.shadows.tarot import held_by
from rulesets.sheet import Adding, Parts, Rest, RestCall, SheetRules
from rulesets.table import Action, Field, Reader, Tx


def _card(entry: Any) -> Parts | None:
    """A held Major Arcana: its name, then what it means."""
    if not isinstance(entry, dict):
        return None
    try:
        card = tarot.as_card(entry)
        return ((card.label, "bold"), (" — ", ""), (card.meaning(), ""))
    except (ValueError, KeyError, TypeError):
        return ((str(entry.get("name", "?")), ""),)


def _new_round(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    """SOH-10: AP back to the full AP per round."""
    new = rules.new_round(pc)
    pc.clear()
    pc.update(new)
    return [f"{pc['name']}: AP {pc['resources']['ap']['current']}"]


def _carry_over_form(read: Reader) -> list[Field]:
    """SOH-04: each PC holding Major Arcana may carry one over (blank: return them all)."""
    fields = []
    for doc_id, pc in sorted(read.rows("party"), key=lambda row: row[0]):
        held = [c for c in pc.get("lists", {}).get("major_arcana", []) if isinstance(c, dict)]
        if held:
            names = tuple(dict.fromkeys(str(c.get("name")) for c in held))
            fields.append(
                Field(
                    f"pc_{doc_id}",
                    f"{pc.get('name', '?')} carries over (blank: none)",
                    kind="choice",
                    choices=names,
                    required=False,
                )
            )
    return fields


def _return_arcana(tx: Tx, call: RestCall) -> list[str]:
    """SOH-04: every held Major Arcana goes back to the deck but the one each PC keeps."""
    party = {str(doc_id): pc for doc_id, pc in tx.all("party")}
    major_id, major = load_deck(tx, "major")
    ended = rules.end_session(major, party, {k: v for k, v in call.chosen.items() if v})
    for cid, pc in ended.characters.items():
        tx.put("party", int(cid), pc)
    if major_id is not None:
        save_deck(tx, major_id, major)
    return list(ended.log)


def _give_up(tx: Tx, pc: Character, name: str) -> list[str]:
    """SOH-04: a PC gives up a held Major Arcana: off the sheet, back to the deck's discards."""
    held = pc.get("lists", {}).get("major_arcana", [])
    at = next(
        i for i, c in enumerate(held) if (c.get("name") if isinstance(c, dict) else c) == name
    )
    entry = held.pop(at)
    major_id, major = load_deck(tx, "major")
    try:
        key = tarot.as_card(entry).key
    except (ValueError, KeyError, TypeError):
        key = ""  # a hand-edited entry that is no card: nothing goes back
    for holder, cards in list(major.hands.items()):
        for card in cards:
            if card.key == key:
                major.discard.append(major.remove_from_hand(holder, card))
                save_deck(tx, major_id, major)
                break
    return [f"{pc.get('name', '?')} gives up {name}: back in the Major Arcana"]


def _grant_fields(pc: Character, target: str) -> tuple[Field, ...]:
    names = tuple(a.name for a in tarot.MAJOR_ARCANA)
    return (Field("card", "Major Arcana card (e.g. The Star)", suggestions=names),)


def _grant(tx: Tx, pc: Character, values: Mapping[str, Any]) -> list[str]:
    """SOH-04: the GM grants a Major Arcana by hand; it leaves the deck (another PC's is refused)."""
    card = tarot.major_card(str(values.get("card", "")))
    for holder, cards in held_by(tx.all("party")).items():
        if any(c.key == card.key for c in cards):
            other = tx.find("party", int(holder)) or {}
            raise rules.RuleError(f"{other.get('name', '?')} already holds {card.name}")
    pc.update(rules.grant_major_arcana(pc, card))
    # The deck follows the sheet the next time it is read (rulesets.shadows.tarot.hold_listed).
    return [f"{pc.get('name', '?')} now holds {card.name}: out of the Major Arcana"]


def _not_retyped(tx: Tx, pc: Character, old: str, new: str) -> list[str]:
    raise rules.RuleError(
        f"{old} is a card of the Major Arcana: give it up (delete) and grant another (n)"
    )


SHEET = SheetRules(
    entries={"major_arcana": _card},
    rename={"major_arcana": _not_retyped},
    remove={"major_arcana": _give_up},
    adding={"major_arcana": Adding("Grant a Major Arcana", _grant_fields, _grant)},
    rests={
        "session": Rest(_new_round, form=_carry_over_form, before=_return_arcana),
        "scene": Rest(_new_round),
    },
)
ACTIONS: tuple[Action, ...] = ()

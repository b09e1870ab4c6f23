"""Shadows on the party sheet: held Major Arcana read with their meaning, AP per round back at a
new scene, and a new session that returns every held Major Arcana but the one a PC carries over."""

from __future__ import annotations

from typing import Any

from rulesets import tarot
from rulesets.base import Character
from rulesets.decks import load_deck, save_deck
from rulesets.shadows import rules
from rulesets.sheet import Parts, Rest, RestCall, SheetRules
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


SHEET = SheetRules(
    entries={"major_arcana": _card},
    rests={
        "session": Rest(_new_round, form=_carry_over_form, before=_return_arcana),
        "scene": Rest(_new_round),
    },
)
ACTIONS: tuple[Action, ...] = ()

"""Aspects in play (ASP-04): where a created advantage is written, and the commands that create
one, use its free invoke and compel a character, shared by the tracker and the tray.

A temporary aspect lives on whoever holds it: a PC's party sheet, a foe's sheet in the running
encounter, or the scene (the encounter's ``scene_aspects``). Its free invoke belongs to its
creator (``by``), wherever it was placed (:func:`rulesets.aspects.rules.place_advantage`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulesets.aspects import rules
from rulesets.base import Character, RuleError
from rulesets.checks import require_game
from rulesets.clock import campaign_date
from rulesets.table import Doc, PcChange, Reader, Tx
from rulesets.values import frozen

SCENE_KEY = "scene_aspects"
"""The running encounter's key for aspects on the scene (kept by the tracker's merge)."""


def end_scene(tx: Tx, encounter_id: int | None = None) -> list[str]:
    """ASP-04: the aspects on the scene end with it (a fight's end, a new scene): gone from
    that encounter (None: the running one), and said. Reading: the text makes an aspect "in
    the scene"; a fight is a scene (ASP-02), so its scene's aspects do not outlive it."""
    if encounter_id is None:
        meta = tx.find("meta", 1) or {}
        rows = tx.all("encounters")
        wanted = meta.get("current_encounter")
        found = next(((i, e) for i, e in rows if i == wanted), rows[0] if rows else None)
    else:
        doc = tx.find("encounters", encounter_id)
        found = (encounter_id, doc) if doc is not None else None
    if found is None or not found[1].get(SCENE_KEY):
        return []
    eid, doc = found
    gone = doc.pop(SCENE_KEY)
    tx.put("encounters", eid, doc)
    names = [str(e.get("name", "?")) if isinstance(e, dict) else str(e) for e in gone]
    return [f"The scene's aspects end: {', '.join(names)}"]


def running_encounter(read: Reader) -> tuple[int, Doc] | None:
    """The encounter the tracker runs (``meta.current_encounter``, else the first), read-only."""
    rows = read.rows("encounters")
    meta = read.doc("meta", 1) or {}
    wanted = meta.get("current_encounter")
    return next(((i, e) for i, e in rows if i == wanted), rows[0] if rows else None)


def _in_party(c: Doc) -> bool:
    return c.get("side") == "pc" and str(c.get("ref", "")).isdigit()


def holders(
    party: Iterable[tuple[int, Doc]], running: tuple[int, Doc] | None, create: bool = False
) -> list[
    tuple[str, list[Any], tuple[str, int]]
]:  # fmt: skip
    """Everyone who can hold a temporary aspect, with its list and the document it lives in:
    each PC, each foe with a sheet in the running encounter, and the scene. ``create`` adds missing lists
    (for writing; a read-only document is never changed)."""

    def entries(doc: Doc, key: str) -> list[Any]:
        if not isinstance(doc.get(key, []), list):
            return []  # a hand-edited document: nothing readable there, nothing written
        if create:
            found: list[Any] = doc.setdefault(key, [])
            return found
        return list(doc.get(key) or [])

    found = []
    for pid, pc in party:
        lists = pc.setdefault("lists", {}) if create else pc.get("lists") or {}
        found.append(
            (str(pc.get("name", "?")), entries(lists, "temporary_aspects"), ("party", pid))
        )
    if running is not None:
        eid, enc = running
        for c in enc.get("combatants", []) or []:
            sheet = (c.get("stats") or {}).get("sheet")
            if (
                isinstance(sheet, dict)
                and isinstance(sheet.get("lists", {}), dict)
                and not _in_party(c)
            ):
                lists = sheet.setdefault("lists", {}) if create else sheet.get("lists") or {}
                found.append(
                    (
                        str(c.get("name", "?")),
                        entries(lists, "temporary_aspects"),
                        ("encounters", eid),
                    )
                )
        found.append((rules.SCENE, entries(enc, SCENE_KEY), ("encounters", eid)))
    return found


def free_choices(read: Reader, who: str) -> dict[str, tuple[str, str]]:
    """The free invokes ``who`` may use now, as the form shows them (``"Wet floor (the
    scene)"``) → (holder, aspect)."""
    choices: dict[str, tuple[str, str]] = {}
    for holder, entries, _ in holders(read.rows("party"), running_encounter(read)):
        for aspect in rules.free_invokes(entries, holder, who):
            choices[f"{aspect} ({holder})"] = (holder, aspect)
    return choices


def holder_names(read: Reader) -> tuple[str, ...]:
    """Who an advantage can be placed on: the scene, the party, the running fight's foes."""
    found = holders(read.rows("party"), running_encounter(read))
    return tuple(dict.fromkeys(h for h, _, _ in found))


class Places:
    """The holders of aspects in one command: loaded once, each written back when changed."""

    def __init__(self, tx: Tx, encounter_id: int | None) -> None:
        self.tx = tx
        self.docs: dict[tuple[str, int], Doc] = {}
        party = tx.all("party")
        self.docs.update({("party", pid): pc for pid, pc in party})
        enc = tx.find("encounters", encounter_id) if encounter_id is not None else None
        running = (encounter_id, enc) if enc is not None and encounter_id is not None else None
        if running is not None:
            self.docs[("encounters", running[0])] = running[1]
        self.found = holders(party, running, create=True)

    def of(self, holder: str) -> tuple[list[Any], tuple[str, int]]:
        for name, entries, key in self.found:
            if name.casefold() == holder.casefold():
                return entries, key
        raise RuleError(f"{holder} is not at the table (no running fight, or not in it)")

    def save(self, key: tuple[str, int]) -> None:
        self.tx.put(key[0], key[1], self.docs[key])


@frozen
class CreateAdvantage:
    """ASP-04: ``by`` creates an advantage on ``holder`` (a PC, a foe, or the scene)."""

    encounter_id: int | None
    holder: str
    aspect: str
    by: str

    @property
    def label(self) -> str:
        return f"Advantage: {self.aspect.strip()}"

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, rules.RULESET.id)
        places = Places(tx, self.encounter_id)
        entries, key = places.of(self.holder)
        lines = rules.place_advantage(entries, self.holder, self.aspect, self.by, campaign_date(tx))
        places.save(key)
        return lines


def compel(pc_id: int, aspect: str) -> PcChange:
    """ASP-04: a compel: the PC accepts a problem from an aspect and gains a fate point."""

    def rule(tx: Tx, pc: Character) -> list[str]:
        if not aspect.strip():
            raise RuleError("Name the aspect that causes the problem")
        return rules.compel(pc, aspect.strip())

    return PcChange(pc_id, "Compel", rule)


def aspects_of(pc: Doc | None) -> tuple[str, ...]:
    """A character's aspects, permanent then temporary, as a compel's suggestions."""
    if not pc:
        return ()
    lists = pc.get("lists") or {}
    names = [str(a) for a in lists.get("aspects") or []]
    names += [
        str(a.get("name")) for a in lists.get("temporary_aspects") or [] if isinstance(a, dict)
    ]
    return tuple(dict.fromkeys(n for n in names if n))

"""Party sheet commands: every change to a PC, and the party-wide rests.

One command per GM action, so each is one undo step: :class:`ChangePC` runs one named sheet
operation on one PC, :class:`PartyAction` runs a new session, a new scene, a regroup or a rest
on every PC at once. What an operation means in the open game is the game's
:class:`rulesets.sheet.SheetRules` (``+`` on AP, learning a spell, a perished PC's fate, the
rests); what is left here is the plain sheet: clamp a pool to its max, append to a list, set a
status, re-derive the maxes from the attributes. A game's own sheet actions (a Grip check,
ranking up) are its declared :class:`rulesets.table.Action` s.

PCs are the same ``party`` documents the combat tracker damages, so both views always agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.state import CommandError
from rulesets import clock
from rulesets.base import Character, RuleError, Ruleset, rederive
from rulesets.clock import HOUR
from rulesets.sheet import MAX_REST_HOURS, REST_IDS, RestCall, SheetRules, run_rest
from rulesets.table import Tx
from rulesets.text import MAX_NOTES, too_long
from rulesets.values import frozen

Arg = str | int
MAX_NAME = 80
"""A PC's name, as long as an NPC's (``app.commands.npcs.MAX_NAME``): a longer one is a paste
accident, and would be cut in every table anyway."""


def _pc_name(text: str) -> str:
    """The name as typed, stripped; CommandError for an empty or overlong one."""
    name = text.strip()
    if not name:
        raise CommandError("a PC needs a name")
    if len(name) > MAX_NAME:
        raise CommandError(f"a name is at most {MAX_NAME} characters, not {len(name)}")
    return name


Op = Callable[[Tx, Character, tuple[Arg, ...]], list[str]]


def derive(tx: Tx, character: Character) -> Character:
    """Re-derive every max from the attributes, and whatever else the game derives from them."""
    rederive(tx.game.ruleset.sheet, character)
    if tx.game.sheet.derive is not None:
        tx.game.sheet.derive(character)
    return character


def _sheet(tx: Tx) -> SheetRules:
    return tx.game.sheet


def _pool(character: Character, key: str) -> dict[str, int]:
    pool = character.get("resources", {}).get(key)
    if not isinstance(pool, dict):
        raise CommandError(f"{character.get('name', '?')} has no {key}")
    return pool


def _label(ruleset: Ruleset, key: str) -> str:
    for spec in ruleset.sheet.resources:
        if spec.key == key:
            return spec.label
    return key


# --- resources and the rows a game adds ------------------------------------------------------


def _adjust(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """+/- on a resource: the game's own rule for it if it has one, else clamp to its range."""
    key, delta = str(args[0]), int(args[1])
    rule = _sheet(tx).adjust.get(key)
    if rule is not None:
        lines = rule(tx, pc, delta)
        if lines is not None:
            return lines
    pool = _pool(pc, key)
    name, label = pc["name"], _label(tx.game.ruleset, key)
    minimum = next((s.minimum for s in tx.game.ruleset.sheet.resources if s.key == key), 0)
    new = int(pool["current"]) + delta
    if new > int(pool["max"]):
        raise CommandError(f"{name}'s {label} is already at its max ({pool['max']})")
    if new < minimum:
        raise CommandError(f"{name}'s {label} is already at {pool['current']}")
    pool["current"] = new
    return [f"{name}: {label} {new}/{pool['max']}"]


def _set_resource(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """e on a resource: set current (and max, where the game leaves the max to the GM)."""
    key, current = str(args[0]), int(args[1])
    spec = next((s for s in tx.game.ruleset.sheet.resources if s.key == key), None)
    pool = _pool(pc, key)
    label = _label(tx.game.ruleset, key)
    if len(args) > 2 and args[2] != "":
        if spec is not None and spec.derive_max is not None:
            raise CommandError(f"{label}'s max is derived from the attributes; edit those instead")
        top = int(args[2])
        if top < 0:
            raise CommandError(f"{label}'s max cannot be negative")
        pool["max"] = top
    minimum = spec.minimum if spec is not None else 0
    if not minimum <= current <= int(pool["max"]):
        raise CommandError(f"{label} must be between {minimum} and {pool['max']}")
    pool["current"] = current
    return [f"{pc['name']}: {label} set to {current}/{pool['max']}"]


def _step(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """+/- on a row the game added (``("limb", "torso", -1)``): the game's rule for that kind."""
    kind, name, delta = str(args[0]), str(args[1]), int(args[2])
    rule = _sheet(tx).steps.get(kind)
    if rule is None:
        raise CommandError(f"{tx.game.ruleset.name} has no {kind}s")
    return rule(tx, pc, name, delta)


def _limb(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """+/- on a limb: :func:`_step` on a ``limb`` row (what the combat tracker's damage names)."""
    return _step(tx, pc, ("limb", *args[:2]) if len(args) >= 2 else ())


# --- attributes, name, status, notes ---------------------------------------------------------


def _set_attribute(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    key, value = str(args[0]), int(args[1])
    spec = next((a for a in tx.game.ruleset.sheet.attributes if a.key == key), None)
    if spec is None:
        raise CommandError(f"{tx.game.ruleset.name} has no attribute {key!r}")
    problem = spec.problem(value)
    if problem:
        raise CommandError(problem)
    before = {k: dict(v) for k, v in pc.get("resources", {}).items()}
    pc.setdefault("attributes", {})[key] = value
    derive(tx, pc)
    lines = [f"{pc['name']}: {spec.label} {_sheet(tx).attribute_shown(spec, value)}"]
    for rkey, pool in pc.get("resources", {}).items():
        if before.get(rkey, {}).get("max") != pool.get("max"):
            lines.append(f"{_label(tx.game.ruleset, rkey)} max {before[rkey]['max']} → {pool['max']}")
    return lines


def _step_attribute(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    key = str(args[0])
    spec = next((a for a in tx.game.ruleset.sheet.attributes if a.key == key), None)
    value = int(pc.get("attributes", {}).get(key, 0))
    stepped = spec.step(value, int(args[1])) if spec is not None else value + int(args[1])
    if spec is not None and spec.steps and stepped == value:
        shown = _sheet(tx).attribute_shown(spec, value)
        raise CommandError(f"{spec.label} is already {shown}, as far as it goes")
    return _set_attribute(tx, pc, (key, stepped))


def _rename(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    name = _pc_name(str(args[0]))
    old, pc["name"] = pc["name"], name
    return [f"{old} is now called {name}"]


def _set_status(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """A status the game offers; the game's own rule first (a perished PC's fate)."""
    status = str(args[0]).strip().lower()
    rule = _sheet(tx).set_status
    if rule is not None:
        lines = rule(tx, pc, status)
        if lines is not None:
            return lines
    if status not in tx.game.ruleset.sheet.statuses:
        raise CommandError(f"status must be one of {', '.join(tx.game.ruleset.sheet.statuses)}")
    pc["status"] = status
    return [f"{pc['name']} is now {status}"]


def _notes(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    if (problem := too_long("Notes", str(args[0]), MAX_NOTES)) is not None:
        raise CommandError(problem)
    pc["notes"] = str(args[0])
    return [f"{pc['name']}: notes edited"]


# --- lists -----------------------------------------------------------------------------------


def _add_item(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """Add to a list by the game's rule: ``(key, *answers in the order its form asks)``."""
    key = str(args[0])
    adding = _sheet(tx).adding.get(key)
    if adding is not None and adding.add is not None:
        fields = adding.form(pc)
        values = {f.key: value for f, value in zip(fields, args[1:], strict=False)}
        return adding.add(tx, pc, values)
    text = str(args[1]).strip()
    if not text:
        raise CommandError("an entry needs a name")
    if (problem := too_long("An entry", text)) is not None:
        raise CommandError(problem)
    pc.setdefault("lists", {}).setdefault(key, []).append(text)
    return [f"{pc['name']}: {text} added"]


def _entry_name(entry: Any) -> str:
    return str(entry.get("name", "")) if isinstance(entry, dict) else str(entry)


def _remove_item(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    key, index = str(args[0]), int(args[1])
    entries = pc.get("lists", {}).get(key, [])
    if not 0 <= index < len(entries):
        raise CommandError(f"{pc['name']} has no such entry")
    name = _entry_name(entries[index])
    rule = _sheet(tx).remove.get(key)
    if rule is not None:
        return rule(tx, pc, name)
    spec = next((s for s in tx.game.ruleset.sheet.lists if s.key == key), None)
    if spec is not None and not spec.removable:
        raise CommandError(f"{spec.label} can never be removed")
    entries.pop(index)
    return [f"{pc['name']}: {name} removed"]


def _rename_item(tx: Tx, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """Rename one entry by the game's rule: ``(key, index, new name)``."""
    key, index = str(args[0]), int(args[1])
    entries = pc.get("lists", {}).get(key, [])
    if not 0 <= index < len(entries):
        raise CommandError(f"{pc['name']} has no such entry to rename")
    old = _entry_name(entries[index])
    rule = _sheet(tx).rename.get(key)
    if rule is not None:
        return rule(tx, pc, old, str(args[2]))
    new = str(args[2]).strip()
    if not new:
        raise CommandError("an entry needs a name")
    if isinstance(entries[index], dict):
        entries[index]["name"] = new
    else:
        entries[index] = new
    return [f"{pc['name']}: {old} is now {new}"]



OPS: dict[str, tuple[str, Op]] = {
    "adjust": ("Adjust", _adjust),
    "set_resource": ("Set", _set_resource),
    "step": ("Change", _step),
    "limb": ("Limb", _limb),
    "set_attribute": ("Set attribute", _set_attribute),
    "step_attribute": ("Change attribute", _step_attribute),
    "rename": ("Rename", _rename),
    "status": ("Status", _set_status),
    "notes": ("Notes", _notes),
    "add_item": ("Add to", _add_item),
    "remove_item": ("Remove from", _remove_item),
    "rename_item": ("Rename an entry of", _rename_item),
}
"""Every sheet operation by name: (label word, function)."""


@frozen
class ChangePC:
    """One sheet operation (:data:`OPS`) on one PC; the rule's refusal is shown as is."""

    doc_id: int
    op: str
    args: tuple[Arg, ...] = ()
    who: str = ""

    @property
    def label(self) -> str:
        word = OPS[self.op][0] if self.op in OPS else self.op
        return f"{word} {self.who}".strip()

    def run(self, tx: Tx) -> list[str]:
        if self.op not in OPS:
            raise CommandError(f"unknown sheet change {self.op!r}")
        pc = tx.get("party", self.doc_id)
        try:
            lines = OPS[self.op][1](tx, pc, self.args)
        except (CommandError, RuleError):
            raise  # Campaign.apply turns a rules refusal into the GM's message as is
        except IndexError:
            raise CommandError(f"{OPS[self.op][0]}: a value is missing") from None
        except (ValueError, TypeError, KeyError) as exc:
            raise CommandError(f"cannot do that: {exc}") from None
        tx.put("party", self.doc_id, pc)
        return lines


@frozen
class AddPC:
    """Add a fresh PC built by the game's rules (full resources, derived maxes)."""

    name: str

    @property
    def label(self) -> str:
        return f"Add PC {self.name}"

    def run(self, tx: Tx) -> list[str]:
        name = _pc_name(self.name)
        tx.insert("party", tx.game.ruleset.make_character(name))
        return [f"{name} joins the party"]


@frozen
class RemovePC:
    """Remove a PC from the party (the combat tracker's entries stay, as history)."""

    doc_id: int

    @property
    def label(self) -> str:
        return "Remove PC"

    def run(self, tx: Tx) -> list[str]:
        pc = tx.get("party", self.doc_id)
        tx.remove("party", self.doc_id)
        return [f"{pc.get('name', '?')} leaves the party"]


ACTIONS: dict[str, str] = dict(
    zip(REST_IDS, ("New session", "New scene", "Regroup / short rest", "Rest"), strict=True)
)
"""The party-wide rests by id, as the GM reads them."""


def supported(sheet: SheetRules, action: str) -> bool:
    """Whether the game has that rest (a new session always starts a log section)."""
    return action in ACTIONS and sheet.has_rest(action)


def _rest_seconds(tx: Tx, action: str, hours: int) -> int:
    """How long a rest takes on the campaign clock: the hours the GM gave, else the game's
    length for that rest; 0 for a rest that takes no in-game time (a new session or scene)."""
    if action not in ("regroup", "rest"):
        return 0
    rules = tx.game.time
    return hours * HOUR or rules.rest_hours.get(action, 0) * HOUR or rules.asked_rest_from


@frozen
class PartyAction:
    """A party-wide rest on every PC at once: one command, one undo step.

    ``hours`` and ``keep`` are the answers to the rest's form (:class:`rulesets.sheet.Rest`).
    """

    action: str
    hours: int = 0
    keep: tuple[tuple[str, str], ...] = ()
    """(PC doc id as text, choice) per PC: what the rest's form let the GM choose (a card a PC
    carries over)."""

    @property
    def label(self) -> str:
        return ACTIONS.get(self.action, self.action)

    def run(self, tx: Tx) -> list[str]:
        if self.action not in ACTIONS:
            raise CommandError(f"unknown party action {self.action!r}")
        if not supported(_sheet(tx), self.action):
            raise CommandError(f"{tx.game.ruleset.name} has no {self.label.lower()} rule")
        if not 0 <= self.hours <= MAX_REST_HOURS:
            raise CommandError(f"rest between 0 and {MAX_REST_HOURS} hours (a year) at a time")
        timed = _rest_seconds(tx, self.action, self.hours)
        if timed:
            # A rest takes time: the clock moves on, and the game's rest is applied for the
            # hours actually rested (an encounter may cut it short).
            return clock.advance(tx, timed, clock.REST, rest=self.action).lines
        lines = run_rest(tx, self.action, RestCall(hours=self.hours, chosen=dict(self.keep)))
        if self.action == "session":
            sessions = 1 + sum(1 for _, e in tx.all("log") if e.get("kind") == "section")
            tx.insert(
                "log",
                {
                    "at": tx.now(),
                    "kind": "section",
                    "who": "GM",
                    "text": f"── Session {sessions} ──",
                },
            )
            # The log's count: each character's own (a Cipher's sessions played) may differ.
            title = f"The log's session {sessions} begins"
        else:
            title = self.label
        lines.insert(0, title)
        if len(lines) == 1:
            lines.append("nothing to change")
        return lines

"""Party sheet commands (issue 6): every change to a PC, and the party-wide session actions.

One command per GM action, so each is one undo step: :class:`ChangePC` runs one named sheet
operation on one PC, :class:`PartyAction` runs a new session, a new scene, a regroup or a rest
on every PC at once. The operations call the game's rules (``rulesets/<game>.py``); nothing
here computes a rule, it only picks which rule function a key press means and turns rule
errors into :class:`~app.state.CommandError` with the rule's own message.

PCs are the same ``party`` documents the combat tracker damages, so both views always agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.commands.dice import log_roll
from app.state import CommandError, Transaction
from rulesets.aspects import rules as aspects
from rulesets.base import Character, RuleError, Ruleset, rederive
from rulesets.decks import load_deck, save_deck
from rulesets.nemron import rules as nemron
from rulesets.resolution import rules as resolution
from rulesets.shadows import rules as shadows
from rulesets.somnihil import rules as somnihil

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


Op = Callable[[Transaction, Character, tuple[Arg, ...]], list[str]]


def derive(ruleset: Ruleset, character: Character) -> Character:
    """Re-derive every max from the attributes (and Nemron's limbs) after an attribute changed."""
    rederive(ruleset.sheet, character)
    if ruleset.id == "nemron":
        nemron.refresh(character)
    return character


def _today(tx: Transaction) -> str:
    return tx.now()[:10]


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


# --- resources -------------------------------------------------------------------------------


def _adjust(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """+/- on a resource, through the game's own rule where it has one."""
    key, delta = str(args[0]), int(args[1])
    game, name = tx.ruleset.id, pc["name"]
    if game == "somnihil" and key == "vitality" and delta < 0:
        return list(somnihil.apply_damage(pc, -delta, tx.rng).log)
    if game == "somnihil" and key == "ap":
        return somnihil.spend_ap(pc, -delta) if delta < 0 else somnihil.award_ap(pc, delta)
    if game == "resolution" and key == "hp":
        return resolution.damage(pc, -delta) if delta < 0 else resolution.heal(pc, delta)
    if game == "resolution" and key == "grip" and delta < 0:
        return resolution.lose_grip(pc, -delta)
    if game == "resolution" and key == "system_strain":
        if delta > 0:
            return resolution.add_system_strain(pc, delta)
        return resolution.recover_system_strain(pc, -delta)
    if game == "aspects" and key == "fate_points":
        fate = _pool(pc, key)
        if delta > 0 and int(fate["current"]) >= aspects.MAX_FATE_POINTS:
            raise CommandError(f"{name} already has {aspects.MAX_FATE_POINTS} fate points, the max")
        return aspects.gain_fate(pc, delta) if delta > 0 else aspects.spend_fate(pc)
    if game == "nemron" and key == "energy" and delta < 0:
        return [nemron.spend_energy(pc, -delta)]
    pool = _pool(pc, key)
    label = _label(tx.ruleset, key)
    minimum = next((s.minimum for s in tx.ruleset.sheet.resources if s.key == key), 0)
    new = int(pool["current"]) + delta
    if new > int(pool["max"]):
        raise CommandError(f"{name}'s {label} is already at its max ({pool['max']})")
    if new < minimum:
        raise CommandError(f"{name}'s {label} is already at {pool['current']}")
    pool["current"] = new
    return [f"{name}: {label} {new}/{pool['max']}"]


def _set_resource(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """e on a resource: set current (and max, where the game leaves the max to the GM)."""
    key, current = str(args[0]), int(args[1])
    spec = next((s for s in tx.ruleset.sheet.resources if s.key == key), None)
    pool = _pool(pc, key)
    label = _label(tx.ruleset, key)
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


def _limb(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """NEM-08/11: +/- on a limb heals it or deals it one damage."""
    limb, delta = str(args[0]), int(args[1])
    if tx.ruleset.id != "nemron":
        raise CommandError(f"{tx.ruleset.name} has no limbs")
    if delta < 0:
        return list(nemron.apply_damage(pc, -delta, tx.rng, limb).log)
    return [nemron.heal_limb(pc, limb, delta)]


# --- attributes, name, status, notes ---------------------------------------------------------


def _set_attribute(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    key, value = str(args[0]), int(args[1])
    spec = next((a for a in tx.ruleset.sheet.attributes if a.key == key), None)
    if spec is None:
        raise CommandError(f"{tx.ruleset.name} has no attribute {key!r}")
    if not spec.minimum <= value <= spec.maximum:
        raise CommandError(f"{spec.label} must be between {spec.minimum} and {spec.maximum}")
    before = {k: dict(v) for k, v in pc.get("resources", {}).items()}
    pc.setdefault("attributes", {})[key] = value
    derive(tx.ruleset, pc)
    lines = [f"{pc['name']}: {spec.label} {value}"]
    for rkey, pool in pc.get("resources", {}).items():
        if before.get(rkey, {}).get("max") != pool.get("max"):
            lines.append(f"{_label(tx.ruleset, rkey)} max {before[rkey]['max']} → {pool['max']}")
    return lines


def _step_attribute(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    key = str(args[0])
    value = int(pc.get("attributes", {}).get(key, 0)) + int(args[1])
    return _set_attribute(tx, pc, (key, value))


def _rename(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    name = _pc_name(str(args[0]))
    old, pc["name"] = pc["name"], name
    return [f"{old} is now called {name}"]


def _set_status(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    status = str(args[0]).strip().lower()
    fated = status in somnihil.FATES and pc.get("status") == somnihil.PERISHED
    if tx.ruleset.id == "somnihil" and fated:
        return somnihil.choose_fate(pc, status)
    if status not in tx.ruleset.sheet.statuses:
        raise CommandError(f"status must be one of {', '.join(tx.ruleset.sheet.statuses)}")
    pc["status"] = status
    return [f"{pc['name']} is now {status}"]


def _notes(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    pc["notes"] = str(args[0])
    return [f"{pc['name']}: notes edited"]


# --- lists -----------------------------------------------------------------------------------


def _add_item(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """Add to a list by the game's rule: learn a spell, accept a delirium, add an aspect ..."""
    key, text = str(args[0]), str(args[1])
    extra = str(args[2]) if len(args) > 2 else ""
    game = tx.ruleset.id
    if game == "somnihil" and key == "spells":
        return somnihil.learn_spell(pc, text, extra)
    if game == "resolution" and key == "deliria":
        if not text.strip():
            raise CommandError("a delirium needs a name")
        result, lines = resolution.accept_delirium(tx.rng, pc, text.strip())
        return [log_roll(tx, pc["name"], result), *lines]
    if game == "aspects" and key == "aspects":
        return aspects.add_aspect(pc, text)
    if game == "aspects" and key == "temporary_aspects":
        return aspects.add_temporary_aspect(pc, text, today=_today(tx), negative=extra == "neg")
    if game == "nemron" and key == "skills":
        return [nemron.learn_skill(pc, text.strip())]
    if game == "nemron" and key == "domains":
        return [nemron.upgrade_to_domain(pc, text.strip())]
    if not text.strip():
        raise CommandError("an entry needs a name")
    pc.setdefault("lists", {}).setdefault(key, []).append(text.strip())
    return [f"{pc['name']}: {text.strip()} added"]


def _entry_name(entry: Any) -> str:
    return str(entry.get("name", "")) if isinstance(entry, dict) else str(entry)


def _remove_item(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    key, index = str(args[0]), int(args[1])
    entries = pc.get("lists", {}).get(key, [])
    if not 0 <= index < len(entries):
        raise CommandError(f"{pc['name']} has no such entry")
    name = _entry_name(entries[index])
    game = tx.ruleset.id
    if game == "resolution" and key == "deliria":
        return resolution.remove_delirium(pc, name)
    if game == "somnihil" and key == "spells":
        return somnihil.forget_spell(pc, name)
    if game == "aspects" and key in ("temporary_aspects", "injuries"):
        return aspects.remove_temporary_aspect(pc, name)
    if game == "aspects" and key == "consequences":
        raise CommandError("a consequence heals into a negative aspect: press h on it")
    spec = next((s for s in tx.ruleset.sheet.lists if s.key == key), None)
    if spec is not None and not spec.removable:
        raise CommandError(f"{spec.label} can never be removed")
    entries.pop(index)
    return [f"{pc['name']}: {name} removed"]


# --- game actions ----------------------------------------------------------------------------


def _grip_check(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """RR-03: roll under the current Grip; a failure costs 1 Grip (2 for a major event)."""
    result, lines = resolution.make_grip_check(tx.rng, pc, major=bool(args and args[0]))
    return [log_roll(tx, pc["name"], result), *lines]


def _rank_up(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    return [nemron.rank_up(pc, str(args[0]))]


def _feature(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    return [nemron.buy_domain_feature(pc, str(args[0]), str(args[1]).strip())]


def _award_xp(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    if int(args[0]) <= 0:
        raise CommandError("award at least 1 XP")
    return [nemron.award_xp(pc, int(args[0]))]


def _heal_consequence(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    """ASP-07: the consequence becomes a negative aspect keeping its date received."""
    return aspects.downgrade_consequence(pc, str(args[0]), str(args[1]), today=_today(tx))


def _level_up(tx: Transaction, pc: Character, args: tuple[Arg, ...]) -> list[str]:
    return aspects.level_up(pc)


OPS: dict[str, tuple[str, Op]] = {
    "adjust": ("Adjust", _adjust),
    "set_resource": ("Set", _set_resource),
    "limb": ("Limb", _limb),
    "set_attribute": ("Set attribute", _set_attribute),
    "step_attribute": ("Change attribute", _step_attribute),
    "rename": ("Rename", _rename),
    "status": ("Status", _set_status),
    "notes": ("Notes", _notes),
    "add_item": ("Add to", _add_item),
    "remove_item": ("Remove from", _remove_item),
    "grip_check": ("Grip check", _grip_check),
    "rank_up": ("Rank up", _rank_up),
    "feature": ("Buy feature", _feature),
    "award_xp": ("Award XP", _award_xp),
    "heal_consequence": ("Heal consequence", _heal_consequence),
    "level_up": ("Level up", _level_up),
}
"""Every sheet operation by name: (label word, function)."""


@dataclass(frozen=True)
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

    def run(self, tx: Transaction) -> list[str]:
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


@dataclass(frozen=True)
class AddPC:
    """Add a fresh PC built by the game's rules (full resources, derived maxes)."""

    name: str

    @property
    def label(self) -> str:
        return f"Add PC {self.name}"

    def run(self, tx: Transaction) -> list[str]:
        name = _pc_name(self.name)
        tx.insert("party", tx.ruleset.make_character(name))
        return [f"{name} joins the party"]


@dataclass(frozen=True)
class RemovePC:
    """Remove a PC from the party (the combat tracker's entries stay, as history)."""

    doc_id: int

    @property
    def label(self) -> str:
        return "Remove PC"

    def run(self, tx: Transaction) -> list[str]:
        pc = tx.get("party", self.doc_id)
        tx.remove("party", self.doc_id)
        return [f"{pc.get('name', '?')} leaves the party"]


MAX_REST_HOURS = 24 * 365
SESSION = "session"
SCENE = "scene"
REGROUP = "regroup"
REST = "rest"
ACTIONS: dict[str, str] = {
    SESSION: "New session",
    SCENE: "New scene",
    REGROUP: "Regroup / short rest",
    REST: "Rest",
}

_RULES: dict[tuple[str, str], Callable[[Transaction, Character, PartyAction], list[str]]] = {}


def _rule(game: str, action: str) -> Callable[[Callable[..., list[str]]], Callable[..., list[str]]]:
    def register(fn: Callable[..., list[str]]) -> Callable[..., list[str]]:
        _RULES[(game, action)] = fn
        return fn

    return register


@_rule("somnihil", SESSION)
def _som_session(tx: Transaction, pc: Character, action: PartyAction) -> list[str]:
    return somnihil.new_session(pc)


@_rule("somnihil", REGROUP)
def _som_regroup(tx: Transaction, pc: Character, action: PartyAction) -> list[str]:
    return somnihil.regroup(pc)


@_rule("somnihil", REST)
def _som_rest(tx: Transaction, pc: Character, action: PartyAction) -> list[str]:
    return somnihil.rest(pc)


@_rule("shadows", SCENE)
def _soh_round(tx: Transaction, pc: Character, action: PartyAction) -> list[str]:
    new = shadows.new_round(pc)
    pc.clear()
    pc.update(new)
    return [f"{pc['name']}: AP {pc['resources']['ap']['current']}"]


@_rule("nemron", REGROUP)
def _nem_short_rest(tx: Transaction, pc: Character, action: PartyAction) -> list[str]:
    return nemron.rest(pc, action.hours or 1, tx.rng)


@_rule("nemron", REST)
def _nem_rest(tx: Transaction, pc: Character, action: PartyAction) -> list[str]:
    return nemron.rest(pc, action.hours or nemron.HEALING_INTERVAL_HOURS, tx.rng)


@_rule("aspects", SESSION)
@_rule("aspects", SCENE)
def _asp_scene(tx: Transaction, pc: Character, action: PartyAction) -> list[str]:
    return aspects.new_scene(pc)


def supported(game: str, action: str) -> bool:
    """Whether a game has a rule for a party action (a new session always starts a log section)."""
    return action == SESSION or (game, action) in _RULES


@dataclass(frozen=True)
class PartyAction:
    """A party-wide action on every PC at once: one command, one undo step."""

    action: str
    hours: int = 0
    keep: tuple[tuple[str, str], ...] = ()
    """Shadows: (PC doc id as text, Major Arcana name) the GM lets a PC carry over (SOH-04)."""

    @property
    def label(self) -> str:
        return ACTIONS.get(self.action, self.action)

    def run(self, tx: Transaction) -> list[str]:
        game = tx.ruleset.id
        if self.action not in ACTIONS:
            raise CommandError(f"unknown party action {self.action!r}")
        if not supported(game, self.action):
            raise CommandError(f"{tx.ruleset.name} has no {self.label.lower()} rule")
        if not 0 <= self.hours <= MAX_REST_HOURS:
            raise CommandError(f"rest between 0 and {MAX_REST_HOURS} hours (a year) at a time")
        rule = _RULES.get((game, self.action))
        lines: list[str] = []
        if game == "shadows" and self.action == SESSION:
            lines.extend(self._return_arcana(tx))
            rule = _RULES[("shadows", SCENE)]
        for doc_id, pc in tx.all("party"):
            if rule is None:
                break
            try:
                lines.extend(rule(tx, pc, self))
            except RuleError as exc:  # one PC refused; the rest of the party goes on
                lines.append(f"{pc.get('name', '?')}: {exc}")
                continue
            tx.put("party", doc_id, pc)
        if self.action == SESSION:
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
            title = f"Session {sessions} begins"
        else:
            title = self.label
        lines.insert(0, title)
        if len(lines) == 1:
            lines.append("nothing to change")
        return lines

    def _return_arcana(self, tx: Transaction) -> list[str]:
        """SOH-04: every held Major Arcana goes back to the deck but the one each PC keeps."""
        party = dict((str(doc_id), pc) for doc_id, pc in tx.all("party"))
        major_id, major = load_deck(tx, "major")
        ended = shadows.end_session(major, party, dict(self.keep))
        for cid, pc in ended.characters.items():
            tx.put("party", int(cid), pc)
        if major_id is not None:
            save_deck(tx, major_id, major)
        return list(ended.log)

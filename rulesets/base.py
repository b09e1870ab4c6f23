"""The shape every game's rules take, so the app can drive any of the five games the same way.

Rules are pure: no Textual, no I/O, and every random draw comes from an injected
``random.Random`` so tests can pin outcomes. Characters and combatants are stored as plain
JSON-safe dicts (the campaign store is a JSON document store), so a ruleset describes the
*layout* of its character sheet with specs and offers pure functions over those dicts.

Character document layout shared by every game (extra keys are allowed per game)::

    {
      "name": str,
      "attributes": {key: int, ...},            # per SheetSpec.attributes
      "resources": {key: {"current": int, "max": int}, ...},
      "lists": {key: [str | dict, ...], ...},   # aspects, deliria, held arcana, spells ...
      "tracks": {key: {...}},                   # e.g. Nemron limbs {"right_arm": {"hp":..,"max":..}}
      "status": str,                            # game-specific ("alive", "spirit", ...)
      "notes": str,
    }
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from rulesets.values import frozen


class RuleError(ValueError):
    """Something the rules do not allow; the message is written for the GM.

    Every game's own error (RuleError, DeckError, EncounterError, NPCError, DiceError …) is one
    of these, so the app turns any of them into a refusal in one place.
    """


TurnModel = str
"""A turn order's id: the built-ins "initiative", "ap_rounds", "chosen_next" or one a game
declares (:mod:`rulesets.turn_orders`)."""

Character = dict[str, Any]


@frozen
class CheckResult:
    """One resolved roll or draw, ready for the roll log."""

    expression: str
    """What was rolled, in the game's words or dice notation (``"2d20kh1"``, ``"d8,d10 vs DC 7"``)."""
    total: int
    dice: tuple[int, ...] = ()
    """Every die or card value that came up, kept and dropped."""
    band: str = ""
    """The named outcome as the rules text writes it (``"Tough Choice"``); empty for a bare roll."""
    detail: str = ""
    """Anything else worth a line in the log: kept dice, natural 1, setbacks, drama die."""
    natural: int | None = None
    dropped: tuple[int, ...] = ()
    """Positions in :attr:`dice` of the values that do not count (a die not kept, a card not
    used); the roll log shows them struck through."""

    def as_log(self) -> dict[str, Any]:
        """A JSON-safe dict for the roll log (``dropped`` only when something was dropped)."""
        entry: dict[str, Any] = {
            "expression": self.expression,
            "total": self.total,
            "dice": list(self.dice),
            "band": self.band,
            "detail": self.detail,
        }
        if self.dropped:
            entry["dropped"] = list(self.dropped)
        return entry


@frozen
class AttributeSpec:
    """One attribute of the sheet: a whole number, stepped by ``+``/``-`` on the party sheet."""

    key: str
    label: str
    default: int = 0
    minimum: int = -99
    maximum: int = 99
    steps: tuple[int, ...] = ()
    """The values it takes, in order, where they are not every number (a trait die: 4, 6, 8,
    10, 12): ``+``/``-`` move along them and a typed value must be one of them; empty: every
    whole number from :attr:`minimum` to :attr:`maximum`, by 1."""
    text: Callable[[int], str] | None = None
    """How a value reads on the sheet and in the log (``8`` -> ``"d8"``); None: the game's
    ``SheetRules.attribute_text``, else the number."""

    def step(self, value: int, delta: int) -> int:
        """The value ``delta`` steps away: along :attr:`steps` (held at their ends), else by
        ``delta`` (a value past the bounds is refused where it is set)."""
        if not self.steps:
            return value + delta
        ordered = sorted(self.steps)
        here = min(range(len(ordered)), key=lambda i: abs(ordered[i] - value))
        return ordered[max(0, min(len(ordered) - 1, here + delta))]

    def problem(self, value: int) -> str:
        """Why ``value`` cannot be this attribute's ("" when it can)."""
        if self.steps and value not in self.steps:
            return f"{self.label} is one of {', '.join(str(v) for v in sorted(self.steps))}"
        if not self.minimum <= value <= self.maximum:
            return f"{self.label} must be between {self.minimum} and {self.maximum}"
        return ""


def accepts(hook: Callable[..., Any], count: int) -> bool:
    """Whether ``hook`` takes ``count`` positional arguments: a hook that grew an argument in a
    later game API (the PC's sheet) is still called as a game written earlier wrote it."""
    try:
        signature = inspect.signature(hook)
    except (TypeError, ValueError):
        return False
    try:
        signature.bind(*([None] * count))
    except TypeError:
        return False
    return True


@frozen
class ResourceSpec:
    """A current/max pool on the sheet (vitality, AP, Grip, fate points, energy ...)."""

    key: str
    label: str
    default_max: int
    derive_max: Callable[[Mapping[str, int]], int] | None = None
    """Max from the character's attributes, where the game says so; None = fixed/hand-set."""
    minimum: int = 0
    starts_full: bool = True


@frozen
class ListSpec:
    """A list on the sheet (aspects, deliria, held Major Arcana, spells known ...)."""

    key: str
    label: str
    removable: bool = True
    """False where the rules make entries permanent (deliria, RR-04)."""


@frozen
class SheetSpec:
    attributes: tuple[AttributeSpec, ...] = ()
    resources: tuple[ResourceSpec, ...] = ()
    lists: tuple[ListSpec, ...] = ()
    statuses: tuple[str, ...] = ("alive",)
    """Every status a character can have. Unless :attr:`usual` names another, the first is the
    one a new character has and the one that says nothing (a table leaves it out)."""
    usual: str = ""
    """The status that says nothing: a new character's, left out of tables ("" = the first of
    :attr:`statuses`). The shell asks :attr:`usual_status`, never the order of the tuple."""

    def __post_init__(self) -> None:
        if self.usual and self.usual not in self.statuses:
            raise ValueError(f"usual status {self.usual!r} is not one of {self.statuses}")

    @property
    def usual_status(self) -> str:
        return self.usual or (self.statuses[0] if self.statuses else "")


@frozen
class Ruleset:
    """One game: its identity, its check, its turn model and its character sheet."""

    id: str
    name: str
    turn_model: TurnModel
    sheet: SheetSpec
    check: Callable[..., CheckResult] | None = None
    """The game's standard check, ``check(rng, **options) -> CheckResult``, for scripts and
    the game's own tests; optional: the tray rolls what :attr:`Game.checks` states."""
    check_help: str = ""
    """One line on :attr:`check`'s options, for a game's own documentation (optional)."""
    new_character: Callable[..., Character] | None = None
    """``new_character(name, **attributes) -> Character``; default builds from the sheet spec."""
    health_summary: Callable[[Character], str] | None = None
    """One short plain-text line of the character's health for tables (``"7/10 vit"``)."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Anything the game's own modules share through its ruleset (optional; the shell never
    reads it)."""

    def make_character(self, name: str, **attributes: int) -> Character:
        if self.new_character is not None:
            return self.new_character(name, **attributes)
        return default_character(self.sheet, name, **attributes)

    def health(self, character: Character) -> str:
        """The health line; a hand-edited sheet missing a pool shows "?" rather than crashing."""
        try:
            if self.health_summary is not None:
                return self.health_summary(character)
            return default_health(self.sheet, character)
        except (KeyError, TypeError, ValueError, AttributeError):
            return "?"


def default_character(sheet: SheetSpec, name: str, **attributes: int) -> Character:
    """A fresh character laid out from the sheet spec, resources full, maxes derived."""
    attrs = {a.key: int(attributes.get(a.key, a.default)) for a in sheet.attributes}
    character: Character = {
        "name": name,
        "attributes": attrs,
        "resources": {},
        "lists": {spec.key: [] for spec in sheet.lists},
        "tracks": {},
        "status": sheet.usual_status,
        "notes": "",
    }
    rederive(sheet, character)
    for spec in sheet.resources:
        res = character["resources"][spec.key]
        res["current"] = res["max"] if spec.starts_full else spec.minimum
    return character


def rederive(sheet: SheetSpec, character: Character) -> Character:
    """Recompute every derived max from the attributes; clamp current into range. Mutates."""
    resources = character.setdefault("resources", {})
    attrs = character.get("attributes", {})
    for spec in sheet.resources:
        res = resources.setdefault(spec.key, {"current": spec.default_max, "max": spec.default_max})
        if spec.derive_max is not None:
            res["max"] = int(spec.derive_max(attrs))
        res.setdefault("max", spec.default_max)
        res["current"] = max(spec.minimum, min(int(res.get("current", res["max"])), res["max"]))
    return character


def default_health(sheet: SheetSpec, character: Character) -> str:
    if not sheet.resources:
        return ""
    first = sheet.resources[0]
    res = character.get("resources", {}).get(first.key, {})
    return f"{res.get('current', 0)}/{res.get('max', 0)} {first.label}"


def hp_change(
    name: str, before: int, after: int, top: int, note: str = "", *, heal: bool = False
) -> str:
    """One HP change as the log writes it, a PC's and a foe's alike: ``"Goblin 1 takes 2
    damage: 5 → 3/5 HP"``, ``"Mara Quell heals 3: 5 → 8/8 HP"``; ``note`` said after the
    amount (what temporary HP took)."""
    said = f" ({note})" if note else ""
    what = f"heals {after - before}" if heal else f"takes {before - after} damage"
    return f"{name} {what}{said}: {before} → {after}/{top} HP"


def rng_or_new(rng: random.Random | None) -> random.Random:
    """Tests inject a seeded Random; the app passes its campaign Random."""
    return rng if rng is not None else random.Random()

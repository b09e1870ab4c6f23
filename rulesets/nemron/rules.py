"""Nemron RPG: rank-dice pools keep highest, boons and penalties, drama die, limbs, energy.

Rules text: ``rules/003_e8bbeb3bbb14ae16.txt``; mechanics NEM-01..NEM-14 in MECHANICS.md.
Pure rules code: no I/O, every random draw comes from an injected ``random.Random`` (``rng``).
Characters are plain dicts (see ``rulesets.base``); Nemron adds ``skills`` ({name: rank}),
``domains`` ({skill: [feature, ...]}) and ``tracks["limbs"]`` ({limb: {"hp", "max"}}).

Reading: attributes, skills and domains are ranks 0..4 (d4..d12) because the rank-dice table
stops at rank 4 / d12 and no larger die is defined.
Reading: a new character's attributes default to rank 0 (d4), because the text gives no
attribute allotment at creation; the GM sets them on the sheet.
Reading: a penalty die caps the pool, i.e. result = min(highest of the pool, penalty die),
because keeping the lowest of *all* dice would make every extra relevant skill lower the result,
contradicting "their experience ... have a chance to affect the outcome".
Reading: when boons and penalties meet, equal grades cancel to nothing and a greater one cancels
a lesser one and itself remains, because "greater ... always cancel out lesser" names no loss.
Reading: band names are the text's words "success" / "failure" (lower case, as written in
"count as a success" and "based on the roll success or failure"); drama is "Bad Drama" /
"Good Drama" and is reported beside the band, never overriding it (the GM decides drama).
Reading: the Fixed-Medium of a pool with an odd maximum rounds down (all rank dice are even).
Reading: ranking up a node costs max(1, current rank) XP, because a literal cost of 0 for a
rank-0 attribute would make the first rank free.
Reading: ranges use lower bounds inclusive: Melee < 3 m, Near 3..<8, Far 8..<30,
Distant 30..100, and beyond 100 m is out of range (None), because the table's bounds overlap.
Reading: falling damage rounds down (1 per *full* 3 m), because the text's example is exact.
Reading: a limb's HP never goes below 0; healing never raises it above its max.
Reading: the 2-Energy bonus reaction is "once per round", tracked per turn economy (the economy
resets at the start of the owner's turn, i.e. once per round).
Reading: a ticking interval effect with a ``"remaining"`` count loses one remaining tick and ends
at 0; one without it decays one rank (traits never below rank 1), because the text leaves the
interval's consequence to each effect.
Reading: a character's Luck has no cap in the text; the sheet uses 99 as a practical ceiling.
Reading: the cool-downs and the training (NEM-13) run on the campaign clock: an in-game month
is 30 days (the text trains a new skill "for 30 days (in-game)" and gives a month no other
length). A node ranked up may rank up again 30 days later, a domain's feature may be bought 30
days after the last one, and a refusal names the day it becomes possible. A new skill is
trained first: it starts on the day the GM names it, each in-game day that passes logs its two
hours, and after 30 days the skill is learnt at rank 1 for 1 XP (at once if the XP is there,
else when the GM adds the skill again). Called without the clock's time (``now`` None), the
cool-downs are the GM's and a new skill is learnt at once.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from rulesets.base import (
    AttributeSpec,
    Character,
    CheckResult,
    ListSpec,
    ResourceSpec,
    Ruleset,
    SheetSpec,
    default_character,
    rederive,
)
from rulesets.base import RuleError as _BaseRuleError
from rulesets.values import frozen

if TYPE_CHECKING:
    import icepool


# --------------------------------------------------------------------------- constants

RANK_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)
"""NEM-01: rank 0..4 → d4, d6, d8, d10, d12."""
MAX_RANK = len(RANK_DICE) - 1

SUCCESS = "success"
FAILURE = "failure"
BAD_DRAMA = "Bad Drama"
GOOD_DRAMA = "Good Drama"

LESSER_BOON = "lesser boon"
GREATER_BOON = "greater boon"
LESSER_PENALTY = "lesser penalty"
GREATER_PENALTY = "greater penalty"
MODIFIER_DICE: dict[str, tuple[int, Literal["highest", "lowest"]]] = {
    LESSER_BOON: (8, "highest"),
    GREATER_BOON: (12, "highest"),
    LESSER_PENALTY: (8, "lowest"),
    GREATER_PENALTY: (4, "lowest"),
}
"""NEM-02: the die each boon or penalty adds and which result it keeps."""

SPECIALISED_MIN_DC = 3
"""NEM-04: specialised skills always have at least DC 3."""

ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("power", "Power"),
    ("agility", "Agility"),
    ("constitution", "Constitution"),
    ("intellect", "Intellect"),
    ("awareness", "Awareness"),
    ("willpower", "Willpower"),
    ("control", "Control"),
    ("sense", "Sense"),
    ("focus", "Focus"),
)
"""The nine attributes in their three lines: Body, Mind, Spirit."""

INITIATIVE_ATTRIBUTES = ("agility", "awareness", "sense")
"""NEM-05: initiative pool Agility › Awareness › Sense."""

LOCATION_DIE: dict[int, str] = {
    1: "right_arm",
    2: "left_arm",
    3: "right_leg",
    4: "left_leg",
    5: "torso",
    6: "head",
}
"""NEM-08: the d6 location die."""
LIMBS: tuple[str, ...] = tuple(LOCATION_DIE.values())
MAJOR_LIMBS = frozenset({"torso", "head"})
MINOR_LIMBS = frozenset(LIMBS) - MAJOR_LIMBS

HEALING_INTERVAL_HOURS = 8
"""NEM-11: every eight hours of rest heals; resource traits recharge to rank 1."""
BONUS_REACTION_ENERGY = 2
"""NEM-10: spend 2 Energy once per round for one bonus reaction."""
STARTING_XP = 5
NEW_SKILL_XP = 1
DOMAIN_UPGRADE_XP = 2
DOMAIN_FEATURE_XP = 2

RANGE_BANDS: tuple[tuple[float, str], ...] = ((3, "Melee"), (8, "Near"), (30, "Far"))
DISTANT_LIMIT = 100
FALL_METRES_PER_DAMAGE = 3

STATUSES = ("alive", "downed", "dead")


class RuleError(_BaseRuleError):
    """A move the Nemron rules do not allow; the message says why in the GM's words."""


# --------------------------------------------------------------------------- NEM-01 rank dice


def rank_die(rank: int) -> int:
    """NEM-01: the number of sides of the rank die for ``rank`` (0 → d4 ... 4 → d12)."""
    if not isinstance(rank, int) or isinstance(rank, bool) or not 0 <= rank <= MAX_RANK:
        raise RuleError(f"rank must be 0..{MAX_RANK}, got {rank!r}")
    return RANK_DICE[rank]


def pool_from_ranks(ranks: Iterable[int]) -> list[int]:
    """NEM-01: die sides for a list of node ranks."""
    return [rank_die(r) for r in ranks]


def _sides(die: int | str) -> int:
    if isinstance(die, bool):
        raise RuleError(f"{die!r} is not a rank die (d4, d6, d8, d10, d12)")
    text = str(die).strip().lower()
    match = re.fullmatch(r"(?:1?d)?(\d+)", text)
    if match is None:
        raise RuleError(f"{die!r} is not a rank die (d4, d6, d8, d10, d12)")
    sides = int(match.group(1))
    if sides not in RANK_DICE:
        raise RuleError(f"d{sides} is not a rank die (d4, d6, d8, d10, d12)")
    return sides


def normalise_pool(pool: Iterable[int | str]) -> list[int]:
    """NEM-01: die sides from ``[6, 10, 8]`` or ``["d6", "d10", "d8"]``; at least one die."""
    sides = [_sides(d) for d in pool]
    if not sides:
        raise RuleError("a dice pool needs at least one attribute die")
    return sides


def pool_for(character: Character, attribute: str, skills: Iterable[str] = ()) -> list[int]:
    """NEM-01: the pool for an attribute plus the named skills the character has."""
    attrs = character.get("attributes", {})
    if attribute not in attrs:
        raise RuleError(f"no attribute {attribute!r} on {character.get('name', 'this sheet')}")
    ranks = [int(attrs[attribute])]
    known = character.get("skills", {})
    for skill in skills:
        if skill not in known:
            raise RuleError(f"{character.get('name', 'this character')} has no skill {skill!r}")
        ranks.append(int(known[skill]))
    return pool_from_ranks(ranks)


def pool_text(pool: Sequence[int]) -> str:
    """The pool in the text's notation: ``d6 › d10 › d8``."""
    return " › ".join(f"d{s}" for s in pool)


# --------------------------------------------------------------------------- NEM-02 boons


def _grade(item: str) -> str:
    word = str(item).strip().lower().split()[0] if str(item).strip() else ""
    if word not in ("lesser", "greater"):
        raise RuleError(f"{item!r} is neither lesser nor greater")
    return word


def net_modifier(boons: Iterable[str] = (), penalties: Iterable[str] = ()) -> str | None:
    """NEM-02: the one boon or penalty that applies after stacking and cancelling.

    Args:
        boons: grades of the boons in play, ``"lesser"`` / ``"greater"`` (or full names).
        penalties: grades of the penalties in play.

    Returns:
        ``"lesser boon"``, ``"greater boon"``, ``"lesser penalty"``, ``"greater penalty"`` or None.
        They do not stack (only the best grade of each side counts); equal grades cancel; a
        greater one cancels a lesser one and remains.
    """
    order = {"lesser": 1, "greater": 2}
    boon = max((order[_grade(b)] for b in boons), default=0)
    penalty = max((order[_grade(p)] for p in penalties), default=0)
    names = {1: "lesser", 2: "greater"}
    if boon > penalty:
        return f"{names[boon]} boon"
    if penalty > boon:
        return f"{names[penalty]} penalty"
    return None


def _modifier(boon: str | None) -> tuple[int, str] | None:
    if boon is None or not str(boon).strip():
        return None
    key = " ".join(str(boon).strip().lower().split())
    if key not in MODIFIER_DICE:
        raise RuleError(f"unknown boon or penalty {boon!r}; use one of {sorted(MODIFIER_DICE)}")
    return MODIFIER_DICE[key]


# --------------------------------------------------------------------------- NEM-03 drama


def drama_band(value: int) -> str | None:
    """NEM-03: 1 → Bad Drama, 20 → Good Drama, anything else → no drama."""
    if value == 1:
        return BAD_DRAMA
    if value == 20:
        return GOOD_DRAMA
    return None


def roll_drama(rng: random.Random) -> tuple[int, str | None]:
    """NEM-03: roll the separate d20 Drama Dice; returns (value, band or None)."""
    value = rng.randint(1, 20)
    return value, drama_band(value)


def apply_drama(character: Character, band: str | None) -> list[str]:
    """NEM-03: Good Drama gains the character 1 point of Luck. Mutates; returns log lines."""
    if band != GOOD_DRAMA:
        return [f"{character.get('name', '?')}: {band}"] if band else []
    luck = character.setdefault("resources", {}).setdefault("luck", {"current": 0, "max": 99})
    luck["current"] = min(int(luck.get("max", 99)), int(luck.get("current", 0)) + 1)
    return [f"{character.get('name', '?')}: Good Drama, +1 Luck ({luck['current']})"]


# --------------------------------------------------------------------------- NEM-04 DCs


def minimum_dc(dc: int, specialised: bool = False, weapon_rank: int | None = None) -> int:
    """NEM-04: the DC after the minimums: DC 3 for specialised skills, weapon rank + 1."""
    floor = SPECIALISED_MIN_DC if specialised else 0
    if weapon_rank is not None:
        floor = max(floor, weapon_minimum_dc(weapon_rank))
    return max(int(dc), floor)


def weapon_minimum_dc(weapon_rank: int) -> int:
    """NEM-04: a weapon's base difficulty is its rank + 1 (a rank 2 pistol is DC 3)."""
    rank_die(weapon_rank)
    return weapon_rank + 1


def fixed_maximum(pool: Iterable[int | str]) -> int:
    """NEM-04: Fixed-Maximum, the highest number the pool can roll (d6 › d10 › d8 → 10)."""
    return max(normalise_pool(pool))


def fixed_medium(pool: Iterable[int | str]) -> int:
    """NEM-04: Fixed-Medium, half the pool's maximum (d6 › d10 › d8 → 5)."""
    return fixed_maximum(pool) // 2


# --------------------------------------------------------------------------- the check


def _pool_result(
    pool: Sequence[int], boon: str | None, rng: random.Random
) -> tuple[int, list[int], int]:
    """The kept result, every die rolled (the boon/penalty die last) and which one is kept."""
    dice = [rng.randint(1, s) for s in pool]
    kept = dice.index(max(dice))
    mod = _modifier(boon)
    if mod is not None:
        extra = rng.randint(1, mod[0])
        dice.append(extra)
        wins = extra > dice[kept] if mod[1] == "highest" else extra < dice[kept]
        if wins:
            kept = len(dice) - 1
    return dice[kept], dice, kept


def check(
    rng: random.Random,
    pool: Iterable[int | str] | None = None,
    dc: int = 1,
    boon: str | None = None,
    *,
    ranks: Iterable[int] | None = None,
    specialised: bool = False,
    weapon_rank: int | None = None,
    drama: bool = True,
) -> CheckResult:
    """NEM-01..04: roll a dice pool, keep the highest, meet the DC to succeed.

    Args:
        rng: the injected random source.
        pool: die sides (``[6, 10, 8]`` or ``["d6", "d10", "d8"]``); or give ``ranks``.
        dc: the difficulty; rolling exactly the DC is a success.
        boon: the net boon or penalty (see :func:`net_modifier`), e.g. ``"lesser penalty"``.
        ranks: node ranks 0..4 instead of die sides.
        specialised: a specialised skill is in the pool (minimum DC 3, NEM-04).
        weapon_rank: a weapon in the pool (minimum DC = rank + 1, NEM-04).
        drama: also roll the separate d20 Drama Dice (NEM-03).

    Returns:
        band ``"success"``/``"failure"``; total is the kept result; the drama die, if any,
        is in ``detail`` and never part of the pool.
    """
    sides = normalise_pool(pool_from_ranks(ranks) if ranks is not None else (pool or []))
    target = minimum_dc(dc, specialised, weapon_rank)
    result, dice, kept = _pool_result(sides, boon, rng)
    band = SUCCESS if result >= target else FAILURE
    expression = f"{pool_text(sides)} vs DC {target}"
    details = [f"kept {result}"]
    mod = _modifier(boon)
    if mod is not None:
        keep = "keep highest" if mod[1] == "highest" else "keep lowest"
        expression += f" +d{mod[0]} ({boon}, {keep})"
    if target != dc:
        details.append(f"minimum DC {target} (asked {dc})")
    if drama:
        value, drama_result = roll_drama(rng)
        details.append(f"drama d20 {value}" + (f": {drama_result}" if drama_result else ""))
    dropped = tuple(i for i in range(len(dice)) if i != kept)
    return CheckResult(expression, result, tuple(dice), band, "; ".join(details), dropped=dropped)


def drama_of(result: CheckResult) -> str | None:
    """NEM-03: the drama band recorded on a check result's detail, if any."""
    for band in (BAD_DRAMA, GOOD_DRAMA):
        if band in result.detail:
            return band
    return None


# --------------------------------------------------------------------------- odds (icepool)


def _pool_die(pool_sides: Sequence[int], boon: str | None) -> icepool.Die:
    # icepool.highest(x) with a single argument reads x as a collection, so fold in pairs.
    import icepool  # deferred: its import is a cost start-up need not pay

    die = icepool.d(pool_sides[0])
    for sides in pool_sides[1:]:
        die = icepool.highest(die, icepool.d(sides))
    mod = _modifier(boon)
    if mod is not None:
        extra = icepool.d(mod[0])
        die = icepool.highest(die, extra) if mod[1] == "highest" else icepool.lowest(die, extra)
    return die


def odds(
    pool_sides: Sequence[int | str],
    dc: int,
    boon: str | None = None,
    *,
    specialised: bool = False,
    weapon_rank: int | None = None,
) -> dict[str, Fraction]:
    """NEM-01/02/04: exact chances of ``"success"`` and ``"failure"`` of :func:`check`.

    ``odds([6, 10, 8], 7)`` → ``{"success": 11/20, "failure": 9/20}``. The DC's minimums
    (``specialised``, ``weapon_rank``) apply as in :func:`check`; the drama die is rolled apart
    from the pool and never changes the band (its odds: :func:`drama_odds`).
    """
    die = _pool_die(normalise_pool(pool_sides), boon)
    target = minimum_dc(dc, specialised, weapon_rank)
    denominator = die.denominator()
    hits = sum(q for v, q in die.items() if v >= target)
    success = Fraction(hits, denominator)
    return {SUCCESS: success, FAILURE: 1 - success}


def drama_odds() -> dict[str, Fraction]:
    """NEM-03: the chance of each drama outcome on the d20."""
    return {BAD_DRAMA: Fraction(1, 20), GOOD_DRAMA: Fraction(1, 20)}


# --------------------------------------------------------------------------- NEM-05 initiative


def initiative_pool(character: Character) -> list[int]:
    """NEM-05: die sides for Agility › Awareness › Sense."""
    attrs = character.get("attributes", {})
    return pool_from_ranks(int(attrs.get(key, 0)) for key in INITIATIVE_ATTRIBUTES)


def roll_initiative(rng: random.Random, character: Character) -> int:
    """NEM-05: roll the initiative pool and keep the highest (drama is optional: not rolled)."""
    return max(rng.randint(1, s) for s in initiative_pool(character))


def initiative_sort_key(initiative: int, is_pc: bool) -> tuple[int, int]:
    """NEM-05: sort ascending by this key: highest first, a PC before an NPC on a tie."""
    return (-int(initiative), 0 if is_pc else 1)


# --------------------------------------------------------------------------- NEM-06 economy

Spendable = Literal["action", "reaction", "movement", "bonus_action", "bonus_reaction", "held"]


@frozen
class TurnEconomy:
    """NEM-06: one action, one reaction and one movement per turn, plus bonuses and a held action.

    Immutable: :meth:`spend`, :meth:`hold`, :meth:`grant` and :meth:`reset` return a new economy.
    """

    action: bool = True
    reaction: bool = True
    movement: bool = True
    bonus_actions: int = 0
    bonus_reactions: int = 0
    held: bool = False
    """An action held on the owner's turn, usable at any point later in the round."""
    energy_reaction_bought: bool = False
    """NEM-10: the 2-Energy bonus reaction was bought this round."""

    def spend(self, kind: Spendable) -> TurnEconomy:
        """Spend one action, reaction, movement, bonus action/reaction, or the held action."""
        if kind in ("action", "reaction", "movement", "held"):
            if not getattr(self, kind):
                raise RuleError(f"no {kind.replace('_', ' ')} left this turn")
            return replace(self, **{kind: False})
        if kind == "bonus_action":
            if self.bonus_actions < 1:
                raise RuleError("no bonus action left this turn")
            return replace(self, bonus_actions=self.bonus_actions - 1)
        if kind == "bonus_reaction":
            if self.bonus_reactions < 1:
                raise RuleError("no bonus reaction left this turn")
            return replace(self, bonus_reactions=self.bonus_reactions - 1)
        raise RuleError(f"unknown action kind {kind!r}")

    def hold(self) -> TurnEconomy:
        """Hold the action: it is spent now and usable later in the round (``spend("held")``)."""
        return replace(self.spend("action"), held=True)

    def grant(self, kind: Literal["bonus_action", "bonus_reaction"], count: int = 1) -> TurnEconomy:
        """Add bonus actions or reactions (from a boon, trait, skill or dual wielding)."""
        if kind == "bonus_action":
            return replace(self, bonus_actions=self.bonus_actions + count)
        if kind == "bonus_reaction":
            return replace(self, bonus_reactions=self.bonus_reactions + count)
        raise RuleError(f"cannot grant {kind!r}")

    def reset(self) -> TurnEconomy:
        """A fresh economy for the start of the owner's next turn."""
        return TurnEconomy()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnEconomy:
        fields = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**fields)


def buy_bonus_reaction(character: Character, economy: TurnEconomy) -> tuple[TurnEconomy, str]:
    """NEM-10: spend 2 Energy (once per round) for one bonus reaction. Mutates the character."""
    if economy.energy_reaction_bought:
        raise RuleError("a bonus reaction can be bought with Energy only once per round")
    line = spend_energy(character, BONUS_REACTION_ENERGY, "a bonus reaction")
    bought = replace(economy.grant("bonus_reaction"), energy_reaction_bought=True)
    return bought, line


# --------------------------------------------------------------------------- NEM-07/08/09 combat


@frozen
class DamageOutcome:
    """NEM-08: damage dealt to one limb."""

    limb: str
    amount: int
    before: int
    after: int
    location_roll: int | None
    """The location die, or None when the limb was named (targeted)."""
    unusable: bool
    """A minor limb at 0 HP is no longer usable."""
    downed: bool
    """A major limb (torso, head) at 0 HP: the character is downed and starts dying."""
    log: tuple[str, ...]


@frozen
class AoeOutcome:
    """NEM-09: AOE damage, one location die per point."""

    amount: int
    rolls: tuple[int, ...]
    hits: tuple[DamageOutcome, ...]
    """One outcome per limb hit, damage summed per limb, in location-die order."""
    downed: bool
    log: tuple[str, ...]


@frozen
class AttackResult:
    """NEM-07: an attack roll, its defence roll and the damage that gets through."""

    attack: CheckResult
    defence: CheckResult | None
    hit: bool
    """False if the attack failed its minimum DC (weapon rank + 1, DC 3 specialised)."""
    damage: int
    target_limb: str | None
    log: tuple[str, ...]


def limb_label(limb: str) -> str:
    return limb.replace("_", " ")


def limb_max_hp(attributes: Mapping[str, int]) -> int:
    """NEM-08: HP per limb = 5 + Power + Agility + Constitution."""
    return (
        5
        + int(attributes.get("power", 0))
        + int(attributes.get("agility", 0))
        + int(attributes.get("constitution", 0))
    )


def limbs_of(character: Character) -> dict[str, dict[str, int]]:
    """NEM-08: the limb track, built full if the sheet lacks one."""
    tracks = character.setdefault("tracks", {})
    if "limbs" not in tracks:
        top = limb_max_hp(character.get("attributes", {}))
        tracks["limbs"] = {limb: {"hp": top, "max": top} for limb in LIMBS}
    limbs: dict[str, dict[str, int]] = tracks["limbs"]
    return limbs


def refresh(character: Character) -> Character:
    """Re-derive Energy max and every limb's max HP from the attributes; clamp. Mutates."""
    rederive(SHEET, character)
    top = limb_max_hp(character.get("attributes", {}))
    for limb in limbs_of(character).values():
        limb["max"] = top
        limb["hp"] = max(0, min(int(limb["hp"]), top))
    return character


def roll_location(rng: random.Random) -> tuple[int, str]:
    """NEM-08: roll the d6 location die."""
    value = rng.randint(1, 6)
    return value, LOCATION_DIE[value]


def _check_limb(limb: str) -> str:
    """NEM-08: a limb by its name (``"left arm"``) or by the location die's face (``"2"``)."""
    key = limb.strip().lower().replace(" ", "_").replace("-", "_")
    if key.isascii() and key.isdigit() and int(key) in LOCATION_DIE:
        return LOCATION_DIE[int(key)]
    if key not in LIMBS:
        named = ", ".join(f"{n} {limb_label(k)}" for n, k in LOCATION_DIE.items())
        raise RuleError(f"no limb {limb[:20]!r}; limbs are {named}")
    return key


def limb_of(text: str) -> str:
    """NEM-08: the limb a GM names, by name or by the location die's number 1-6."""
    return _check_limb(text)


def damage_limb(character: Character, limb: str, amount: int) -> tuple[int, int]:
    """NEM-08: ``amount`` damage off ``limb`` (a key of :data:`LIMBS`); a major limb at 0 HP
    downs the character. Mutates; the HP (before, after). The rule alone, without the words
    :func:`apply_damage` says it in: a simulator asks it by the hundred thousand."""
    track = limbs_of(character)[limb]
    before = int(track["hp"])
    after = max(0, before - amount)
    track["hp"] = after
    if after == 0 and limb in MAJOR_LIMBS and character.get("status", "alive") == "alive":
        character["status"] = "downed"
    return before, after


def _hurt(character: Character, limb: str, amount: int, roll: int | None) -> DamageOutcome:
    before, after = damage_limb(character, limb, amount)
    track = limbs_of(character)[limb]
    name = character.get("name", "?")
    where = f"{limb_label(limb)} (location {roll})" if roll is not None else limb_label(limb)
    log = [f"{name}: {amount} damage to {where}, {before} → {after}/{track['max']} HP"]
    unusable = downed = False
    if after == 0 and limb in MINOR_LIMBS:
        unusable = True
        log.append(f"{name}: {limb_label(limb)} is no longer usable")
    if after == 0 and limb in MAJOR_LIMBS:
        downed = True
        log.append(f"{name}: {limb_label(limb)} at 0 HP, downed and dying")
    return DamageOutcome(limb, amount, before, after, roll, unusable, downed, tuple(log))


def apply_damage(
    character: Character, amount: int, rng: random.Random, limb: str | None = None
) -> DamageOutcome:
    """NEM-08: deal damage to a named limb, or to one the location die picks. Mutates.

    A minor limb at 0 HP is unusable; a major limb (torso, head) at 0 HP downs the character
    (status ``"downed"``).
    """
    if amount < 0:
        raise RuleError("damage cannot be negative")
    if limb is not None:
        return _hurt(character, _check_limb(limb), int(amount), None)
    roll, where = roll_location(rng)
    return _hurt(character, where, int(amount), roll)


def apply_aoe_damage(character: Character, amount: int, rng: random.Random) -> AoeOutcome:
    """NEM-09: AOE damage: roll one location die per point; each die is one damage there."""
    if amount < 0:
        raise RuleError("damage cannot be negative")
    rolls = tuple(rng.randint(1, 6) for _ in range(int(amount)))
    per_limb: dict[str, int] = {}
    for value in sorted(rolls):
        per_limb[LOCATION_DIE[value]] = per_limb.get(LOCATION_DIE[value], 0) + 1
    hits = tuple(_hurt(character, limb, dmg, None) for limb, dmg in per_limb.items())
    name = character.get("name", "?")
    log = [f"{name}: {amount} AOE damage, location dice {', '.join(map(str, rolls)) or 'none'}"]
    for hit in hits:
        log.extend(hit.log)
    return AoeOutcome(int(amount), rolls, hits, any(h.downed for h in hits), tuple(log))


def damage_after_defence(attack_roll: int, defence_roll: int | None = None) -> int:
    """NEM-07: the attack roll is the damage, reduced by an active defence roll (never below 0)."""
    return max(0, int(attack_roll) - int(defence_roll or 0))


def attack(
    rng: random.Random,
    pool: Iterable[int | str],
    *,
    dc: int = 0,
    weapon_rank: int | None = None,
    specialised: bool = False,
    target_limb: str | None = None,
    boons: Iterable[str] = (),
    penalties: Iterable[str] = (),
    defence_pool: Iterable[int | str] | None = None,
    defence_boon: str | None = None,
) -> AttackResult:
    """NEM-07/09: roll an attack (damage = roll), an optional active defence, and the net damage.

    Targeting a limb adds a lesser penalty to the attack (NEM-09). An attack below its minimum
    DC (weapon rank + 1; DC 3 specialised) misses outright (NEM-04). Apply the returned damage
    with :func:`apply_damage` (``limb=result.target_limb``) or :func:`apply_aoe_damage`.
    """
    all_penalties = list(penalties) + (["lesser"] if target_limb is not None else [])
    limb = _check_limb(target_limb) if target_limb is not None else None
    modifier = net_modifier(boons, all_penalties)
    rolled = check(rng, pool, dc, modifier, specialised=specialised, weapon_rank=weapon_rank)
    log = [f"attack {rolled.expression}: {rolled.total} ({rolled.band})"]
    if rolled.band == FAILURE:
        log.append("miss: the attack failed its difficulty")
        return AttackResult(rolled, None, False, 0, limb, tuple(log))
    defence = None
    if defence_pool is not None:
        defence = check(rng, defence_pool, 0, defence_boon)
        log.append(f"defence {pool_text(normalise_pool(defence_pool))}: {defence.total}")
    damage = damage_after_defence(rolled.total, defence.total if defence else None)
    log.append(f"{damage} damage" + (f" to the {limb_label(limb)}" if limb else ""))
    return AttackResult(rolled, defence, True, damage, limb, tuple(log))


# --------------------------------------------------------------------------- NEM-10/11 energy, rest


def energy_max(attributes: Mapping[str, int]) -> int:
    """NEM-10: MaxEnergy = Control + Sense + Focus + 5."""
    return (
        int(attributes.get("control", 0))
        + int(attributes.get("sense", 0))
        + int(attributes.get("focus", 0))
        + 5
    )


def spend_energy(character: Character, amount: int, reason: str = "effort") -> str:
    """NEM-10: spend Energy; refuses (RuleError) if there is not enough. Mutates."""
    energy = character["resources"]["energy"]
    if amount < 0:
        raise RuleError("cannot spend negative Energy")
    if int(energy["current"]) < amount:
        raise RuleError(
            f"{character.get('name', '?')} has {energy['current']} Energy, {reason} needs {amount}"
        )
    energy["current"] = int(energy["current"]) - amount
    return f"{character.get('name', '?')}: -{amount} Energy for {reason} ({energy['current']} left)"


def hard_effort(character: Character, hours: int) -> str:
    """NEM-10: 1 Energy per hour of hard physical effort (jogging, hiking up a mountain)."""
    return spend_energy(character, int(hours), f"{hours} h of hard effort")


def rest(character: Character, hours: int, rng: random.Random) -> list[str]:
    """NEM-10/11/12: rest for ``hours``. Mutates the character; returns log lines.

    Energy recovers 1 per hour. Every full 8 hours an injured character rolls Constitution and
    every damaged limb heals that much; resource-node traits recharge back up to rank 1.
    """
    if hours < 0:
        raise RuleError("cannot rest a negative number of hours")
    name = character.get("name", "?")
    if character.get("status") == "dead":
        return [f"{name} is dead: no Energy or healing comes back"]
    log: list[str] = []
    energy = character["resources"]["energy"]
    gained = min(int(hours), int(energy["max"]) - int(energy["current"]))
    energy["current"] = int(energy["current"]) + max(0, gained)
    log.append(f"{name}: rests {hours} h, +{max(0, gained)} Energy ({energy['current']})")
    for _ in range(int(hours) // HEALING_INTERVAL_HOURS):
        period = _heal_period(character, rng) + _recharge_traits(character)
        if not period:
            # Whole and recharged: every later period would change nothing and roll nothing,
            # so a typo of 1000000000 hours ends here instead of looping for minutes.
            break
        log.extend(period)
    return log


def _heal_period(character: Character, rng: random.Random) -> list[str]:
    limbs = limbs_of(character)
    damaged = [k for k, v in limbs.items() if int(v["hp"]) < int(v["max"])]
    if not damaged:
        return []
    sides = rank_die(int(character.get("attributes", {}).get("constitution", 0)))
    healing = rng.randint(1, sides)
    lines = [f"{character.get('name', '?')}: Constitution d{sides} heals {healing} per limb"]
    for limb in damaged:
        lines.append(heal_limb(character, limb, healing))
    return lines


def heal_limb(character: Character, limb: str, amount: int) -> str:
    """NEM-11: targeted healing: heal one limb (never above its max). Mutates.

    NEM-08: a downed character whose major limbs are all above 0 again is no longer downed,
    whichever route healed the limb (the tracker, the sheet's +, a rest).
    """
    key = _check_limb(limb)
    limbs = limbs_of(character)
    track = limbs[key]
    before = int(track["hp"])
    track["hp"] = min(int(track["max"]), before + max(0, int(amount)))
    line = (
        f"{character.get('name', '?')}: {limb_label(key)} {before} → {track['hp']}/{track['max']}"
    )
    if character.get("status") == "downed" and all(
        int(limbs[m]["hp"]) > 0 for m in MAJOR_LIMBS if m in limbs
    ):
        character["status"] = "alive"
        line += ", no longer downed"
    return line


def _recharge_traits(character: Character) -> list[str]:
    lines = []
    for trait in character.get("lists", {}).get("traits", []):
        if isinstance(trait, dict) and trait.get("kind") == "resource" and trait.get("rank", 1) < 1:
            trait["rank"] = 1
            lines.append(f"{character.get('name', '?')}: {trait.get('name', '?')} recharges to 1")
    return lines


# --------------------------------------------------------------------------- NEM-12 nodes


def decay(node: dict[str, Any], trait: bool | None = None) -> dict[str, Any] | None:
    """NEM-12: a boon or condition loses one rank; traits never decay below rank 1.

    Returns the new node, or None when a non-trait node decays away. Does not mutate.
    """
    is_trait = bool(node.get("trait")) if trait is None else trait
    rank = int(node.get("rank", 1)) - 1
    if is_trait:
        return {**node, "rank": max(1, rank)}
    return {**node, "rank": rank} if rank > 0 else None


def gain_rank(node: dict[str, Any], ranks: int = 1) -> dict[str, Any]:
    """NEM-12: gaining more of the same boon/condition raises its rank (temporarily for traits)."""
    return {**node, "rank": int(node.get("rank", 0)) + ranks}


def spend_resource_node(node: dict[str, Any]) -> dict[str, Any]:
    """NEM-12: spend one charge of a resource node; it may drop below rank 1 (even as a trait)."""
    rank = int(node.get("rank", 0))
    if rank < 1:
        raise RuleError(f"{node.get('name', 'that resource')} has no charge left")
    return {**node, "rank": rank - 1}


def tick_effect(effect: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """NEM-12: one interval tick of an effect (``"interval"``: ``"turn"`` or ``"round"``).

    With a ``"remaining"`` count the tick uses one up and the effect ends at 0; otherwise the
    effect decays one rank (see :func:`decay`). Returns (the effect or None if it ended, log).
    """
    name = effect.get("name", "effect")
    interval = effect.get("interval", "turn")
    if interval not in ("turn", "round"):
        raise RuleError(f"{name}: interval must be 'turn' or 'round', got {interval!r}")
    if "remaining" in effect:
        left = int(effect["remaining"]) - 1
        if left <= 0:
            return None, f"{name} ({interval}) triggers and ends"
        return {**effect, "remaining": left}, f"{name} ({interval}) triggers, {left} left"
    after = decay(effect)
    if after is None:
        return None, f"{name} ({interval}) triggers and fades"
    return after, f"{name} ({interval}) triggers, rank {after['rank']}"


def tick_effects(character: Character, interval: Literal["turn", "round"]) -> list[str]:
    """NEM-12: tick every effect on the sheet with this interval ("turn" at the end of the
    owner's turn, "round" each round). Mutates ``lists["effects"]``; returns log lines."""
    kept: list[Any] = []
    log: list[str] = []
    for effect in character.setdefault("lists", {}).get("effects", []):
        if isinstance(effect, dict) and effect.get("interval") == interval:
            after, line = tick_effect(effect)
            log.append(f"{character.get('name', '?')}: {line}")
            if after is not None:
                kept.append(after)
        else:
            kept.append(effect)
    character["lists"]["effects"] = kept
    return log


# --------------------------------------------------------------------------- NEM-13 XP


def rank_up_cost(rank: int) -> int:
    """NEM-13: ranking up a node costs its current rank in XP (at least 1)."""
    return max(1, int(rank))


def award_xp(character: Character, amount: int) -> str:
    """Give XP (milestones: minor 1-2, major 2-3). Mutates."""
    xp = character["resources"]["xp"]
    xp["current"] = min(int(xp["max"]), int(xp["current"]) + int(amount))
    return f"{character.get('name', '?')}: +{amount} XP ({xp['current']})"


def _spend_xp(character: Character, cost: int, what: str) -> None:
    xp = character["resources"]["xp"]
    if int(xp["current"]) < cost:
        raise RuleError(f"{what} costs {cost} XP; {character.get('name', '?')} has {xp['current']}")
    xp["current"] = int(xp["current"]) - cost


MONTH_DAYS = 30
"""NEM-13: an in-game month, for the cool-downs (see the module's Reading)."""
TRAINING_DAYS = 30
TRAINING_HOURS_A_DAY = 2
"""NEM-13: a new skill is trained "2 hours, for 30 days (in-game)"."""
_DAY_SECONDS = 24 * 60 * 60


def _day_of(at: int) -> str:
    return f"Day {at // _DAY_SECONDS + 1}"


def _cool_down(last: Any, now: int | None, what: str, when: Callable[[int], str]) -> None:
    """NEM-13: one step a month; RuleError naming the day the next becomes possible."""
    if now is None or not isinstance(last, int) or isinstance(last, bool):
        return
    ready = last + MONTH_DAYS * _DAY_SECONDS
    if now < ready:
        raise RuleError(f"{what} on {when(last)}: one a month, the next from {when(ready)}")


def rank_up(
    character: Character, node: str, now: int | None = None, when: Callable[[int], str] = _day_of
) -> str:
    """NEM-13: rank up an attribute or skill by 1, paying its current rank in XP, at most once
    a month per node (``now``: the campaign clock's seconds; ``when`` names a time). Mutates."""
    for kind in ("attributes", "skills"):
        table = character.get(kind, {})
        if node in table:
            rank = int(table[node])
            if rank >= MAX_RANK:
                raise RuleError(f"{node} is already at rank {MAX_RANK} (d12), the highest")
            ranked = character.get("ranked_at", {})
            _cool_down(ranked.get(node), now, f"{node} was ranked up", when)
            cost = rank_up_cost(rank)
            _spend_xp(character, cost, f"ranking {node} up to {rank + 1}")
            table[node] = rank + 1
            if now is not None:
                character.setdefault("ranked_at", {})[node] = now
            if kind == "attributes":
                refresh(character)
            return f"{character.get('name', '?')}: {node} rank {rank} → {rank + 1} (-{cost} XP)"
    raise RuleError(f"{character.get('name', '?')} has no attribute or skill {node!r}")


def learn_skill(
    character: Character, skill: str, now: int | None = None, when: Callable[[int], str] = _day_of
) -> str:
    """NEM-13: a new skill is trained 2 hours a day for 30 in-game days, then costs 1 XP and
    starts at rank 1. With ``now`` (the campaign clock's seconds) the first call starts the
    training and a call once it is done learns the skill; without, it is learnt at once."""
    skills = character.setdefault("skills", {})
    name = character.get("name", "?")
    if not skill.strip():
        raise RuleError("a skill needs a name")
    if skill in skills:
        raise RuleError(f"{name} already knows {skill}")
    if now is not None:
        training = character.setdefault("training", {})
        started = training.get(skill)
        if not isinstance(started, int) or isinstance(started, bool):
            training[skill] = now
            done = now + TRAINING_DAYS * _DAY_SECONDS
            return (
                f"{name} starts training {skill}: {TRAINING_HOURS_A_DAY} h a day for "
                f"{TRAINING_DAYS} in-game days, then {NEW_SKILL_XP} XP (from {when(done)})"
            )
        days = training_days(started, now)
        if days < TRAINING_DAYS:
            done = started + TRAINING_DAYS * _DAY_SECONDS
            raise RuleError(
                f"{name} trains {skill} since {when(started)}: {days} of {TRAINING_DAYS} days "
                f"({days * TRAINING_HOURS_A_DAY} h) logged, learnt from {when(done)}"
            )
        _spend_xp(character, NEW_SKILL_XP, f"finishing {skill}'s training")
        del training[skill]
        skills[skill] = 1
        hours = TRAINING_DAYS * TRAINING_HOURS_A_DAY
        return (
            f"{name}: learns {skill} at rank 1 after {TRAINING_DAYS} days' training "
            f"({hours} h, -{NEW_SKILL_XP} XP)"
        )
    _spend_xp(character, NEW_SKILL_XP, f"learning {skill}")
    skills[skill] = 1
    return f"{name}: learns {skill} at rank 1 (-{NEW_SKILL_XP} XP)"


def training_days(started: int, now: int) -> int:
    """NEM-13: whole in-game days of training logged since it started (at most the 30)."""
    return max(0, min(TRAINING_DAYS, (now - started) // _DAY_SECONDS))


def train(character: Character, start: int, end: int) -> list[str]:
    """NEM-13: time passes from ``start`` to ``end``: each whole day logs two hours of every
    training; one that reaches 30 days is learnt for 1 XP (or waits for the XP). Mutates."""
    name = character.get("name", "?")
    training = character.get("training", {})
    lines: list[str] = []
    for skill, started in list(training.items() if isinstance(training, dict) else ()):
        if not isinstance(started, int) or isinstance(started, bool):
            continue
        before, after = training_days(started, start), training_days(started, end)
        if after == before:
            continue
        if after < TRAINING_DAYS:
            hours = after * TRAINING_HOURS_A_DAY
            lines.append(f"{name}: {skill} training, day {after} of {TRAINING_DAYS} ({hours} h)")
            continue
        try:
            lines.append(learn_skill(character, skill, end))
        except RuleError as exc:
            lines.append(f"{name}: {skill} training done; {exc}")
    return lines


def upgrade_to_domain(character: Character, skill: str) -> str:
    """NEM-13: upgrade an existing skill into a domain for 2 XP."""
    if skill not in character.get("skills", {}):
        raise RuleError(f"{character.get('name', '?')} has no skill {skill!r} to upgrade")
    domains = character.setdefault("domains", {})
    if skill in domains:
        raise RuleError(f"{skill} is already a domain")
    _spend_xp(character, DOMAIN_UPGRADE_XP, f"upgrading {skill} to a domain")
    domains[skill] = []
    return f"{character.get('name', '?')}: {skill} becomes a domain (-{DOMAIN_UPGRADE_XP} XP)"


def buy_domain_feature(
    character: Character,
    domain: str,
    feature: str,
    now: int | None = None,
    when: Callable[[int], str] = _day_of,
) -> str:
    """NEM-13: a domain feature costs 2 XP; no more features than the domain's rank, and one
    feature a month (``now``: the campaign clock's seconds)."""
    domains = character.get("domains", {})
    if domain not in domains:
        raise RuleError(f"{domain!r} is not a domain of {character.get('name', '?')}")
    features: list[str] = domains[domain]
    rank = int(character["skills"][domain])
    if feature in features:
        raise RuleError(f"{domain} already has the feature {feature}")
    if len(features) >= rank:
        raise RuleError(f"{domain} is rank {rank}: it cannot have more than {rank} feature(s)")
    _cool_down(character.get("feature_at"), now, "A domain feature was bought", when)
    _spend_xp(character, DOMAIN_FEATURE_XP, f"the {domain} feature {feature}")
    features.append(feature)
    if now is not None:
        character["feature_at"] = now
    return f"{character.get('name', '?')}: {domain} gains {feature} (-{DOMAIN_FEATURE_XP} XP)"


# --------------------------------------------------------------------------- NEM-14 range, falls


def range_band(metres: float) -> str | None:
    """NEM-14: Melee < 3 m, Near 3-8, Far 8-30, Distant 30-100; None beyond 100 m."""
    if metres < 0:
        raise RuleError("distance cannot be negative")
    for limit, band in RANGE_BANDS:
        if metres < limit:
            return band
    return "Distant" if metres <= DISTANT_LIMIT else None


def falling_damage(metres: float) -> int:
    """NEM-14: 1 damage for every (full) 3 m fallen; a 15 m fall deals 5."""
    if metres < 0:
        raise RuleError("a fall cannot be negative")
    return int(metres // FALL_METRES_PER_DAMAGE)


def fall(character: Character, metres: float, rng: random.Random) -> AoeOutcome:
    """NEM-14: falling damage dealt as AOE damage (one location die per point). Mutates."""
    return apply_aoe_damage(character, falling_damage(metres), rng)


# --------------------------------------------------------------------------- sheet


def move_speed(character: Character) -> int:
    """Movement speed in metres = Agility × 2 (dashing doubles it)."""
    return int(character.get("attributes", {}).get("agility", 0)) * 2


SHEET = SheetSpec(
    attributes=tuple(AttributeSpec(k, label, 0, 0, MAX_RANK) for k, label in ATTRIBUTES),
    resources=(
        ResourceSpec("energy", "Energy", 5, derive_max=energy_max),
        ResourceSpec("luck", "Luck", 99, starts_full=False),
        ResourceSpec("xp", "XP", 999, starts_full=False),
    ),
    lists=(
        ListSpec("effects", "Effects & conditions"),
        ListSpec("traits", "Traits"),
    ),
    statuses=STATUSES,
)


def new_character(
    name: str, *, skills: Mapping[str, int] | None = None, **attributes: int
) -> Character:
    """A fresh Nemron character: nine attributes (rank 0..4), full Energy, 0 Luck, 5 XP, skills,
    no domains, and every limb at full HP."""
    for key, value in attributes.items():
        if key not in dict(ATTRIBUTES):
            raise RuleError(f"Nemron has no attribute {key!r}")
        rank_die(int(value))
    character = default_character(SHEET, name, **attributes)
    character["resources"]["xp"]["current"] = STARTING_XP
    character["skills"] = {k: int(v) for k, v in (skills or {}).items()}
    for rank in character["skills"].values():
        rank_die(rank)
    character["domains"] = {}
    limbs_of(character)
    return character


def health_summary(character: Character) -> str:
    """One line: total limb HP, then downed / unusable limbs (``"41/54 HP · left arm out"``)."""
    limbs = limbs_of(character)
    hp = sum(int(v["hp"]) for v in limbs.values())
    top = sum(int(v["max"]) for v in limbs.values())
    parts = [f"{hp}/{top} HP"]
    if any(int(limbs[m]["hp"]) == 0 for m in MAJOR_LIMBS if m in limbs):
        parts.append("DOWNED")
    out = [limb_label(k) for k in MINOR_LIMBS & set(limbs) if int(limbs[k]["hp"]) == 0]
    if out:
        parts.append(", ".join(sorted(out)) + " out")
    return " · ".join(parts)


RULESET = Ruleset(
    id="nemron",
    name="Nemron RPG",
    turn_model="initiative",
    sheet=SHEET,
    check=check,
    check_help=(
        "Pool of rank dice (attribute + skills; rank 0..4 = d4..d12), keep the highest; "
        "meeting the DC succeeds. Boons add d8/d12 (keep highest), penalties d8/d4 (keep lowest). "
        "A separate d20 drama die: 1 Bad Drama, 20 Good Drama (+1 Luck)."
    ),
    new_character=new_character,
    health_summary=health_summary,
    extras={
        "odds": odds,
        "net_modifier": net_modifier,
        "pool_for": pool_for,
        "attack": attack,
        "apply_damage": apply_damage,
        "apply_aoe_damage": apply_aoe_damage,
        "heal_limb": heal_limb,
        "rest": rest,
        "spend_energy": spend_energy,
        "hard_effort": hard_effort,
        "buy_bonus_reaction": buy_bonus_reaction,
        "apply_drama": apply_drama,
        "roll_initiative": roll_initiative,
        "initiative_sort_key": initiative_sort_key,
        "turn_economy": TurnEconomy,
        "tick_effects": tick_effects,
        "rank_up": rank_up,
        "learn_skill": learn_skill,
        "upgrade_to_domain": upgrade_to_domain,
        "buy_domain_feature": buy_domain_feature,
        "award_xp": award_xp,
        "range_band": range_band,
        "fall": fall,
        "fixed_medium": fixed_medium,
        "fixed_maximum": fixed_maximum,
        "refresh": refresh,
    },
)

"""HD-derived NPC statblocks of the Resolution rules (NPC-01..NPC-10).

An NPC is a name, up to three Concepts and three attributes, Brawl, Wit and Will; every other
number on its statblock is derived from them by one rule per column, and both tables of the
rules text (per attribute value, and the generic quick builds by HD 0..20) are reproduced cell
for cell by those rules (tests/rulesets/test_npc_tables.py parses the text and checks them).
Shock has no printed formula, so it alone is a lookup of the text's columns.

Rounding: every average rounds half up (the quick table's Atk Dmg 10.5 -> 11, 24.5 -> 25);
the dice chain is d4, d6, d8, d10, d12, d20.

Reading: HD never drops below 0 (an attribute sum of 0 or less is HD 0), because the quick
table starts at HD 0 and a negative count of hit dice means nothing.
Reading: the hit die is the die of size 7 + Brawl, taken at the chain position on its left
(7 + Brawl is the die whose average is the printed 4 + Brawl/2), and a size past 14 (the
missing d14 slot) reaches d20, because the table gives d12 at Brawl +7 but d20 at +8.
Reading: fixed HP = HD x (4 + Brawl/2) rounded half up, at least 1, i.e. the average of the
theoretical d(7 + Brawl), because that reproduces every HP cell of the quick table (HD 4 -> 19,
HD 5 -> 25) where the average of the rounded-down die would not.
Reading: Effort is the die of size 2 x Will on the same chain: Will 0 or less is "0", Will +1
is a flat "1" (a d2 is off the chain), Will +8 reaches d20, because that is the table's column.
Reading: Atk mod = 1 + 2 x attribute for attributes of 0 or more but 1 + attribute below 0
(penalties count once, bonuses twice), because the table prints -2/-1/0 for -3/-2/-1 where the
formula would give -5/-3/-1.
Reading: # Atks = sqrt(Wit) rounded to nearest, at least 1, because the table gives 2 at Wit +3
(sqrt 1.73) and 3 at Wit +7 (sqrt 2.65) and 1 for Wit 0 or less.
Reading: Atk Dmg (Brawl or Will) is 1d4 for 0 or less, else attribute x d6, as max(1d4, n x d6)
says; Wit attacks use the weapon's damage (1d4 when none is given), the column being "!Wit".
Reading: Save = 16 - HD/5 rounded to nearest, because the quick table's Save column steps at
HD 3, 8, 13, 18; the printed 16 - (Brawl + Wit + Will)/5 (= 16 - (HD + 1)/5) rounds to 15 at
HD 2 where the table says 16. Attribute builds use the same rule.
Reading: a quick build of HD n gives each attribute the even split E = (HD + 1) / 3 and applies
the attribute rules: HP, AC, Atk mod, # Atks and Atk Dmg use E exactly, then round (HD 6 has
2 attacks at E = 2.33, HD 4 has 19 HP); the E (stats) column, Effort ("for Will in N"), hit
die and Move use E rounded. The table's Atk Dmg is the average of max(1d4, E x d6) = 3.5 x E,
with the 1d4 floor written as 2 (HD 0 and 1 print 2, where 2.5 would round to 3).
Reading: at HD 0 the quick build's Atk mod is 0, not 1 + 2E = 2, because the table's HD 0 row
(a noncombatant) says 0; this single cell has no smooth rule, so it is an explicit edge case.
Reading: an NPC's morale score is 7 + Will, because the Without Number conversion reads
Will = morale - 7 (and RR-02 uses the morale score as a minimum DC).
Reading: a spent Effort use still happens when the usage die shows 1 or 2; afterwards none is
left, because usage dice are rolled after use and this variant exhausts instead of stepping down.
Reading: Shock (Without Number) deals its damage on a missed melee attack when the target's AC is
at most the number after the slash ("-" = any AC); "-" alone means no Shock.
Reading: a 5e conversion gets one power slot per CR, at least one (fractional CR rounds up),
filled from special abilities, then non-attack actions, reactions and legendary actions, then
attacks; Multiattack is left out (it is the # Atks column), because the text's sentence stops
at "()" and a CR 1/8 creature still has its signature trick.
Reading: a 5e HD is "acceptable" within 2 of 2 x CR, because the text only says HD ~ CR x 2.
Reading: from a Without Number statblock Brawl = attack bonus / 2 rounded down, so the new
Atk mod 1 + 2 x Brawl equals an odd WN bonus and is one above an even one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rulesets.base import CheckResult, RuleError, rng_or_new
from rulesets.dice import roll
from rulesets.values import frozen

if TYPE_CHECKING:
    pass


ATTRIBUTE_RANGE = range(-3, 9)
"""Brawl/Wit/Will of the text's first table, -3..+8: what the CLI accepts and what the builder
builds without a warning."""
CONVERTED_RANGE = range(-5, 11)
"""Brawl/Wit/Will a conversion can produce and the builder keeps: -5..+10, the 5e modifiers of
scores 1..30 (NPC-09; WN morale 2..12 gives Will -5..+5, NPC-10). ``rulesets.npc.build``
extends every column past the table (checked in tests/test_npc_commands.py), so such an NPC
is edited and saved as it is, with a warning, never clamped."""


ATTRIBUTES: tuple[str, ...] = ("brawl", "wit", "will")
"""NPC-01: the three NPC attributes, in the text's order."""
MAX_CONCEPTS = 3
DICE_CHAIN: tuple[int, ...] = (4, 6, 8, 10, 12)
"""The chain below d20; a die size past the (missing) d14 slot reaches d20."""
TOP_DIE = 20
LAST_CHAIN_SLOT = 14
BASE_AC = 11
BASE_MOVE = 25
MOVE_PER_WIT = 5
BASE_SAVE = 16
MORALE_BASE = 7
D4_FLOOR_AVERAGE = 2
"""The quick table writes the 1d4 damage floor as 2 (HD 0 and 1)."""
HD_TOLERANCE = 2
MAX_CR = 30
"""5e's highest challenge rating; anything above is a malformed entry."""
"""NPC-09: a converted HD within this of 2 x CR counts as acceptable."""

SHOCK_BY_BRAWL: dict[int, str] = {
    -3: "-",
    -2: "-",
    -1: "2/13",
    0: "2/13",
    1: "2/15",
    2: "2/18",
    3: "4/15",
    4: "4/18",
    5: "7/15",
    6: "4/-",
    7: "6/18",
    8: "5/-",
}
"""NPC-02: Shock by Brawl, as the text's first table prints it (no formula exists)."""

SHOCK_BY_HD: tuple[str, ...] = (
    "-", "2/13", "2/15", "2/18", "4/15", "5/15", "4/18", "7/15", "4/-", "6/18", "5/-",
    "7/18", "6/-", "6/-", "7/-", "7/-", "8/-", "8/-", "6/-", "6/-", "7/-",
)  # fmt: skip
"""NPC-03: Shock of the quick builds HD 0..20, as the text's second table prints it."""

MAX_QUICK_HD = len(SHOCK_BY_HD) - 1

FLEE = "Will is broken, they flee immediately"
RETREAT = "They retreat strategically"
REPOSITION = "They continue to fight, but consider improved strategic positions"
UNDETERRED = "They continue, undeterred"
MORALE_BANDS: tuple[tuple[int, str], ...] = ((3, FLEE), (6, RETREAT), (9, REPOSITION))
"""NPC-08: (highest roll, result) bands; anything above 9 is :data:`UNDETERRED`."""
MORALE_RESULTS: tuple[str, ...] = (FLEE, RETREAT, REPOSITION, UNDETERRED)
MORALE_TRIGGERS: tuple[str, ...] = (
    "After a round during which one or more allied creatures have been reduced to zero HP.",
    "After a round during which a creature lost half its HP or more.",
    "After reinforcements arrive on the enemy side.",
)
"""NPC-08: when the tracker should prompt a morale check."""

SUCCESS = "success"
FAILURE = "failure"
HIT = "hit"
MISS = "miss"


class NPCError(RuleError):
    """A statblock the NPC rules cannot build; the message says why."""


class ConversionError(RuleError):
    """A 5e or Without Number statblock that cannot be converted; the message says why."""


# --- column rules -------------------------------------------------------------------------


def _half_up(value: Fraction | int) -> int:
    """Round to nearest, halves up (10.5 -> 11)."""
    return math.floor(Fraction(value) + Fraction(1, 2))


def die_on_chain(size: Fraction | int) -> int:
    """The die at the chain position on the left of ``size``; past d14's slot it is d20."""
    if size > LAST_CHAIN_SLOT:
        return TOP_DIE
    fitting = [die for die in DICE_CHAIN if die <= size]
    return fitting[-1] if fitting else DICE_CHAIN[0]


def hit_dice(brawl: int, wit: int, will: int) -> int:
    """NPC-01: HD = Brawl + Wit + Will - 1, never below 0."""
    return max(0, brawl + wit + will - 1)


def armour_class(brawl: int, wit: int) -> int:
    """NPC-02: unarmoured AC = 11 + max(Brawl, Wit)."""
    return BASE_AC + max(brawl, wit)


def hit_die(brawl: int) -> int:
    """NPC-02: the hit die's size: d(7 + Brawl), left on the chain; +8 reaches d20."""
    return die_on_chain(7 + brawl)


def hp_per_hit_die(brawl: Fraction | int) -> Fraction:
    """NPC-04: the printed average per HD, 4 + Brawl/2."""
    return 4 + Fraction(brawl) / 2


def fixed_hp(hd: int, brawl: Fraction | int) -> int:
    """NPC-04: HP = HD x (4 + Brawl/2), rounded half up, never below 1."""
    return max(1, _half_up(hd * hp_per_hit_die(brawl)))


def hp_roll_expression(hd: int, die: int) -> str:
    """NPC-04: the HP roll, ``"5d8"``; an HD 0 NPC has a flat ``"1"``."""
    return f"{hd}d{die}" if hd > 0 else "1"


def attack_modifier(attribute: int) -> int:
    """NPC-02: Atk mod = 1 + 2 x attribute, penalties counted once (the table's -3 -> -2)."""
    return 1 + attribute + max(attribute, 0)


def number_of_attacks(wit: Fraction | int) -> int:
    """NPC-02: # Atks = sqrt(Wit) rounded to nearest, at least 1."""
    value = max(Fraction(wit), Fraction(0))
    attacks = 0
    while (attacks + Fraction(1, 2)) ** 2 < value:
        attacks += 1
    return max(1, attacks)


def attack_damage(attribute: int) -> str:
    """NPC-02: Brawl- or Will-based damage: max(1d4, attribute x d6)."""
    return "1d4" if attribute <= 0 else f"{attribute}d6"


def average_attack_damage(attribute: Fraction | int) -> int:
    """NPC-03: the quick table's Atk Dmg, the average of max(1d4, attribute x d6)."""
    return max(D4_FLOOR_AVERAGE, _half_up(Fraction(7, 2) * Fraction(attribute)))


def move(wit: int) -> int:
    """NPC-02: Move = 25 + 5 x Wit (never below 0)."""
    return max(0, BASE_MOVE + MOVE_PER_WIT * wit)


def effort(will: int) -> str:
    """NPC-02: Effort die of size 2 x Will on the chain: "0", "1", "1d4" .. "1d12", "1d20"."""
    if will <= 0:
        return "0"
    if will == 1:
        return "1"
    return f"1d{die_on_chain(2 * will)}"


def save_target(hd: int) -> int:
    """NPC-02: Save = 16 - HD/5 rounded to nearest (the table's steps at HD 3, 8, 13, 18)."""
    return BASE_SAVE - _half_up(Fraction(hd, 5))


def shock(brawl: int) -> str:
    """NPC-02: Shock by Brawl (a lookup of the text's column, clamped to -3..+8)."""
    return SHOCK_BY_BRAWL[min(max(brawl, min(SHOCK_BY_BRAWL)), max(SHOCK_BY_BRAWL))]


def powers(hd: int) -> int:
    """NPC-06: number of concept-themed power slots, HD / 2 rounded down."""
    return hd // 2


def morale_score(will: int) -> int:
    """NPC-08/10: the morale score, 7 + Will (RR-02's optional minimum DC)."""
    return MORALE_BASE + will


def even_split(hd: int) -> Fraction:
    """NPC-03: each attribute of a quick build, (HD + 1) / 3."""
    return Fraction(hd + 1, 3)


# --- statblocks ---------------------------------------------------------------------------


@frozen
class Statblock:
    """NPC-01/02: an NPC built from its attributes, every derived stat filled in."""

    name: str
    concepts: tuple[str, ...]
    brawl: int
    wit: int
    will: int
    hd: int
    ac: int
    hit_die: int
    hp: int
    move: int
    effort: str
    save: int
    shock: str
    attacks: int
    atk_mod: dict[str, int] = field(default_factory=dict)
    atk_dmg: dict[str, str] = field(default_factory=dict)
    morale: int = MORALE_BASE

    @property
    def hp_roll(self) -> str:
        """NPC-04: the HP roll, HD x hit die (``"5d8"``)."""
        return hp_roll_expression(self.hd, self.hit_die)

    @property
    def powers(self) -> int:
        """NPC-06: power slots, HD / 2."""
        return powers(self.hd)

    def attribute(self, key: str) -> int:
        """The value of ``brawl``, ``wit`` or ``will``."""
        return {"brawl": self.brawl, "wit": self.wit, "will": self.will}[_attribute_key(key)]

    def hp_text(self) -> str:
        """NPC-04: ``"25 (5d8)"``."""
        return f"{self.hp} ({self.hp_roll})"

    def to_json(self) -> dict[str, Any]:
        """The statblock for ``--json`` output."""
        return {
            "hd": self.hd,
            "ac": self.ac,
            "hit_die": f"d{self.hit_die}",
            "hp": self.hp,
            "hp_roll": self.hp_roll,
            "move": self.move,
            "effort": self.effort,
            "save": self.save,
            "shock": self.shock,
            "attacks": self.attacks,
            "powers": self.powers,
            "atk_mod": dict(self.atk_mod),
            "atk_dmg": dict(self.atk_dmg),
            "morale": self.morale,
        }


@frozen
class QuickBuild:
    """NPC-03: a generic NPC of a given HD, one row of the text's second table."""

    hd: int
    hp: int
    ac: int
    stats: int
    save: int
    effort: str
    atk_mod: int
    attacks: int
    atk_dmg: int
    shock: str
    hit_die: int
    move: int

    @property
    def hp_roll(self) -> str:
        """NPC-04: the HP roll, HD x hit die (``"5d8"``)."""
        return hp_roll_expression(self.hd, self.hit_die)

    @property
    def powers(self) -> int:
        """NPC-06: power slots, HD / 2."""
        return powers(self.hd)

    def attribute(self, key: str) -> int:
        """Every attribute of a quick build is the E (stats) value."""
        _attribute_key(key)
        return self.stats

    def to_json(self) -> dict[str, Any]:
        """The quick build for ``--json`` output."""
        return {
            "hd": self.hd,
            "ac": self.ac,
            "hit_die": f"d{self.hit_die}",
            "hp": self.hp,
            "hp_roll": self.hp_roll,
            "move": self.move,
            "effort": self.effort,
            "save": self.save,
            "shock": self.shock,
            "attacks": self.attacks,
            "powers": self.powers,
            "stats": self.stats,
            "atk_mod": self.atk_mod,
            "atk_dmg": self.atk_dmg,
        }


NPC = Statblock | QuickBuild


def _attribute_key(key: str) -> str:
    wanted = key.strip().casefold()
    if wanted not in ATTRIBUTES:
        raise NPCError(f"unknown attribute {key!r}; choose brawl, wit or will")
    return wanted


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NPCError(f"{what} must be a whole number, not {value!r}")
    return value


def build(
    brawl: int, wit: int, will: int, name: str = "", concepts: Iterable[str] = ()
) -> Statblock:
    """NPC-01/02: the full statblock of an NPC from its three attributes.

    Args:
        brawl: physical prowess and toughness.
        wit: physical, mental and social agility.
        will: intellect and power of the mind.
        name: the NPC's name.
        concepts: up to three one- or two-word Concepts.

    Raises:
        NPCError: more than three concepts, or an attribute that is not a whole number.
    """
    brawl, wit, will = (_whole(v, k) for v, k in zip((brawl, wit, will), ATTRIBUTES, strict=True))
    themes = tuple(c.strip() for c in concepts if c.strip())
    if len(themes) > MAX_CONCEPTS:
        raise NPCError(f"an NPC has at most {MAX_CONCEPTS} concepts, not {len(themes)}")
    hd = hit_dice(brawl, wit, will)
    return Statblock(
        name=name,
        concepts=themes,
        brawl=brawl,
        wit=wit,
        will=will,
        hd=hd,
        ac=armour_class(brawl, wit),
        hit_die=hit_die(brawl),
        hp=fixed_hp(hd, brawl),
        move=move(wit),
        effort=effort(will),
        save=save_target(hd),
        shock=shock(brawl),
        attacks=number_of_attacks(wit),
        atk_mod={
            key: attack_modifier(v) for key, v in zip(ATTRIBUTES, (brawl, wit, will), strict=True)
        },
        atk_dmg={"brawl": attack_damage(brawl), "will": attack_damage(will)},
        morale=morale_score(will),
    )


def quick_build(hd: int) -> QuickBuild:
    """NPC-03: the generic build of HD 0..20, each attribute at the even split (HD + 1) / 3.

    Raises:
        NPCError: HD outside 0..20 (the table's range).
    """
    hd = _whole(hd, "HD")
    if not 0 <= hd <= MAX_QUICK_HD:
        raise NPCError(f"quick builds run from HD 0 to {MAX_QUICK_HD}, not {hd}")
    split = even_split(hd)
    stats = _half_up(split)
    return QuickBuild(
        hd=hd,
        hp=fixed_hp(hd, split),
        ac=_half_up(BASE_AC + split),
        stats=stats,
        save=save_target(hd),
        effort=effort(stats),
        atk_mod=0 if hd == 0 else _half_up(1 + 2 * split),
        attacks=number_of_attacks(split),
        atk_dmg=average_attack_damage(split),
        shock=SHOCK_BY_HD[hd],
        hit_die=hit_die(stats),
        move=move(stats),
    )


def library_document(
    name: str,
    concepts: Sequence[str],
    brawl: int,
    wit: int,
    will: int,
    *,
    powers: Sequence[str] = (),
    notes: str = "",
) -> dict[str, Any]:
    """A library NPC's document from its three attributes, its statblock built (NPC-01/02)."""
    block = build(brawl, wit, will, name=name, concepts=concepts)
    return {
        "name": name,
        "concepts": list(concepts),
        "brawl": brawl,
        "wit": wit,
        "will": will,
        "statblock": block.to_json(),
        "powers": list(powers),
        "notes": notes,
    }


def library_block(doc: Mapping[str, Any]) -> NPC:
    """The live statblock of a library NPC's document, rebuilt by the rules (NPC-01..03).

    Raises NPCError (a RuleError) for a hand-edited document the rules cannot build."""
    if doc.get("quick_hd") is not None:
        return quick_build(_whole(doc["quick_hd"], "quick_hd"))
    concepts = doc.get("concepts", ())
    return build(
        _whole(doc.get("brawl", 0), "brawl"),
        _whole(doc.get("wit", 0), "wit"),
        _whole(doc.get("will", 0), "will"),
        name=str(doc.get("name", "")),
        concepts=tuple(str(c) for c in concepts) if isinstance(concepts, list | tuple) else (),
    )


def statblock_of(stats: Mapping[str, Any], library: Mapping[str, Any] | None) -> NPC | None:
    """The statblock a combatant fights with: its library NPC's (``library``, the document),
    or the quick build of the HD it was quick-added with (``stats["hd"]``); None: it has none.

    Raises NPCError for a hand-edited document the rules cannot build."""
    if library is not None:
        return library_block(library)
    hd = stats.get("hd")
    if isinstance(hd, int) and not isinstance(hd, bool):
        return quick_build(hd)
    return None


# --- rolls --------------------------------------------------------------------------------


def roll_hp(statblock: NPC, rng: random.Random | None = None) -> CheckResult:
    """NPC-04: roll HD x hit die for HP (at least 1); ``total`` is the NPC's HP."""
    rolled = roll(statblock.hp_roll, rng_or_new(rng))
    hp = max(1, rolled.total)
    return CheckResult(
        expression=statblock.hp_roll,
        total=hp,
        dice=rolled.dice,
        band="",
        detail=f"rolled HP (fixed value {statblock.hp})",
    )


@frozen
class AttackResult(CheckResult):
    """NPC-02: one NPC attack: the d20 roll (``total``), the damage rolled and any Shock."""

    damage: int = 0
    damage_expression: str = ""
    shock: int = 0
    """Shock damage dealt on a miss (0 on a hit or when it does not apply)."""


def shock_damage(shock_text: str, target_ac: int | None) -> int:
    """Shock damage on a miss against ``target_ac`` ("4/15": 4 damage vs AC 15 or less)."""
    if shock_text == "-" or "/" not in shock_text:
        return 0
    amount, limit = shock_text.split("/", 1)
    if limit != "-" and target_ac is not None and target_ac > int(limit):
        return 0
    return int(amount)


def _damage_expression(statblock: NPC, attribute: str, weapon: str | None) -> str:
    if weapon:
        return weapon
    if isinstance(statblock, QuickBuild):
        return str(statblock.atk_dmg)
    return statblock.atk_dmg.get(attribute, "1d4")


EDGE_DICE = {"": "1d20", "advantage": "2d20kh1", "disadvantage": "2d20kl1"}
"""The d20 an NPC rolls with, by its edge (a game's Anomaly gives disadvantage)."""


def _d20(edge: str) -> str:
    if edge not in EDGE_DICE:
        raise NPCError(f"edge is advantage, disadvantage or none, not {edge!r}")
    return EDGE_DICE[edge]


def attack(
    rng: random.Random | None,
    statblock: NPC,
    attribute: str = "brawl",
    target_ac: int | None = None,
    weapon_damage: str | None = None,
    edge: str = "",
) -> AttackResult:
    """NPC-02: one attack: d20 + Atk mod, and its damage roll.

    Args:
        rng: the injected random source.
        statblock: an attribute build or quick build.
        attribute: ``brawl``, ``wit`` or ``will`` (a quick build has one Atk mod).
        target_ac: the target's AC; with it the band is "hit" (total >= AC) or "miss".
        weapon_damage: the weapon's dice; default the attribute's Atk Dmg (Wit: 1d4), or
            the quick build's average.
        edge: "advantage" or "disadvantage" rolls two d20 and keeps the higher or lower.

    Returns:
        An AttackResult; ``damage`` is rolled either way (the GM applies it on a hit).
    """
    rng = rng_or_new(rng)
    key = _attribute_key(attribute)
    mod = statblock.atk_mod if isinstance(statblock, QuickBuild) else statblock.atk_mod[key]
    d20 = _d20(edge)
    rolled = roll(d20, rng)
    total = rolled.total + mod
    damage_expr = _damage_expression(statblock, key, weapon_damage)
    damage = roll(damage_expr, rng)
    band = "" if target_ac is None else (HIT if total >= target_ac else MISS)
    shocked = shock_damage(statblock.shock, target_ac) if band == MISS and key == "brawl" else 0
    detail = f"damage {damage.total} ({damage.text})"
    if shocked:
        detail += f"; shock {shocked}"
    return AttackResult(
        expression=f"{d20}{mod:+d}" + ("" if target_ac is None else f" vs AC {target_ac}"),
        total=total,
        dice=rolled.dice,
        band=band,
        detail=detail,
        natural=rolled.total,
        damage=damage.total,
        damage_expression=damage_expr,
        shock=shocked,
    )


def saving_throw(
    rng: random.Random | None, statblock: NPC, attribute: str, penalty: int = 0, edge: str = ""
) -> CheckResult:
    """NPC-07: d20 + the appropriate attribute - any penalty, succeeding at or above Save
    (``edge``: two d20, the higher or lower kept)."""
    value = statblock.attribute(attribute)
    d20 = _d20(edge)
    rolled = roll(d20, rng_or_new(rng))
    total = rolled.total + value - penalty
    return CheckResult(
        expression=f"{d20}{value - penalty:+d} vs Save {statblock.save}",
        total=total,
        dice=rolled.dice,
        band=SUCCESS if total >= statblock.save else FAILURE,
        detail=f"{attribute} {value:+d}" + (f", penalty -{penalty}" if penalty else ""),
        natural=rolled.total,
    )


def skill_modifier(attribute: int, system: str = "2d6", skilled: bool = True) -> int:
    """NPC-07: the attribute in 2d6 systems, twice it in d20 systems; 0 if unskilled."""
    if not skilled:
        return 0
    return attribute if _skill_dice(system) == "2d6" else 2 * attribute


def _skill_dice(system: str) -> str:
    wanted = system.strip().casefold()
    if wanted in ("2d6", "swn"):
        return "2d6"
    if wanted in ("d20", "1d20", "5e"):
        return "1d20"
    raise NPCError(f"unknown system {system!r}; choose 2d6 or d20")


def skill_check(
    rng: random.Random | None,
    statblock: NPC,
    attribute: str,
    dc: int,
    system: str = "2d6",
    skilled: bool = True,
) -> CheckResult:
    """NPC-07: 2d6 + attribute (or d20 + 2 x attribute) against the system's DC."""
    dice = _skill_dice(system)
    mod = skill_modifier(statblock.attribute(attribute), system, skilled)
    rolled = roll(dice, rng_or_new(rng))
    total = rolled.total + mod
    return CheckResult(
        expression=f"{dice}{mod:+d} vs DC {dc}",
        total=total,
        dice=rolled.dice,
        band=SUCCESS if total >= dc else FAILURE,
        detail=f"{attribute}" + ("" if skilled else " (unskilled: no modifier)"),
        natural=rolled.total if dice == "1d20" else None,
    )


@frozen
class EffortUse:
    """NPC-05: one use of Effort: whether it fired, the usage roll, what is left."""

    used: bool
    roll: int | None
    remaining: str
    exhausted: bool

    def as_log(self) -> dict[str, Any]:
        return {
            "used": self.used,
            "roll": self.roll,
            "remaining": self.remaining,
            "exhausted": self.exhausted,
        }


def effort_use(rng: random.Random | None, effort_now: str) -> EffortUse:
    """NPC-05: spend Effort: roll the usage die; a 1 or 2 leaves no more Effort.

    ``effort_now`` is as the statblock writes it: "0" (none: nothing happens), "1" (one use,
    no roll) or "1dN".
    """
    text = effort_now.strip()
    if text == "0":
        return EffortUse(used=False, roll=None, remaining="0", exhausted=True)
    if text == "1":
        return EffortUse(used=True, roll=None, remaining="0", exhausted=True)
    if not text.startswith("1d") or not text[2:].isdigit():
        raise NPCError(f"{effort_now!r} is not an Effort value (0, 1 or 1dN)")
    face = roll(text, rng_or_new(rng)).total
    exhausted = face <= 2
    return EffortUse(
        used=True, roll=face, remaining="0" if exhausted else text, exhausted=exhausted
    )


def morale_result(total: int) -> str:
    """NPC-08: the text's result for a morale roll total."""
    for highest, result in MORALE_BANDS:
        if total <= highest:
            return result
    return UNDETERRED


def morale_check(rng: random.Random | None, will: int) -> CheckResult:
    """NPC-08: 2d6 + Will, read on the morale table (0-3 flee ... 10+ undeterred)."""
    rolled = roll("2d6", rng_or_new(rng))
    total = rolled.total + will
    return CheckResult(
        expression=f"2d6{will:+d} morale",
        total=total,
        dice=rolled.dice,
        band=morale_result(total),
    )


def morale_odds(will: int) -> dict[str, Fraction]:
    """NPC-08: exact chance of each morale result for an NPC of that Will."""
    import icepool  # deferred: its import is a cost start-up need not pay

    die = 2 @ icepool.d6 + will
    chances = {result: Fraction(0) for result in MORALE_RESULTS}
    for total, chance in zip(die.outcomes(), die.probabilities(), strict=True):
        chances[morale_result(int(total))] += Fraction(chance)
    return chances


# --- conversions --------------------------------------------------------------------------

ABILITIES_5E: tuple[str, ...] = (
    "strength",
    "dexterity",
    "constitution",
    "intelligence",
    "wisdom",
    "charisma",
)


@frozen
class Conversion:
    """NPC-09: a 5e monster converted: the new statblock plus the report against 2 x CR."""

    source_name: str
    source_cr: Fraction
    statblock: Statblock
    hd_target: Fraction
    """2 x CR."""
    hd_off: Fraction
    """HD - 2 x CR: positive = stronger than the CR suggests, negative = weaker."""
    acceptable: bool
    power_slots: int
    powers: tuple[str, ...]
    source_ac: int | None = None
    source_hp: int | None = None
    source_hit_dice: str | None = None
    notes: tuple[str, ...] = ()
    source_system: str = "5e"
    """The format it came from: "5e" (the SRD JSON) or "Improved Initiative"."""
    concepts: tuple[str, ...] = ()
    quick_hd: int | None = None
    """A quick build (NPC-03) coming back from an export of one: the library keeps it as such."""

    @property
    def cr_text(self) -> str:
        """The CR as 5e writes it: ``"1/8"``, ``"6"``."""
        return str(self.source_cr)

    def report(self) -> str:
        """One line: HD against 2 x CR and how far off."""
        off = self.hd_off
        how = "on target" if off == 0 else f"{abs(off)} {'over' if off > 0 else 'under'}"
        verdict = "acceptable" if self.acceptable else "adjust attributes"
        return f"HD {self.statblock.hd} vs 2 x CR {self.hd_target}: {how} ({verdict})"

    def to_json(self) -> dict[str, Any]:
        return {
            "source_name": self.source_name,
            "source_cr": self.cr_text,
            "brawl": self.statblock.brawl,
            "wit": self.statblock.wit,
            "will": self.statblock.will,
            "statblock": self.statblock.to_json(),
            "hd_target": str(self.hd_target),
            "hd_off": str(self.hd_off),
            "acceptable": self.acceptable,
            "power_slots": self.power_slots,
            "powers": list(self.powers),
            "source_ac": self.source_ac,
            "source_hp": self.source_hp,
            "source_hit_dice": self.source_hit_dice,
            "notes": list(self.notes),
            "report": self.report(),
        }


def ability_modifier_5e(score: int) -> int:
    """5e's ability modifier, (score - 10) / 2 rounded down."""
    return (score - 10) // 2


def _challenge_rating(value: object) -> Fraction:
    if isinstance(value, bool):
        raise ConversionError(f"challenge_rating {value!r} is not a number")
    try:
        if isinstance(value, int | float | str):
            cr = Fraction(value).limit_denominator(1000) if value != "" else None
        else:
            cr = None
    except (ValueError, ZeroDivisionError, OverflowError):
        cr = None
    if cr is None or not 0 <= cr <= MAX_CR:
        raise ConversionError(f"challenge_rating {value!r} is not a CR")
    return cr


def _ability_score(monster: Mapping[str, Any], key: str) -> int:
    value = monster[key]
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value != int(value)
    ):
        raise ConversionError(f"{key} {value!r} is not a whole number")
    if not 1 <= value <= 30:
        raise ConversionError(f"{key} {value!r} is outside 5e's 1..30")
    return int(value)


def _armour_classes(raw: object) -> list[tuple[int, str]]:
    """(value, kind) of every AC entry; an old-style bare number counts as one."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return [(raw, "")]
    entries: list[tuple[int, str]] = []
    for entry in raw if isinstance(raw, list) else []:
        if isinstance(entry, Mapping) and isinstance(entry.get("value"), int):
            kind = (
                entry.get("spell", {}).get("name") if isinstance(entry.get("spell"), dict) else None
            )
            entries.append((entry["value"], str(kind or entry.get("type", ""))))
    return entries


def _named(entries: object) -> list[Mapping[str, Any]]:
    items = entries if isinstance(entries, list) else []
    return [e for e in items if isinstance(e, Mapping) and isinstance(e.get("name"), str)]


def power_candidates(monster: Mapping[str, Any]) -> list[str]:
    """NPC-09: names that can fill power slots, best first (Multiattack left out)."""
    actions = [a for a in _named(monster.get("actions")) if a["name"] != "Multiattack"]
    plain = [a["name"] for a in actions if "attack_bonus" not in a]
    attacks = [a["name"] for a in actions if "attack_bonus" in a]
    special = [a["name"] for a in _named(monster.get("special_abilities"))]
    extra = [
        a["name"] for key in ("reactions", "legendary_actions") for a in _named(monster.get(key))
    ]
    names: list[str] = []
    for name in [*special, *plain, *extra, *attacks]:
        if name not in names:
            names.append(name)
    return names


def power_slots_for_cr(cr: Fraction) -> int:
    """NPC-09: one power per CR, at least one (a fractional CR rounds up)."""
    return max(1, math.ceil(cr))


def _missing_fields(monster: Mapping[str, Any]) -> list[str]:
    wanted = ("name", *ABILITIES_5E, "challenge_rating")
    return [key for key in wanted if monster.get(key) in (None, "")]


def from_5e(monster: Mapping[str, Any]) -> Conversion:
    """NPC-09: convert a 5e-bits/5e-database monster into an NPC statblock.

    Brawl = best of STR/CON modifiers, Wit = best of DEX/INT, Will = best of WIS/CHA; the
    HD is reported against 2 x CR; one power slot per CR is filled from the monster's named
    abilities. 5e's AC, HP and hit dice are kept for reference.

    Raises:
        ConversionError: not an object, a missing field (named), or a malformed value.
    """
    if not isinstance(monster, Mapping):
        raise ConversionError(f"a monster must be a JSON object, not {type(monster).__name__}")
    missing = _missing_fields(monster)
    if missing:
        raise ConversionError(
            f"missing field{'s' if len(missing) > 1 else ''}: {', '.join(missing)}"
        )
    if not isinstance(monster["name"], str) or not monster["name"].strip():
        raise ConversionError(f"name {monster['name']!r} is not a name")
    name = monster["name"].strip()
    scores = {key: ability_modifier_5e(_ability_score(monster, key)) for key in ABILITIES_5E}
    cr = _challenge_rating(monster["challenge_rating"])
    brawl = max(scores["strength"], scores["constitution"])
    wit = max(scores["dexterity"], scores["intelligence"])
    will = max(scores["wisdom"], scores["charisma"])
    statblock = build(brawl, wit, will, name=name)
    target = 2 * cr
    off = statblock.hd - target
    slots = power_slots_for_cr(cr)
    candidates = power_candidates(monster)
    chosen = tuple(candidates[:slots])
    notes = list(_ac_notes(monster.get("armor_class")))
    if len(chosen) < slots:
        notes.append(f"{slots - len(chosen)} power slot(s) left for the GM to fill")
    acs = _armour_classes(monster.get("armor_class"))
    hp = monster.get("hit_points")
    hit_dice_text = monster.get("hit_dice")
    return Conversion(
        source_name=name,
        source_cr=cr,
        statblock=statblock,
        hd_target=target,
        hd_off=off,
        acceptable=abs(off) <= HD_TOLERANCE,
        power_slots=slots,
        powers=chosen,
        source_ac=acs[0][0] if acs else None,
        source_hp=hp if isinstance(hp, int) and not isinstance(hp, bool) else None,
        source_hit_dice=hit_dice_text if isinstance(hit_dice_text, str) else None,
        notes=tuple(notes),
    )


def _ac_notes(raw: object) -> Iterable[str]:
    acs = _armour_classes(raw)
    if raw is not None and not acs:
        yield "5e armour class unreadable; AC is the calculated one"
    for value, kind in acs[1:]:
        yield f"5e AC {value}" + (f" with {kind}" if kind else "")


def import_5e_file(
    data: Sequence[Any],
) -> tuple[list[Conversion], list[tuple[int, str, str]]]:
    """NPC-09: convert every monster of a 5e-database JSON list.

    Returns:
        (conversions, errors); each error is (index in the list, name or "", reason).

    Raises:
        ConversionError: the data is not a list.
    """
    if not isinstance(data, list | tuple):
        raise ConversionError(f"a monster file must hold a JSON list, not {type(data).__name__}")
    conversions: list[Conversion] = []
    errors: list[tuple[int, str, str]] = []
    for index, monster in enumerate(data):
        try:
            conversions.append(from_5e(monster))
        except (ConversionError, NPCError) as exc:
            name = monster.get("name") if isinstance(monster, Mapping) else None
            errors.append((index, name if isinstance(name, str) else "", str(exc)))
    return conversions, errors


@frozen
class WNConversion:
    """NPC-10: a Without Number statblock converted; Save and HP recalculated."""

    statblock: Statblock
    source_attack: int
    source_skill: int
    source_morale: int
    source_hp: int | None = None
    source_hd: int | None = None
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "brawl": self.statblock.brawl,
            "wit": self.statblock.wit,
            "will": self.statblock.will,
            "statblock": self.statblock.to_json(),
            "source_attack": self.source_attack,
            "source_skill": self.source_skill,
            "source_morale": self.source_morale,
            "source_hp": self.source_hp,
            "source_hd": self.source_hd,
            "notes": list(self.notes),
        }


def from_without_number(
    attack_bonus: int,
    skill: int,
    morale: int,
    hp: int | None = None,
    hd: int | None = None,
    name: str = "",
    standard_d8: bool = False,
) -> WNConversion:
    """NPC-10: Brawl = attack / 2 (rounded down), Wit = skill, Will = morale - 7.

    Save and HP come from the new attributes; ``standard_d8`` standardises the hit die to d8
    (fixed HP then HD x 4.5). The WN HP and HD are kept for comparison.

    Raises:
        ConversionError: a value that is not a whole number.
    """
    try:
        values = [
            _whole(v, k)
            for v, k in ((attack_bonus, "attack"), (skill, "skill"), (morale, "morale"))
        ]
    except NPCError as exc:
        raise ConversionError(str(exc)) from None
    statblock = build(values[0] // 2, values[1], values[2] - MORALE_BASE, name=name)
    if standard_d8:
        statblock = replace(
            statblock, hit_die=8, hp=max(1, _half_up(statblock.hd * Fraction(9, 2)))
        )
    notes = []
    if hd is not None and hd != statblock.hd:
        notes.append(f"WN HD {hd} became HD {statblock.hd}")
    if hp is not None:
        notes.append(f"WN HP {hp} recalculated to {statblock.hp_text()}")
    return WNConversion(
        statblock=statblock,
        source_attack=values[0],
        source_skill=values[1],
        source_morale=values[2],
        source_hp=hp,
        source_hd=hd,
        notes=tuple(notes),
    )


from_wn = from_without_number
"""NPC-10: short name of :func:`from_without_number`."""

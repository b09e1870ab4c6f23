"""Resolution rules (Without Number style): DC table, checks, Grip and Deliria (RR-01..RR-05).

The NPC side of the game (HD-derived statblocks, morale, conversions) lives in
:mod:`rulesets.npc`; this module holds the PC side and the checks.

Character sheet: attributes ``str dex con int wis cha`` (scores 3..18); resources ``hp``
(hand-set max), ``system_strain`` (max = CON, starts at 0) and ``grip`` (max derived, RR-03);
list ``deliria`` (permanent). Statuses: ``alive``, ``lost`` (0 Grip), ``dead``.

Reading: the 5e and Cepheus Engine columns are linear in the SWN DC (5e DC = 2.5 x DC - 5,
CE DM = 8 - DC), so values between rows convert by that line, rounded half toward the harder DC,
because every printed row satisfies it.
Reading: a check succeeds when the total equals or beats the DC, as in SWN.
Reading: a check's DC is the SWN DC, the table's first column (the tray steps through its
rows); rolled on d20 it is read in the table's 5e column (SWN 14 → 5e DC 30, an off-table DC by
the line, SWN 9 → 5e 18), because a d20 roll against an SWN DC would make every task easy.
``dc_system="5e"`` (or ``"ce"``) gives the DC in another column instead; it is converted the
same way.
Reading: in an opposed check the NPC's roll total is the DC (raised to the NPC's morale when the
GM uses that minimum), and the PC succeeds on a total equal to or above it.
Reading: INT and WIS are the 3..18 scores (not modifiers), because Max Grip is clamped to 10..18.
Reading: a Grip check succeeds only on a d20 strictly under the current Grip, because the text
says "roll under" and writes "equal or greater" where it means equality to count.
Reading: the Delirium roll counts the delirium just accepted ("after taking the Delirium ...
their total number of Deliria"); recovered Grip is capped at Max Grip.
Reading: "2 points of sanity are lost" means 2 Grip, the text's only sanity score.
Reading: system strain's maximum is the CON score, as in SWN, because the text names system
strain but gives no maximum; HP is hand-set for the same reason.
Reading: initiative is 1d8 + DEX modifier, as in the Without Number games, because the text is
silent; modifiers are SWN's (3: -2, 4-7: -1, 8-13: 0, 14-17: +1, 18: +2).
Reading: a PC's sheet keeps its Armour Class (default 10, unarmoured), because the NPC rules'
foes roll d20 + Atk mod against the target's AC (NPC-02) and the text gives a PC none.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rulesets import npc
from rulesets.base import (
    AttributeSpec,
    Character,
    CheckResult,
    ListSpec,
    ResourceSpec,
    Ruleset,
    SheetSpec,
    default_character,
    hp_change,
    rederive,
    rng_or_new,
)
from rulesets.base import RuleError as _BaseRuleError
from rulesets.dice import roll
from rulesets.values import frozen

if TYPE_CHECKING:
    import icepool


class RuleError(_BaseRuleError):
    """An action the Resolution rules do not allow; the message says why."""


SUCCESS = "success"
FAILURE = "failure"
BANDS: tuple[str, ...] = (SUCCESS, FAILURE)

ALIVE = "alive"
LOST = "lost"
DEAD = "dead"

# --- RR-01: the DC table ------------------------------------------------------------------


@frozen
class DCRow:
    """RR-01: one row of the unopposed-check table."""

    swn_dc: int | None
    """None for the N/A row (a task of the PC's background: no roll)."""
    description: str
    ce_difficulty: str = ""
    ce_dm: int | None = None
    dnd_dc: int | None = None

    @property
    def ce_label(self) -> str:
        """``"Routine (+2)"`` as the table writes it."""
        return (
            ""
            if self.ce_dm is None
            else f"{self.ce_difficulty} ({self.ce_dm:+d})".replace("(+0)", "(0)")
        )


DC_TABLE: tuple[DCRow, ...] = (
    DCRow(None, "The task is one the PC would normally perform as part of their background."),
    DCRow(
        6,
        "A simple challenge that's still enough to challenge a competent practitioner.",
        "Routine",
        2,
        10,
    ),
    DCRow(8, "A significant challenge to a competent professional.", "Average", 0, 15),
    DCRow(
        10,
        "A challenge even a skilled expert might not manage to overcome.",
        "Difficult",
        -2,
        20,
    ),
    DCRow(
        12, "Only a true master could expect to overcome this challenge.", "Very difficult", -4, 25
    ),
    DCRow(14, "Only a true master has any chance of doing this at all.", "Formidable", -6, 30),
)
"""RR-01: the text's table, N/A row first."""

SYSTEMS: tuple[str, ...] = ("swn", "ce", "5e")


def dc_row(swn_dc: int | None) -> DCRow:
    """RR-01: the table row of an SWN DC (None = the N/A row).

    Raises:
        RuleError: a DC the table does not print.
    """
    for row in DC_TABLE:
        if row.swn_dc == swn_dc:
            return row
    raise RuleError(f"the DC table has no SWN DC {swn_dc}; it prints 6, 8, 10, 12 and 14")


def _system(name: str) -> str:
    wanted = name.strip().casefold().replace(" ", "")
    aliases = {"swn": "swn", "ce": "ce", "cepheus": "ce", "cepheusengine": "ce", "5e": "5e",
               "dnd": "5e", "d&d": "5e"}  # fmt: skip
    if wanted not in aliases:
        raise RuleError(f"unknown system {name!r}; choose swn, ce or 5e")
    return aliases[wanted]


def _to_swn_exact(value: int, system: str) -> Fraction:
    if system == "5e":
        return (Fraction(value) + 5) / Fraction(5, 2)
    if system == "ce":
        return Fraction(8 - value)
    return Fraction(value)


def _from_swn_exact(swn_dc: Fraction, system: str) -> Fraction:
    if system == "5e":
        return Fraction(5, 2) * swn_dc - 5
    if system == "ce":
        return 8 - swn_dc
    return swn_dc


def convert_dc(value: int, from_system: str, to_system: str) -> int:
    """RR-01: convert a DC (or a Cepheus Engine DM) between SWN, Cepheus Engine and 5e.

    Printed rows convert exactly (5e 15 -> SWN 8 -> CE 0); other values follow the table's
    line and round half toward the harder task.

    Args:
        value: the DC (SWN, 5e) or DM (CE) to convert.
        from_system: ``swn``, ``ce`` or ``5e``.
        to_system: ``swn``, ``ce`` or ``5e``.
    """
    source, target = _system(from_system), _system(to_system)
    exact = _from_swn_exact(_to_swn_exact(value, source), target)
    if target == "ce":  # a lower DM is harder
        return math.ceil(exact - Fraction(1, 2))
    return math.floor(exact + Fraction(1, 2))


def describe_dc(swn_dc: int) -> str:
    """RR-01: one line for the GM: ``"DC 8: Average (0), 5e DC 15 — A significant ..."``."""
    try:
        row = dc_row(swn_dc)
    except RuleError:
        ce = convert_dc(swn_dc, "swn", "ce")
        return f"DC {swn_dc}: CE DM {ce:+d}, 5e DC {convert_dc(swn_dc, 'swn', '5e')}"
    return f"DC {swn_dc}: {row.ce_label}, 5e DC {row.dnd_dc} - {row.description}"


# --- checks -------------------------------------------------------------------------------


def _dice(dice: str) -> str:
    wanted = dice.strip().casefold()
    if wanted == "2d6":
        return "2d6"
    if wanted in ("d20", "1d20"):
        return "1d20"
    raise RuleError(f"unknown check dice {dice!r}; choose 2d6 or d20")


def _pool(dice: str) -> icepool.Die:
    import icepool  # deferred: its import is a cost start-up need not pay

    return 2 @ icepool.d6 if _dice(dice) == "2d6" else icepool.d20


def target_dc(dc: int, dice: str = "2d6", dc_system: str = "swn") -> int:
    """RR-01: the number a check's total must reach: the DC in the column of the dice rolled.

    ``target_dc(14, "d20")`` is 30 (the 5e column); ``target_dc(14, "2d6")`` is 14.
    """
    column = "5e" if _dice(dice) == "1d20" else "swn"
    return convert_dc(dc, dc_system, column)


def check(
    rng: random.Random | None = None,
    dc: int = 8,
    modifier: int = 0,
    dice: str = "2d6",
    *,
    dc_system: str = "swn",
) -> CheckResult:
    """RR-01: a skill check, 2d6 (or d20) + modifier, succeeding at or above the DC.

    Args:
        rng: the injected random source.
        dc: the SWN DC (default 8, Average); a d20 roll is against its 5e DC (see the Reading).
        modifier: skill plus attribute modifier.
        dice: ``"2d6"`` or ``"d20"``.
        dc_system: the column ``dc`` is written in: ``swn`` (default), ``5e`` or ``ce``.
    """
    expression = _dice(dice)
    target = target_dc(dc, dice, dc_system)
    rolled = roll(expression, rng_or_new(rng))
    total = rolled.total + modifier
    against = f"DC {target}"
    if expression == "1d20":
        against = f"5e DC {target}" + (f" (SWN DC {dc})" if _system(dc_system) == "swn" else "")
    return CheckResult(
        expression=f"{expression}{modifier:+d} vs {against}",
        total=total,
        dice=rolled.dice,
        band=SUCCESS if total >= target else FAILURE,
        natural=rolled.total if expression == "1d20" else None,
    )


def odds(
    dc: int = 8, modifier: int = 0, dice: str = "2d6", *, dc_system: str = "swn"
) -> dict[str, Fraction]:
    """RR-01 (GEN-02): exact chance of success and failure of :func:`check` (same arguments)."""
    success = Fraction((_pool(dice) + modifier).probability(">=", target_dc(dc, dice, dc_system)))
    return {SUCCESS: success, FAILURE: 1 - success}


@frozen
class OpposedResult:
    """RR-02: the NPC's roll (which sets the DC) and the PC's check against it."""

    npc_roll: CheckResult
    dc: int
    pc_roll: CheckResult

    @property
    def band(self) -> str:
        return self.pc_roll.band


def opposed_check(
    rng: random.Random | None = None,
    modifier: int = 0,
    npc_modifier: int = 0,
    dice: str = "2d6",
    minimum_dc: int | None = None,
) -> OpposedResult:
    """RR-02: the NPC rolls first and its total is the DC the PC's check must meet.

    Args:
        rng: the injected random source.
        modifier: the PC's modifier.
        npc_modifier: the NPC's modifier (its attribute, see NPC-07).
        dice: ``"2d6"`` or ``"d20"``, for both rolls.
        minimum_dc: the GM's optional floor for social situations, the NPC's morale score
            (``npc.morale_score(will)``, 7 + Will).
    """
    rng = rng_or_new(rng)
    expression = _dice(dice)
    rolled = roll(expression, rng)
    npc_total = rolled.total + npc_modifier
    dc = npc_total if minimum_dc is None else max(npc_total, minimum_dc)
    raised = minimum_dc is not None and dc > npc_total
    npc_roll = CheckResult(
        expression=f"{expression}{npc_modifier:+d} (NPC sets the DC)",
        total=npc_total,
        dice=rolled.dice,
        detail=f"raised to morale {minimum_dc}" if raised else "",
        natural=rolled.total if expression == "1d20" else None,
    )
    # The NPC's total is already in the column of the dice both roll: no conversion.
    column = "5e" if expression == "1d20" else "swn"
    pc_roll = check(rng, dc, modifier, dice, dc_system=column)
    return OpposedResult(npc_roll=npc_roll, dc=dc, pc_roll=pc_roll)


def opposed_odds(
    modifier: int = 0, npc_modifier: int = 0, dice: str = "2d6", minimum_dc: int | None = None
) -> dict[str, Fraction]:
    """RR-02 (GEN-02): exact chance the PC wins an opposed check."""
    import icepool  # deferred: its import is a cost start-up need not pay

    npc_die = _pool(dice) + npc_modifier
    if minimum_dc is not None:
        npc_die = npc_die.map(lambda total: max(total, minimum_dc))
    pc_die = _pool(dice) + modifier
    success = Fraction(icepool.map(lambda pc, dc: pc >= dc, pc_die, npc_die).probability(True))
    return {SUCCESS: success, FAILURE: 1 - success}


# --- RR-03/04: Grip and Deliria ------------------------------------------------------------

MIN_GRIP = 10
MAX_GRIP = 18
GRIP_LOSS = 1
MAJOR_GRIP_LOSS = 2
DELIRIUM_SWING = 2
RESIST_COST = 1


def grip_max(attributes: Mapping[str, int]) -> int:
    """RR-03: Max Grip = max(INT, WIS), clamped to 10..18."""
    best = max(int(attributes.get("int", 10)), int(attributes.get("wis", 10)))
    return min(MAX_GRIP, max(MIN_GRIP, best))


def _res(character: Character, key: str) -> dict[str, int]:
    resource: dict[str, int] = character["resources"][key]
    return resource


def _set_grip(character: Character, value: int) -> list[str]:
    grip = _res(character, "grip")
    before = grip["current"]
    grip["current"] = max(0, min(value, grip["max"]))
    lines = [f"{character['name']}: Grip {before} -> {grip['current']}/{grip['max']}"]
    if grip["current"] == 0 and character.get("status") != LOST:
        character["status"] = LOST
        lines.append(f"{character['name']} is lost in their own tormented perceptions (0 Grip)")
    return lines


def lose_grip(character: Character, amount: int) -> list[str]:
    """RR-03: lose Grip; at 0 the character is lost and no longer a PC."""
    if amount < 0:
        raise RuleError("Grip lost must be 0 or more")
    return _set_grip(character, _res(character, "grip")["current"] - amount)


def is_lost(character: Character) -> bool:
    """RR-03: 0 Grip means the character can no longer function as a PC."""
    return character.get("status") == LOST or _res(character, "grip")["current"] <= 0


def grip_check(rng: random.Random | None, grip: int, major: bool = False) -> CheckResult:
    """RR-03: d20 roll-under the current Grip; the detail says what a failure costs.

    Args:
        rng: the injected random source.
        grip: the current Grip score.
        major: a major supernatural event (a failure costs 2 instead of 1).
    """
    rolled = roll("1d20", rng_or_new(rng))
    success = rolled.total < grip
    cost = MAJOR_GRIP_LOSS if major else GRIP_LOSS
    return CheckResult(
        expression=f"1d20 under Grip {grip}",
        total=rolled.total,
        dice=rolled.dice,
        band=SUCCESS if success else FAILURE,
        detail="" if success else f"lose {cost} Grip",
        natural=rolled.total,
    )


def grip_odds(grip: int) -> dict[str, Fraction]:
    """RR-03 (GEN-02): exact chance of passing a Grip check."""
    import icepool  # deferred: its import is a cost start-up need not pay

    success = Fraction(icepool.d20.probability("<", grip))
    return {SUCCESS: success, FAILURE: 1 - success}


def grip_loss(result: CheckResult, major: bool = False) -> int:
    """RR-03: Grip lost by a Grip check: 0 on success, 1 on failure (2 for major events)."""
    if result.band != FAILURE:
        return 0
    return MAJOR_GRIP_LOSS if major else GRIP_LOSS


def make_grip_check(
    rng: random.Random | None, character: Character, major: bool = False
) -> tuple[CheckResult, list[str]]:
    """RR-03: roll a character's Grip check and apply the loss; returns the roll and log lines."""
    result = grip_check(rng, _res(character, "grip")["current"], major)
    loss = grip_loss(result, major)
    return result, (lose_grip(character, loss) if loss else [])


def delirium_roll(rng: random.Random | None, deliria_held: int) -> CheckResult:
    """RR-04: d20; equal or greater than the number of deliria held recovers 2 Grip, else loses 2.

    ``deliria_held`` counts the delirium just accepted.
    """
    rolled = roll("1d20", rng_or_new(rng))
    success = rolled.total >= deliria_held
    return CheckResult(
        expression=f"1d20 vs {deliria_held} deliria",
        total=rolled.total,
        dice=rolled.dice,
        band=SUCCESS if success else FAILURE,
        detail=f"{'recover' if success else 'lose'} {DELIRIUM_SWING} Grip",
        natural=rolled.total,
    )


def delirium_odds(deliria_held: int) -> dict[str, Fraction]:
    """RR-04 (GEN-02): exact chance a new delirium soothes (recovers Grip)."""
    import icepool  # deferred: its import is a cost start-up need not pay

    success = Fraction(icepool.d20.probability(">=", deliria_held))
    return {SUCCESS: success, FAILURE: 1 - success}


def accept_delirium(
    rng: random.Random | None, character: Character, delirium: str
) -> tuple[CheckResult, list[str]]:
    """RR-04: add a permanent delirium, roll d20 against the deliria held, move Grip by 2."""
    name = delirium.strip()
    if not name:
        raise RuleError("name the delirium accepted")
    if character.get("status") == LOST:
        raise RuleError(f"{character['name']} is lost; there is no Grip left to recover")
    deliria = character.setdefault("lists", {}).setdefault("deliria", [])
    deliria.append(name)
    result = delirium_roll(rng, len(deliria))
    swing = DELIRIUM_SWING if result.band == SUCCESS else -DELIRIUM_SWING
    lines = [f"{character['name']} accepts the delirium '{name}' ({len(deliria)} held)"]
    lines += _set_grip(character, _res(character, "grip")["current"] + swing)
    return result, lines


def remove_delirium(character: Character, delirium: str) -> list[str]:
    """RR-04: deliria can never be lost.

    Raises:
        RuleError: always.
    """
    raise RuleError(f"once accrued, deliria can never be lost ('{delirium}')")


def resist_compulsion(character: Character) -> list[str]:
    """RR-04: defy a delirium's phobia or compulsion by spending 1 Grip."""
    if _res(character, "grip")["current"] < RESIST_COST:
        raise RuleError(f"{character['name']} has no Grip left to resist")
    return [
        f"{character['name']} resists a phobia or compulsion",
        *lose_grip(character, RESIST_COST),
    ]


# --- RR-05: physical vitality -------------------------------------------------------------


def damage(character: Character, amount: int) -> list[str]:
    """RR-05: take HP damage (down to 0)."""
    if amount < 0:
        raise RuleError("damage must be 0 or more")
    hp = _res(character, "hp")
    before = hp["current"]
    hp["current"] = max(0, before - amount)
    lines = [hp_change(character["name"], before, hp["current"], hp["max"])]
    if hp["current"] == 0:
        lines.append(f"{character['name']} is at 0 HP")
    return lines


def heal(character: Character, amount: int) -> list[str]:
    """RR-05: recover HP, up to the maximum."""
    if amount < 0:
        raise RuleError("healing must be 0 or more")
    hp = _res(character, "hp")
    before = hp["current"]
    hp["current"] = min(hp["max"], before + amount)
    return [hp_change(character["name"], before, hp["current"], hp["max"], heal=True)]


def add_system_strain(character: Character, amount: int) -> list[str]:
    """RR-05: accrue system strain; strain beyond the maximum cannot be taken.

    Raises:
        RuleError: the strain would pass the maximum (the effect cannot be accepted).
    """
    strain = _res(character, "system_strain")
    if amount < 0:
        raise RuleError("use recover_system_strain to lower strain")
    if strain["current"] + amount > strain["max"]:
        raise RuleError(
            f"{character['name']} has {strain['current']}/{strain['max']} system strain; "
            f"{amount} more is too much"
        )
    strain["current"] += amount
    return [f"{character['name']}: system strain {strain['current']}/{strain['max']}"]


def recover_system_strain(character: Character, amount: int) -> list[str]:
    """RR-05: shed system strain (down to 0)."""
    strain = _res(character, "system_strain")
    strain["current"] = max(0, strain["current"] - max(0, amount))
    return [f"{character['name']}: system strain {strain['current']}/{strain['max']}"]


# --- initiative and sheet -----------------------------------------------------------------


def attribute_modifier(score: int) -> int:
    """The Without Number modifier of a 3..18 score: 3 -2, 4-7 -1, 8-13 0, 14-17 +1, 18 +2."""
    if score <= 3:
        return -2
    if score <= 7:
        return -1
    if score <= 13:
        return 0
    if score <= 17:
        return 1
    return 2


def initiative_roll(rng: random.Random | None, modifier: int = 0) -> int:
    """Initiative: 1d8 + modifier (DEX modifier for PCs), as in the Without Number games."""
    return roll("1d8", rng_or_new(rng)).total + modifier


def initiative_for(rng: random.Random | None, character: Character) -> int:
    """A PC's initiative, 1d8 + DEX modifier."""
    return initiative_roll(rng, attribute_modifier(int(character["attributes"].get("dex", 10))))


def _strain_max(attributes: Mapping[str, int]) -> int:
    return int(attributes.get("con", 10))


SHEET = SheetSpec(
    attributes=tuple(
        AttributeSpec(key, label, default=10, minimum=3, maximum=18)
        for key, label in (
            ("str", "STR"),
            ("dex", "DEX"),
            ("con", "CON"),
            ("int", "INT"),
            ("wis", "WIS"),
            ("cha", "CHA"),
        )
    )
    # The AC a foe's d20 attack is against (NPC-02): 10 unarmoured, as the GM sets it.
    + (AttributeSpec("ac", "AC", default=10, minimum=0, maximum=40),),
    resources=(
        ResourceSpec("hp", "HP", default_max=8),
        ResourceSpec("system_strain", "System strain", 10, _strain_max, starts_full=False),
        ResourceSpec("grip", "Grip", MIN_GRIP, grip_max),
    ),
    lists=(ListSpec("deliria", "Deliria", removable=False),),
    statuses=(ALIVE, LOST, DEAD),
)
"""RR-03/04/05: the PC sheet."""


def new_character(name: str, hp: int | None = None, **attributes: int) -> Character:
    """A fresh PC: scores default 10, HP max hand-set (default 8), Grip full, no strain."""
    character = default_character(SHEET, name, **attributes)
    if hp is not None:
        character["resources"]["hp"] = {"current": int(hp), "max": int(hp)}
    return rederive(SHEET, character)


def health_summary(character: Character) -> str:
    """``"7/8 HP · Grip 12/14 · strain 0/10"``."""
    res: dict[str, Any] = character.get("resources", {})
    hp, grip, strain = (res.get(k, {}) for k in ("hp", "grip", "system_strain"))
    line = (
        f"{hp.get('current', 0)}/{hp.get('max', 0)} HP · Grip {grip.get('current', 0)}/"
        f"{grip.get('max', 0)} · strain {strain.get('current', 0)}/{strain.get('max', 0)}"
    )
    return line + (" · LOST" if character.get("status") == LOST else "")


RULESET = Ruleset(
    id="resolution",
    name="Resolution rules (Without Number style)",
    turn_model="initiative",
    sheet=SHEET,
    check=check,
    check_help="2d6 (or d20) + modifier vs DC: 6 Routine, 8 Average, 10 Difficult, "
    "12 Very difficult, 14 Formidable; equal or above succeeds",
    new_character=new_character,
    health_summary=health_summary,
    extras={
        "odds": odds,
        "bands": BANDS,
        "dc_table": DC_TABLE,
        "convert_dc": convert_dc,
        "describe_dc": describe_dc,
        "opposed_check": opposed_check,
        "opposed_odds": opposed_odds,
        "grip_check": make_grip_check,
        "grip_odds": grip_odds,
        "lose_grip": lose_grip,
        "accept_delirium": accept_delirium,
        "delirium_odds": delirium_odds,
        "resist_compulsion": resist_compulsion,
        "apply_damage": damage,
        "heal": heal,
        "add_system_strain": add_system_strain,
        "recover_system_strain": recover_system_strain,
        "initiative_roll": initiative_roll,
        "initiative_for": initiative_for,
        "npc_build": npc.build,
        "npc_quick_build": npc.quick_build,
        "npc_attack": npc.attack,
        "npc_morale_check": npc.morale_check,
        "npc_morale_odds": npc.morale_odds,
        "morale_triggers": npc.MORALE_TRIGGERS,
        "npc_effort_use": npc.effort_use,
        "npc_saving_throw": npc.saving_throw,
        "npc_skill_check": npc.skill_check,
        "npc_roll_hp": npc.roll_hp,
        "npc_from_5e": npc.from_5e,
        "npc_import_5e_file": npc.import_5e_file,
        "npc_from_without_number": npc.from_without_number,
    },
)

"""The 2d6 aspects game: 2d6 + skill bands, fate points, aspects, stress caps, consequences.

A roll lives on as an :class:`AspectsRoll` while fate points are spent on it (a reroll, an
invoke), because the rules limit fate points per roll; its ``result`` is the plain
:class:`~rulesets.base.CheckResult` for the roll log. Everything done to a character is a
small function over the character dict (layout in :mod:`rulesets.base`) returning log lines.
Extra keys on a character: ``playbook`` (text) and ``advancements_pending`` (int).

Reading: the Roll Chart's header row is shifted by one cell; the bands are 6 and under
Failure, 7 Mild Success, 8 Success, 9 Good Success, 10 and over Total Success, because the
"VS NPCs" section repeats the "+10, 7-9, 6-" scale.
Reading: the failure grades read the final total (skill and NPC skill included), 6 is a plain
failure and anything at or under 2 is the worst case, because the chart is of roll totals.
Reading: stress caps are per character and per conflict (physical, mental), default 3, set by
hand, because the text never gives the formula and its damage words put 1-3 under the cap
("barely, just, kinda hurts") and 4-6 over it.
Reading: overlap equal to the stress cap is a minor injury, because the text says attacks "not
higher than their associated stress cap" leave the character standing.
Reading: a character holds 2 consequences by default (NPCs often 0), one pool for physical and
mental, because the text says "one or two really damaging attacks" and gives no split.
Reading: Darkest Self doubles the number of consequences a character can hold (the
"Consequence caps"), not the stress caps, because it answers "can't take another Consequence".
Reading: after a fate-point reroll the better result stands until the player keeps the other
one (either may be kept, any time before the next roll), because the text gives the player the
choice and most players want the better.
Reading: "one Fate Point on each roll" is per character per roll, and a free invoke from a
created advantage is not a Fate Point, so it does not count against that limit.
Reading: a healed consequence becomes a temporary negative aspect keeping its original date,
because the text asks for dates to gauge the total healing time.
Reading: advancements come on reaching levels 2, 3 and 4 (one each) and 5 (two); level 1 is
character creation; reaching 6 retires the character, because "by level 6 MUST retire".
Reading: a new character starts with 0 fate points, because the text gives no starting
amount and the first scene then grants 1.
Reading: being Taken Out lasts until the next scene, because it ends the character's part in
that conflict only.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulesets.base import (
    AttributeSpec,
    Character,
    CheckResult,
    ListSpec,
    ResourceSpec,
    Ruleset,
    SheetSpec,
    default_character,
    rng_or_new,
)
from rulesets.base import RuleError as _BaseRuleError
from rulesets.dice import roll
from rulesets.values import frozen


class RuleError(_BaseRuleError):
    """An action the rules do not allow; the message says why."""


TOTAL_SUCCESS = "Total Success"
GOOD_SUCCESS = "Good Success"
SUCCESS = "Success"
MILD_SUCCESS = "Mild Success"
FAILURE = "Failure"
BANDS: tuple[str, ...] = (TOTAL_SUCCESS, GOOD_SUCCESS, SUCCESS, MILD_SUCCESS, FAILURE)
"""ASP-01: outcome bands, best first, as the Roll Chart writes them."""

FAILURE_GRADES: dict[int, str] = {
    6: "a failure",
    5: "a little failure",
    4: "a pretty bad event",
    3: "a really bad event",
    2: "the absolute worst case scenario",
}
"""ASP-01: how bad a failure is, by total."""

MAX_FATE_POINTS = 5
INVOKE_BONUS = 2
DEFAULT_STRESS_CAP = 3
DEFAULT_CONSEQUENCE_SLOTS = 2
PERMANENT_ASPECTS = 2
MAX_LEVEL = 5
RETIRE_LEVEL = 6

ALIVE = "alive"
DARKEST_SELF = "darkest self"
TAKEN_OUT = "taken out"
RETIRED = "retired"
STATUSES: tuple[str, ...] = (ALIVE, DARKEST_SELF, TAKEN_OUT, RETIRED)

CONFLICTS: tuple[str, ...] = ("physical", "mental")

DAMAGE_WORDS: dict[int, str] = {
    1: "barely",
    2: "just",
    3: "kinda hurts",
    4: "hurts",
    5: "real pain",
    6: "debilitates",
}
"""ASP-05: the text's words for overlapping damage 1-6."""


# --- ASP-01: the roll -----------------------------------------------------------------------


def band_for(total: int) -> str:
    """ASP-01: the band of a final total (2d6 + skill − NPC skill + invokes)."""
    if total >= 10:
        return TOTAL_SUCCESS
    if total == 9:
        return GOOD_SUCCESS
    if total == 8:
        return SUCCESS
    if total == 7:
        return MILD_SUCCESS
    return FAILURE


def failure_grade(total: int) -> str:
    """ASP-01: how bad a failing total is (6 plain, 5 little ... 2 and under the worst)."""
    if total >= 7:
        return ""
    return FAILURE_GRADES[max(2, total)]


@frozen
class AspectsRoll:
    """ASP-01/03: a 2d6 roll as fate points are spent on it."""

    dice: tuple[int, ...]
    skill: int = 0
    opposing: int = 0
    """The NPC's skill, subtracted (ASP-01)."""
    modifier: int = 0
    """Invokes: +2 per own aspect, −2 per aspect invoked against the roller (ASP-03)."""
    fate_spent_by: tuple[str, ...] = ()
    """Who has spent a Fate Point on this roll (one each, ASP-02)."""
    notes: tuple[str, ...] = ()
    rerolled: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """After a reroll (ASP-03): the first dice and the reroll's; the player keeps either."""

    @property
    def total(self) -> int:
        return self.total_of(self.dice)

    def total_of(self, dice: tuple[int, ...]) -> int:
        """The total these dice would make with this roll's skill, NPC skill and invokes:
        a reroll's two results are said as totals, as the roll's own is."""
        return sum(dice) + self.skill - self.opposing + self.modifier

    @property
    def band(self) -> str:
        return band_for(self.total)

    @property
    def result(self) -> CheckResult:
        """The roll as a CheckResult for the roll log."""
        expression = "2d6"
        for amount in (self.skill, -self.opposing, self.modifier):
            if amount:
                expression += f"{amount:+d}"
        details = [failure_grade(self.total), *self.notes]
        return CheckResult(
            expression=expression,
            total=self.total,
            dice=self.dice,
            band=self.band,
            detail="; ".join(d for d in details if d),
        )


def roll_2d6(rng: random.Random | None = None, skill: int = 0, opposing: int = 0) -> AspectsRoll:
    """ASP-01: roll 2d6 + skill, minus the opposing NPC's skill.

    Args:
        rng: the injected random source.
        skill: the roller's skill bonus (0 when no skill fits).
        opposing: the NPC's skill bonus in a conflict with an NPC.
    """
    rolled = roll("2d6", rng_or_new(rng))
    return AspectsRoll(dice=rolled.dice, skill=skill, opposing=opposing)


def check(rng: random.Random | None = None, skill: int = 0, opposing: int = 0) -> CheckResult:
    """ASP-01: the standard check for the roll log (see :func:`roll_2d6` to spend fate on it)."""
    return roll_2d6(rng, skill, opposing).result


def odds(skill: int = 0, opposing: int = 0) -> dict[str, Fraction]:
    """ASP-01 (GEN-02): exact chance of each band for 2d6 + skill − opposing.

    Returns:
        Every band name → its probability; the values sum to 1.
    """
    import icepool  # deferred: its import is a cost start-up need not pay

    bands = (2 @ icepool.d6 + skill - opposing).map(band_for)
    return {band: Fraction(bands.probability(band)) for band in BANDS}


# --- ASP-02: fate points --------------------------------------------------------------------


def _fate(character: Character) -> dict[str, int]:
    pool: dict[str, int] = character["resources"]["fate_points"]
    return pool


def gain_fate(character: Character, amount: int = 1, why: str = "gains") -> list[str]:
    """ASP-02: add fate points, never above 5."""
    pool = _fate(character)
    before = pool["current"]
    pool["current"] = min(MAX_FATE_POINTS, before + amount)
    gained = pool["current"] - before
    if gained == 0:
        return [f"{character['name']} {why}, but already holds {MAX_FATE_POINTS} Fate Points"]
    return [f"{character['name']} {why}: +{gained} FP ({pool['current']}/{MAX_FATE_POINTS})"]


def spend_fate(character: Character) -> list[str]:
    """ASP-02: pay one fate point.

    Raises:
        RuleError: the character has none.
    """
    pool = _fate(character)
    if pool["current"] < 1:
        raise RuleError(f"{character['name']} has no Fate Points")
    pool["current"] -= 1
    return [f"{character['name']} spends a Fate Point ({pool['current']} left)"]


def scene_fate(character: Character) -> list[str]:
    """ASP-02 alone: one with no fate points at a scene's start gains one."""
    if _fate(character)["current"] == 0:
        return gain_fate(character, 1, "starts the scene with no Fate Points")
    return []


def scene_fates(characters: list[Character]) -> list[str]:
    """ASP-02 for everyone in a fight as it starts (a Taken Out stays the GM's call): one line
    naming those with no fate points, who gain one each."""
    gained = [c["name"] for c in characters if scene_fate(c)]
    if not gained:
        return []
    names = ", ".join(gained[:-1]) + (" and " if len(gained) > 1 else "") + gained[-1]
    return [f"A new scene: {names} had no Fate Points, +1 each"]


def new_scene(character: Character) -> list[str]:
    """ASP-02: a character starting a scene with no fate points gains one.

    Also ends a Taken Out from the previous scene.
    """
    log: list[str] = []
    if character.get("status") == TAKEN_OUT:
        character["status"] = ALIVE
        log.append(f"{character['name']} is back in play after being Taken Out")
    return log + scene_fate(character)


# --- ASP-03: rerolls and invokes ------------------------------------------------------------


def _pay_for_roll(character: Character, on_roll: AspectsRoll) -> list[str]:
    if character["name"] in on_roll.fate_spent_by:
        raise RuleError(f"{character['name']} has already spent a Fate Point on this roll")
    return spend_fate(character)


def reroll(
    character: Character, first: AspectsRoll, rng: random.Random | None = None
) -> tuple[AspectsRoll, AspectsRoll]:
    """ASP-03: spend a fate point to reroll; the player keeps whichever of the two they like.

    Returns:
        (the first roll, the reroll), both marked as paid for by the character.

    Raises:
        RuleError: no fate points, or the character already spent one on this roll.
    """
    log = _pay_for_roll(character, first)
    spent = (*first.fate_spent_by, character["name"])
    again = roll("2d6", rng_or_new(rng))
    note = f"{character['name']} rerolls for a Fate Point (was {first.total})"
    pair = (tuple(first.dice), tuple(again.dice))
    kept_first = replace(first, fate_spent_by=spent, notes=(*first.notes, *log), rerolled=pair)
    second = replace(
        first, dice=again.dice, fate_spent_by=spent, notes=(*first.notes, note), rerolled=pair
    )
    return kept_first, second


def keep_reroll(on_roll: AspectsRoll, who: str, keep: str) -> AspectsRoll:
    """ASP-03: after a reroll the player chooses which of the two rolls to use.

    Args:
        on_roll: the roll as it stands, rerolled (its skill, invokes and notes stay).
        who: who chooses (the roller).
        keep: ``"first"``, ``"second"``, or ``"other"`` (the one not kept now).

    Raises:
        RuleError: the roll was not rerolled, or ``keep`` is none of those.
    """
    if on_roll.rerolled is None:
        raise RuleError("that roll was not rerolled: there is no other result to keep")
    first, second = on_roll.rerolled
    if keep == "other":
        keep = "first" if tuple(on_roll.dice) == tuple(second) else "second"
    if keep not in ("first", "second"):
        raise RuleError(f"keep the first or the second roll, not {keep!r}")
    dice = first if keep == "first" else second
    said = f"{who} keeps {on_roll.total_of(dice)} (of {on_roll.total_of(first)} and "
    said += f"{on_roll.total_of(second)})"
    notes = tuple(n for n in on_roll.notes if not n.startswith(f"{who} keeps "))
    return replace(on_roll, dice=tuple(dice), notes=(*notes, said))


def _take_free_invoke(owner: Character, aspect: str) -> dict[str, Any]:
    for entry in owner["lists"].get("temporary_aspects", []):
        if isinstance(entry, dict) and entry.get("name", "").casefold() == aspect.casefold():
            if int(entry.get("free_invokes", 0)) < 1:
                raise RuleError(f"{aspect!r} has no free invoke left")
            entry["free_invokes"] = int(entry["free_invokes"]) - 1
            return entry
    raise RuleError(f"{owner['name']} has not created an advantage named {aspect!r}")


def invoke_aspect(
    character: Character,
    on_roll: AspectsRoll,
    aspect: str,
    against: bool = False,
    free: bool = False,
) -> AspectsRoll:
    """ASP-03/04: invoke an aspect: +2 to your own roll, or −2 to someone else's.

    Args:
        character: who invokes (and pays the fate point).
        on_roll: the roll affected: the character's own, or the target's when ``against``.
        aspect: the aspect invoked (any aspect in play; a free invoke must be one the
            character created with :func:`create_advantage`).
        against: invoke negatively against someone else's roll for −2.
        free: use the free invoke of a created advantage instead of a fate point.

    Raises:
        RuleError: no fate point, one already spent on this roll, or no free invoke left.
    """
    if free:
        _take_free_invoke(character, aspect)
        spent = on_roll.fate_spent_by
        paid = "free invoke"
    else:
        _pay_for_roll(character, on_roll)
        spent = (*on_roll.fate_spent_by, character["name"])
        paid = "1 FP"
    change = -INVOKE_BONUS if against else INVOKE_BONUS
    note = f"{character['name']} invokes {aspect} {change:+d} ({paid})"
    return replace(
        on_roll,
        modifier=on_roll.modifier + change,
        fate_spent_by=spent,
        notes=(*on_roll.notes, note),
    )


# --- ASP-04: aspects ------------------------------------------------------------------------


def _named(entries: list[Any], name: str) -> Any:
    for entry in entries:
        label = entry.get("name", "") if isinstance(entry, dict) else str(entry)
        if label.casefold() == name.casefold():
            return entry
    return None


def _unique(label: str, entries: list[Any]) -> str:
    """A plain label no entry has yet (``physical hit (hurts) 2``), so each can be named apart."""
    shown, n = label, 1
    while _named(entries, shown) is not None:
        n += 1
        shown = f"{label} {n}"
    return shown


def add_aspect(character: Character, name: str) -> list[str]:
    """ASP-04: one of the character's two semi-permanent aspects.

    Raises:
        RuleError: already two, a duplicate, or an empty name.
    """
    aspects = character["lists"].setdefault("aspects", [])
    clean = name.strip()
    if not clean:
        raise RuleError("an aspect needs a name")
    if _named(aspects, clean) is not None:
        raise RuleError(f"{character['name']} already has the aspect {clean!r}")
    if len(aspects) >= PERMANENT_ASPECTS:
        raise RuleError(f"a character has only {PERMANENT_ASPECTS} permanent aspects")
    aspects.append(clean)
    return [f"{character['name']} is {clean}"]


def add_temporary_aspect(
    character: Character,
    name: str,
    today: str = "",
    negative: bool = False,
    free_invokes: int = 0,
) -> list[str]:
    """ASP-04: a temporary aspect added in play (Exhausted, Wet, Scared ...)."""
    clean = name.strip()
    if not clean:
        raise RuleError("an aspect needs a name")
    entries = character["lists"].setdefault("temporary_aspects", [])
    entries.append(
        {"name": clean, "negative": negative, "free_invokes": free_invokes, "received": today}
    )
    kind = "negative aspect" if negative else "temporary aspect"
    return [f"{character['name']} gains the {kind} {clean}"]


def remove_temporary_aspect(character: Character, name: str) -> list[str]:
    """ASP-04/07: remove a temporary aspect or minor injury when play resolves or heals it."""
    for key in ("temporary_aspects", "injuries"):
        entries = character["lists"].setdefault(key, [])
        entry = _named(entries, name)
        if entry is not None:
            entries.remove(entry)
            return [f"{character['name']} is no longer {entry['name']}"]
    raise RuleError(f"{character['name']} has no temporary aspect or injury {name!r}")


def create_advantage(character: Character, name: str, today: str = "") -> list[str]:
    """ASP-04: a temporary aspect created in the scene, with one free invoke for its creator."""
    log = add_temporary_aspect(character, name, today, free_invokes=1)
    return [*log, f"{character['name']} may invoke {name.strip()} once for free"]


SCENE = "the scene"
"""Where an advantage on no one in particular is placed (the Wet floor)."""


def place_advantage(
    entries: list[Any], holder: str, name: str, by: str, today: str = ""
) -> list[str]:
    """ASP-04: an advantage ``by`` creates on ``holder`` (a character, a foe or the scene): a
    temporary aspect among ``entries`` with one free invoke, for its creator only.

    Raises:
        RuleError: an empty name, or the holder already has that temporary aspect.
    """
    clean = name.strip()
    if not clean:
        raise RuleError("an aspect needs a name")
    if _named(entries, clean) is not None:
        raise RuleError(f"{holder} already has the aspect {clean!r}")
    entries.append(
        {"name": clean, "negative": False, "free_invokes": 1, "received": today, "by": by}
    )
    where = "" if holder == by else f" on {holder}"
    return [f"{by} creates the advantage {clean}{where}: one free invoke for {by}"]


def free_invoker(entry: Any, holder: str) -> str:
    """Who may use an aspect's free invoke: its creator (``by``; before that was kept, the
    character whose sheet holds it), or nobody ("") once it is used."""
    if not isinstance(entry, dict) or int(entry.get("free_invokes", 0) or 0) < 1:
        return ""
    return str(entry.get("by") or holder)


def free_invokes(entries: list[Any], holder: str, who: str) -> list[str]:
    """ASP-04: the aspects among ``entries`` whose free invoke ``who`` may still use."""
    return [
        str(e["name"])
        for e in entries
        if free_invoker(e, holder).casefold() == who.casefold() and who
    ]


def use_free_invoke(entries: list[Any], holder: str, aspect: str, who: str) -> list[str]:
    """ASP-04: ``who`` uses up the free invoke of a created advantage.

    Raises:
        RuleError: no such aspect, its free invoke is used, or it is someone else's.
    """
    entry = _named(entries, aspect)
    if entry is None:
        raise RuleError(f"{holder} has no aspect {aspect!r}")
    owner = free_invoker(entry, holder)
    if not owner:
        raise RuleError(f"{aspect!r} has no free invoke left")
    if owner.casefold() != who.casefold():
        raise RuleError(f"the free invoke of {entry['name']!r} is {owner}'s, who created it")
    entry["free_invokes"] = int(entry["free_invokes"]) - 1
    return [f"{who} uses the free invoke of {entry['name']}"]


INVOKE_EFFECTS: tuple[str, ...] = ("+2", "-2 against", "reroll")
"""ASP-03/04: what an invoke does to a roll: +2 to your own, −2 to another's, or a reroll."""


def invoke_effect(
    on_roll: AspectsRoll,
    who: str,
    aspect: str,
    effect: str,
    paid: str,
    rng: random.Random | None = None,
) -> AspectsRoll:
    """ASP-03/04: an invoke already paid for (``paid``: "free invoke", "1 FP") on a roll.

    ``effect``: "+2", "-2 against" or "reroll" (the better of the two dice totals is kept).

    Raises:
        RuleError: an unknown effect.
    """
    if effect == "reroll":
        again = roll("2d6", rng_or_new(rng))
        kept = again.dice if sum(again.dice) > sum(on_roll.dice) else on_roll.dice
        note = (
            f"{who} invokes {aspect} to reroll ({paid}): "
            f"{sum(on_roll.dice)} then {sum(again.dice)}, kept {sum(kept)}"
        )
        pair = (tuple(on_roll.dice), tuple(again.dice))
        return replace(on_roll, dice=tuple(kept), notes=(*on_roll.notes, note), rerolled=pair)
    if effect not in INVOKE_EFFECTS:
        raise RuleError(f"an invoke gives {', '.join(INVOKE_EFFECTS)}, not {effect!r}")
    change = -INVOKE_BONUS if effect.startswith("-") else INVOKE_BONUS
    note = f"{who} invokes {aspect} {change:+d} ({paid})"
    return replace(on_roll, modifier=on_roll.modifier + change, notes=(*on_roll.notes, note))


def compel(character: Character, aspect: str) -> list[str]:
    """ASP-04: an aspect invoked to cause the character a new problem grants a fate point."""
    return gain_fate(character, 1, f"accepts a problem from {aspect}")


# --- ASP-05 / ASP-06: confrontations --------------------------------------------------------


def overlap(attack_total: int, defence_total: int) -> int:
    """ASP-05: overlapping damage, the attacker's total minus the defender's."""
    return attack_total - defence_total


def stress_cap(character: Character, kind: str = "physical") -> int:
    """ASP-05: the character's stress cap for a physical or mental conflict."""
    if kind not in CONFLICTS:
        raise RuleError(f"{kind!r} is not a conflict; use physical or mental")
    return int(character["attributes"].get(f"{kind}_stress_cap", DEFAULT_STRESS_CAP))


def consequence_limit(character: Character) -> int:
    """ASP-06: how many consequences the character can hold; doubled in Darkest Self."""
    slots = int(character["attributes"].get("consequence_slots", DEFAULT_CONSEQUENCE_SLOTS))
    return slots * 2 if character.get("status") == DARKEST_SELF else slots


def damage_word(amount: int) -> str:
    """ASP-05: the text's word for an overlap (1 barely ... 6 debilitates)."""
    return DAMAGE_WORDS[max(1, min(6, amount))]


DEFENDED = "defended"
MINOR_INJURY = "minor injury"
CONSEQUENCE = "consequence"
CHOICE = "darkest self or taken out"


@frozen
class ConfrontationOutcome:
    """ASP-05/06: what an attack did to the defender."""

    overlap: int
    result: str
    """"defended", "minor injury", "consequence", "taken out" or "darkest self or taken out"."""
    entry: dict[str, Any] | None
    """The injury or consequence recorded (or, when a choice is needed, waiting to be)."""
    choice_needed: bool
    """True: call :func:`enter_darkest_self` or :func:`take_out` with this outcome."""
    log: tuple[str, ...]


def resolve_attack(
    defender_character: Character,
    attack_total: int,
    defence_total: int,
    today: str,
    kind: str = "physical",
    name: str = "",
) -> ConfrontationOutcome:
    """ASP-05/06/07: apply a confrontation's overlap to the defender.

    Args:
        defender_character: the defender; injuries and consequences are added to it.
        attack_total: the attacker's roll total.
        defence_total: the defender's roll total.
        today: the date received (ISO ``YYYY-MM-DD``), recorded for healing (ASP-07).
        kind: "physical" or "mental" (which stress cap applies).
        name: the injury as the defender describes it; a plain label if empty.

    Returns:
        The outcome; at the consequence limit outside Darkest Self nothing is recorded yet and
        ``choice_needed`` is set.
    """
    who = defender_character["name"]
    amount = overlap(attack_total, defence_total)
    cap = stress_cap(defender_character, kind)
    if amount < 1:
        line = f"{who} defends ({attack_total} vs {defence_total})"
        return ConfrontationOutcome(amount, DEFENDED, None, False, (line,))
    label = name.strip() or _unique(
        f"{kind} hit ({damage_word(amount)})",
        [*defender_character["lists"].get("injuries", []),
         *defender_character["lists"].get("consequences", [])],
    )  # fmt: skip
    entry = {"name": label, "overlap": amount, "kind": kind, "received": today}
    if amount <= cap:
        defender_character["lists"].setdefault("injuries", []).append(entry)
        line = f"{who}: {amount} overlap ≤ stress cap {cap}, minor injury {label}"
        return ConfrontationOutcome(amount, MINOR_INJURY, entry, False, (line,))
    head = f"{who}: {amount} overlap > stress cap {cap}, consequence {label}"
    held = len(defender_character["lists"].setdefault("consequences", []))
    if held < consequence_limit(defender_character):
        defender_character["lists"]["consequences"].append(entry)
        return ConfrontationOutcome(amount, CONSEQUENCE, entry, False, (head,))
    if defender_character.get("status") == DARKEST_SELF:
        log = [head, *_taken_out(defender_character, entry)]
        return ConfrontationOutcome(amount, TAKEN_OUT, entry, False, tuple(log))
    line = f"{who} cannot take another consequence: enter Darkest Self or be Taken Out"
    return ConfrontationOutcome(amount, CHOICE, entry, True, (head, line))


def _taken_out(character: Character, entry: dict[str, Any]) -> list[str]:
    character["lists"].setdefault("consequences", []).append(entry)
    was_darkest = character.get("status") == DARKEST_SELF
    character["status"] = TAKEN_OUT
    log = [f"{character['name']} is Taken Out; the winner has narrative control"]
    if was_darkest:
        log.append(f"{character['name']} leaves their Darkest Self")
    return log


def _pending(outcome: ConfrontationOutcome) -> dict[str, Any]:
    if not outcome.choice_needed or outcome.entry is None:
        raise RuleError("this attack does not call for Darkest Self or Taken Out")
    return outcome.entry


def enter_darkest_self(character: Character, outcome: ConfrontationOutcome) -> list[str]:
    """ASP-06: enter Darkest Self (consequence limit doubled) and take the consequence."""
    entry = _pending(outcome)
    character["status"] = DARKEST_SELF
    log = [
        f"{character['name']} enters their Darkest Self: can hold "
        f"{consequence_limit(character)} consequences"
    ]
    consequences = character["lists"].setdefault("consequences", [])
    if len(consequences) >= consequence_limit(character):
        return [*log, *_taken_out(character, entry)]
    consequences.append(entry)
    return [*log, f"{character['name']} takes the consequence {entry['name']}"]


def take_out(character: Character, outcome: ConfrontationOutcome) -> list[str]:
    """ASP-06: refuse Darkest Self: add the consequence and be Taken Out."""
    return _taken_out(character, _pending(outcome))


def leave_darkest_self(character: Character) -> list[str]:
    """ASP-06: the Darkest Self's requirement is met; injuries stay."""
    if character.get("status") != DARKEST_SELF:
        raise RuleError(f"{character['name']} is not in their Darkest Self")
    character["status"] = ALIVE
    return [f"{character['name']} leaves their Darkest Self; their injuries remain"]


def rename_consequence(character: Character, name: str, new_name: str) -> list[str]:
    """ASP-05: the defender describes the consequence; the GM may name or rename it later.

    The entry keeps its date and overlap; no second consequence is made.

    Raises:
        RuleError: no consequence of that name, an empty name, or another consequence already
            has the new one.
    """
    who = character.get("name", "?")
    consequences = character.setdefault("lists", {}).setdefault("consequences", [])
    entry = _named(consequences, name)
    if entry is None:
        raise RuleError(f"{who} has no consequence {name!r}")
    clean = new_name.strip()
    if not clean:
        raise RuleError("a consequence needs a name")
    other = _named(consequences, clean)
    if other is not None and other is not entry:
        raise RuleError(f"{who} already has the consequence {clean!r}")
    if isinstance(entry, dict):
        old = str(entry.get("name", ""))
        entry["name"] = clean
    else:  # a bare name, as an older save wrote it
        old = str(entry)
        consequences[consequences.index(entry)] = clean
    return [f"{who}: the consequence {old} is now {clean}"]


def consequence_names(character: Any) -> list[str]:
    """The consequences a character or foe holds, by name, oldest first."""
    lists = (character or {}).get("lists")
    entries = lists.get("consequences") if isinstance(lists, dict) else None
    if not isinstance(entries, list):
        return []  # a hand-edited sheet without them reads as none held
    return [str(e.get("name", "")) if isinstance(e, dict) else str(e) for e in entries]


# --- ASP-07: healing ------------------------------------------------------------------------


def days_since(received: str, today: str) -> int:
    """ASP-07: whole days between two dates: both on the campaign's calendar (``Day 3``, as
    the campaign clock writes them) or both ISO dates (``YYYY-MM-DD``, as saves kept before
    the clock).

    Raises:
        RuleError: the two are not dates of one calendar.
    """
    from rulesets.clock import day_number

    first, last = day_number(received), day_number(today)
    if first is not None and last is not None:
        return last - first
    try:
        start = datetime.date.fromisoformat(received)
        end = datetime.date.fromisoformat(today)
    except ValueError:
        raise RuleError(
            f"dates must both read Day N or YYYY-MM-DD, not {received!r} / {today!r}"
        ) from None
    return (end - start).days


def downgrade_consequence(
    character: Character, name: str, healed_as: str, today: str = ""
) -> list[str]:
    """ASP-07: a healing consequence becomes a negative aspect and frees its slot.

    Args:
        character: whose consequence heals.
        name: the consequence ("Broken arm").
        healed_as: the negative aspect it becomes ("Tender arm").
        today: the date of the downgrade; the original date received is kept.
    """
    consequences = character["lists"].setdefault("consequences", [])
    entry = _named(consequences, name)
    if entry is None:
        raise RuleError(f"{character['name']} has no consequence {name!r}")
    consequences.remove(entry)
    was = entry if isinstance(entry, dict) else {"name": str(entry)}
    becomes = healed_as.strip() or f"Recovering from {was['name']}"
    character["lists"].setdefault("temporary_aspects", []).append(
        {
            "name": becomes,
            "negative": True,
            "free_invokes": 0,
            "received": was.get("received", ""),
            "healed_from": was["name"],
            "downgraded": today,
        }
    )
    return [f"{character['name']}: {was['name']} heals into {becomes}"]


def wound_ages(character: Character, today: str) -> list[str]:
    """ASP-07: every injury, consequence and negative aspect with how long ago it was received."""
    lines = []
    for key, label in (
        ("consequences", "consequence"),
        ("injuries", "minor injury"),
        ("temporary_aspects", "negative aspect"),
    ):
        for entry in character["lists"].get(key, []):
            if not isinstance(entry, dict) or (
                key == "temporary_aspects" and not entry.get("negative")
            ):
                continue
            received = entry.get("received", "")
            try:
                age = f"{days_since(received, today)} days ago"
            except RuleError:
                age = "date unknown"
            lines.append(f"{entry['name']} ({label}), received {received or '?'}, {age}")
    return lines


# --- ASP-08: advancement --------------------------------------------------------------------


def advancements_for_level(level: int) -> int:
    """ASP-08: advancements gained on reaching a level: 1 at 2-4, 2 at 5, none otherwise."""
    if level == MAX_LEVEL:
        return 2
    return 1 if 2 <= level < MAX_LEVEL else 0


def level_up(character: Character) -> list[str]:
    """ASP-08: reach the next level; at 6 the character retires (NPC, moves away or dies).

    Raises:
        RuleError: the character is already retired.
    """
    if character.get("status") == RETIRED:
        raise RuleError(f"{character['name']} is retired")
    attrs = character["attributes"]
    attrs["level"] = int(attrs.get("level", 1)) + 1
    level = attrs["level"]
    if level >= RETIRE_LEVEL:
        character["status"] = RETIRED
        return [
            f"{character['name']} reaches level {level} and must retire: to an NPC "
            "(one move once per scene, passives kept), moved away or killed off"
        ]
    gained = advancements_for_level(level)
    character["advancements_pending"] = int(character.get("advancements_pending", 0)) + gained
    word = "a double advancement" if gained == 2 else "an advancement"
    return [f"{character['name']} reaches level {level}: {word}"]


def take_advancement(character: Character, choice: str, name: str) -> list[str]:
    """ASP-08: spend a pending advancement on a new move or +1 to one skill (even a new one).

    Args:
        choice: "move" or "skill".
        name: the move's or the skill's name.

    Raises:
        RuleError: no advancement pending, or an unknown choice.
    """
    if int(character.get("advancements_pending", 0)) < 1:
        raise RuleError(f"{character['name']} has no advancement to take")
    clean = name.strip()
    if not clean:
        raise RuleError("name the move or skill")
    if choice == "move":
        character["lists"].setdefault("moves", []).append(clean)
        line = f"{character['name']} learns the move {clean}"
    elif choice == "skill":
        key = clean.casefold()
        attrs = character["attributes"]
        attrs[key] = int(attrs.get(key, 0)) + 1
        line = f"{character['name']}: {clean} +{attrs[key]}"
    else:
        raise RuleError(f"an advancement is a move or a skill, not {choice!r}")
    character["advancements_pending"] -= 1
    return [line]


def change_playbook(character: Character, playbook: str) -> list[str]:
    """ASP-08: change playbook; XP and level stay, moves are re-picked."""
    old = character.get("playbook", "") or "no playbook"
    character["playbook"] = playbook.strip()
    dropped = character["lists"].get("moves", [])
    character["lists"]["moves"] = []
    log = [f"{character['name']}: {old} → {playbook.strip()}, XP kept"]
    if dropped:
        log.append(f"re-pick moves (was: {', '.join(map(str, dropped))})")
    log.append("may take the new playbook's Darkest Self")
    return log


# --- the sheet and the ruleset ------------------------------------------------------------


SKILLS: tuple[str, ...] = (
    "athletic",
    "physique",
    "will",
    "fight",
    "shoot",
    "lore",
    "deceive",
    "wealth",
)
"""Skills the text names; an advancement may add any other."""

SHEET = SheetSpec(
    attributes=(
        *(AttributeSpec(s, s.capitalize(), 0, 0, 9) for s in SKILLS),
        AttributeSpec("physical_stress_cap", "Physical stress cap", DEFAULT_STRESS_CAP, 0, 20),
        AttributeSpec("mental_stress_cap", "Mental stress cap", DEFAULT_STRESS_CAP, 0, 20),
        AttributeSpec("consequence_slots", "Consequences", DEFAULT_CONSEQUENCE_SLOTS, 0, 10),
        AttributeSpec("level", "Level", 1, 1, RETIRE_LEVEL),
        AttributeSpec("xp", "XP", 0, 0, 999),
    ),
    resources=(ResourceSpec("fate_points", "FP", MAX_FATE_POINTS, starts_full=False),),
    lists=(
        ListSpec("aspects", "Aspects"),
        ListSpec("temporary_aspects", "Temporary aspects"),
        ListSpec("injuries", "Minor injuries"),
        ListSpec("consequences", "Consequences"),
        ListSpec("moves", "Moves"),
    ),
    statuses=STATUSES,
)


def new_character(name: str, **attributes: int) -> Character:
    """A fresh character: skills 0, stress caps 3, 2 consequence slots, level 1, 0 FP."""
    character = default_character(SHEET, name, **attributes)
    character["playbook"] = ""
    character["advancements_pending"] = 0
    return character


def health_summary(character: Character) -> str:
    """One line for tables: ``"2 inj 1/2 cons 3 FP"`` plus the status if not alive."""
    lists = character["lists"]
    if character.get("status") == TAKEN_OUT:
        # Out of the scene, the consequences held past the limit are no longer a count of slots.
        return (
            f"taken out · {len(lists.get('injuries', []))} inj "
            f"{len(lists.get('consequences', []))} cons {_fate(character)['current']} FP"
        )
    line = (
        f"{len(lists.get('injuries', []))} inj "
        f"{len(lists.get('consequences', []))}/{consequence_limit(character)} cons "
        f"{_fate(character)['current']} FP"
    )
    if character.get("status", ALIVE) != ALIVE:
        line += f" ({character['status']})"
    return line


RULESET = Ruleset(
    id="aspects",
    name="The 2d6 aspects game",
    turn_model="chosen_next",
    sheet=SHEET,
    check=check,
    check_help=(
        "2d6 + skill (− NPC skill): 6 and under Failure, 7 Mild Success, 8 Success, "
        "9 Good Success, 10+ Total Success"
    ),
    new_character=new_character,
    health_summary=health_summary,
    extras={
        "odds": odds,
        "bands": BANDS,
        "roll_2d6": roll_2d6,
        "reroll": reroll,
        "invoke_aspect": invoke_aspect,
        "new_scene": new_scene,
        "gain_fate": gain_fate,
        "compel": compel,
        "create_advantage": create_advantage,
        "place_advantage": place_advantage,
        "use_free_invoke": use_free_invoke,
        "invoke_effect": invoke_effect,
        "rename_consequence": rename_consequence,
        "resolve_attack": resolve_attack,
        "enter_darkest_self": enter_darkest_self,
        "take_out": take_out,
        "downgrade_consequence": downgrade_consequence,
        "level_up": level_up,
        "take_advancement": take_advancement,
        "change_playbook": change_playbook,
    },
)

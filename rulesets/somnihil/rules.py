"""Somnihil: one d20 read on five outcome bands, AP per session, Anomalies, Cheat Death.

Everything a Chronicler does with a Cipher's sheet is a small function over the character dict
(layout in :mod:`rulesets.base`), returning log lines so the app can show what changed. Extra
keys on a Somnihil character: ``sessions`` (sessions begun, 0 on a fresh sheet).

Reading: advantage and disadvantage cancel outright (any of each → one plain d20), because the
text only ever rolls two dice and SOM-02 says they cancel.
Reading: a natural 1 is the kept die, because the Catastrophe paragraph ties the AP back to the
outcome of the roll, not to a discarded die.
Reading: Tough Choice deals standard attack damage and Failure/Catastrophe deal none, because
Tough Choice "succeeds at a cost" while the other two fail the action.
Reading: AP from a natural 1 or a Chronicler's award is capped at the AP maximum, because the
text calls ten (fifteen as a spirit) the pool a Cipher has.
Reading: Regroup raises vitality to half the maximum (5) and does nothing above that, because
the text says it "usually" brings Ciphers to five.
Reading: damage that drops vitality to 0 is simply lost; only damage taken *at* 0 calls for
Cheat Death, because the text says "at exactly zero ... any damage sustained after this point".
Reading: a spirit failing Cheat Death is erased (status "passed") with no further choice,
because the text calls that death permanent.
Reading: becoming a spirit raises the AP maximum to 15 at once (refilled at the next session)
and drops non-Void spells from the sheet, because a spirit may only cast Void spells.
Reading: ``sessions`` counts sessions begun; the spells-known limit is 10 for the first
session and +1 for each later one, so calling :func:`new_session` for the first session or not
gives the same limit.
Reading: an Anomaly ticks at the end of each turn, so a 2-turn Anomaly hinders two turns.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulesets.base import (
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
    """An action the Somnihil rules do not allow; the message says why."""


TRIUMPH = "Triumph"
SUCCESS = "Success"
TOUGH_CHOICE = "Tough Choice"
FAILURE = "Failure"
CATASTROPHE = "Catastrophe"
BANDS: tuple[str, ...] = (TRIUMPH, SUCCESS, TOUGH_CHOICE, FAILURE, CATASTROPHE)
"""SOM-01: outcome bands, best first, as the text writes them."""

SETBACKS: dict[str, tuple[int, int, str]] = {
    TRIUMPH: (0, 0, "no setback; may gain added fortune"),
    SUCCESS: (0, 0, "no setback"),
    TOUGH_CHOICE: (2, 1, "two setbacks offered, the player chooses one"),
    FAILURE: (1, 1, "one setback of the Chronicler's choosing"),
    CATASTROPHE: (2, 2, "two significant setbacks chosen by the Chronicler"),
}
"""SOM-06: band → (setbacks offered, setbacks suffered, note)."""

PROTOCOLS: tuple[str, ...] = (
    "Decay",
    "Creation",
    "Formation",
    "Spatial",
    "Timing",
    "Cognition",
    "Sequence",
    "Void",
)
"""SOM-10: the eight Protocols of magic."""

MAX_PROTOCOLS = 2
FIRST_SESSION_SPELLS = 10
MAX_SPELLS = 20

VITALITY_MAX = 10
AP_MAX = 10
SPIRIT_AP_MAX = 15

DISTANCE_BANDS: tuple[str, ...] = ("In Reach", "Nearby", "In Range", "Too Far")
"""SOM-11: distance bands, closest first."""

ALIVE = "alive"
PERISHED = "perished"
SPIRIT = "spirit"
SHILL = "shill"
PASSED = "passed"
STATUSES: tuple[str, ...] = (ALIVE, PERISHED, SPIRIT, SHILL, PASSED)
"""``perished`` waits for the player's SOM-09 choice; ``passed`` is retired for good."""
FATES: dict[str, str] = {
    SPIRIT: "Seditious Spirit",
    SHILL: "Hollowed into a Shill",
    PASSED: "Passing into the Void",
}
"""SOM-09: the three endings, by the status each one sets."""

_ACTIVE = (ALIVE, SPIRIT)


# --- SOM-01 / SOM-02 / SOM-06: the d20 check -------------------------------------------------


def band_for(natural: int) -> str:
    """SOM-01: the outcome band of a kept d20 face.

    Args:
        natural: the kept die, 1-20.

    Returns:
        "Triumph" (20), "Success" (11-19), "Tough Choice" (6-10), "Failure" (2-5) or
        "Catastrophe" (1).
    """
    if not 1 <= natural <= 20:
        raise RuleError(f"a d20 shows 1 to 20, not {natural}")
    if natural == 20:
        return TRIUMPH
    if natural >= 11:
        return SUCCESS
    if natural >= 6:
        return TOUGH_CHOICE
    if natural >= 2:
        return FAILURE
    return CATASTROPHE


def edge(advantage: int = 0, disadvantage: int = 0) -> int:
    """SOM-02: +1 advantage, -1 disadvantage, 0 plain; any of both cancel.

    Args:
        advantage: sources of advantage (a negative number counts as disadvantage).
        disadvantage: sources of disadvantage (an Anomaly is one).
    """
    has_advantage = advantage > 0
    has_disadvantage = disadvantage > 0 or advantage < 0
    if has_advantage == has_disadvantage:
        return 0
    return 1 if has_advantage else -1


def setback_note(band: str) -> str:
    """SOM-06: the setback line for the roll log of a band."""
    offered, suffered, note = SETBACKS[band]
    if not offered:
        return note
    return f"setbacks: {offered} offered, {suffered} taken ({note})"


def check(
    rng: random.Random | None = None,
    advantage: int = 0,
    disadvantage: int = 0,
    spell: bool = False,
) -> CheckResult:
    """SOM-01/02/06: roll the d20 (two, keep highest/lowest, with an edge) and read the band.

    Args:
        rng: the injected random source.
        advantage: sources of advantage (negative counts as disadvantage).
        disadvantage: sources of disadvantage.
        spell: the roll casts a spell, so a Catastrophe creates an Anomaly (SOM-05).

    Returns:
        A CheckResult with the kept die as total and natural, both dice, the band and the
        setback note; a natural 1 also notes the AP recovered (SOM-04).
    """
    mode = edge(advantage, disadvantage)
    expression = {1: "2d20kh1", -1: "2d20kl1", 0: "1d20"}[mode]
    rolled = roll(expression, rng_or_new(rng))
    natural = rolled.total
    band = band_for(natural)
    notes = [setback_note(band)]
    if natural == 1:
        notes.append("natural 1: recover 1 AP")
    if band == CATASTROPHE and spell:
        notes.append("spell out of control: an Anomaly is created")
    return CheckResult(
        expression=expression,
        total=natural,
        dice=rolled.dice,
        band=band,
        detail="; ".join(notes),
        natural=natural,
        dropped=rolled.dropped,
    )


def odds(advantage: int = 0) -> dict[str, Fraction]:
    """SOM-01/02 (GEN-02): exact chance of each band.

    Args:
        advantage: +1 advantage, -1 disadvantage, 0 a plain d20.

    Returns:
        Every band name → its probability; the values sum to 1.
    """
    import icepool  # deferred: its import is a cost start-up need not pay

    die = icepool.d20
    if advantage > 0:
        die = icepool.highest(icepool.d20, icepool.d20)
    elif advantage < 0:
        die = icepool.lowest(icepool.d20, icepool.d20)
    bands = die.map(band_for)
    return {band: Fraction(bands.probability(band)) for band in BANDS}


def attack_damage(damage: int, result: CheckResult | str) -> int:
    """SOM-03: damage dealt by an attack roll: doubled on a Triumph, standard on a success.

    Args:
        damage: the weapon's or spell's standard damage.
        result: the attack's CheckResult or its band name.

    Returns:
        Twice the damage on a Triumph, the damage on Success or Tough Choice, 0 on a failure.
    """
    band = result.band if isinstance(result, CheckResult) else result
    if band == TRIUMPH:
        return damage * 2
    if band in (SUCCESS, TOUGH_CHOICE):
        return damage
    return 0


# --- SOM-04: action points ----------------------------------------------------------------


def _res(character: Character, key: str) -> dict[str, int]:
    resource: dict[str, int] = character["resources"][key]
    return resource


def ap_max(character: Character) -> int:
    """SOM-04/09: 10 AP per session, 15 as a Seditious Spirit."""
    return SPIRIT_AP_MAX if character.get("status") == SPIRIT else AP_MAX


def _gain_ap(character: Character, amount: int, why: str) -> list[str]:
    ap = _res(character, "ap")
    before = ap["current"]
    ap["current"] = min(ap["max"], before + amount)
    gained = ap["current"] - before
    if gained == 0:
        return [f"{character['name']}: {why}, but AP is already full ({ap['max']})"]
    return [f"{character['name']}: {why}, +{gained} AP ({ap['current']}/{ap['max']})"]


def spend_ap(character: Character, cost: int) -> list[str]:
    """SOM-04: pay a spell's AP cost.

    Raises:
        RuleError: the cost is negative or more than the Cipher has left.
    """
    if cost < 0:
        raise RuleError("an AP cost cannot be negative")
    ap = _res(character, "ap")
    if cost > ap["current"]:
        raise RuleError(f"{character['name']} has {ap['current']} AP, the spell costs {cost}")
    ap["current"] -= cost
    return [f"{character['name']}: spends {cost} AP ({ap['current']}/{ap['max']})"]


def award_ap(character: Character, amount: int = 1) -> list[str]:
    """SOM-04: the Chronicler rewards a heroic, clever, funny or significant action."""
    if amount < 1:
        raise RuleError("an AP award is at least 1")
    return _gain_ap(character, amount, "awarded AP by the Chronicler")


def recover_ap_from_roll(character: Character, result: CheckResult) -> list[str]:
    """SOM-04: a natural 1 restores one AP; any other roll changes nothing."""
    if result.natural != 1:
        return []
    return _gain_ap(character, 1, "rolled a natural 1")


# --- SOM-05: Anomalies ----------------------------------------------------------------------


def anomaly_duration(ap_cost: int) -> int:
    """SOM-05: turns an Anomaly lasts by the spell's AP cost: 1→2, 2→4, 3→6, 4 or more→8."""
    if ap_cost < 1:
        raise RuleError("an Anomaly comes from a spell costing at least 1 AP")
    return 2 * min(ap_cost, 4)


def anomaly(ap_cost: int) -> dict[str, Any]:
    """SOM-05: the timed effect for the tracker when a spell's roll is a Catastrophe.

    Returns:
        ``{"name", "remaining", "tick", "effect"}``: turns left, ticking at turn end, and
        disadvantage on every roll made in its area.
    """
    return {
        "name": "Anomaly",
        "remaining": anomaly_duration(ap_cost),
        "tick": "end",
        "effect": "disadvantage on all rolls in the area; collapses when it runs out",
    }


@frozen
class SpellCast:
    """What casting a spell did: AP paid, the roll if any, and an Anomaly if it went wrong."""

    spell: str
    ap_cost: int
    check: CheckResult | None
    anomaly: dict[str, Any] | None
    log: tuple[str, ...]


def _known_spell(character: Character, name: str) -> dict[str, str]:
    for entry in character["lists"].get("spells", []):
        if isinstance(entry, dict) and entry.get("name", "").casefold() == name.casefold():
            return entry
    raise RuleError(f"{character['name']} does not know the spell {name!r}")


def cast_spell(
    character: Character,
    spell: str,
    ap_cost: int,
    rng: random.Random | None = None,
    rolled: bool = False,
    advantage: int = 0,
    disadvantage: int = 0,
) -> SpellCast:
    """SOM-04/05/09: pay the AP, roll if the spell says so, and create an Anomaly on a 1.

    Args:
        character: the caster (alive or a spirit).
        spell: a spell on the caster's sheet.
        ap_cost: AP the spell costs.
        rng: the injected random source, used only when ``rolled``.
        rolled: the spell's text asks for a roll.
        advantage: sources of advantage on the roll.
        disadvantage: sources of disadvantage on the roll.

    Raises:
        RuleError: not known, a spirit casting a non-Void spell, too little AP, or not active.
    """
    _require_active(character)
    entry = _known_spell(character, spell)
    if character["status"] == SPIRIT and entry.get("protocol") != "Void":
        raise RuleError(f"a spirit can only cast Void spells, {spell!r} is {entry.get('protocol')}")
    log = spend_ap(character, ap_cost)
    result: CheckResult | None = None
    effect: dict[str, Any] | None = None
    if rolled:
        result = check(rng, advantage, disadvantage, spell=True)
        log.append(f"{character['name']} casts {entry['name']}: {result.total} {result.band}")
        log += recover_ap_from_roll(character, result)
        if result.band == CATASTROPHE and ap_cost >= 1:
            effect = anomaly(ap_cost)
            log.append(f"Anomaly for {effect['remaining']} turns: disadvantage in its area")
    else:
        log.append(f"{character['name']} casts {entry['name']}")
    return SpellCast(entry["name"], ap_cost, result, effect, tuple(log))


# --- SOM-07 / SOM-08: vitality, damage, Cheat Death --------------------------------------


def _require_active(character: Character) -> None:
    if character.get("status") not in _ACTIVE:
        raise RuleError(f"{character['name']} is {character.get('status')}, no longer in play")


@frozen
class DamageOutcome:
    """SOM-07/08: what a hit did to a Cipher."""

    dealt: int
    """Vitality actually lost."""
    vitality: int
    """Vitality left."""
    cheat_death: CheckResult | None
    """The Cheat Death roll, if damage landed at 0 vitality."""
    perished: bool
    fate_choice_needed: bool
    """True when the player must now choose a SOM-09 ending with :func:`choose_fate`."""
    log: tuple[str, ...]


def apply_damage(
    character: Character,
    amount: int,
    rng: random.Random | None = None,
    advantage: int = 0,
    disadvantage: int = 0,
    typed: int | None = None,
) -> DamageOutcome:
    """SOM-07/08: take damage; at 0 vitality, roll Cheat Death (d20 ≥ damage prevents it).

    ``typed``: the d20 the player rolled at the table (1..20, already kept from two under an
    edge); None: the app rolls it. A natural 1 on Cheat Death recovers 1 AP (SOM-04), as on
    any check.

    Args:
        character: the Cipher hit (alive or a spirit).
        amount: vitality loss.
        rng: the injected random source for the Cheat Death roll.
        advantage: sources of advantage on the Cheat Death roll.
        disadvantage: sources of disadvantage on it (an Anomaly).

    Raises:
        RuleError: negative damage, or a Cipher no longer in play.
    """
    if amount < 0:
        raise RuleError("damage cannot be negative; use Regroup or Rest to heal")
    _require_active(character)
    name = character["name"]
    vitality = _res(character, "vitality")
    if amount == 0:
        return DamageOutcome(0, vitality["current"], None, False, False, ())
    if vitality["current"] > 0:
        dealt = min(amount, vitality["current"])
        vitality["current"] -= dealt
        line = f"{name} takes {dealt} damage ({vitality['current']}/{vitality['max']} vitality)"
        log = [line]
        if vitality["current"] == 0:
            log.append(f"{name} is at 0 vitality: any further damage calls for Cheat Death")
        return DamageOutcome(dealt, vitality["current"], None, False, False, tuple(log))
    if typed is None:
        result = check(rng, advantage, disadvantage)
    else:
        if not 1 <= typed <= 20:
            raise RuleError(f"A d20 shows 1 to 20, not {typed}")
        band = band_for(typed)
        result = CheckResult("d20 (typed)", typed, (typed,), band=band, natural=typed)
    log = [f"{name} at 0 vitality, {amount} damage: Cheat Death rolls {result.total}"]
    if result.natural == 1:
        log += _gain_ap(character, 1, "natural 1 on Cheat Death")
    result = cheat_death_result(result, amount)
    if result.total >= amount:
        log.append(f"{result.total} ≥ {amount}: {name} cheats death, the damage is prevented")
        return DamageOutcome(0, 0, result, False, False, tuple(log))
    if character["status"] == SPIRIT:
        character["status"] = PASSED
        log.append(f"{result.total} < {amount}: {name}'s essence scatters, erased for good")
        return DamageOutcome(0, 0, result, True, False, tuple(log))
    character["status"] = PERISHED
    log.append(f"{result.total} < {amount}: {name} perishes; choose Spirit, Shill or the Void")
    return DamageOutcome(0, 0, result, True, True, tuple(log))


def cheat_death_result(rolled: CheckResult, amount: int) -> CheckResult:
    """SOM-08: Cheat Death as the log reads it: the d20 against the damage, whether it
    cheated death, and a natural 1's AP. Reading: Cheat Death is read against the damage, not
    on the outcome bands, so its line names no band and offers no setbacks (SOM-06)."""
    notes = [f"Cheat Death against {amount} damage"]
    if rolled.natural == 1:
        notes.append("natural 1: recover 1 AP")
    band = "cheats death" if rolled.total >= amount else "does not cheat death"
    return replace(rolled, band=band, detail="; ".join(notes))


def regroup(character: Character) -> list[str]:
    """SOM-07: a short rest without conflict raises vitality to half the maximum."""
    _require_active(character)
    vitality = _res(character, "vitality")
    target = vitality["max"] // 2
    if vitality["current"] >= target:
        return [f"{character['name']} regroups: already at {vitality['current']}, no change"]
    gained = target - vitality["current"]
    vitality["current"] = target
    return [f"{character['name']} regroups: +{gained} vitality ({target}/{vitality['max']})"]


def rest(character: Character) -> list[str]:
    """SOM-07: a full night's rest somewhere safe restores all vitality."""
    _require_active(character)
    vitality = _res(character, "vitality")
    gained = vitality["max"] - vitality["current"]
    vitality["current"] = vitality["max"]
    return [f"{character['name']} rests: +{gained} vitality ({vitality['max']}/{vitality['max']})"]


# --- SOM-09: after death --------------------------------------------------------------------


def choose_fate(character: Character, fate: str) -> list[str]:
    """SOM-09: resolve a perished Cipher's ending.

    Args:
        character: a Cipher whose status is "perished".
        fate: "spirit" (Seditious Spirit), "shill" (Hollowed into a Shill) or "passed"
            (Passing into the Void); the ending's name is accepted too.

    Raises:
        RuleError: the Cipher has not perished, or the fate is not one of the three.
    """
    key = _fate_key(fate)
    if character.get("status") != PERISHED:
        raise RuleError(f"{character['name']} has not perished (status {character.get('status')})")
    name = character["name"]
    character["status"] = key
    if key == SPIRIT:
        return [f"{name} becomes a Seditious Spirit", *_become_spirit(character)]
    if key == SHILL:
        character["npc"] = True
        return [f"{name} is hollowed into a Shill: an NPC serving the Stiffs; make a new Cipher"]
    return [f"{name} passes into the Void: retired; make a new Cipher"]


def _fate_key(fate: str) -> str:
    wanted = fate.strip().casefold()
    for key, title in FATES.items():
        if wanted in (key, title.casefold()):
            return key
    raise RuleError(f"{fate!r} is not a fate; choose {', '.join(FATES.values())}")


def _become_spirit(character: Character) -> list[str]:
    ap = _res(character, "ap")
    ap["max"] = SPIRIT_AP_MAX
    log = [f"AP maximum is now {SPIRIT_AP_MAX}; only Void spells can be cast"]
    spells = character["lists"].setdefault("spells", [])
    lost = [s["name"] for s in spells if isinstance(s, dict) and s.get("protocol") != "Void"]
    character["lists"]["spells"] = [
        s for s in spells if isinstance(s, dict) and s.get("protocol") == "Void"
    ]
    if lost:
        log.append(f"spells no longer castable, removed: {', '.join(lost)}")
    return log


# --- SOM-10: spells known -------------------------------------------------------------------


def spells_known_limit(sessions: int) -> int:
    """SOM-10: 10 spells at the first session, one more each later session, at most 20."""
    return min(MAX_SPELLS, FIRST_SESSION_SPELLS + max(0, sessions - 1))


def protocol_named(protocol: str) -> str:
    """SOM-10: the canonical Protocol name, case-insensitive.

    Raises:
        RuleError: not one of the eight Protocols.
    """
    for known in PROTOCOLS:
        if known.casefold() == protocol.strip().casefold():
            return known
    raise RuleError(f"{protocol!r} is not a Protocol; the eight are {', '.join(PROTOCOLS)}")


def protocols_known(character: Character) -> list[str]:
    """SOM-10: the Protocols the Cipher's spells come from, in Protocol order."""
    used = {s.get("protocol") for s in character["lists"].get("spells", []) if isinstance(s, dict)}
    return [p for p in PROTOCOLS if p in used]


def learn_spell(character: Character, name: str, protocol: str) -> list[str]:
    """SOM-10: add a spell, within the spells-known limit and at most two Protocols.

    Raises:
        RuleError: already known, over the limit, a third Protocol, or (spirit) not Void.
    """
    canonical = protocol_named(protocol)
    spells = character["lists"].setdefault("spells", [])
    clean = name.strip()
    if not clean:
        raise RuleError("a spell needs a name")
    if any(
        isinstance(s, dict) and s.get("name", "").casefold() == clean.casefold() for s in spells
    ):
        raise RuleError(f"{character['name']} already knows {clean!r}")
    if character.get("status") == SPIRIT and canonical != "Void":
        raise RuleError(f"a spirit can only learn Void spells, not {canonical}")
    limit = spells_known_limit(int(character.get("sessions", 0)))
    if len(spells) >= limit:
        raise RuleError(f"{character['name']} already knows {len(spells)} spells, the limit now")
    known = protocols_known(character)
    if canonical not in known and len(known) >= MAX_PROTOCOLS:
        raise RuleError(
            f"{character['name']} knows spells from {' and '.join(known)}; "
            f"a Cipher can know spells from at most two Protocols, not also {canonical}"
        )
    spells.append({"name": clean, "protocol": canonical})
    return [f"{character['name']} learns {clean} ({canonical}), {len(spells)}/{limit} spells"]


def forget_spell(character: Character, name: str) -> list[str]:
    """SOM-10: drop a known spell (players may swap spells at the start of a session)."""
    entry = _known_spell(character, name)
    character["lists"]["spells"].remove(entry)
    return [f"{character['name']} forgets {entry['name']}"]


# --- SOM-04 / SOM-10: sessions ------------------------------------------------------------


def new_session(character: Character) -> list[str]:
    """SOM-04/10: a new session refills AP and lets the Cipher know one more spell. A Shill
    (an NPC now, SOM-09) and a Cipher passed into the Void play no more sessions."""
    if character.get("status") in (SHILL, PASSED):
        return []
    before = spells_known_limit(int(character.get("sessions", 0)))
    character["sessions"] = int(character.get("sessions", 0)) + 1
    after = spells_known_limit(character["sessions"])
    played = character["sessions"]
    log = [f"{character['name']}: {played} session{'s' if played != 1 else ''} played"]
    if character.get("status") not in _ACTIVE:
        return log
    ap = _res(character, "ap")
    ap["max"] = ap_max(character)
    ap["current"] = ap["max"]
    log.append(f"AP restored to {ap['max']}")
    if after > before:
        log.append(f"may now know {after} spells (was {before})")
    return log


# --- SOM-11: distance -----------------------------------------------------------------------


def move_closer(band: str) -> str:
    """SOM-11: a move closes one distance band (In Reach stays In Reach).

    From Too Far the move is an attempt; the Chronicler may rule it falls short.
    """
    if band not in DISTANCE_BANDS:
        raise RuleError(f"{band!r} is not a distance; use {', '.join(DISTANCE_BANDS)}")
    return DISTANCE_BANDS[max(0, DISTANCE_BANDS.index(band) - 1)]


def move_farther(band: str) -> str:
    """SOM-11: one distance band farther (Too Far stays Too Far): the bands are a line from the
    character, not a wheel, so a step never jumps from Too Far back to In Reach."""
    if band not in DISTANCE_BANDS:
        raise RuleError(f"{band!r} is not a distance; use {', '.join(DISTANCE_BANDS)}")
    return DISTANCE_BANDS[min(len(DISTANCE_BANDS) - 1, DISTANCE_BANDS.index(band) + 1)]


def can_reach(band: str) -> bool:
    """SOM-11: touch or hit in melee only In Reach."""
    return band == DISTANCE_BANDS[0]


def can_shoot(band: str) -> bool:
    """SOM-11: a ranged attack reaches anything short of Too Far."""
    return band in DISTANCE_BANDS[:3]


# --- the sheet and the ruleset ------------------------------------------------------------


SHEET = SheetSpec(
    attributes=(),
    resources=(
        ResourceSpec("vitality", "vit", VITALITY_MAX),
        ResourceSpec("ap", "AP", AP_MAX),
    ),
    lists=(ListSpec("spells", "Spells"),),
    statuses=STATUSES,
)


def new_character(name: str, **attributes: int) -> Character:
    """A fresh Cipher: 10 vitality, 10 AP, no spells, 0 sessions begun."""
    character = default_character(SHEET, name, **attributes)
    character["sessions"] = 0
    return character


def health_summary(character: Character) -> str:
    """One line for tables: ``"7/10 vit 4/10 AP"`` plus the status if not alive."""
    vit = character["resources"]["vitality"]
    ap = character["resources"]["ap"]
    line = f"{vit['current']}/{vit['max']} vit {ap['current']}/{ap['max']} AP"
    status = character.get("status", ALIVE)
    if status != ALIVE:
        line += f" ({status})"
    elif vit["current"] == 0:
        line += " (Cheat Death)"
    return line


RULESET = Ruleset(
    id="somnihil",
    name="Somnihil",
    turn_model="initiative",
    sheet=SHEET,
    check=check,
    check_help=(
        "d20: 20 Triumph, 11-19 Success, 6-10 Tough Choice, 2-5 Failure, 1 Catastrophe; "
        "advantage/disadvantage roll two and keep highest/lowest"
    ),
    new_character=new_character,
    health_summary=health_summary,
    extras={
        "odds": odds,
        "bands": BANDS,
        "attack_damage": attack_damage,
        "apply_damage": apply_damage,
        "choose_fate": choose_fate,
        "fates": FATES,
        "regroup": regroup,
        "rest": rest,
        "new_session": new_session,
        "spend_ap": spend_ap,
        "award_ap": award_ap,
        "recover_ap_from_roll": recover_ap_from_roll,
        "cast_spell": cast_spell,
        "anomaly": anomaly,
        "learn_spell": learn_spell,
        "forget_spell": forget_spell,
        "protocols": PROTOCOLS,
        "distance_bands": DISTANCE_BANDS,
        "move_closer": move_closer,
        "move_farther": move_farther,
    },
)

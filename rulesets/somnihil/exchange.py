"""Somnihil's exchange: the Cipher rolls, whether it attacks or is attacked (SOM-01, SOM-02,
SOM-03, SOM-05, SOM-07, SOM-08).

A Cipher's attack is its d20 roll (SOM-01): Triumph deals double damage (SOM-03), Success and
Tough Choice deal the damage (a Tough Choice at a cost: two setbacks, the player picks one),
Failure and Catastrophe miss. A foe's attack on a Cipher is answered by the Cipher's opposing
roll ("when opposing another lifeform's hostile actions towards their Cipher"), not an AC it
does not have: Triumph, Success and Tough Choice avoid it (a Tough Choice at a cost), Failure
and Catastrophe let its damage land. Inside an Anomaly the Cipher rolls with disadvantage
(SOM-05). Damage takes vitality; at 0 a Cheat Death d20 (SOM-08). A foe against a foe fights
by the statblock's d20 against AC.

Reading: the text has every die rolled by a Cipher's player, a foe's actions only ever opposed
by a Cipher; a foe against a foe is the Chronicler's alone, so no player rolls and nothing is
asked: the NPC rules' statblock d20 against AC decides it (a typed d20 is refused, not ignored).

The answer typed is the Cipher's d20 as its player rolled it at the table (attacking or
opposing); blank, the app rolls it.

Reading: a Cipher's weapon deals 1d6 unless its sheet remembers another (``sheet["attack"]``:
``damage``), because the text gives no weapon table.
Reading: a foe's attack opposed by a Cipher is its statblock's Atk Dmg per attack (# Atks, each
its own opposing roll); the foe's own d20 is not rolled, because the Cipher's roll decides.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulesets import dice
from rulesets.base import CheckResult, RuleError
from rulesets.exchange import (
    HD_EXCHANGE,
    Blow,
    Dist,
    ExchangeRules,
    Plan,
    Rolled,
    Setup,
    Side,
    distribution,
    mix,
    percent,
    strikes,
)
from rulesets.fight import Fight
from rulesets.npc import QuickBuild
from rulesets.somnihil import rules as somnihil
from rulesets.somnihil.fight import FIGHT
from rulesets.table import Field

Doc = dict[str, Any]
LANDS_ON_ATTACK = {somnihil.TRIUMPH: 2, somnihil.SUCCESS: 1, somnihil.TOUGH_CHOICE: 1}
"""An attack by a Cipher: the damage's multiple by band (missing bands: a miss)."""
LANDS_ON_DEFENCE = (somnihil.FAILURE, somnihil.CATASTROPHE)
"""A Cipher's opposing roll in these bands lets the blow land."""


def _edge(side: Side) -> str:
    """Disadvantage inside an Anomaly (SOM-05), as the fight's own rolls have it."""
    edge, _ = FIGHT.roll_edge(side.combatant)
    return edge


def band_odds(edge: str) -> dict[str, Fraction]:
    """The chance of each band of a d20 (two kept higher or lower under an edge)."""
    found: dict[str, Fraction] = {}
    for first in range(1, 21):
        for second in range(1, 21) if edge else (first,):
            natural = max(first, second) if edge == "advantage" else min(first, second)
            share = Fraction(1, 400) if edge else Fraction(1, 20)
            band = somnihil.band_for(natural)
            found[band] = found.get(band, Fraction(0)) + share
    return found


def typed_d20(setup: Setup) -> int | None:
    """The Cipher's d20 as its player rolled it at the table (the answer typed), or None."""
    text = setup.defence.strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 20:
        raise RuleError("Type the Cipher's d20 as rolled (1-20), or leave it blank to roll it")
    return int(text)


def _bands(setup: Setup, edge: str) -> dict[str, Fraction]:
    natural = typed_d20(setup)
    if natural is None:
        return band_odds(edge)
    return {somnihil.band_for(natural): Fraction(1)}


def _damage_dice(setup: Setup) -> str:
    side = setup.attacker
    if side.block is not None and not side.is_pc:
        block = side.block
        if isinstance(block, QuickBuild):
            return str(block.atk_dmg)
        return block.atk_dmg.get(setup.attribute, "1d4")
    return str(side.remembered("attack").get("damage") or "1d6")


def _cipher(side: Side) -> bool:
    return side.is_pc


def _between_foes(setup: Setup) -> bool:
    """No Cipher on either side (module docstring's reading); a d20 typed for it is refused."""
    if _cipher(setup.attacker) or _cipher(setup.target):
        return False
    if setup.defence.strip():
        raise RuleError(
            f"No Cipher rolls when {setup.attacker.name} attacks {setup.target.name}: a foe "
            "against a foe is its statblock's d20 against AC; leave the answer blank"
        )
    return True


def plan(setup: Setup) -> Plan:
    if _between_foes(setup):
        return replace(HD_EXCHANGE.plan(setup), answer="")
    damage = _damage_dice(setup)
    rolled = distribution(damage)
    if _cipher(setup.attacker):
        edge = _edge(setup.attacker)
        bands = _bands(setup, edge)
        parts = [(bands.get(b, Fraction(0)), _times(rolled, k)) for b, k in LANDS_ON_ATTACK.items()]
        hit = sum((p for p, _ in parts), Fraction(0))
        parts.append((1 - hit, {0: Fraction(1)}))
        d20 = "2d20kl1" if edge else "d20"
        blow = Blow(f"{d20} (Triumph ×2, Success, Tough Choice hit)", hit, mix(parts))
        steps = (
            f"{setup.attacker.name} rolls {d20}: hits {percent(hit)} (Triumph "
            f"{percent(bands.get(somnihil.TRIUMPH, Fraction(0)))} doubles)",
            f"{damage} on a hit",
        )
        return Plan((blow,), steps, answer="Attack")
    edge = _edge(setup.target)
    bands = _bands(setup, edge)
    hit = sum((bands.get(b, Fraction(0)) for b in LANDS_ON_DEFENCE), Fraction(0))
    d20 = "2d20kl1" if edge else "d20"
    blow = Blow(
        f"{setup.target.name}'s {d20} against it",
        hit,
        mix([(hit, rolled), (1 - hit, {0: Fraction(1)})]),
    )
    steps = (
        f"{setup.target.name} opposes with {d20}: Failure or Catastrophe lets it land "
        f"({percent(hit)})",
        f"{damage} when it lands",
    )
    return Plan((blow,) * strikes(setup.attacker), steps)


def _times(dist: Dist, k: int) -> Dist:
    return {amount * k: p for amount, p in dist.items()}


def _d20(rng: random.Random, edge: str, typed: int | None) -> tuple[int, tuple[int, ...]]:
    if typed is not None:
        return typed, (typed,)
    first = rng.randint(1, 20)
    if not edge:
        return first, (first,)
    second = rng.randint(1, 20)
    return min(first, second), (first, second)


def roll(setup: Setup, rng: random.Random) -> Rolled:
    if _between_foes(setup):
        return HD_EXCHANGE.roll(setup, rng)
    damage = _damage_dice(setup)
    steps: list[str] = []
    amounts: list[int] = []
    mine: list[CheckResult] = []
    theirs: list[CheckResult] = []
    if _cipher(setup.attacker):
        edge = _edge(setup.attacker)
        natural, faces = _d20(rng, edge, typed_d20(setup))
        band = somnihil.band_for(natural)
        # SOM-06: the setbacks on the roll, as the tray's same d20 logs them.
        mine.append(
            CheckResult(
                "2d20kl1 attack" if edge else "d20 attack", natural, faces, band,
                somnihil.setback_note(band), natural=natural,
            )  # fmt: skip
        )
        times = LANDS_ON_ATTACK.get(band, 0)
        steps.append(f"d20 {natural}: {band}" + (" (damage doubled)" if times == 2 else ""))
        if band in LANDS_ON_DEFENCE:
            steps.append(f"a {band}: {somnihil.SETBACKS[band][2]}")
        if times:
            rolled = max(0, dice.roll(damage, rng).total)
            dealt = rolled * times
            # The die as it fell, then the doubling: "1d6: 4" for a 2 doubled misread the die.
            steps.append(f"{damage}: {rolled}" + (f" ×{times} = {dealt}" if times > 1 else ""))
            amounts.append(dealt)
            if band == somnihil.TOUGH_CHOICE:
                steps.append("a Tough Choice: two setbacks offered, the player picks one")
        else:
            amounts.append(0)
        return Rolled(tuple(steps), tuple(amounts), rolls=tuple(mine))
    edge = _edge(setup.target)
    for _ in range(strikes(setup.attacker)):
        natural, faces = _d20(rng, edge, typed_d20(setup))
        band = somnihil.band_for(natural)
        theirs.append(
            CheckResult(
                "2d20kl1 opposing" if edge else "d20 opposing", natural, faces, band,
                somnihil.setback_note(band), natural=natural,
            )  # fmt: skip
        )
        if band in LANDS_ON_DEFENCE:
            dealt = max(0, dice.roll(damage, rng).total)
            steps.append(f"{setup.target.name} opposes, d20 {natural}: {band}, {damage}: {dealt}")
            amounts.append(dealt)
        else:
            said = (
                " at a cost (two setbacks, the player picks one)"
                if band == somnihil.TOUGH_CHOICE
                else ""
            )
            steps.append(f"{setup.target.name} opposes, d20 {natural}: {band}, avoided{said}")
            amounts.append(0)
    return Rolled(tuple(steps), tuple(amounts), defender_rolls=tuple(theirs))


def spend(fight: Fight, setup: Setup, rolled: Rolled) -> list[str]:
    """SOM-04: a Cipher's natural 1 in the exchange (its attack, or its opposing roll) gives
    it 1 AP back, as the same roll does in the tray."""
    lines: list[str] = []
    for side, rolls in ((setup.attacker, rolled.rolls), (setup.target, rolled.defender_rolls)):
        if not _cipher(side):
            continue
        for result in rolls:
            c = fight.combatant(side.combatant.id)
            sheet = fight.sheet(c)
            if sheet is None:
                continue
            gained = somnihil.recover_ap_from_roll(sheet, result)
            if gained:
                fight.put_sheet(c, sheet)
                lines += gained
    return lines


def faces(side: Side) -> int:
    """A Cipher's Cheat Death d20 (two under an Anomaly's disadvantage): every pair counted."""
    if not side.is_pc:
        return 1
    return 400 if _edge(side) else 20


def hurt(setup: Setup, health: Doc, amount: int, face: int) -> Doc:
    side = setup.target
    if side.is_pc:
        if _edge(side):
            first, second = divmod(face - 1, 20)
            natural = min(first + 1, second + 1)
        else:
            natural = face
        somnihil.apply_damage(health, amount, random.Random(0), typed=natural)
        return health
    vitality = (health.get("resources") or {}).get("vitality")
    if isinstance(vitality, dict):
        vitality["current"] = max(0, int(vitality.get("current", 0)) - amount)
    return health


def out(side: Side, health: Doc) -> bool:
    if side.is_pc:
        return health.get("status", somnihil.ALIVE) not in (somnihil.ALIVE, somnihil.SPIRIT)
    vitality = (health.get("resources") or {}).get("vitality")
    return isinstance(vitality, Mapping) and int(vitality.get("current", 1)) <= 0


EXCHANGE = ExchangeRules(
    plan=plan,
    roll=roll,
    hurt=hurt,
    out=out,
    faces=faces,
    spend=spend,
    defence_help="the Cipher's d20 as rolled · blank: the app rolls it",
    players_roll=True,
    attack_fields=(Field("damage", "Weapon damage dice (e.g. 1d8)", "1d6", "amount"),),
)

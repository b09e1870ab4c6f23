"""The exchange: one attack, from the attacker's roll to the last pool it lands on.

Every game declares its exchange as an :class:`ExchangeRules` (``Game.exchange``): who may
attack whom is anyone at anyone; what the game adds is

- :attr:`ExchangeRules.plan`: the attack as exact odds, one :class:`Blow` per strike (a foe with
  two attacks makes two strikes, each answered and landed on its own): its roll written as dice
  (``d20+3 vs AC 10``, ``1d6+1``, a pool ``d6 › d4``), its chance to land and the distribution of
  the amount it deals, 0 included;
- :attr:`ExchangeRules.roll`: the same attack rolled with an injected :class:`random.Random`:
  the steps as the GM reads them, the amount of each strike, the answers the damage path takes;
- :attr:`ExchangeRules.hurt` and :attr:`ExchangeRules.faces`: what an amount does to the
  target's health (pure, on a copy), so the chance it drops is counted over every outcome;
- :attr:`ExchangeRules.spend`: what the exchange costs in the fight (Nemron's reaction, Shadows'
  AP and cards), applied in the same change as the damage.

:class:`Attack` rolls an exchange and lands it in one change (one undo); :func:`odds` counts it.
The damage lands through :func:`rulesets.fight.deal_damage`, the one damage path, so the pools it
lands on are the same whichever key or command lands it.

The default (:data:`HD_EXCHANGE`) is the NPC rules' statblock attack (NPC-02): d20 + Atk mod
against the target's AC, the Atk Dmg dice on a hit, Brawl's Shock on a miss; a PC attacks with
the attack remembered on its sheet (``sheet["attack"]``: ``bonus`` and ``damage``).

Reading: a target whose AC is nowhere (a sheet without one) has AC 10, the unarmoured AC of the
Resolution sheet, so every exchange has odds.

Pure: no Textual, no app import.
"""

from __future__ import annotations

import copy
import inspect
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field, replace
from fractions import Fraction
from typing import Any

from rulesets import encounter as er
from rulesets import npc
from rulesets.base import CheckResult, RuleError
from rulesets.fight import (
    Answers,
    EncounterCommand,
    Fight,
    HealthKind,
    Hit,
    deal_damage,
    health_kind,
)
from rulesets.foes import (
    ATTRIBUTES,
    LANDED_WITH_ATTACK,
    STRIKE_KEY,
    FoeAttack,
    LandStrike,
    d20_attack,
    has_statblock,
    statted,
)
from rulesets.npc import NPC, QuickBuild
from rulesets.table import Field, Tx
from rulesets.values import frozen

Doc = dict[str, Any]
Dist = dict[int, Fraction]
DEFAULT_AC = 10
"""The AC of a target that keeps none (module docstring's reading)."""
NONE_WORDS = ("none", "-", "no")
"""A typed defence that means: no defence."""


# --------------------------------------------------------------------------- the two sides


@frozen
class Side:
    """One side of an exchange as the rules see it: the combatant and where its health lives."""

    combatant: er.Combatant
    kind: HealthKind
    health: Doc
    """A private copy of its health: the PC's party sheet, the foe's sheet, or HD ``stats``."""
    block: NPC | None = None
    """Its statblock, if it has one (a library NPC, a quick build)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """What else the game needs to know about it (a hand of cards, the AP it has)."""

    @property
    def name(self) -> str:
        return self.combatant.name

    @property
    def sheet(self) -> Doc | None:
        """Its PC or foe sheet (None: plain HD HP)."""
        return None if self.kind == "hp" else self.health

    @property
    def is_pc(self) -> bool:
        return self.kind == "pc"

    def attribute(self, key: str, default: int = 0) -> int:
        """A whole-number attribute of its sheet (``default`` where it has none)."""
        found = ((self.sheet or {}).get("attributes") or {}).get(key)
        if isinstance(found, int) and not isinstance(found, bool):
            return found
        return default

    def remembered(self, key: str) -> dict[str, Any]:
        """What its sheet remembers of its attack or defence (``sheet[key]``, a mapping)."""
        found = (self.sheet or {}).get(key)
        return dict(found) if isinstance(found, Mapping) else {}


@frozen
class Setup:
    """An exchange about to happen: who attacks whom, and how the defender answers."""

    attacker: Side
    target: Side
    defence: str = ""
    """The defender's answer as typed: blank for the game's default, ``none`` for none."""
    attribute: str = "brawl"
    """What a statblock attacks with (Brawl, Wit, Will)."""
    edge: str = ""
    """``advantage`` or ``disadvantage`` on the attacker's d20 (a game's condition)."""


# --------------------------------------------------------------------------- odds and rolls


@frozen
class Blow:
    """One strike of an exchange, counted: its roll as dice, its chance to land, what it deals."""

    roll: str
    hit: Fraction
    damage: Mapping[int, Fraction]
    """Each amount it deals (0 included) and its probability; they sum to 1."""


@frozen
class Plan:
    """An exchange counted before it is rolled."""

    blows: tuple[Blow, ...]
    steps: tuple[str, ...]
    """What happens, in order, with the chance at each step, as the GM reads it."""
    answer: str = "Defence"
    """What the answer typed is in this exchange (Somnihil: a Cipher's own attack roll);
    blank: this exchange asks none, whatever the game's :attr:`ExchangeRules.defence_help`
    (a Somnihil foe against a foe: no Cipher rolls)."""


@frozen
class Rolled:
    """An exchange rolled: its steps, each strike's amount, and how the amounts land."""

    steps: tuple[str, ...]
    amounts: tuple[int, ...]
    answers: Mapping[str, Any] = field(default_factory=dict)
    """The target's damage form's answers each amount lands with (a pool, a limb, a conflict)."""
    rolls: tuple[CheckResult, ...] = ()
    """Rolls for the roll log, under the attacker's name."""
    defender_rolls: tuple[CheckResult, ...] = ()
    """Rolls for the roll log, under the defender's name."""
    spent: Mapping[str, Any] = field(default_factory=dict)
    """What the exchange costs, for :attr:`ExchangeRules.spend` (a reaction, cards)."""
    per_blow: tuple[Mapping[str, Any], ...] = ()
    """Answers for one strike only, by its place (each of an aspects foe's attacks has its own
    defence total)."""
    by_answers: bool = False
    """The strike lands once with a blank amount: the game's damage form resolves it from the
    answers as it lands (a Shadows card against the defender's cards)."""


@frozen
class Odds:
    """What :func:`odds` counts: the exchange as a whole."""

    attacker: str
    target: str
    hit: Fraction
    """The chance at least one strike lands."""
    damage: Mapping[int, Fraction]
    """Each total amount dealt (0 included) and its probability."""
    drops: Fraction
    """The chance the exchange takes the target out of the fight."""
    steps: tuple[str, ...]
    blows: tuple[Blow, ...]
    answer: str = "Defence"
    """What the answer typed is (:attr:`Plan.answer`), as the tracker names its field."""


def no_spend(fight: Fight, setup: Setup, rolled: Rolled) -> list[str]:
    return []


Costs = Mapping[str, int]
"""What one exchange spends, by the name a danger estimate reports it under (``cards``,
``fate_points``, ``energy``)."""


def no_costs(setup: Setup) -> tuple[Costs, Costs]:
    return {}, {}


def _no_faces(side: Side) -> int:
    return 1


def _no_extra(fight: Fight, c: er.Combatant) -> dict[str, Any]:
    return {}


@frozen
class ExchangeRules:
    """A game's exchange (module docstring). Every hook has the HD statblock's answer."""

    plan: Callable[[Setup], Plan]
    roll: Callable[[Setup, random.Random], Rolled]
    hurt: Callable[[Setup, Doc, int, int], Doc]
    """``hurt(setup, health, amount, face)``: the target's sheet after an amount lands (a
    copy; ``face`` is the location die's face, 1 where the game has none). Plain HD HP is the
    exchange's own (:func:`hp_hurt`): this sees a PC's or a foe's sheet only."""
    out: Callable[[Side, Doc], bool]
    """Whether that sheet is out of the fight (plain HD HP: :func:`hp_out`)."""
    faces: Callable[[Side], int] = _no_faces
    """How many equally likely places an amount may land (Nemron's location die: 6)."""
    spend: Callable[[Fight, Setup, Rolled], list[str]] = no_spend
    """What the exchange costs in the fight, in the change that lands it."""
    defence_help: str = ""
    """What the defender may answer, in a few words (blank: the game asks nothing)."""
    players_roll: bool = False
    """The players roll every die, the GM none (Somnihil: a foe's attack is the Cipher's
    opposing roll): on a foe's turn the tray starts at the PC it attacks, not the GM."""
    pools: Callable[[Side, Doc], dict[str, int]] | None = None
    """The target's pools by the names ``tableside export`` gives them (default: every
    resource's current value, ``hp`` for HD HP)."""
    extra: Callable[[Fight, er.Combatant], dict[str, Any]] = _no_extra
    """What else a side carries into the exchange (:attr:`Side.extra`: a hand of cards)."""
    attack_fields: tuple[Field, ...] = (
        Field("bonus", "Attack bonus", "0", "int", minimum=-20, maximum=40),
        Field("damage", "Damage dice (e.g. 1d8+1)", "1d6", "amount"),
    )
    """What a PC's remembered attack holds (``sheet["attack"]``), as the tracker asks it."""
    costs: Callable[[Setup], tuple[Costs, Costs]] = no_costs
    """What one exchange answered as ``setup.defence`` says spends, (the attacker's, the
    defender's) (:data:`Costs`): what :attr:`spend` takes from the fight, counted without one,
    for a danger estimate. Raises :class:`RuleError` where :attr:`plan` would."""
    foe_targets: str = ""
    """How the game's foes pick their targets when a fight is played out for its danger
    (:data:`rulesets.danger.TARGET_RULES`: ``random``, ``weakest``, ``last``); blank: random."""
    dealt: Callable[[Setup, random.Random], Setup] | None = None
    """``dealt(setup, rng)``: the exchange as it may stand in a later round of a game whose
    sides play from hands that are spent and dealt again (Shadows' combat hands): each side's
    hand drawn afresh and the defender's answer what it would play. A simulator averages an
    attack's odds over such deals rather than replaying the hand as it lies. None: the
    exchange stands as it is."""
    room: Callable[[Side, Doc], int] | None = None
    """``room(side, health)``: how far that health is from out of the fight, in the game's own
    measure (smaller: closer to out), for a danger estimate's ``weakest`` target. None: the sum
    of its :attr:`pools`, which is health left only where hurt makes pools fall (HP); a game
    whose pools grow when hurt (the aspects game's consequences) must say."""


# --------------------------------------------------------------------------- counting


def distribution(expression: str) -> Dist:
    """The exact distribution of a dice expression, every total floored at 0 (an amount)."""
    from rulesets import odds as dice_odds  # deferred: icepool costs start-up time

    found: Dist = {}
    for total, p in dice_odds.distribution(expression).items():
        amount = max(0, int(total))
        found[amount] = found.get(amount, Fraction(0)) + p
    return found


def d20_at_least(bonus: int, target: int, edge: str = "") -> Fraction:
    """The chance ``d20 + bonus ≥ target`` (with advantage or disadvantage: two d20)."""
    single = Fraction(max(0, min(20, 21 - (target - bonus))), 20)
    if edge == "advantage":
        return 1 - (1 - single) ** 2
    if edge == "disadvantage":
        return single**2
    return single


def mix(parts: Sequence[tuple[Fraction, Mapping[int, Fraction]]]) -> Dist:
    """Weighted sum of distributions."""
    found: Dist = {}
    for weight, dist in parts:
        for amount, p in dist.items():
            found[amount] = found.get(amount, Fraction(0)) + weight * p
    return {k: v for k, v in sorted(found.items()) if v}


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Dist:
    found: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            found[x + y] = found.get(x + y, Fraction(0)) + p * q
    return dict(sorted(found.items()))


def strikes(side: Side) -> int:
    """How many attacks a side makes in one exchange: its statblock's # Atks, else one."""
    return max(1, side.block.attacks) if side.block is not None and not side.is_pc else 1


def hurt_on(rules: ExchangeRules, setup: Setup, health: Doc, amount: int, face: int) -> Doc:
    """An amount on a copy of the target's health: plain HD HP here, a sheet by the game."""
    if setup.target.kind == "hp":
        return hp_hurt(setup, health, amount, face)
    return rules.hurt(setup, health, amount, face)


def out_of(rules: ExchangeRules, side: Side, health: Doc) -> bool:
    """Whether that health is out of the fight: plain HD HP here, a sheet by the game."""
    return hp_out(side, health) if side.kind == "hp" else rules.out(side, health)


def _key(health: Doc) -> str:
    return json.dumps(health, sort_keys=True, default=str)


def drops(rules: ExchangeRules, setup: Setup, blows: Sequence[Blow]) -> Fraction:
    """The exact chance the strikes, landing one after another (each at its own place), take
    the target out: every state its health can reach is followed with its probability."""
    target = setup.target
    states: dict[str, tuple[Doc, Fraction]] = {_key(target.health): (target.health, Fraction(1))}
    faces = 1 if target.kind == "hp" else max(1, rules.faces(target))
    gone = Fraction(0)
    if out_of(rules, target, target.health):
        return Fraction(0)
    for blow in blows:
        after: dict[str, tuple[Doc, Fraction]] = {}
        for health, p in states.values():
            for amount, q in blow.damage.items():
                if amount <= 0:
                    k = _key(health)
                    after[k] = (health, after.get(k, (health, Fraction(0)))[1] + p * q)
                    continue
                for face in range(1, faces + 1):
                    now = hurt_on(rules, setup, copy.deepcopy(health), amount, face)
                    share = p * q / faces
                    if out_of(rules, target, now):
                        gone += share
                        continue
                    k = _key(now)
                    after[k] = (now, after.get(k, (now, Fraction(0)))[1] + share)
        states = after
    return gone


def total_damage(blows: Sequence[Blow]) -> Dist:
    found: Dist = {0: Fraction(1)}
    for blow in blows:
        found = convolve(found, blow.damage)
    return found


def odds(rules: ExchangeRules, setup: Setup) -> Odds:
    """The exchange counted exactly: the chance to land, the damage, the chance the target
    drops, and the plan's steps."""
    plan = rules.plan(setup)
    miss_all = Fraction(1)
    for blow in plan.blows:
        miss_all *= 1 - blow.hit
    return Odds(
        attacker=setup.attacker.name,
        target=setup.target.name,
        hit=1 - miss_all if plan.blows else Fraction(0),
        damage=total_damage(plan.blows),
        drops=drops(rules, setup, plan.blows),
        steps=plan.steps,
        blows=plan.blows,
        answer=plan.answer,
    )


def sample(dist: Mapping[int, Fraction], rng: random.Random) -> int:
    """One amount drawn from an exact distribution with the injected rng."""
    pick, running = Fraction(rng.random()), Fraction(0)
    last = 0
    for amount, p in sorted(dist.items()):
        running += p
        last = amount
        if pick < running:
            return amount
    return last


def play(rules: ExchangeRules, setup: Setup, rng: random.Random) -> tuple[Doc, list[int]]:
    """The exchange played headless, for a simulator: each strike's amount drawn from its exact
    distribution (:func:`odds`' own, so a simulation agrees with the odds), landed on a copy of
    the target's health at a random place; the health after and each strike's amount. What the
    exchange spends (a reaction, Energy, cards) is the simulator's to keep: it is the fight's
    (:attr:`ExchangeRules.spend`)."""
    health = copy.deepcopy(setup.target.health)
    faces = 1 if setup.target.kind == "hp" else max(1, rules.faces(setup.target))
    dealt: list[int] = []
    for blow in rules.plan(setup).blows:
        if out_of(rules, setup.target, health):
            break
        amount = sample(blow.damage, rng)
        dealt.append(amount)
        if amount > 0:
            health = hurt_on(rules, setup, health, amount, rng.randint(1, faces))
    return health, dealt


def percent(p: Fraction) -> str:
    """``"62.5%"``: a chance as the tracker writes it."""
    return f"{float(p):.1%}"


def share(p: Fraction) -> str:
    """``"12%"``: a share of a damage list; one above nothing but under half a percent is
    ``"<1%"``."""
    return "<1%" if 0 < p < Fraction(1, 200) else f"{float(p):.0%}"


def damage_text(dist: Mapping[int, Fraction], most: int = 6) -> str:
    """``"0 45% · 1 9% · 2 9% · 4 other amounts 12%"``: the likeliest amounts, at most ``most``
    of them in order, then how many other amounts there are and their share (a list must not
    pass for all; "4 more" read as an amount of 4); a single amount past them is named instead.
    A share under half a percent reads ``<1%``, not a rounded ``0%`` that says it cannot happen."""
    ranked = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))
    keep = most if len(ranked) > most + 1 else most + 1
    shown, left = ranked[:keep], ranked[keep:]
    text = " · ".join(f"{k} {share(v)}" for k, v in sorted(shown))
    if left:
        text += f" · {len(left)} other amounts {share(sum((v for _, v in left), Fraction(0)))}"
    return text


def summary(found: Odds) -> str:
    """One line of an exchange's odds for the tracker."""
    return (
        f"{found.attacker} → {found.target}: hits {percent(found.hit)} · damage "
        f"{damage_text(found.damage)} · drops {percent(found.drops)}"
    )


# --------------------------------------------------------------------------- the HD default


def hd_pools(side: Side, health: Doc) -> dict[str, int]:
    """The target's pools as ``tableside export`` names them: HD ``hp``, a sheet's resources."""
    if side.kind == "hp":
        return {"hp": int(health.get("hp", 0))}
    found: dict[str, int] = {}
    for key, res in (health.get("resources") or {}).items():
        if isinstance(res, Mapping) and isinstance(res.get("current"), int):
            found[str(key)] = int(res["current"])
    return found


def sheet_ac(side: Side) -> int:
    """The target's AC: its statblock's, its sheet's ``ac`` attribute, else :data:`DEFAULT_AC`."""
    if side.block is not None:
        return side.block.ac
    return side.attribute("ac", DEFAULT_AC)


def atk_mod(block: NPC, attribute: str) -> int:
    return block.atk_mod if isinstance(block, QuickBuild) else block.atk_mod.get(attribute, 0)


@frozen
class D20Attack:
    """One d20 attack against AC: the bonus, the damage dice, and the Shock a miss deals."""

    bonus: int
    damage: str
    shock: int = 0
    count: int = 1
    what: str = ""


def statblock_attack(setup: Setup, ac: int) -> D20Attack:
    """NPC-02: the statblock's attack (Atk mod, Atk Dmg, # Atks, Shock on a miss for Brawl)."""
    block = setup.attacker.block
    assert block is not None
    key = setup.attribute if setup.attribute in ATTRIBUTES else "brawl"
    shocked = npc.shock_damage(block.shock, ac) if key == "brawl" else 0
    damage = str(block.atk_dmg) if isinstance(block, QuickBuild) else block.atk_dmg.get(key, "1d4")
    return D20Attack(atk_mod(block, key), damage, shocked, max(1, block.attacks), key)


def remembered_d20(side: Side) -> D20Attack:
    """A PC's attack as its sheet remembers it (``attack``: ``bonus``, ``damage``): default
    +0 and 1d6."""
    memory = side.remembered("attack")
    bonus = memory.get("bonus", 0)
    damage = str(memory.get("damage") or "1d6")
    return D20Attack(bonus if isinstance(bonus, int) else 0, damage, what="attack")


def d20_attack_of(setup: Setup, ac: int, pc_attack: Callable[[Side], D20Attack]) -> D20Attack:
    """The attacker's d20 attack: its statblock's, else the one its sheet remembers."""
    if setup.attacker.block is not None and not setup.attacker.is_pc:
        return statblock_attack(setup, ac)
    return pc_attack(setup.attacker)


def _sign(n: int) -> str:
    return f"{n:+d}" if n else ""


def d20_plan(pc_attack: Callable[[Side], D20Attack]) -> Callable[[Setup], Plan]:
    def plan(setup: Setup) -> Plan:
        ac = sheet_ac(setup.target)
        attack = d20_attack_of(setup, ac, pc_attack)
        d20 = {"advantage": "2d20kh1", "disadvantage": "2d20kl1"}.get(setup.edge, "d20")
        hit = d20_at_least(attack.bonus, ac, setup.edge)
        on_hit = distribution(attack.damage)
        blow = Blow(
            f"{d20}{_sign(attack.bonus)} vs AC {ac}",
            hit,
            mix([(hit, on_hit), (1 - hit, {attack.shock: Fraction(1)})]),
        )
        steps = [f"{blow.roll}: hits {percent(hit)}", f"{attack.damage} on a hit"]
        if attack.shock:
            steps.append(f"shock {attack.shock} on a miss")
        if attack.count > 1:
            steps.append(f"{attack.count} attacks, each its own strike")
        return Plan((blow,) * attack.count, tuple(steps))

    return plan


def d20_roll(pc_attack: Callable[[Side], D20Attack]) -> Callable[[Setup, random.Random], Rolled]:
    def roll(setup: Setup, rng: random.Random) -> Rolled:
        from rulesets import dice

        ac = sheet_ac(setup.target)
        attack = d20_attack_of(setup, ac, pc_attack)
        d20 = {"advantage": "2d20kh1", "disadvantage": "2d20kl1"}.get(setup.edge, "d20")
        steps: list[str] = []
        amounts: list[int] = []
        rolls: list[CheckResult] = []
        for _ in range(attack.count):
            to_hit = dice.roll(d20, rng)
            total = to_hit.total + attack.bonus
            hits = total >= ac
            damage = dice.roll(attack.damage, rng)
            dealt = max(0, damage.total) if hits else attack.shock
            expression = f"{d20}{_sign(attack.bonus)} vs AC {ac}"
            steps.append(f"{expression}: {total}, " + ("hit" if hits else "miss"))
            if hits:
                steps.append(f"{attack.damage}: {dealt}")
            elif attack.shock:
                steps.append(f"shock {attack.shock}")
            amounts.append(dealt)
            rolls.append(
                CheckResult(
                    expression,
                    total,
                    to_hit.dice,
                    "hit" if hits else "miss",
                    f"damage {dealt} ({damage.text})" if hits else "",
                    natural=to_hit.total,
                )  # fmt: skip
            )
        return Rolled(tuple(steps), tuple(amounts), rolls=tuple(rolls))

    return roll


def hp_hurt(setup: Setup, health: Doc, amount: int, face: int) -> Doc:
    """Plain HP (an HD foe's ``hp``, or a sheet's ``hp`` resource) down by the amount, after
    temporary HP."""
    side = setup.target
    own = side.extra.get(GAME_HEALTH)
    if own is not None and side.kind != "hp":
        return own[0](health, amount)  # type: ignore[no-any-return]
    temp = int(health.get("temp_hp", 0) or 0) if side.kind == "hp" else 0
    amount = max(0, amount - temp)
    if side.kind == "hp":
        health["hp"] = max(0, int(health.get("hp", 0)) - amount)
        return health
    res = (health.get("resources") or {}).get("hp")
    if isinstance(res, dict):
        res["current"] = max(0, int(res.get("current", 0)) - amount)
    return health


def not_alive(side: Side, health: Doc) -> bool:
    """Out of the fight once the sheet's status is other than ``alive`` (downed, dead …)."""
    return bool(health.get("status", "alive") != "alive")


def hp_out(side: Side, health: Doc) -> bool:
    own = side.extra.get(GAME_HEALTH)
    if own is not None and side.kind != "hp":
        return bool(own[1](health))
    if side.kind == "hp":
        return int(health.get("hp", 0)) <= 0
    res = (health.get("resources") or {}).get("hp")
    return isinstance(res, Mapping) and int(res.get("current", 1)) <= 0


OWN_ATTACK = "own_attack"
"""``Side.extra`` of a foe whose game declares its foes' attack (``FoeRules.attack``) and no
exchange: that attack is the foe's, rolled and landed as it says (it gives no odds)."""
_HD_PLAN = d20_plan(remembered_d20)


DEFAULT_ATTACK = "default_attack"
"""``Side.extra`` of an attacker whose game declares its foes' own attack and no exchange, but
has none for this side (a PC; a foe without a statblock): the game's name, so its odds say the
attack is the default d20 rather than the game's."""


def _hd_plan(setup: Setup) -> Plan:
    if setup.attacker.extra.get(OWN_ATTACK):
        raise RuleError(
            f"{setup.attacker.name} attacks by its game's own roll: no odds to count; rolled, "
            "it lands what hits"
        )
    found = _HD_PLAN(setup)
    game = setup.attacker.extra.get(DEFAULT_ATTACK)
    if not game:
        return found
    # Its foes roll the game's own attack: the GM must not take this d20 for the game's.
    whose = "a PC" if setup.attacker.is_pc else f"{setup.attacker.name} (no statblock)"
    said = f"{game} gives {whose} no attack of its own: the default d20 its sheet keeps"
    return replace(found, steps=(said, *found.steps))


HD_EXCHANGE = ExchangeRules(
    plan=_hd_plan,
    roll=d20_roll(remembered_d20),
    hurt=hp_hurt,
    out=hp_out,
)
"""The NPC rules' own exchange (module docstring): any game that declares none has it."""


def _own_foe_attacks(fight: Fight) -> bool:
    """The game declares its foes' attack and no exchange."""
    game = fight.tx.game
    # An installed game's hooks come wrapped in the guard that names it: compare what they wrap.
    return (
        inspect.unwrap(game.exchange.plan) is _hd_plan
        and inspect.unwrap(game.foes.attack) is not d20_attack
    )


def own_foe_attack(fight: Fight, c: er.Combatant) -> bool:
    """A foe whose game declares its foes' attack and no exchange attacks by that attack: a
    game written before the exchange keeps its foes' own roll."""
    return _own_foe_attacks(fight) and c.side != "pc" and has_statblock(c)


# --------------------------------------------------------------------------- in the fight


GAME_HEALTH = "game_health"
"""``Side.extra``: how the default exchange counts an amount on a sheet that keeps no HP (a
game's wounds): the game's own hurt on a copy, and its out."""


def _game_health(
    fight: Fight, c: er.Combatant, kind: HealthKind, health: Doc
) -> tuple[Callable[[Doc, int], Doc], Callable[[Doc], bool]] | None:
    """For the default exchange's odds on a PC or foe sheet without an ``hp`` pool: the game's
    own damage path (``FightRules.hurt``/``out``, its foe sheet's) on a copy, so the chance the
    target drops is counted in the game's pools rather than in HP it does not have."""
    game = fight.tx.game
    if kind == "hp" or inspect.unwrap(game.exchange.hurt) is not hp_hurt:
        return None
    if "hp" in (health.get("resources") or {}):
        return None
    rules = game.fight if kind == "pc" else game.fight.foe
    hit = Hit(fight, c, kind, Answers({}))

    def hurt(sheet: Doc, amount: int) -> Doc:
        try:
            changed, _ = rules.hurt(hit, sheet, amount)
        except Exception:  # noqa: BLE001 - a game's hook: the odds only lose this outcome
            return sheet
        return changed if isinstance(changed, dict) else sheet

    def out(sheet: Doc) -> bool:
        try:
            return bool(rules.out(sheet))
        except Exception:  # noqa: BLE001 - as above
            return False

    return hurt, out


def side_of(fight: Fight, c: er.Combatant) -> Side:
    """A combatant as a side of an exchange: a copy of its health and its statblock."""
    kind = health_kind(c)
    sheet = fight.sheet(c)
    health = copy.deepcopy(sheet if sheet is not None else dict(c.stats))
    found = statted(fight, c) if has_statblock(c) else None
    more = fight.tx.game.exchange.extra(fight, c)
    if own_foe_attack(fight, c):
        more = {**more, OWN_ATTACK: True}
    elif _own_foe_attacks(fight):
        more = {**more, DEFAULT_ATTACK: fight.tx.game.name}
    found_health = _game_health(fight, c, kind, health)
    if found_health is not None:
        more = {**more, GAME_HEALTH: found_health}
    return Side(c, kind, health, found.block if found is not None else None, more)


def setup_of(
    fight: Fight, attacker_id: str, target_id: str, defence: str = "", attribute: str = ""
) -> Setup:
    """The exchange between two combatants of the fight (refused: one attacking itself, or
    a target already out)."""
    attacker = fight.combatant(attacker_id)
    target = fight.combatant(target_id)
    if target.id == attacker.id:
        raise RuleError(f"{attacker.name} cannot attack itself: pick a target")
    if target.defeated:
        raise RuleError(f"{target.name} is out of the fight")
    if attacker.defeated:
        raise RuleError(f"{attacker.name} is out of the fight")
    chosen = (attribute or str(attacker.stats.get("roll_with") or "brawl")).casefold()
    if chosen not in ATTRIBUTES:
        raise RuleError(f"An attack rolls with {', '.join(ATTRIBUTES)}")
    edge, _ = fight.rules.roll_edge(attacker)
    return Setup(side_of(fight, attacker), side_of(fight, target), defence.strip(), chosen, edge)


def pools_of(rules: ExchangeRules, side: Side, health: Doc) -> dict[str, int]:
    """The target's pools by their export names (plain HD HP: ``hp``)."""
    if side.kind == "hp" or rules.pools is None:
        return hd_pools(side, health)
    return rules.pools(side, health)


@frozen
class Attack(EncounterCommand):
    """The exchange, rolled and landed in one change (one undo): ``attacker_id`` attacks
    ``target_id``; the defender answers as ``defence`` says (blank: the game's default); each
    strike lands on its own through the one damage path; what it costs is spent."""

    attacker_id: str = ""
    target_id: str = ""
    defence: str = ""
    attribute: str = ""
    report: dict[str, Any] | None = field(default=None, compare=False)
    """Filled, when given, with what a script reads of the exchange: its ``steps`` and the
    target's pools ``landed`` (``{pool: [before, after]}``)."""

    LABEL = "Attack"

    def change(self, fight: Fight) -> list[str]:
        rules = fight.tx.game.exchange
        setup = setup_of(fight, self.attacker_id, self.target_id, self.defence, self.attribute)
        if setup.attacker.extra.get(OWN_ATTACK):
            return self._own_attack(fight, setup)
        rolled = rules.roll(setup, fight.tx.rng)
        attacker, target = fight.combatant(self.attacker_id), fight.combatant(self.target_id)
        # Landed here with the exchange: T must not land them again (a defence roll is no
        # damage at all).
        for result in rolled.rolls:
            fight.tx.log_roll(attacker.name, result, extra={EXCHANGE_ROLL: True})
        for result in rolled.defender_rolls:
            fight.tx.log_roll(target.name, result, extra={EXCHANGE_ROLL: True})
        head = f"{attacker.name} attacks {target.name}: " + " · ".join(rolled.steps)
        lines = list(rules.spend(fight, setup, rolled))
        landed = False
        if rolled.by_answers:
            lines += deal_damage(fight, target.id, "", dict(rolled.answers))
            landed = True
        for place, amount in enumerate(rolled.amounts):
            if amount <= 0:
                continue
            if target.defeated and landed:
                break  # the first strike took it out: the rest fall on nothing
            answers = {**rolled.answers}
            if place < len(rolled.per_blow):
                answers.update(rolled.per_blow[place])
            lines += deal_damage(fight, target.id, str(amount), answers)
            landed = True
        if not landed:
            lines.append(f"Nothing lands on {target.name}")
        lines = [head, *lines]
        attacker.stats["last_target"] = target.id
        fight.doc.pop(STRIKE_KEY, None)
        if self.report is not None:
            # The rolls, then what the landing did (a defence's cards, each pool's change).
            self.report["steps"] = [*rolled.steps, *lines[1:]]
            self.report["landed"] = landed_pools(rules, setup.target, fight)
        return lines


    def _own_attack(self, fight: Fight, setup: Setup) -> list[str]:
        """The foe's game's own attack (:func:`own_foe_attack`), landed at once."""
        eid, cid = self.encounter_id, self.attacker_id
        attack = FoeAttack(eid, cid, self.target_id, setup.attribute, lands=True)
        lines = attack.change(fight)
        lines += LandStrike(eid, answer=self.defence).change(fight)
        if self.report is not None:
            self.report["steps"] = list(lines)
            self.report["landed"] = landed_pools(fight.tx.game.exchange, setup.target, fight)
        return lines


def landed_pools(rules: ExchangeRules, before: Side, fight_after: Fight) -> dict[str, list[int]]:
    """Each of the target's pools, ``[before, after]``."""
    c = fight_after.combatant(before.combatant.id)
    sheet = fight_after.sheet(c)
    now = sheet if sheet is not None else dict(c.stats)
    was = pools_of(rules, before, before.health)
    after = pools_of(rules, before, now)
    return {k: [was.get(k, 0), after.get(k, 0)] for k in sorted(set(was) | set(after))}


@frozen
class RememberAttack:
    """A PC's attack as the exchange uses it from now on (``sheet["attack"]``): the game's
    :attr:`ExchangeRules.attack_fields`, checked (damage dice must be countable)."""

    party_id: int
    values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return "Remember the attack"

    def run(self, tx: Tx) -> list[str]:
        sheet = tx.find("party", self.party_id)
        if sheet is None:
            raise RuleError("That PC is no longer in the party")
        asked = {f.key: f for f in tx.game.exchange.attack_fields}
        memory = dict(sheet.get("attack") or {}) if isinstance(sheet.get("attack"), Mapping) else {}
        for key, value in self.values.items():
            spec = asked.get(key)
            if spec is None:
                continue
            if spec.kind in ("int", "optint") and value not in (None, ""):
                memory[key] = int(value)
            elif spec.kind == "amount" and str(value).strip():
                distribution(str(value))  # refused here if it cannot be counted
                memory[key] = str(value).strip()
            elif str(value).strip():
                memory[key] = str(value).strip()
            else:
                memory.pop(key, None)
        tx.put("party", self.party_id, {**sheet, "attack": memory})
        said = ", ".join(f"{k} {v}" for k, v in memory.items()) or "the game's default"
        return [f"{sheet.get('name', '?')} attacks with {said}"]


LANDED_ROLL = "landed_roll"
EXCHANGE_ROLL = LANDED_WITH_ATTACK
"""Encounter-document key: the roll log entry whose damage ``T`` last landed (never twice)."""


def landable(entry: Mapping[str, Any]) -> int | None:
    """What ``T`` lands of a roll log entry: an attack's ``damage``, or the total of a plain
    dice roll; None for a check (it has a band: a hit, a Tough Choice, a success) or an
    initiative roll, which are no damage."""
    dealt = entry.get("damage")
    if isinstance(dealt, int) and not isinstance(dealt, bool):
        return max(0, dealt)
    if entry.get("band") or str(entry.get("expression", "")).startswith("initiative"):
        return None
    total = entry.get("total")
    return max(0, total) if isinstance(total, int) and not isinstance(total, bool) else None


@frozen
class LandRoll(EncounterCommand):
    """``T`` without an exchange open: the damage of the roll log's entry ``roll_id`` lands on
    the combatants (one, or an area), once: the same roll is refused a second time."""

    roll_id: int = 0
    combatant_ids: tuple[str, ...] = ()

    LABEL = "Land the roll"

    def change(self, fight: Fight) -> list[str]:
        entry = fight.tx.find("log", self.roll_id)
        if entry is None or entry.get("kind") != "roll":
            raise RuleError("No roll to land (d rolls dice)")
        if entry.get(EXCHANGE_ROLL):
            raise RuleError(
                f"The last roll is {entry.get('who') or 'an'}'s in an attack (A), which landed "
                "with it: T lands a damage roll once"
            )
        amount = landable(entry)
        if amount is None:
            what = entry.get("band") or entry.get("expression") or "that roll"
            raise RuleError(f"The last roll is a check ({what}), not damage: T lands damage only")
        if fight.doc.get(LANDED_ROLL) == self.roll_id:
            raise RuleError("That roll has landed already: T lands a roll once")
        if not self.combatant_ids:
            raise RuleError("Select whom it lands on")
        fight.doc[LANDED_ROLL] = self.roll_id
        lines: list[str] = []
        for cid in dict.fromkeys(self.combatant_ids):
            lines += deal_damage(fight, cid, str(amount), {})
        return lines


__all__ = [
    "Attack",
    "Costs",
    "no_costs",
    "RememberAttack",
    "LandRoll",
    "Blow",
    "D20Attack",
    "ExchangeRules",
    "HD_EXCHANGE",
    "Odds",
    "Plan",
    "Rolled",
    "Setup",
    "Side",
    "d20_at_least",
    "distribution",
    "odds",
    "play",
    "setup_of",
    "side_of",
]

"""Danger: the whole fight played out many times by its game's own rules (GEN-04, NPC-02,
NPC-08).

:func:`prepare` reads an encounter as it stands (:class:`rulesets.fight.Fight`): who is still
in, whose turn it is, each combatant's health as it is now (a foe that starts wounded fights
wounded). For every attacker and target on opposite sides it asks the game's exchange for the
attack's exact odds (:func:`rulesets.exchange.odds` is what ``tableside attack … --dry-run``
prints, with no options: a foe's statblock attack, a PC's remembered attack and the defender's
default answer), once; :func:`simulate` then plays the fight out ``runs`` times drawing each
strike's amount from those odds and landing it with the game's own ``hurt``/``out``, so the
only cost per strike is a draw and a lookup.

What a fight is here:

- **Turn order**: a fight not yet started rolls initiative by the game's rule
  (``FightRules.initiative``) once per fight, highest first, PCs first on a tie (GEN-04's
  tie-break); a running fight goes on from the current turn in the tracker's order.
- **The exchange**: each combatant still in attacks once on its turn; each of its strikes lands
  on its own, the rest falling on nothing once the target is out.
- **Reactions**: where the defender's answer spends something the round gives back (Nemron's
  reaction, NEM-06), the first attack on it in a round is answered and the later ones are not.
- **Morale** (NPC-08): a foe that checks morale rolls 2d6 + Will after a round in which an ally
  on its side dropped or it went from above half its health to half or under; 3 or less (the
  text's "Will is broken, they flee") and it has fled: out of the fight.
- **The end**: the party wins when every foe is down or fled; it loses when every one on the
  party's side is down. A fight still going after :data:`MAX_ROUNDS` counts as neither.

Target choice is a rule the GM sees and may change (:data:`TARGET_RULES`).

Reading: "the weakest" is the target closest to being out of the fight, as its game measures
it (:attr:`rulesets.exchange.ExchangeRules.room`; where a game does not say, the sum of its
pools as ``tableside export`` names them, its health left); ties go to the first in the order.
Reading: a PC's health spent is the change of each of those pools from the start to the end of a
fight, however it goes (HP falls; the aspects game's consequences mount), added up.
Reading: the party's side is every combatant on the PCs' side (allies too); ``drops`` names the
PCs only, one already out of a running fight at 1.
Reading: a fight not yet started whose game deals at its start (Shadows' combat hands, SOH-11)
is played from :data:`DEALS` deals, unless its hands are dealt again each round. Where the cards played leave the hand and the hands are dealt
again each round (Shadows, SOH-11/13, :attr:`rulesets.exchange.ExchangeRules.dealt`), an attack's
odds are those of a fresh deal averaged over :data:`DEALT` deals, the defender playing its best
card as a foe does: no card counts in every attack of every round.

Pure: no Textual, no app import; randomness through the injected :class:`random.Random`.
"""

from __future__ import annotations

import copy
import inspect
import json
import math
import operator
import pickle
import random
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from fractions import Fraction
from typing import Any

from rulesets import encounter as er
from rulesets import exchange as ex
from rulesets import npc
from rulesets.base import RuleError
from rulesets.fight import Fight, health_kind, is_out
from rulesets.foes import has_statblock, statted
from rulesets.values import frozen

Doc = dict[str, Any]

BATCH = 10
"""Fights between two calls of :func:`simulate`'s ``between``."""
MAX_ROUNDS = 30
"""A fight still going after this many rounds counts as neither side's win."""
RANDOM, WEAKEST, LAST = "random", "weakest", "last"
TARGET_RULES: dict[str, str] = {
    RANDOM: "a random foe in reach",
    WEAKEST: "the weakest (closest to out of the fight)",
    LAST: "the last one that hurt them",
}
"""How a combatant picks its target, by the name the GM types."""
NOT_MODELLED: tuple[str, ...] = (
    "spells, powers and effort",
    "positioning, range and reach (everyone is in reach)",
    "the GM's and players' choices (defences as the game answers by default, no drama die)",
    "healing, conditions gained in the fight, manoeuvres",
    "cards, fate points and Energy a player chooses to spend beyond the default exchange's "
    "(a defence card, a bonus reaction, a fate reroll) or gains; each answers as it can now",
    "extra actions: each combatant attacks once on its turn",
)
"""What the estimate leaves out; shown beside the figures."""
SPENDS: tuple[str, ...] = ("cards", "fate_points", "energy")
"""What the party may spend beyond health, as the estimate reports it (0 where the game's
default exchange spends none of it)."""
SPEND_LABELS: dict[str, str] = {"cards": "cards", "fate_points": "fate points", "energy": "Energy"}
Spend = tuple[tuple[int, int], ...]
"""What one exchange costs the party: (the place of a name in :attr:`Prepared.spends`, how
many), the names it spends none of left out."""
PROTOCOL = pickle.HIGHEST_PROTOCOL
Z95 = 1.959964
Z99 = 2.575829


@frozen
class Choices:
    """How each side picks its targets (:data:`TARGET_RULES`)."""

    party: str = RANDOM
    foes: str = RANDOM

    def __post_init__(self) -> None:
        for rule in (self.party, self.foes):
            if rule not in TARGET_RULES:
                raise RuleError(f"A target rule is one of: {', '.join(TARGET_RULES)}")


class NoEstimate(RuleError):
    """The game's exchange cannot play this fight out (it lands on nothing here)."""


class Stopped(Exception):
    """``between`` said stop while the odds were being counted."""


STEPS = 4
"""Combatants read, or attacker-target pairs counted, between two calls of :func:`prepare`'s
``between``: a large fight's odds take seconds, and a count no longer wanted stops within a
few of its steps."""


def wilson(hits: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` in ``runs`` (z = 1.96: 95%)."""
    if runs <= 0:
        return (0.0, 1.0)
    p = hits / runs
    z2 = z * z
    centre = (p + z2 / (2 * runs)) / (1 + z2 / runs)
    half = z * math.sqrt(p * (1 - p) / runs + z2 / (4 * runs * runs)) / (1 + z2 / runs)
    low = 0.0 if hits <= 0 else max(0.0, centre - half)
    high = 1.0 if hits >= runs else min(1.0, centre + half)
    return (low, high)


# --------------------------------------------------------------------------- a scratch copy


class Scratch:
    """A transaction over a save's tables (``{table: {id: document}}``, as the save file holds
    them) that keeps whatever is written to itself: a game's own fight start (Shadows deals the
    combat hands) is played on it, and nothing reaches the save."""

    def __init__(self, data: Mapping[str, Mapping[str, Any]], game: Any, rng: random.Random):
        self.data: dict[str, dict[str, Any]] = {k: dict(v) for k, v in data.items()}
        self._game = game
        self._rng = rng

    @property
    def rng(self) -> random.Random:
        return self._rng

    @property
    def game(self) -> Any:
        return self._game

    def now(self) -> str:
        return ""

    def find(self, table: str, doc_id: int) -> Doc | None:
        doc = self.data.get(table, {}).get(str(doc_id))
        return None if doc is None else copy.deepcopy(dict(doc))

    def get(self, table: str, doc_id: int) -> Doc:
        found = self.find(table, doc_id)
        if found is None:
            raise RuleError(f"Nothing with id {doc_id} in {table}")
        return found

    def all(self, table: str) -> list[tuple[int, Doc]]:
        return [(int(k), copy.deepcopy(dict(v))) for k, v in self.data.get(table, {}).items()]

    def meta(self) -> Doc:
        return dict(next(iter(self.data.get("meta", {}).values()), {}))

    def insert(self, table: str, doc: Doc) -> int:
        rows = self.data.setdefault(table, {})
        doc_id = max((int(k) for k in rows), default=0) + 1
        rows[str(doc_id)] = copy.deepcopy(doc)
        return doc_id

    def put(self, table: str, doc_id: int, doc: Doc, *, handed_over: bool = False) -> None:
        self.data.setdefault(table, {})[str(doc_id)] = copy.deepcopy(doc)

    def remove(self, table: str, doc_id: int) -> None:
        self.data.get(table, {}).pop(str(doc_id), None)

    def log_roll(self, who: str, result: Any, *, extra: Doc | None = None) -> str:
        return ""


def encounter_fight(
    data: Mapping[str, Mapping[str, Any]], game: Any, encounter_id: int, rng: random.Random
) -> Fight:
    """The encounter of a save's tables as a :class:`Fight` on a :class:`Scratch` copy; one not
    yet started has had its game's fight start (a deal of the combat hands) played on it."""
    from rulesets.fight import load

    tx = Scratch(data, game, rng)
    fight = load(tx, encounter_id)
    start = game.fight.fight_start
    if not fight.enc.started and start is not None:
        start(tx, encounter_id)
        fight = load(tx, encounter_id)
    return fight


# --------------------------------------------------------------------------- preparation


class Track:
    """The health states one combatant can reach, numbered as they are met, and the way
    amounts move it between them (the game's ``hurt`` and ``out``, each asked once).

    A state is kept as the parts of the health that damage changes (the top-level keys a probe
    of ``hurt`` finds changed: a sheet's resources, limbs, status); the rest of the sheet is
    shared by every state. Should ``hurt`` ever change another part, that part joins them."""

    PROBE = (1, 2, 3, 5, 8, 13, 10_000)

    def __init__(self, rules: ex.ExchangeRules, setup: ex.Setup, share: Callable[[Doc], Any]):
        self.setup = setup
        self.side = setup.target
        # Plain HD HP is the core's, a sheet the game's (rulesets.exchange.hurt_on, out_of); the
        # game's own functions, not the shell's guarded copies, which walk every result: a
        # failure here fails the estimate, which its caller says as one message.
        plain = self.side.kind == "hp"
        self.faces = 1 if plain else max(1, rules.faces(self.side))
        self._hurt = ex.hp_hurt if plain else inspect.unwrap(rules.hurt)
        self._out = ex.hp_out if plain else inspect.unwrap(rules.out)
        self._pools = inspect.unwrap(rules.pools or ex.hd_pools)
        self._room = None if plain or rules.room is None else inspect.unwrap(rules.room)
        self._share = share
        self._start: Doc = json.loads(json.dumps(setup.target.health, default=str))
        self._changing: set[str] = set()
        self._order: tuple[str, ...] = ()
        for amount in self.PROBE:
            for face in range(1, self.faces + 1):
                self._changed(self._hurt(setup, _plain(self._start), amount, face))
        self._rest: Doc = {}
        self._rest_keys: tuple[str, ...] = ()
        self._rest_values: tuple[Any, ...] = ()
        self._size = 0
        self._share_rest()
        self.states: list[bytes] = []
        """Each state's changing parts, pickled (compact, and quick to copy again)."""
        self.index: dict[bytes, int] = {}
        self.out: list[bool] = []
        self._left: list[int | None] = []
        self.half: list[bool | None] = []
        self.moves: dict[tuple[int, int, int], int] = {}
        self._spent: dict[int, int] = {}
        self._start_pools: dict[str, int] | None = None
        self.state(_plain(self._start))

    @property
    def changes(self) -> bool:
        """Whether damage changes this health at all (a game whose exchange lands on pools
        this combatant has not: no estimate)."""
        return bool(self._changing)

    def _share_rest(self) -> None:
        """The parts of the start that damage does not change, shared by every state."""
        self._rest = {k: v for k, v in _plain(self._start).items() if k not in self._changing}
        self._rest_keys = tuple(self._rest)
        self._rest_values = tuple(self._rest.values())
        self._size = len(self._rest) + len(self._changing)

    def _replaced(self, health: Doc) -> bool:
        """Whether ``hurt`` put a new value, or took one away, outside the parts it changes
        (the quick check after each hurt; the probe found the parts)."""
        # The shared values are the very objects handed to hurt: identity says it left them.
        return len(health) != self._size or not all(
            map(operator.is_, map(health.get, self._rest_keys), self._rest_values)
        )

    def _changed(self, health: Doc) -> bool:
        """Add the parts of ``health`` that differ from the start; True if any were new."""
        found = {
            k for k in set(health) | set(self._start)
            if k not in self._changing and health.get(k) != self._start.get(k)
        }  # fmt: skip
        self._changing |= found
        self._order = tuple(sorted(self._changing))
        return bool(found)

    def state(self, health: Doc) -> int:
        parts = {k: health[k] for k in self._order if k in health}
        # pickle, not JSON: a state is its parts' bytes, and the copy handed to hurt is made
        # from them, both several times faster; keys in another order only cost a duplicate.
        key = pickle.dumps(parts, PROTOCOL)
        found = self.index.get(key)
        if found is not None:
            return found
        n = len(self.states)
        self.index[key] = n
        self.states.append(key)
        self.out.append(bool(self._out(self.side, health)))
        self._left.append(None)  # counted when asked: most states are never asked
        shared = self._share(health)
        self.half.append(None if shared is None else shared[0] * 2 <= shared[1])
        return n

    def left(self, state: int) -> int:
        """How far ``state`` is from out of the fight: the game's own measure, else the sum of
        its pools (module docstring)."""
        found = self._left[state]
        if found is None:
            health = self.health(state)
            found = (
                int(self._room(self.side, health)) if self._room is not None
                else sum(self._pools(self.side, health).values())
            )  # fmt: skip
            self._left[state] = found
        return found

    def spent(self, state: int) -> int:
        """The health spent from the start to ``state``: each pool's change, however it goes
        (HP falls, the aspects game's consequences mount), added up (module docstring)."""
        found = self._spent.get(state)
        if found is None:
            if self._start_pools is None:
                self._start_pools = self._pools(self.side, self.health(0))
            now = self._pools(self.side, self.health(state))
            start = self._start_pools
            found = self._spent[state] = sum(
                abs(int(now.get(k, 0)) - int(start.get(k, 0))) for k in {*start, *now}
            )
        return found

    def health(self, state: int) -> Doc:
        """A fresh copy of the health of ``state``."""
        parts = pickle.loads(self.states[state])
        health = {**self._rest, **parts}
        if len(parts) < len(self._changing):
            for k in self._changing:
                if k not in parts and k in self._start:
                    health[k] = _plain(self._start[k])
        return health

    def hit(self, state: int, amount: int, face: int) -> int:
        """The state ``amount`` on ``face`` moves ``state`` to (the game's ``hurt``, asked once
        per move: the simulator looks in :attr:`moves` first)."""
        move = (state, amount, face)
        found = self.moves.get(move)
        if found is None:
            health = self._hurt(self.setup, self.health(state), amount, face)
            if self._replaced(health) and self._changed(health):
                # A part the probe did not see changed: the shared rest may have, too.
                self._share_rest()
            found = self.moves[move] = self.state(health)
        return found


def _plain(value: Any) -> Any:
    """A copy of JSON-shaped data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


class Sampler:
    """One strike's amounts, drawn by their exact probabilities (:func:`simulate` draws:
    the amount at the first cumulative chance above a uniform draw)."""

    __slots__ = ("amounts", "cumulative", "fixed")

    def __init__(self, damage: Mapping[int, Any]) -> None:
        self.amounts = [int(k) for k in damage]
        self.fixed: int | None = self.amounts[0] if len(self.amounts) == 1 else None
        """The one amount when there is only one (nothing drawn)."""
        total = 0.0
        self.cumulative: list[float] = []
        for p in damage.values():
            total += float(p)
            self.cumulative.append(total)


@dataclass
class Body:
    """One combatant still in, as the simulator holds it."""

    name: str
    cid: str
    party: bool
    pc: bool
    track: Track
    reaction_now: bool = True
    will: int | None = None
    """Its morale's Will (None: it checks no morale)."""
    initiative: Callable[[random.Random], int] | None = None
    """Its initiative roll by the game's rule."""
    tiebreak: int = 0
    due: bool = False
    """A morale check is due for it now (the tracker's ``morale_due``): it rolls at the end of
    this round."""
    strikes: dict[int, tuple[list[Sampler], list[Sampler]]] = field(default_factory=dict)
    """By target: (strikes answered, strikes unanswered)."""
    costs: dict[int, tuple[Spend, Spend]] = field(default_factory=dict)
    """By target: what the party spends in the exchange (answered, unanswered)."""


@frozen
class Prepared:
    """An encounter ready to be played out."""

    bodies: tuple[Body, ...]
    started: bool
    round: int
    first: int
    """Index in ``bodies`` of the one whose turn it is (a running fight)."""
    choices: Choices
    down: tuple[str, ...] = ()
    """The encounter's PCs already out of the fight: they have dropped in every fight."""
    spends: tuple[str, ...] = ()
    """What the party may spend beyond health (:data:`SPENDS` and any other the game's
    exchange names), in the order :attr:`Body.costs` numbers them."""


def _fresh(side: ex.Side) -> ex.Side:
    """The side with its per-round answers unspent (a new round's reaction)."""
    combatant = copy.copy(side.combatant)
    combatant.economy = {**combatant.economy, "reaction": False}
    return dc_replace(side, combatant=combatant)


DEALT = 12
"""How many deals an attack's odds are averaged over in a game that deals its hands again
(:attr:`rulesets.exchange.ExchangeRules.dealt`)."""


def _blows(rules: ex.ExchangeRules, setup: ex.Setup, defence: str) -> list[Sampler] | None:
    try:
        plan = rules.plan(dc_replace(setup, defence=defence))
    except RuleError:
        return None
    if rules.dealt is None or defence:
        return [Sampler(blow.damage) for blow in plan.blows]
    # The hand as it lies plays once; every later exchange plays from hands spent and dealt
    # again, so the odds are those of a fresh deal, averaged. Seeded by the pair: the same
    # fight prepared twice gets the same odds.
    deal = inspect.unwrap(rules.dealt)
    rng = random.Random(f"{setup.attacker.name}|{setup.target.name}")
    mixed: list[dict[int, Fraction]] = [{} for _ in plan.blows]
    for _ in range(DEALT):
        try:
            again = rules.plan(deal(setup, rng))
        except RuleError:
            return [Sampler(blow.damage) for blow in plan.blows]
        for place, blow in enumerate(again.blows[: len(mixed)]):
            for amount, p in blow.damage.items():
                mixed[place][amount] = mixed[place].get(amount, Fraction(0)) + p / DEALT
    return [Sampler(found) for found in mixed]


def _party_spend(
    rules: ex.ExchangeRules, setup: ex.Setup, defence: str, attacker: Body, target: Body,
    names: list[str],
) -> Spend:  # fmt: skip
    """What the party spends in one exchange answered by ``defence``: the attacker's costs if
    it is on the party's side, the defender's if it is (:attr:`ExchangeRules.costs`)."""
    try:
        mine, theirs = inspect.unwrap(rules.costs)(dc_replace(setup, defence=defence))
    except RuleError:
        return ()
    found: dict[str, int] = {}
    for side, costs in ((attacker, mine), (target, theirs)):
        if side.party:
            for name, amount in costs.items():
                found[name] = found.get(name, 0) + int(amount)
    for name in found:
        if name not in names:
            names.append(name)
    return tuple((names.index(k), v) for k, v in found.items() if v)


def _same(a: Sequence[Sampler], b: Sequence[Sampler]) -> bool:
    return [(s.amounts, s.cumulative) for s in a] == [(s.amounts, s.cumulative) for s in b]


def _will(fight: Fight, c: er.Combatant) -> int | None:
    if c.side == "pc" and health_kind(c) == "pc":
        return None
    if not fight.checks_morale(c):
        return None
    found = statted(fight, c) if has_statblock(c) else None
    return found.block.attribute("will") if found is not None else 0


def _initiative(fight: Fight, c: er.Combatant) -> Callable[[random.Random], int]:
    kind = health_kind(c)
    sheet = fight.sheet(c) if kind != "hp" else None
    npc_doc = fight.npc_doc(c)
    rule = inspect.unwrap(fight.rules.initiative)  # unguarded: see Track
    return lambda rng: rule(rng, sheet, npc_doc).total


def _no_share(health: Doc) -> None:
    return None


def _share(fight: Fight, kind: str, c: er.Combatant) -> Callable[[Doc], Any]:
    if kind == "hp":
        top = int(c.stats.get("hp_max", c.stats.get("hp", 0)) or 0)
        return lambda health: (int(health.get("hp", 0)), top) if top > 0 else None
    if kind == "foe":
        share = inspect.unwrap(fight.rules.foe.share)  # unguarded: see Track

        def found(health: Doc) -> Any:
            try:
                return share(health)
            except (KeyError, TypeError, ValueError, AttributeError):
                return None

        return found
    return lambda health: None


def prepare(
    fight: Fight,
    choices: Choices | None = None,
    between: Callable[[], bool] | None = None,
) -> Prepared:
    """The encounter as it stands, with every attack's odds counted once (module docstring).
    ``choices``: how each side picks its targets (None: the party at random, the foes as the
    game declares, :attr:`rulesets.exchange.ExchangeRules.foe_targets`). ``between`` is
    called every :data:`STEPS` steps of the count; False stops it (:class:`Stopped`).

    Raises:
        Stopped: ``between`` said stop.
        RuleError: the game's exchange cannot count an attack here (named), or there is no
            fight (no one on one of the sides).
    """
    rules = fight.tx.game.exchange
    enc = fight.enc
    standing = [
        c
        for c in enc.combatants
        if not c.defeated and not c.stats.get("fled") and not is_out(fight.rules, c, fight.sheet(c))
    ]
    party = [c for c in standing if c.side == "pc"]
    foes = [c for c in standing if c.side != "pc"]
    if not party or not foes:
        raise RuleError("No fight to estimate: it needs someone on each side")
    steps = 0

    def step() -> None:
        nonlocal steps
        steps += 1
        if between is not None and steps % STEPS == 0 and not between():
            raise Stopped

    bodies: list[Body] = []
    due = {str(d.get("id")) for d in fight.doc.get("morale_due") or [] if isinstance(d, Mapping)}
    for place, c in enumerate(standing):
        step()
        kind = health_kind(c)
        # A track needs a setup that has this combatant as its target; any attacker does.
        other = foes[0] if c.side == "pc" else party[0]
        setup = ex.setup_of(fight, other.id, c.id)
        will = _will(fight, c)
        # The share of health left only matters to morale: one that checks none skips it.
        share = _share(fight, kind, c) if will is not None else _no_share
        bodies.append(
            Body(
                name=c.name,
                cid=c.id,
                party=c.side == "pc",
                pc=kind == "pc",
                track=Track(rules, setup, share),
                reaction_now=not c.economy.get("reaction", False),
                will=will,
                initiative=_initiative(fight, c),
                tiebreak=(0 if c.side == "pc" else 1) * 1000 + place,
                due=enc.started and c.id in due,
            )
        )
    spends = list(SPENDS)
    for body in bodies:
        if not body.track.changes:
            raise NoEstimate(f"no estimate for this game: its attacks land nothing on {body.name}")
    for attacker in bodies:
        for t, target in enumerate(bodies):
            if attacker.party == target.party:
                continue
            step()
            setup = ex.setup_of(fight, attacker.cid, target.cid)
            setup = dc_replace(setup, target=_fresh(setup.target))
            answered = _blows(rules, setup, "")
            if answered is None:
                raise RuleError(f"{attacker.name} cannot attack {target.name} here")
            # Dealt again each round, a hand answers every attack on it with its best card.
            bare = answered if rules.dealt is not None else _blows(rules, setup, "none")
            bare = bare or answered
            same = _same(answered, bare)
            attacker.strikes[t] = (answered, answered if same else bare)
            spend = _party_spend(rules, setup, "", attacker, target, spends)
            unanswered = spend if same else _party_spend(
                rules, setup, "none", attacker, target, spends
            )
            attacker.costs[t] = (spend, unanswered)
    current = enc.current if enc.started else None
    first = next((i for i, b in enumerate(bodies) if b.cid == current), 0)
    if enc.started and current is not None and all(b.cid != current for b in bodies):
        # The one whose turn it is is out: the turn passes to the next one still in.
        ids = [c.id for c in enc.combatants]
        after = ids.index(current) if current in ids else 0
        later = [i for i, b in enumerate(bodies) if ids.index(b.cid) > after]
        first = later[0] if later else 0
    if choices is None:
        choices = Choices(foes=rules.foe_targets or RANDOM)
    down = tuple(
        c.name for c in enc.combatants if health_kind(c) == "pc" and c.side == "pc"
        and c not in standing
    )  # fmt: skip
    return Prepared(
        tuple(bodies), enc.started, max(1, enc.round), first, choices, down, tuple(spends)
    )


# --------------------------------------------------------------------------- playing out


@frozen
class Estimate:
    """What :func:`simulate` reports."""

    runs: int
    party_wins: int
    foes_flee: int
    rounds: tuple[int, ...]
    """How many fights ended in each round (index 0: round 1); undecided ones left out."""
    drops: Mapping[str, int]
    """Each PC's name: in how many fights it dropped."""
    health_spent: float
    """The party's health spent, on average per fight (pools as ``tableside export``)."""
    choices: Choices
    spends: Mapping[str, float] = field(default_factory=dict)
    """What else the party spends, on average per fight, by name (:data:`SPENDS` first)."""
    not_modelled: tuple[str, ...] = NOT_MODELLED

    @property
    def win_chance(self) -> float:
        return self.party_wins / self.runs if self.runs else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson(self.party_wins, self.runs)

    def chance(self, count: int) -> float:
        return count / self.runs if self.runs else 0.0

    def interval(self, count: int, z: float = Z95) -> tuple[float, float]:
        return wilson(count, self.runs, z)

    def rounds_at(self, share: float) -> int:
        """The round by which ``share`` of the decided fights had ended (0.5: the median)."""
        total = sum(self.rounds)
        if not total:
            return 0
        need = share * total
        seen = 0
        for n, count in enumerate(self.rounds, start=1):
            seen += count
            if seen and seen >= need:
                return n
        return len(self.rounds)

    @property
    def worst(self) -> tuple[str, float] | None:
        """The PC likeliest to drop, and its chance."""
        if not self.drops:
            return None
        name = max(self.drops, key=lambda k: self.drops[k])
        return name, self.chance(self.drops[name])


def next_rule(rule: str) -> str:
    """The target rule after ``rule`` (the GM steps through them)."""
    names = list(TARGET_RULES)
    return names[(names.index(rule) + 1) % len(names)] if rule in names else RANDOM


def _target(
    rule: str, attacker: int, enemies: list[int], states: list[int], bodies: Sequence[Body],
    last: list[int], rng: random.Random,
) -> int:  # fmt: skip
    if rule == LAST and last[attacker] in enemies:
        return last[attacker]
    if rule == WEAKEST:
        return min(enemies, key=lambda e: bodies[e].track.left(states[e]))
    return enemies[int(rng.random() * len(enemies))]


def _flees(rng: random.Random, will: int) -> bool:
    total = rng.randint(1, 6) + rng.randint(1, 6) + will
    return npc.morale_result(total) == npc.FLEE


def simulate(
    prepared: Prepared,
    runs: int,
    rng: random.Random,
    between: Callable[[], bool] | None = None,
) -> Estimate | None:
    """The fight played out ``runs`` times (module docstring). ``between`` is called every
    :data:`BATCH` fights (a worker yields there); when it returns False the estimate stops:
    None."""
    bodies = prepared.bodies
    n = len(bodies)
    pcs = [i for i, b in enumerate(bodies) if b.pc]
    party_side = [i for i, b in enumerate(bodies) if b.party]
    foe_side = [i for i, b in enumerate(bodies) if not b.party]
    rule_of = [prepared.choices.party if b.party else prepared.choices.foes for b in bodies]
    # Looked up once here, not per strike: the loop below runs a hundred thousand strikes.
    party_of = [b.party for b in bodies]
    strikes_of = [b.strikes for b in bodies]
    tracks = [b.track for b in bodies]
    checks = [b.will is not None for b in bodies]
    morale = [i for i in range(n) if checks[i]]
    draw = rng.random
    costs_of = [b.costs for b in bodies]
    spent_too = [0] * len(prepared.spends)
    wins = fled_wins = 0
    ended: list[int] = [0] * MAX_ROUNDS
    drops = [0] * n
    spent = 0
    for fought in range(runs):
        if between is not None and fought % BATCH == 0 and not between():
            return None
        states = [0] * n
        up = [True] * n
        fled = [False] * n
        reaction = [b.reaction_now for b in bodies]
        last = [-1] * n
        # Who is still up on each side, in the bodies' order: (the party, the foes).
        sides = (list(party_side), list(foe_side))
        if prepared.started:
            order = list(range(n))
            at = prepared.first
        else:
            rolled = [
                (-(b.initiative(rng) if b.initiative else 0), b.tiebreak, i)
                for i, b in enumerate(bodies)
            ]
            order = [i for *_, i in sorted(rolled)]
            at = 0
        winner = ""
        for turn_round in range(MAX_ROUNDS):
            dropped_side: set[bool] = set()
            halved: list[int] = []
            for i in order[at:]:
                if not up[i]:
                    continue
                live = sides[party_of[i]]
                if not live:
                    break
                rule = rule_of[i]
                if rule == RANDOM:
                    t = live[int(draw() * len(live))]
                else:
                    t = _target(rule, i, live, states, bodies, last, rng)
                answered, bare = strikes_of[i][t]
                costs = costs_of[i][t][0 if reaction[t] else 1]
                if costs:
                    for k, many in costs:
                        spent_too[k] += many
                track = tracks[t]
                moves = track.moves
                faces = track.faces
                outs = track.out
                for blow in answered if reaction[t] else bare:
                    amount = blow.fixed
                    if amount is None:
                        cumulative = blow.cumulative
                        k = bisect_right(cumulative, draw() * cumulative[-1])
                        amounts = blow.amounts
                        amount = amounts[k] if k < len(amounts) else amounts[-1]
                    if amount <= 0:
                        continue
                    face = 1 if faces == 1 else 1 + int(draw() * faces)
                    was = states[t]
                    now = moves.get((was, amount, face))
                    if now is None:
                        now = track.hit(was, amount, face)
                    states[t] = now
                    if now != was:
                        last[t] = i
                    if outs[now]:
                        up[t] = False
                        sides[not party_of[t]].remove(t)
                        dropped_side.add(party_of[t])
                        break
                    if checks[t] and track.half[now] and not track.half[was]:
                        halved.append(t)
                if answered is not bare:
                    reaction[t] = False
            at = 0
            if not sides[0]:
                ended[turn_round] += 1
                break
            # NPC-08 at the round's end: the side that lost one checks, and each halved one.
            checking = [
                i for i in morale
                if up[i] and (party_of[i] in dropped_side or i in halved
                              or (turn_round == 0 and bodies[i].due))
            ]  # fmt: skip
            for i in checking:
                will = bodies[i].will
                if will is not None and _flees(rng, will):
                    up[i] = False
                    sides[not party_of[i]].remove(i)
                    fled[i] = True
            if not sides[1]:
                winner = "party"
            if winner:
                ended[turn_round] += 1
                break
            reaction = [True] * n
        if winner == "party":
            wins += 1
            if any(fled[i] for i in foe_side):
                fled_wins += 1
        for i in pcs:
            if bodies[i].track.out[states[i]]:
                drops[i] += 1
            spent += tracks[i].spent(states[i])
    while len(ended) > 1 and ended[-1] == 0:
        ended.pop()
    offset = prepared.round - 1 if prepared.started else 0
    return Estimate(
        runs=runs,
        party_wins=wins,
        foes_flee=fled_wins,
        rounds=tuple([0] * offset + ended),
        drops={
            **{bodies[i].name: drops[i] for i in pcs},
            **{name: runs for name in prepared.down},
        },
        health_spent=spent / runs if runs else 0.0,
        choices=prepared.choices,
        spends={k: (v / runs if runs else 0.0) for k, v in zip(prepared.spends, spent_too, strict=True)},
    )


def estimate(
    fight: Fight, runs: int, rng: random.Random, choices: Choices | None = None
) -> Estimate:
    """:func:`prepare` then :func:`simulate`."""
    found = simulate(prepare(fight, choices), runs, rng)
    assert found is not None  # nothing to stop it
    return found


DEALS = 4
"""A fight not yet started whose game deals at its start (Shadows' combat hands) is played
from so many deals, the fights shared among them: one deal alone would make the estimate that
deal's."""


def merge(parts: Sequence[Estimate]) -> Estimate:
    """The estimates of the same fight, as one."""
    runs = sum(p.runs for p in parts)
    longest = max(len(p.rounds) for p in parts)
    rounds = tuple(sum(p.rounds[i] for p in parts if i < len(p.rounds)) for i in range(longest))
    drops: dict[str, int] = {}
    for part in parts:
        for name, count in part.drops.items():
            drops[name] = drops.get(name, 0) + count
    spent = sum(p.health_spent * p.runs for p in parts) / runs if runs else 0.0
    spends: dict[str, float] = {}
    for part in parts:
        for name, mean in part.spends.items():
            spends[name] = spends.get(name, 0.0) + (mean * part.runs / runs if runs else 0.0)
    return Estimate(
        runs=runs,
        party_wins=sum(p.party_wins for p in parts),
        foes_flee=sum(p.foes_flee for p in parts),
        rounds=rounds,
        drops=drops,
        health_spent=spent,
        choices=parts[0].choices,
        spends=spends,
        not_modelled=parts[0].not_modelled,
    )


def estimate_encounter(
    data: Mapping[str, Mapping[str, Any]],
    game: Any,
    encounter_id: int,
    runs: int,
    rng: random.Random,
    choices: Choices | None = None,
    between: Callable[[], bool] | None = None,
) -> Estimate | None:
    """The encounter of a save's tables played out ``runs`` times (:func:`encounter_fight`,
    :func:`prepare`, :func:`simulate`); one not yet started whose game deals at its start is
    played from :data:`DEALS` deals. None: ``between`` stopped it."""
    if between is not None and not between():
        return None  # asked before the first read: a large fight's read is itself a wait
    first = encounter_fight(data, game, encounter_id, rng)
    try:
        preparations = [prepare(first, choices, between)]
    except Stopped:
        return None
    # A game whose hands are dealt again each round counts fresh deals already (DEALT).
    again_dealt = game.exchange.dealt is not None
    if not first.enc.started and game.fight.fight_start is not None and not again_dealt:
        for _ in range(DEALS - 1):
            again = encounter_fight(data, game, encounter_id, rng)
            try:
                preparations.append(prepare(again, choices, between))
            except Stopped:
                return None
    share, extra = divmod(runs, len(preparations))
    parts: list[Estimate] = []
    for place, prepared in enumerate(preparations):
        found = simulate(prepared, share + (1 if place < extra else 0), rng, between)
        if found is None:
            return None
        parts.append(found)
    return merge(parts) if len(parts) > 1 else parts[0]


BANDS: dict[str, str] = {
    "easy": "the party wins 90% or more and no PC drops more than 15%",
    "hard": "between easy and deadly",
    "deadly": "the party wins less than half the time, or a PC drops more than half",
}
"""The bands a GM builds a fight to, by the chance the party wins and a PC drops."""


def band(found: Estimate) -> str:
    """``easy``, ``hard`` or ``deadly`` (:data:`BANDS`)."""
    worst = found.worst
    drop = worst[1] if worst is not None else 0.0
    if found.win_chance < 0.5 or drop > 0.5:
        return "deadly"
    if found.win_chance >= 0.9 and drop <= 0.15:
        return "easy"
    return "hard"


CENTRES: dict[str, float] = {"easy": 0.95, "hard": 0.7, "deadly": 0.3}
"""The chance the party wins that a fight built to a band aims at."""


@frozen
class Proposal:
    """What :func:`propose` found: the value that brings the fight into the band (None: no
    value in the range does), its estimate, and the chance the party wins at each value tried."""

    band: str
    value: int | None
    found: Estimate | None
    tried: Mapping[int, float]


def propose(at: Callable[[int], Estimate], low: int, high: int, wanted: str) -> Proposal:
    """The value from ``low`` to ``high`` (an HD, a count) whose fight ``at(value)`` is in the
    band ``wanted`` (:data:`BANDS`), nearest its centre (:data:`CENTRES`).

    Reading: more HD or more foes never make a fight easier, so the values are searched by
    halves for where the party's chance crosses the band's centre, and the two values either
    side of it are weighed.
    """
    if wanted not in BANDS:
        raise RuleError(f"A band is one of: {', '.join(BANDS)}")
    centre = CENTRES[wanted]
    seen: dict[int, Estimate] = {}

    def est(value: int) -> Estimate:
        if value not in seen:
            seen[value] = at(value)
        return seen[value]

    lo, hi = low, high
    while lo < hi:
        mid = (lo + hi) // 2
        if est(mid).win_chance <= centre:
            hi = mid
        else:
            lo = mid + 1
    candidates = [v for v in (lo - 1, lo, lo + 1) if low <= v <= high]
    ranked = sorted(candidates, key=lambda v: abs(est(v).win_chance - centre))
    fitting = [v for v in ranked if band(est(v)) == wanted]
    tried = {v: e.win_chance for v, e in sorted(seen.items())}
    if not fitting:
        return Proposal(wanted, None, est(ranked[0]), tried)
    return Proposal(wanted, fitting[0], est(fitting[0]), tried)


def report(found: Estimate) -> dict[str, Any]:
    """The estimate as ``tableside danger --json`` prints it."""
    low, high = found.win_interval
    return {
        "runs": found.runs,
        "party_wins": round(found.win_chance, 4),
        "party_wins_ci": [round(low, 4), round(high, 4)],
        "foes_flee": round(found.chance(found.foes_flee), 4),
        "rounds": {"median": found.rounds_at(0.5), "p90": found.rounds_at(0.9)},
        "drops": {name: round(found.chance(k), 4) for name, k in found.drops.items()},
        "not_modelled": list(found.not_modelled),
        "spends": {
            "health": round(found.health_spent, 2),
            **{name: round(mean, 2) for name, mean in found.spends.items()},
        },
    }


def meter(found: Estimate) -> str:
    """``Danger: party wins 82% ±2 · 3–5 rounds · Orrin drops 31%``: the tracker's line."""
    low, high = found.win_interval
    plus = round(max(found.win_chance - low, high - found.win_chance) * 100)
    median, p90 = found.rounds_at(0.5), found.rounds_at(0.9)
    rounds = f"{median} round" + ("" if median == 1 else "s")
    if p90 > median:
        rounds = f"{median}–{p90} rounds"
    line = f"Danger: party wins {found.win_chance:.0%} ±{plus} · {rounds}"
    worst = found.worst
    if worst is not None and worst[1] > 0:
        line += f" · {worst[0]} drops {worst[1]:.0%}"
    return line


__all__ = [
    "DEALS",
    "SPENDS",
    "SPEND_LABELS",
    "estimate_encounter",
    "merge",
    "CENTRES",
    "Proposal",
    "propose",
    "NoEstimate",
    "BANDS",
    "Scratch",
    "band",
    "encounter_fight",
    "Choices",
    "Estimate",
    "MAX_ROUNDS",
    "NOT_MODELLED",
    "Prepared",
    "TARGET_RULES",
    "estimate",
    "meter",
    "prepare",
    "report",
    "simulate",
    "wilson",
]

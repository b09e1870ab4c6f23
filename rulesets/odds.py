"""Exact odds of any dice expression (GEN-02): what :func:`rulesets.dice.roll` does, counted.

The tray and ``tableside odds`` accept the very expressions the dice line rolls, so the odds
come from the same parser: :func:`d20.parse` gives the tree, and each node becomes an
:class:`icepool.Die` of the values d20 computes for it, with d20's own arithmetic (``/``
keeps the fraction, ``//`` rounds down, comparisons give 1 or 0) and the roller's cut of the
total toward zero at the end. Probabilities are exact fractions.

Modelled directly: ``NdM`` and ``d%`` (d20 rolls 0, 10 … 90); sets; keep/drop with any
selectors (several in one, ``ph1pl1``, as d20 unites them: see :class:`_SelectedSum`);
``+ - * / // %``, comparisons, unary signs, decimals and ``[labels]``; before any keep, per-die
``rr`` (rerolled from a fresh die, at most :data:`~rulesets.dice.REROLL_DEPTH` times, as the
roller does), ``ro``, ``mi``/``ma``, ``e`` (at most :data:`~rulesets.dice.EXPLODE_DEPTH` extra
dice per die, as the roller does) and ``ra`` (one die added to the pool if any die hits).
Everything else the roller accepts (a keep after an explosion, an operation after a keep, a
highest/lowest reroll, several selectors over fractions …) is counted by running the roller
itself once per possible sequence of dice (:func:`rulesets.dice.outcomes`), up to
:data:`MAX_ENUMERATED` sequences; past that it is refused with a message.

Reading: a comparison at the top (``2d6+1 >= 8``) is a target: the answer is the chance of
``success`` and ``failure`` rather than a distribution, because that is what a GM asks.
Reading: an expression the roller can fail on for some dice (a division by zero, a total past
±1,000,000,000, more than 1000 dice rolled) has no odds: it is refused, naming the reason.
Reading: values past 2**53 are refused: d20 computes some of them as floating point, where
they stop being exact, so no exact odds can follow them.

Speed (goal: ≤ 50 ms, ``bench/odds.py``): icepool's general engine adds dice one pair of faces
at a time and walks keep/drop through a recursive evaluator, so ``50d100`` took a minute and
``100d1000kh1`` hit Python's recursion limit. Sums therefore multiply the dice's generating
polynomials packed into one big integer (the work runs in C), a single kept die (``kh1``,
``kl1``, a pool's best die) comes from the product of the dice's cumulative counts, and what is
left to icepool is bounded by an estimate of its work; past the bounds the expression is refused
with a message instead of hanging the tray or the command line.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from functools import reduce
from typing import Any

import d20
import icepool
from d20 import diceast

from rulesets import dice
from rulesets.base import RuleError

EXPLODE_DEPTH = dice.EXPLODE_DEPTH
REROLL_DEPTH = dice.REROLL_DEPTH
MAX_POOL = 100
"""Dice in one ``NdM`` the odds will compute; a GM never needs more and icepool stays fast."""
MAX_SIDES = 1000
MAX_TOTALS = 2000
"""Possible totals one sum may have (``2d1000``, ``100d20``); each costs an exact fraction."""
MAX_SUM_WORK = 600_000
"""Bound on (possible totals × bits of the exact counts) of one sum: ``80d20`` is ~0.54 M,
``100d20`` ~0.84 M, and the bound keeps a sum inside the speed goal (``bench/odds.py``)."""
MAX_PAIRS = 100_000
"""Bound on face pairs icepool combines one by one (``*``, ``/``, ``%``, comparisons)."""
MAX_KEEP_WORK = 60_000
"""Bound on (dice × dice kept × faces²) for keep/drop of several dice via icepool (``20d20kh10``
is 80,000, past the speed goal)."""
MAX_GROUP_WORK = 160_000
"""Bound on (faces × dice³ × span of faces) for one keep/drop with several selectors, which walks
(dice seen, total) states face by face: ``15d6ph1pl1`` is 121,500, inside the speed goal."""
MAX_ENUMERATED = 4096
"""Dice sequences the roller is run for when the expression is not modelled (each a run of the roller)."""
MAX_EXACT = 2**53
"""Largest magnitude of a value inside an expression the odds follow (see the Reading)."""

SUCCESS = "success"
FAILURE = "failure"

COMPARISONS = frozenset({">=", "<=", ">", "<", "==", "!="})
_PER_DIE = ("rr", "ro", "ra", "e", "mi", "ma")


class OddsError(RuleError):
    """An expression whose odds cannot be computed; the message says why."""


class _NotModelled(Exception):
    """d20 semantics the model does not follow; the roller is enumerated instead."""


def _parse(expression: str) -> diceast.Node:
    problem = dice.validate(expression)
    if problem is not None:
        raise OddsError(problem)
    try:
        return d20.parse(expression.strip(), allow_comments=False)
    except d20.RollSyntaxError as exc:  # pragma: no cover - validate catches these first
        raise OddsError(str(exc)) from None


def _unwrap(node: diceast.Node) -> diceast.Node:
    while isinstance(node, diceast.Expression | diceast.AnnotatedNumber):
        node = node.roll if isinstance(node, diceast.Expression) else node.value
    return node


def _faces(size: object) -> icepool.Die:
    if str(size) == "%":
        return icepool.Die(list(range(0, 100, 10)))
    sides = int(str(size))
    if not 1 <= sides <= MAX_SIDES:
        raise OddsError(f"a d{sides} is outside 1..{MAX_SIDES} sides")
    return icepool.d(sides)


def _can_match(die: icepool.Die, sels: Any) -> bool:
    return any(dice.selects(sels, v) for v in die.outcomes())


class _Model:
    """One expression's distribution, node by node, counting the dice the roller may roll."""

    def __init__(self, expression: str) -> None:
        self.expression = expression.strip()
        self.rolls = 0
        """The most dice the roller can roll for the expression (d20 refuses past 1000)."""

    def count(self, rolls: int) -> None:
        self.rolls += rolls
        if self.rolls > dice.MAX_DICE:
            raise OddsError(
                f"some rolls of '{self.expression}' roll more than {dice.MAX_DICE} dice, "
                "which the roller refuses: no exact odds"
            )

    # --- members: what a keep or drop selects among (d20's ``.set`` of a node) ---------------
    def members(self, node: diceast.Node) -> list[icepool.Die]:
        node = _unwrap(node)
        if isinstance(node, diceast.Parenthetical):
            return self.members(node.value)
        if isinstance(node, diceast.Dice):
            return self.dice(node)
        if isinstance(node, diceast.NumberSet):
            return [self.die(member) for member in node.values]
        if isinstance(node, diceast.OperatedSet):
            result = self.operated(node)
            if isinstance(result, list):
                return result
            raise _NotModelled("a keep or drop on dice already kept, dropped or exploded")
        return [self.die(node)]

    def dice(self, node: diceast.Dice) -> list[icepool.Die]:
        if node.num > MAX_POOL:
            raise OddsError(f"odds follow at most {MAX_POOL} dice at once, not {node.num}")
        self.count(int(node.num))
        return [_faces(node.size)] * int(node.num)

    def operated(self, node: diceast.OperatedSet) -> list[icepool.Die] | icepool.Die:
        """A list while every member is still one die d20 can select; else the total."""
        fresh = _faces(node.value.size) if isinstance(node.value, diceast.Dice) else None
        result: list[icepool.Die] | icepool.Die = self.members(node.value)
        for op in node.operations:
            if not isinstance(result, list):
                raise _NotModelled(f"{op} after a keep, drop or explosion")
            if op.op in ("k", "p"):
                result = _keep(result, op)
            elif op.op in _PER_DIE and fresh is not None:
                result = self.per_die(result, fresh, op)
            else:  # pragma: no cover - the grammar allows no other operation
                raise OddsError(f"the operation {op.op!r} is not supported by the odds")
        return result

    def per_die(
        self, members: list[icepool.Die], fresh: icepool.Die, op: diceast.SetOperator
    ) -> list[icepool.Die] | icepool.Die:
        """``rr ro ra e mi ma``: each die changes on its own; a new roll is a fresh die."""
        sels = op.sels
        if op.op in ("mi", "ma"):
            bound = sels[-1].num  # d20 reads only the last selector of mi/ma
            pick = max if op.op == "mi" else min
            return _each(members, lambda d: d.map(lambda v: pick(v, bound)))
        if any(s.cat in ("h", "l") for s in sels):
            raise _NotModelled(f"{op} picks dice by rank")
        if not any(_can_match(d, sels) for d in members):
            return members  # d20 selects nothing: no die changes, none is rolled

        def hit(v: Any) -> bool:
            return dice.selects(sels, v)

        fresh_hits = _can_match(fresh, sels)
        count = len(members)
        if op.op == "ro":
            self.count(count)
            return _each(members, lambda d: d.map(_then(hit, fresh, add=False)))
        if op.op == "rr":
            self.count(count * (REROLL_DEPTH if fresh_hits else 1))
            again = fresh
            for _ in range(REROLL_DEPTH - 1):
                again = fresh.map(_then(hit, again, add=False))
            return _each(members, lambda d: d.map(_then(hit, again, add=False)))
        if op.op == "ra":
            self.count(1)
            return _add_once(members, fresh, hit)
        # e: each die's chain of explosions, summed; the extra dice are new members, so no
        # keep can follow in this model.
        self.count(count * (EXPLODE_DEPTH if fresh_hits else 1))
        chain = fresh
        for _ in range(EXPLODE_DEPTH - 1):
            chain = fresh.map(_then(hit, chain, add=True))
        return _total(_each(members, lambda d: d.map(_then(hit, chain, add=True))))

    # --- totals -----------------------------------------------------------------------------
    def die(self, node: diceast.Node) -> icepool.Die:
        """The distribution of one node's total, as d20 computes it."""
        result = self._die(_unwrap(node))
        for v in result.outcomes():
            if not abs(v) <= MAX_EXACT:  # also catches a NaN
                raise OddsError(f"a value inside the expression passes {MAX_EXACT:,} (2**53)")
        return result

    def _die(self, node: diceast.Node) -> icepool.Die:
        if isinstance(node, diceast.Literal):
            return icepool.Die([node.value])
        if isinstance(node, diceast.Parenthetical):
            return self.die(node.value)
        if isinstance(node, diceast.UnOp):
            inner = self.die(node.value)
            return inner.map(operator.neg) if node.op == "-" else inner
        if isinstance(node, diceast.BinOp):
            return self.binop(node)
        if isinstance(node, diceast.OperatedSet):
            result = self.operated(node)
            return result if isinstance(result, icepool.Die) else _total(result)
        if isinstance(node, diceast.Dice | diceast.NumberSet):
            return _total(self.members(node))
        raise OddsError(f"{type(node).__name__} is not supported by the odds")

    def binop(self, node: diceast.BinOp) -> icepool.Die:
        left, right = self.die(node.left), self.die(node.right)
        if node.op in ("+", "-") and _whole(left) and _whole(right) and _span(left, right):
            return _sum([left, right if node.op == "+" else right.map(operator.neg)])
        if len(left) * len(right) > MAX_PAIRS:
            raise OddsError(
                f"{len(left)} × {len(right)} possible values to combine: too large for exact odds"
            )
        if node.op in ("/", "//", "%") and 0 in right.outcomes():
            raise OddsError("the expression can divide by zero")
        if node.op not in d20.BinOp.BINARY_OPS:  # pragma: no cover - the grammar's operators
            raise OddsError(f"the operator {node.op!r} is not supported by the odds")
        return icepool.map(d20.BinOp.BINARY_OPS[node.op], left, right)


def _then(hit: Callable[[Any], bool], after: icepool.Die, add: bool) -> Callable[[Any], Any]:
    """A face that ``hit``s is replaced by (``add``: followed by) a roll of ``after``."""

    def step(v: Any) -> Any:
        if not hit(v):
            return v
        return v + after if add else after

    return step


def _add_once(
    members: list[icepool.Die], fresh: icepool.Die, hit: Callable[[Any], bool]
) -> icepool.Die:
    """``ra``: d20 adds one fresh die to the pool if any die hits (one, however many hit)."""
    every = _total(members)
    spared = _each(members, lambda d: icepool.Die({v: q for v, q in d.items() if not hit(v)}))
    none = _total(spared) if all(len(d) for d in spared) else icepool.Die([])
    if len(every) * len(fresh) > MAX_PAIRS:
        raise OddsError(f"ra on {len(members)} dice is too large for exact odds")
    scale = fresh.denominator()
    weights: dict[Any, int] = {}
    for total, q in every.items():
        missed = none.quantity(total) if total in none else 0  # raw counts: the same scale
        if missed:
            weights[total] = weights.get(total, 0) + missed * scale
        if q > missed:
            for face, qf in fresh.items():
                weights[total + face] = weights.get(total + face, 0) + (q - missed) * qf
    return icepool.Die({v: w for v, w in weights.items() if w})


def _each(
    members: list[icepool.Die], change: Callable[[icepool.Die], icepool.Die]
) -> list[icepool.Die]:
    done: dict[int, icepool.Die] = {}  # NdM repeats one die object: change it once
    for d in members:
        if id(d) not in done:
            done[id(d)] = change(d)
    return [done[id(d)] for d in members]


def _span(left: icepool.Die, right: icepool.Die) -> bool:
    """Whether a sum's totals are few enough for :func:`_sum` (else pair by pair)."""
    wide = max(left.outcomes()) - min(left.outcomes()) + max(right.outcomes())
    return bool(wide - min(right.outcomes()) < MAX_TOTALS)


def _whole(die: icepool.Die) -> bool:
    return all(type(v) is int for v in die.outcomes())


def _keep(values: list[icepool.Die], op: diceast.SetOperator) -> icepool.Die:
    """``k``/``p``: with one ``h``/``l`` select among the dice; with values, zero the others."""
    keep = op.op == "k"
    ranked = [s for s in op.sels if s.cat in ("h", "l")]
    if ranked and len(op.sels) > 1:
        return _keep_by_groups(values, op)
    if ranked:
        sel = ranked[0]
        n = len(values)
        count = min(sel.num, n)
        span = range(n - count, n) if sel.cat == "h" else range(count)
        keep_tuple = [not keep] * n
        for i in span:
            keep_tuple[i] = keep
        kept = [i for i, k in enumerate(keep_tuple) if k]
        if not kept:
            return icepool.Die([0])
        if len(kept) == n:
            return _total(values)
        if kept == [n - 1]:
            return _extreme(values, highest=True)
        if kept == [0]:
            return _extreme(values, highest=False)
        faces = len(set().union(*(d.outcomes() for d in values)))
        if n * len(kept) * faces * faces > MAX_KEEP_WORK:
            raise OddsError(
                f"{op} keeps {len(kept)} of {n} dice of {faces} faces: too large for exact odds"
            )
        pool = icepool.Pool(values)
        return pool.keep(tuple(1 if k else 0 for k in keep_tuple)).sum()
    sels = op.sels
    return _total(
        _each(values, lambda d: d.map(lambda v: v if dice.selects(sels, v) == keep else 0))
    )


class _SelectedSum(icepool.MultisetEvaluator):  # type: ignore[misc]
    """The total d20 keeps when one ``k``/``p`` has several selectors (``ph1pl1``).

    Each selector picks its dice separately and the pick is their union. Among equal faces
    every selector takes the earliest dice in the pool (Python's stable sort), so within a
    group of equal faces the union is simply the largest of the selectors' counts, and the kept
    total depends only on how many of each face came up: a multiset walk, face by face upwards.
    """

    def __init__(self, size: int, sels: Any, keep: bool) -> None:
        self.size, self.sels, self.keep = size, sels, keep

    def initial_state(self, order: Any, outcomes: Any, *sizes: Any) -> tuple[int, int]:
        if order != icepool.Order.Ascending:
            raise icepool.UnsupportedOrder()
        return 0, 0  # (dice below this face, total kept so far)

    def next_state(self, state: Any, order: Any, outcome: Any, count: int) -> tuple[int, int]:
        below, total = state
        picked = 0
        for sel in self.sels:
            if sel.cat == "h":  # the top ``num`` positions start at size - num
                picked = max(picked, min(count, max(0, below + count - (self.size - sel.num))))
            elif sel.cat == "l":
                picked = max(picked, min(count, max(0, sel.num - below)))
            elif dice.selects([sel], outcome):
                picked = count
        kept = picked if self.keep else count - picked
        return below + count, total + outcome * kept

    def final_outcome(self, final_state: Any, *args: Any) -> int:
        return 0 if final_state is None else int(final_state[1])

    @property
    def next_state_key(self) -> Any:
        return (_SelectedSum, self.size, str(self.sels), self.keep)


def _keep_by_groups(values: list[icepool.Die], op: diceast.SetOperator) -> icepool.Die:
    if not values:
        return icepool.Die([0])
    if not all(_whole(d) for d in values):
        raise _NotModelled(f"{op} on fractions: d20 adds them in pool order")
    outcomes = set().union(*(d.outcomes() for d in values))
    n, span = len(values), max(outcomes) - min(outcomes) + 1
    if len(outcomes) * n**3 * span > MAX_GROUP_WORK:
        raise OddsError(f"{op} on {n} dice of {len(outcomes)} faces: too large for exact odds")
    result: icepool.Die = _SelectedSum(len(values), op.sels, op.op == "k").evaluate(
        icepool.Pool(values)
    )
    return result


def _extreme(values: list[icepool.Die], highest: bool) -> icepool.Die:
    """The highest (or lowest) of independent dice, from the product of cumulative counts."""
    outcomes = sorted(set().union(*(d.outcomes() for d in values)))
    if not highest:
        outcomes.reverse()
    groups: dict[int, list[Any]] = {}
    for d in values:
        groups.setdefault(id(d), [d, 0])[1] += 1  # NdM repeats one die object
    below = [0] * len(groups)  # per distinct die: weight of its faces at or past the current one
    weights: dict[Any, int] = {}
    previous = 0
    for outcome in outcomes:
        joint = 1
        for g, (d, count) in enumerate(groups.values()):
            below[g] += d.quantity(outcome) if outcome in d else 0
            joint *= below[g] ** count
        if joint != previous:
            weights[outcome] = joint - previous
        previous = joint
    return icepool.Die(weights)


def _total(members: list[icepool.Die]) -> icepool.Die:
    """d20's sum of a set's members: ``((0 + a) + b) + …``, in order (it matters for floats)."""
    if not members:
        return icepool.Die([0])
    if all(_whole(d) for d in members):
        return _sum(members)
    return reduce(lambda a, b: icepool.map(operator.add, a, b), members)


def _sum(dice_: list[icepool.Die]) -> icepool.Die:
    """The exact sum of independent dice with whole-number faces.

    Each distinct die's weights are packed as the digits of one big integer (a slot wide enough
    for any count of the result), so multiplying the integers convolves the dice in C.
    """
    if len(dice_) == 1:
        return dice_[0]
    groups: dict[int, list[Any]] = {}
    for d in dice_:
        groups.setdefault(id(d), [d, 0])[1] += 1  # NdM repeats one die object
    low = sum(min(d.outcomes()) * k for d, k in groups.values())
    totals = sum((max(d.outcomes()) - min(d.outcomes())) * k for d, k in groups.values()) + 1
    denominator = 1
    for d, k in groups.values():
        denominator *= d.denominator() ** k
    slot = (denominator.bit_length() + 8) // 8  # bytes; no count of the sum reaches 256**slot
    if totals > MAX_TOTALS or totals * slot * 8 > MAX_SUM_WORK:
        raise OddsError(f"a sum with {totals} possible totals is too large for exact odds")
    product = 1
    for d, k in groups.values():
        lo, hi = min(d.outcomes()), max(d.outcomes())
        packed = b"".join(
            (d.quantity(v) if v in d else 0).to_bytes(slot, "little") for v in range(lo, hi + 1)
        )
        product *= int.from_bytes(packed, "little") ** k
    raw = product.to_bytes(totals * slot, "little")
    weights = {
        low + i: int.from_bytes(raw[i * slot : (i + 1) * slot], "little") for i in range(totals)
    }
    return icepool.Die({v: q for v, q in weights.items() if q})


def _as_totals(die: icepool.Die) -> dict[int, Fraction]:
    """The roller's totals: d20's value cut toward zero, within the roller's bound."""
    denominator = die.denominator()
    weights: dict[int, int] = {}
    for v, q in die.items():
        total = int(v)
        weights[total] = weights.get(total, 0) + q
    if any(abs(total) > dice.MAX_NUMBER for total in weights):
        raise OddsError(
            f"some rolls pass ±{dice.MAX_NUMBER:,}, which the roller refuses: no exact odds"
        )
    return {total: Fraction(weights[total], denominator) for total in sorted(weights)}


def modelled(expression: str) -> dict[int, Fraction] | None:
    """The model's answer for ``expression``, or None where it would enumerate the roller."""
    model = _Model(expression)
    try:
        die = model.die(_parse(expression))
    except _NotModelled:
        return None
    return _as_totals(die)


def distribution(expression: str) -> dict[int, Fraction]:
    """GEN-02: every total the roller can give for the expression → its exact probability.

    Raises:
        OddsError: the expression does not parse, can fail on some roll, or is too large.
    """
    found = modelled(expression)
    if found is not None:
        return found
    try:
        return dice.outcomes(expression, MAX_ENUMERATED)
    except dice.DiceError as exc:
        raise OddsError(f"no exact odds for '{expression.strip()}': {exc}") from None


def _operations(node: diceast.Node) -> list[str]:
    found = [op.op for op in node.operations] if isinstance(node, diceast.OperatedSet) else []
    for child in node.children:
        found += _operations(child)
    return found


def notes(expression: str) -> list[str]:
    """What a GM should know beside the odds: the bound on explosions and rerolls, if used."""
    if {"e", "rr"} & set(_operations(_parse(expression))):
        return [dice.BOUND_NOTE]
    return []


def target(expression: str) -> dict[str, Fraction] | None:
    """GEN-02: for ``"2d6+1 >= 8"`` the chance of success and failure; None without a target."""
    node = _unwrap(_parse(expression))
    if not (isinstance(node, diceast.BinOp) and node.op in COMPARISONS):
        return None
    success = distribution(expression).get(1, Fraction(0))
    return {SUCCESS: success, FAILURE: 1 - success}


def odds(expression: str) -> dict[str, dict[Any, Fraction]]:
    """GEN-02: ``{"bands": {...}}`` for an expression with a target, else ``{"distribution"}``."""
    bands = target(expression)
    if bands is not None:
        return {"bands": dict(bands)}
    return {"distribution": dict(distribution(expression))}

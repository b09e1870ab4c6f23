"""Exact odds of any dice expression (GEN-02): d20's syntax tree turned into an icepool die.

The tray and ``tableside odds`` accept the very expressions the dice line rolls, so the odds
come from the same parser: :func:`d20.parse` gives the tree, and each node becomes an
:class:`icepool.Die` (a single value) or a list of dice (a set or an ``NdM`` not yet summed,
so keep/drop can still select among them). Probabilities are exact fractions.

Supported: ``NdM``; keep/drop ``kh``/``kl``/``ph``/``pl`` (and ``k``/``p`` with ``X``, ``>X``,
``<X``); sets such as ``(1d6,1d10,1d8)kh1``; ``+ - * / %`` and comparisons with dice or
constants; exploding ``e`` (bounded at :data:`EXPLODE_DEPTH` extra dice); reroll ``rr``
(until the face no longer matches), ``ro`` (once) and ``ra`` (once, adding); ``mi``/``ma``;
``[labels]`` are ignored.

Reading: a comparison at the top (``2d6+1 >= 8``) is a target: the answer is the chance of
``success`` and ``failure`` rather than a distribution, because that is what a GM asks.
Reading: per-die operations (reroll, explode, min/max) must come before keep/drop; after a
keep they would act on dice already chosen, which this model cannot express, so such an
expression is refused with a clear message instead of giving wrong odds.
Reading: ``/`` divides rounding down, as d20 does for whole numbers.

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
from typing import Any

import d20
import icepool
from d20 import diceast

from rulesets import dice
from rulesets.base import RuleError

EXPLODE_DEPTH = 9
"""Extra dice an explosion may add before the odds stop following it (mass beyond is tiny)."""
MAX_POOL = 100
"""Dice in one ``NdM`` the odds will compute; a GM never needs more and icepool stays fast."""
MAX_SIDES = 1000
MAX_TOTALS = 2000
"""Possible totals one sum may have (``2d1000``, ``100d20``); each costs an exact fraction."""
MAX_SUM_WORK = 600_000
"""Bound on (possible totals × bits of the exact counts) of one sum: ``80d20`` (~0.54 M) takes
~30 ms, ``100d20`` (~0.84 M) ~50 ms, so the bound keeps a sum inside the 50 ms goal."""
MAX_PAIRS = 100_000
"""Bound on face pairs icepool combines one by one (``*``, ``/``, ``%``, comparisons)."""
MAX_KEEP_WORK = 60_000
"""Bound on (dice × dice kept × faces²) for keep/drop of several dice via icepool (``20d20kh10``
is 80,000 and takes ~55 ms)."""

SUCCESS = "success"
FAILURE = "failure"

COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}
_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.floordiv,
    "%": operator.mod,
}

Values = list[icepool.Die]
"""Dice not yet summed: an ``NdM`` or a set, so keep/drop may select among them."""


class OddsError(RuleError):
    """An expression whose odds cannot be computed; the message says why."""


def _parse(expression: str) -> diceast.Node:
    problem = dice.validate(expression)
    if problem is not None:
        raise OddsError(problem)
    try:
        return d20.parse(expression.strip(), allow_comments=False)
    except d20.RollSyntaxError as exc:  # pragma: no cover - validate catches these first
        raise OddsError(str(exc)) from None


def _matches(selector: diceast.SetSelector) -> Callable[[int], bool]:
    cat, num = selector.cat, selector.num
    if cat is None:
        return lambda v: v == num
    if cat == ">":
        return lambda v: v > num
    if cat == "<":
        return lambda v: v < num
    raise OddsError(f"the selector {selector} cannot pick faces of a single die")


def _per_die(die: icepool.Die, op: diceast.SetOperator) -> icepool.Die:
    for selector in op.sels:
        if op.op == "mi":
            die = die.map(lambda v, n=selector.num: max(v, n))
            continue
        if op.op == "ma":
            die = die.map(lambda v, n=selector.num: min(v, n))
            continue
        match = _matches(selector)
        faces = [v for v in die.outcomes() if match(v)]
        if not faces:
            continue
        if op.op == "rr":
            if len(faces) == len(die.outcomes()):
                raise OddsError(f"rr{selector} would reroll every face forever")
            die = die.reroll(faces, depth="inf")
        elif op.op == "ro":
            die = die.reroll(faces, depth=1)
        elif op.op == "ra":
            die = die.explode(faces, depth=1)
        elif op.op == "e":
            if len(faces) == len(die.outcomes()):
                raise OddsError(f"e{selector} explodes on every face")
            die = die.explode(faces, depth=EXPLODE_DEPTH)
    return die


def _keep(values: Values, op: diceast.SetOperator) -> Values | icepool.Die:
    """``k``/``p``: with ``h``/``l`` select among the dice; with values, zero the others."""
    keep = op.op == "k"
    selectors = op.sels
    if all(s.cat in ("h", "l") for s in selectors):
        n = len(values)
        keep_tuple = [not keep] * n
        for sel in selectors:
            count = min(sel.num, n)
            span = range(n - count, n) if sel.cat == "h" else range(count)
            for i in span:
                keep_tuple[i] = keep
        kept = [i for i, k in enumerate(keep_tuple) if k]
        if kept == [n - 1]:
            return _extreme(values, highest=True)
        if kept == [0]:
            return _extreme(values, highest=False)
        if len(kept) == n:
            return _sum(values)
        if not kept:
            return icepool.Die([0])
        faces = len(set().union(*(d.outcomes() for d in values))) if values else 0
        if n * len(kept) * faces * faces > MAX_KEEP_WORK:
            raise OddsError(
                f"{op} keeps {len(kept)} of {n} dice of {faces} faces: too large for exact odds"
            )
        pool = icepool.Pool(values)
        return pool.keep(tuple(1 if k else 0 for k in keep_tuple)).sum()
    if any(s.cat in ("h", "l") for s in selectors):
        raise OddsError(f"{op} mixes highest/lowest with value selectors; odds cannot follow it")
    tests = [_matches(s) for s in selectors]

    def chosen(v: int) -> bool:
        return any(t(v) for t in tests)

    return [d.map(lambda v: v if chosen(v) == keep else 0) for d in values]


def _extreme(values: Values, highest: bool) -> icepool.Die:
    """The highest (or lowest) of independent dice, from the product of cumulative counts."""
    outcomes = sorted(set().union(*(d.outcomes() for d in values)))
    if not highest:
        outcomes.reverse()
    groups: dict[int, list[Any]] = {}
    for d in values:
        groups.setdefault(id(d), [d, 0])[1] += 1  # NdM repeats one die object
    below = [0] * len(groups)  # per distinct die: weight of its faces at or past the current one
    weights: dict[int, int] = {}
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


def _sum(dice: Values) -> icepool.Die:
    """The exact sum of independent dice with whole-number faces.

    Each distinct die's weights are packed as the digits of one big integer (a slot wide enough
    for any count of the result), so multiplying the integers convolves the dice in C.
    """
    if len(dice) == 1:
        return dice[0]
    groups: dict[int, list[Any]] = {}
    for d in dice:
        if not all(isinstance(v, int) for v in d.outcomes()):
            return icepool.Pool(dice).sum()  # pragma: no cover - every face here is whole
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


def _pairs(left: icepool.Die, right: icepool.Die) -> None:
    if len(left) * len(right) > MAX_PAIRS:
        raise OddsError(
            f"{len(left)} × {len(right)} possible values to combine: too large for exact odds"
        )


def _operated(node: diceast.OperatedSet) -> Values | icepool.Die:
    result: Values | icepool.Die = _values(node.value)
    kept = False
    for op in node.operations:
        if op.op in ("k", "p"):
            if not isinstance(result, list):
                raise OddsError(f"{op} after another keep or drop is not supported by the odds")
            result = _keep(result, op)
            kept = True
        elif op.op in ("rr", "ro", "ra", "e", "mi", "ma"):
            if kept or not isinstance(result, list):
                raise OddsError(f"{op} after a keep or drop is not supported by the odds")
            done: dict[int, icepool.Die] = {}  # NdM repeats one die: transform it once
            for d in result:
                if id(d) not in done:
                    done[id(d)] = _per_die(d, op)
            result = [done[id(d)] for d in result]
        else:
            raise OddsError(f"the operation {op.op!r} is not supported by the odds")
    return result


def _values(node: diceast.Node) -> Values:
    """A node whose members stay separate (``NdM`` or a set)."""
    if isinstance(node, diceast.Dice):
        size = 100 if str(node.size) == "%" else int(node.size)
        if node.num > MAX_POOL:
            raise OddsError(f"odds follow at most {MAX_POOL} dice at once, not {node.num}")
        if not 1 <= size <= MAX_SIDES:
            raise OddsError(f"a d{size} is outside 1..{MAX_SIDES} sides")
        return [icepool.d(size)] * int(node.num)
    if isinstance(node, diceast.NumberSet):
        return [_die(member) for member in node.values]
    if isinstance(node, diceast.Parenthetical):
        return _values(node.value)
    return [_die(node)]


def _total(result: Values | icepool.Die) -> icepool.Die:
    if isinstance(result, icepool.Die):
        return result
    if not result:
        return icepool.Die([0])
    return _sum(result)


def _die(node: diceast.Node) -> icepool.Die:
    """The distribution of one node's total."""
    if isinstance(node, diceast.Expression):
        return _die(node.roll)
    if isinstance(node, diceast.AnnotatedNumber):
        return _die(node.value)
    if isinstance(node, diceast.Literal):
        value = node.value
        if isinstance(value, float) and not value.is_integer():
            raise OddsError(f"{value} is not a whole number")
        return icepool.Die([int(value)])
    if isinstance(node, diceast.Parenthetical):
        return _die(node.value)
    if isinstance(node, diceast.UnOp):
        inner = _die(node.value)
        return -inner if node.op == "-" else inner
    if isinstance(node, diceast.BinOp):
        left, right = _die(node.left), _die(node.right)
        if node.op == "+":
            return _sum([left, right])
        if node.op == "-":
            return _sum([left, -right])
        _pairs(left, right)
        if node.op in COMPARISONS:
            return icepool.map(lambda a, b: int(COMPARISONS[node.op](a, b)), left, right)
        if node.op in ("/", "%") and right.probability(0) > 0:
            raise OddsError("the expression can divide by zero")
        if node.op not in _ARITHMETIC:
            raise OddsError(f"the operator {node.op!r} is not supported by the odds")
        return icepool.map(_ARITHMETIC[node.op], left, right)
    if isinstance(node, diceast.OperatedSet):
        return _total(_operated(node))
    if isinstance(node, diceast.Dice | diceast.NumberSet):
        return _total(_values(node))
    raise OddsError(f"{type(node).__name__} is not supported by the odds")


def distribution(expression: str) -> dict[int, Fraction]:
    """GEN-02: every total the expression can roll → its exact probability.

    Raises:
        OddsError: the expression does not parse or uses something the odds cannot follow.
    """
    die = _die(_parse(expression))
    denominator = die.denominator()
    return {int(v): Fraction(q, denominator) for v, q in die.items()}


def target(expression: str) -> dict[str, Fraction] | None:
    """GEN-02: for ``"2d6+1 >= 8"`` the chance of success and failure; None without a target."""
    root = _parse(expression)
    node = root.roll if isinstance(root, diceast.Expression) else root
    if not (isinstance(node, diceast.BinOp) and node.op in COMPARISONS):
        return None
    success = Fraction(_die(node).probability(1))
    return {SUCCESS: success, FAILURE: 1 - success}


def odds(expression: str) -> dict[str, dict[Any, Fraction]]:
    """GEN-02: ``{"bands": {...}}`` for an expression with a target, else ``{"distribution"}``."""
    bands = target(expression)
    if bands is not None:
        return {"bands": dict(bands)}
    return {"distribution": dict(distribution(expression))}

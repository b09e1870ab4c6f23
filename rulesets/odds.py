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
        pool = icepool.Pool(values)
        return pool.keep(tuple(1 if k else 0 for k in keep_tuple)).sum()
    if any(s.cat in ("h", "l") for s in selectors):
        raise OddsError(f"{op} mixes highest/lowest with value selectors; odds cannot follow it")
    tests = [_matches(s) for s in selectors]

    def chosen(v: int) -> bool:
        return any(t(v) for t in tests)

    return [d.map(lambda v: v if chosen(v) == keep else 0) for d in values]


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
            result = [_per_die(d, op) for d in result]
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
    return icepool.Pool(result).sum() if len(result) > 1 else result[0]


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

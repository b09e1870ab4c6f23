"""Dice expressions (GEN-01) through the ``d20`` library, with our own clear errors.

``d20`` parses NdM, keep/drop (``4d6kh3``), rerolls, exploding (``1d6e6``), sets such as
``(1d6,1d10,1d8)kh1``, arithmetic and ``[labels]``, and bounds huge rolls. It draws from the
module-level ``random``; we swap in the caller's ``random.Random`` for the duration of one roll
(under a lock, since the swap is process-wide) so that every roll stays reproducible.

Reading: a die explodes (``e``) at most :data:`EXPLODE_DEPTH` times in a row and is rerolled
(``rr``) at most :data:`REROLL_DEPTH` times, the last roll standing. d20 alone follows them until
1000 dice have been rolled and then fails the whole roll, which no exact odds can describe; with
a fixed bound the roller and :mod:`rulesets.odds` agree on every roll. An ``e`` or ``rr`` whose
faces are every face of the die is refused (it would only ever stop at the bound).
Reading: ``/`` divides exactly (d20 keeps the fraction) and the total is cut toward zero at the
end, so ``(0-7)/2`` is -3 and ``(1d6-4)/2`` is -1, 0 or 1; ``//`` rounds down at once.

:func:`every_outcome` runs any procedure that draws from a ``random.Random`` once per possible
sequence of draws, with its exact probability: the brute force the odds are tested against.
"""

from __future__ import annotations

import math
import random
import threading
import unicodedata
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from rulesets.base import RuleError
from rulesets.values import frozen

MAX_EXPRESSION_LENGTH = 200
"""A GM types a handful of characters; anything longer is a paste accident, refused early."""
MAX_DICE = 1000
"""Bound on dice rolled by one expression (rerolls and explosions count)."""
MAX_NUMBER = 1_000_000_000
"""Bound on a total and on each die face: no table needs more, and a save (JSON through orjson)
cannot hold integers past 64 bits, so ``1d6+999…9`` is refused here instead of breaking the
next autosave."""

EXPLODE_DEPTH = 9
"""Extra dice one die may add by exploding, one after another; the roller and the odds stop here."""
REROLL_DEPTH = 9
"""Times one die is rerolled by ``rr``; the roll after the last reroll stands, in both."""
BOUND_NOTE = (
    f"a die explodes at most {EXPLODE_DEPTH} times and is rerolled (rr) at most "
    f"{REROLL_DEPTH} times, by the roller and the odds alike"
)

_ROLL_LOCK = threading.Lock()
T = TypeVar("T")


class DiceError(RuleError):
    """A dice expression that cannot be rolled; the message says what and where."""


@frozen
class DiceRoll:
    """The outcome of one dice expression."""

    expression: str
    total: int
    dice: tuple[int, ...]
    """Every die face rolled, in order, dropped ones included."""
    kept: tuple[int, ...]
    text: str
    """d20's plain breakdown, e.g. ``4d6kh3 (5, x2, 6, 3) = 14`` with dropped dice marked x."""
    dropped: tuple[int, ...] = ()
    """Positions in :attr:`dice` of the faces that do not count (dropped or rerolled)."""

    def as_json(self) -> dict[str, object]:
        return {
            "expr": self.expression,
            "total": self.total,
            "dice": list(self.dice),
            "dropped": list(self.dropped),
            "text": self.text,
        }


@cache
def _d20() -> Any:
    """Import d20 on first use: building its grammar costs too much for start-up.

    The app warms this in a worker after the first paint, so the first roll is instant too.
    """
    import d20

    class PlainStringifier(d20.SimpleStringifier):  # type: ignore[misc]
        """d20's markdown stringifier wraps dropped dice in ``~~``; a TUI marks them with x."""

        def _stringify(self, node):  # type: ignore[no-untyped-def]
            if not node.kept:
                return f"x{super()._stringify(node)}"
            return super()._stringify(node)

    class BoundedOperator(d20.SetOperator):  # type: ignore[misc]
        """d20's ``rr`` and ``e`` with the bounds of :data:`REROLL_DEPTH`/:data:`EXPLODE_DEPTH`.

        Dice are touched in their order in the pool (d20 walks a set), so one sequence of draws
        always gives the same dice: what :func:`every_outcome` relies on.
        """

        def _in_order(self, target: Any, chosen: set[Any]) -> list[Any]:
            return [die for die in target.values if die in chosen]

        def _refuse_every_face(self, target: Any) -> None:
            if any(sel.cat in ("h", "l") for sel in self.sels):
                return
            faces = range(0, 100, 10) if target.size == "%" else range(1, int(target.size) + 1)
            if all(selects(self.sels, face) for face in faces):
                what = "explodes" if self.op == "e" else "rerolls"
                raise d20.RollValueError(f"{self} {what} on every face of a d{target.size}")

        def reroll(self, target: Any) -> None:
            self._refuse_every_face(target)
            for _ in range(REROLL_DEPTH):
                chosen = self._in_order(target, self.select(target))
                if not chosen:
                    return
                for die in chosen:
                    die.reroll()
            if self.select(target):
                target._context.stopped = True

        def explode(self, target: Any) -> None:
            self._refuse_every_face(target)
            done: set[Any] = set()
            for _ in range(EXPLODE_DEPTH):
                chosen = self._in_order(target, self.select(target).difference(done))
                if not chosen:
                    return
                for die in chosen:
                    die.explode()
                    target.roll_another()
                done.update(chosen)
            if self.select(target).difference(done):
                target._context.stopped = True

    class BoundedContext(d20.RollContext):  # type: ignore[misc]
        """d20's count of dice rolled, and whether a bound stopped a die this roll."""

        def reset(self) -> None:
            super().reset()
            self.stopped = False

    class BoundedRoller(d20.Roller):  # type: ignore[misc]
        def _eval_operatedset(self, node):  # type: ignore[no-untyped-def]
            target = self._eval(node.value)
            for op in node.operations:
                the_op = BoundedOperator.from_ast(op)
                the_op.operate(target)
                target.operations.append(the_op)
            return target

    d20.PlainStringifier = PlainStringifier
    d20.BoundedRoller = BoundedRoller
    # One roller for the process: it caches parsed expressions (lark's parse is not free),
    # and every roll runs under _ROLL_LOCK, so its roll counter is never shared.
    d20.ROLLER = BoundedRoller(context=BoundedContext(max_rolls=MAX_DICE))
    return d20


def selects(sels: Any, value: Any) -> bool:
    """Whether d20 value selectors (``1``, ``>4``, ``<3``) pick a face."""
    for sel in sels:
        if sel.cat is None and value == sel.num:
            return True
        if sel.cat == ">" and value > sel.num:
            return True
        if sel.cat == "<" and value < sel.num:
            return True
    return False


def warm_up() -> None:
    """Load the dice parser now (call from a background thread)."""
    _d20()


def _normalise(expression: str) -> str:
    if not isinstance(expression, str):
        raise DiceError("a dice expression must be text")
    text = expression.strip()
    if not text:
        raise DiceError("empty dice expression")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceError(
            f"dice expression is {len(text)} characters long; the limit is {MAX_EXPRESSION_LENGTH}"
        )
    for pos, ch in enumerate(text, start=1):
        if unicodedata.category(ch)[0] == "C":
            raise DiceError(f"control character at column {pos}")
        if ch.isdigit() and not ("0" <= ch <= "9"):
            raise DiceError(f"'{ch}' at column {pos} is not an ASCII digit")
    return text


def _walk_dice(node: object, dice: list[int], dropped: list[int], counted: bool = True) -> None:
    """Every face under ``node`` in order; a face counts only if it and all above it are kept."""
    expression = _d20().expression
    counted = counted and bool(getattr(node, "kept", True))
    if isinstance(node, expression.Die):
        # A Die holds one value per roll of it (rerolls keep the old value, dropped).
        for value in node.values:
            if not (counted and value.kept):
                dropped.append(len(dice))
            dice.append(int(value.number))
        return
    # Dice and Set nodes report no children; their rolled members live in ``values``.
    members = (
        getattr(node, "values", None)
        if isinstance(node, expression.Dice | expression.Set)
        else getattr(node, "children", [])
    )
    for child in members or []:
        _walk_dice(child, dice, dropped, counted)


def roll(expression: str, rng: random.Random | None = None) -> DiceRoll:
    """Roll a dice expression. Raises :class:`DiceError` with a one-line reason."""
    text = _normalise(expression)
    rng = rng or random.Random()
    d20 = _d20()
    _d20_expression = d20.expression
    roller = d20.ROLLER
    with _ROLL_LOCK:
        saved = _d20_expression.random
        _d20_expression.random = rng
        try:
            result = roller.roll(text, stringifier=d20.PlainStringifier(), allow_comments=False)
            total = int(result.total)
            breakdown = result.result
            if roller.context.stopped:
                breakdown += f" (stopped at the bound: {BOUND_NOTE})"
        except d20.RollSyntaxError as exc:
            got = str(exc.got) if exc.got else "end of expression"
            raise DiceError(
                f"cannot read '{text}': unexpected {got!r} at column {exc.col}"
            ) from None
        except d20.TooManyRolls:
            raise DiceError(f"'{text}' rolls more than {MAX_DICE} dice") from None
        except d20.RollError as exc:
            raise DiceError(f"cannot roll '{text}': {exc}") from None
        except (RecursionError, ZeroDivisionError, OverflowError, ValueError) as exc:
            reason = (
                "nested too deeply"
                if isinstance(exc, RecursionError)
                else str(exc) or type(exc).__name__
            )
            raise DiceError(f"cannot roll '{text}': {reason}") from None
        finally:
            _d20_expression.random = saved
    dice: list[int] = []
    dropped: list[int] = []
    _walk_dice(result.expr, dice, dropped)
    if abs(total) > MAX_NUMBER or any(abs(face) > MAX_NUMBER for face in dice):
        raise DiceError(f"'{text}' is too large: totals and dice stay within ±{MAX_NUMBER:,}")
    gone = set(dropped)
    kept = tuple(face for i, face in enumerate(dice) if i not in gone)
    return DiceRoll(text, total, tuple(dice), kept, breakdown, tuple(dropped))


def validate(expression: str) -> str | None:
    """None if the expression parses and is within bounds, else the one-line reason."""
    try:
        roll(expression, random.Random(0))
    except DiceError as exc:
        return str(exc)
    return None


class _Replay(random.Random):
    """A ``random.Random`` that answers each draw from a script (0 past its end) and records it.

    Every draw of ``randrange``, ``randint``, ``choice`` and ``shuffle`` goes through
    ``_randbelow``; ``random()`` would be a real number, which cannot be enumerated.
    """

    def __init__(self, script: list[int]) -> None:
        super().__init__(0)
        self.script = script
        self.answers: list[int] = []
        self.sizes: list[int] = []

    def _randbelow(self, n: int) -> int:
        at = len(self.answers)
        choice = self.script[at] if at < len(self.script) else 0
        if not 0 <= choice < n:
            raise RuntimeError("the procedure drew differently on a replay; it is not repeatable")
        self.answers.append(choice)
        self.sizes.append(n)
        return choice

    def random(self) -> float:
        raise RuntimeError("every_outcome cannot enumerate random(); draw whole numbers")


def every_outcome(
    procedure: Callable[[random.Random], T], limit: int | None = None
) -> Iterator[tuple[T, Fraction]]:
    """Run ``procedure`` once for every sequence of draws it can make, with its probability.

    ``procedure`` must draw only through the ``random.Random`` it is given and be repeatable
    (the same draws give the same result). The probabilities of everything yielded sum to 1.

    Raises:
        DiceError: more than ``limit`` runs would be needed.
    """
    script: list[int] = []
    runs = 0
    while True:
        runs += 1
        if limit is not None and runs > limit:
            raise DiceError(f"more than {limit:,} possible rolls to go through")
        rng = _Replay(script)
        value = procedure(rng)
        yield value, Fraction(1, math.prod(rng.sizes))
        answers, sizes = rng.answers, rng.sizes
        at = len(answers) - 1
        while at >= 0 and answers[at] + 1 >= sizes[at]:
            at -= 1
        if at < 0:
            return
        script = [*answers[:at], answers[at] + 1]


def outcomes(expression: str, limit: int | None = None) -> dict[int, Fraction]:
    """Every total :func:`roll` can give for ``expression`` → its exact probability.

    The roller itself runs once per possible sequence of dice, so this is slow (it grows with
    the sequences) and meant for small expressions and for testing :mod:`rulesets.odds`.

    Raises:
        DiceError: the expression cannot be rolled, fails on some roll (a division by zero, a
            total out of bounds), or needs more than ``limit`` rolls to go through.
    """
    text = _normalise(expression)
    totals: dict[int, Fraction] = {}
    for total, p in every_outcome(lambda rng: roll(text, rng).total, limit):
        totals[total] = totals.get(total, Fraction(0)) + p
    return dict(sorted(totals.items()))

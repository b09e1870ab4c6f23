"""Dice expressions (GEN-01) through the ``d20`` library, with our own clear errors.

``d20`` parses NdM, keep/drop (``4d6kh3``), rerolls, exploding (``1d6e6``), sets such as
``(1d6,1d10,1d8)kh1``, arithmetic and ``[labels]``, and bounds huge rolls. It draws from the
module-level ``random``; we swap in the caller's ``random.Random`` for the duration of one roll
(under a lock, since the swap is process-wide) so that every roll stays reproducible.
"""

from __future__ import annotations

import random
import threading
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

from rulesets.base import RuleError

MAX_EXPRESSION_LENGTH = 200
"""A GM types a handful of characters; anything longer is a paste accident, refused early."""
MAX_DICE = 1000
"""Bound on dice rolled by one expression (rerolls and explosions count)."""
MAX_NUMBER = 1_000_000_000
"""Bound on a total and on each die face: no table needs more, and a save (JSON through orjson)
cannot hold integers past 64 bits, so ``1d6+999…9`` is refused here instead of breaking the
next autosave."""

_ROLL_LOCK = threading.Lock()


class DiceError(RuleError):
    """A dice expression that cannot be rolled; the message says what and where."""


@dataclass(frozen=True)
class DiceRoll:
    """The outcome of one dice expression."""

    expression: str
    total: int
    dice: tuple[int, ...]
    """Every die face rolled, in order, dropped ones included."""
    kept: tuple[int, ...]
    text: str
    """d20's plain breakdown, e.g. ``4d6kh3 (5, 2, 6, 3) = 14`` with dropped dice marked."""

    def as_json(self) -> dict[str, object]:
        return {
            "expr": self.expression,
            "total": self.total,
            "dice": list(self.dice),
            "text": self.text,
        }


@cache
def _d20() -> Any:
    """Import d20 on first use: building its grammar costs ~120 ms, too much for start-up.

    The app warms this in a worker after the first paint, so the first roll is instant too.
    """
    import d20

    class PlainStringifier(d20.SimpleStringifier):  # type: ignore[misc]
        """d20's markdown stringifier wraps dropped dice in ``~~``; a TUI marks them with x."""

        def _stringify(self, node):  # type: ignore[no-untyped-def]
            if not node.kept:
                return f"x{super()._stringify(node)}"
            return super()._stringify(node)

    d20.PlainStringifier = PlainStringifier
    return d20


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


def _walk_dice(node: object, dice: list[int], kept: list[int]) -> None:
    expression = _d20().expression
    if isinstance(node, expression.Die):
        # A Die holds one value per roll of it (rerolls keep the old value, dropped).
        for value in node.values:
            face = int(value.number)
            dice.append(face)
            if value.kept and node.kept:
                kept.append(face)
        return
    # Dice and Set nodes report no children; their rolled members live in ``values``.
    members = (
        getattr(node, "values", None)
        if isinstance(node, expression.Dice | expression.Set)
        else getattr(node, "children", [])
    )
    for child in members or []:
        _walk_dice(child, dice, kept)


def roll(expression: str, rng: random.Random | None = None) -> DiceRoll:
    """Roll a dice expression. Raises :class:`DiceError` with a one-line reason."""
    text = _normalise(expression)
    rng = rng or random.Random()
    d20 = _d20()
    _d20_expression = d20.expression
    roller = d20.Roller(context=d20.RollContext(max_rolls=MAX_DICE))
    with _ROLL_LOCK:
        saved = _d20_expression.random
        _d20_expression.random = rng  # type: ignore[assignment]
        try:
            result = roller.roll(text, stringifier=d20.PlainStringifier(), allow_comments=False)
            total = int(result.total)
            breakdown = result.result
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
            _d20_expression.random = saved  # type: ignore[assignment]
    dice: list[int] = []
    kept: list[int] = []
    _walk_dice(result.expr, dice, kept)
    if abs(total) > MAX_NUMBER or any(abs(face) > MAX_NUMBER for face in dice):
        raise DiceError(f"'{text}' is too large: totals and dice stay within ±{MAX_NUMBER:,}")
    return DiceRoll(text, total, tuple(dice), tuple(kept), breakdown)


def validate(expression: str) -> str | None:
    """None if the expression parses and is within bounds, else the one-line reason."""
    try:
        roll(expression, random.Random(0))
    except DiceError as exc:
        return str(exc)
    return None

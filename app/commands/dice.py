"""Rolls that land in the roll log (GEN-01, GEN-03)."""

from __future__ import annotations

from app.state import Transaction
from rulesets import dice
from rulesets.base import CheckResult
from rulesets.values import frozen


@frozen
class RollDice:
    """Roll any dice expression into the log (the quick-roll prompt, the tray's dice line)."""

    expression: str
    who: str = "GM"

    @property
    def label(self) -> str:
        return f"Roll {self.expression}"

    def run(self, tx: Transaction) -> list[str]:
        result = dice.roll(self.expression, tx.rng)
        check = CheckResult(
            expression=result.expression,
            total=result.total,
            dice=result.dice,
            detail=result.text,
            dropped=result.dropped,
        )
        return [tx.log_roll(self.who, check)]

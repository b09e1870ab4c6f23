"""Rolls that land in the roll log (GEN-01, GEN-03)."""

from __future__ import annotations

from dataclasses import dataclass

from app.state import Transaction, roll_line
from rulesets import dice
from rulesets.base import CheckResult
from rulesets.table import Tx

__all__ = ["LogCheck", "RollDice", "log_roll", "roll_line"]


def log_roll(tx: Tx, who: str, result: CheckResult) -> str:
    """Append one roll to the roll log and return its one-line summary."""
    return tx.log_roll(who, result)


@dataclass(frozen=True)
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
        )
        return [log_roll(tx, self.who, check)]


@dataclass(frozen=True)
class LogCheck:
    """Record a check already resolved by a ruleset (the tray's one-key checks)."""

    result: CheckResult
    who: str = "GM"

    @property
    def label(self) -> str:
        return f"{self.result.expression} for {self.who}"

    def run(self, tx: Transaction) -> list[str]:
        return [log_roll(tx, self.who, self.result)]

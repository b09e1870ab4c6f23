"""Rolls that land in the roll log (GEN-01, GEN-03)."""

from __future__ import annotations

from dataclasses import dataclass

from app.state import Transaction
from rulesets import dice
from rulesets.base import CheckResult


def log_roll(tx: Transaction, who: str, result: CheckResult, *, kind: str = "roll") -> str:
    """Append one roll to the roll log and return its one-line summary."""
    entry = {"at": tx.now(), "kind": kind, "who": who, **result.as_log()}
    tx.insert("log", entry)
    line = roll_line(entry)
    tx.logged_lines.add(line)
    return line


def roll_line(entry: dict[str, object]) -> str:
    who = entry.get("who") or "GM"
    band = f" — {entry['band']}" if entry.get("band") else ""
    detail = f" ({entry['detail']})" if entry.get("detail") else ""
    return f"{who}: {entry.get('expression', '')} = {entry.get('total', '')}{band}{detail}"


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
            dropped=result.dropped,
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

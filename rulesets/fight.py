"""How a fight runs in a game: its foes, initiative, damage and healing (filled by the combat port)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FightRules:
    """The combat tracker's questions to a game."""

"""A PC's sheet in play: how its resources and lists change, and the party-wide rests (filled by the party port)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SheetRules:
    """The party sheet's questions to a game."""

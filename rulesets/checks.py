"""The checks a game lets the tray state (filled by the tray port)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CheckRules:
    """The tray's questions to a game."""

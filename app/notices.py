"""What the app told the GM in toasts this session: kept so that a thing is not said twice
(a game's failure met again under another key), and for tests to read."""

from __future__ import annotations

from dataclasses import dataclass

from textual.notifications import SeverityLevel

from rulesets.text import visible

NOTICES_KEPT = 100
"""Toasts a :class:`Notices` keeps (a session says a few dozen at most)."""
LATELY = 10
"""Toasts :meth:`Notices.said_lately` looks back over."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One toast as the GM saw it (names from the save made visible)."""

    message: str
    title: str
    severity: SeverityLevel

    @classmethod
    def shown(cls, message: str, title: str, severity: SeverityLevel) -> Notice:
        # Toasts quote names, labels and file names from the save: made visible here, once.
        return cls(visible(message), visible(title), severity)


class Notices:
    """The newest :data:`NOTICES_KEPT` toasts, oldest first."""

    def __init__(self) -> None:
        self.kept: list[Notice] = []

    def add(self, notice: Notice) -> None:
        self.kept = [*self.kept[-(NOTICES_KEPT - 1) :], notice]

    def said_lately(self, text: str) -> bool:
        """True when one of the last :data:`LATELY` toasts says ``text``."""
        return any(text in notice.message for notice in self.kept[-LATELY:])

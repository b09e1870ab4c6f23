"""What a panel needs of the app it runs in: the campaign to read, and the one way to change it.

Screens reach the app through this protocol rather than importing :mod:`app.tui`, so the app
can import its screens without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from app.state import Campaign, Command
from app.typing_pause import TypingPause


class TableHost(Protocol):
    """The running Tableside app as its panels see it."""

    campaign: Campaign
    save_problem: str | None
    """Why the newest changes are not on disk yet (the panels' banner); None: saved."""
    typing_pause: TypingPause
    """When the GM last pressed a key: background counts wait for the keys to go quiet."""

    def apply(
        self, command: Command, refused: Callable[[str], None] | None = None
    ) -> list[str] | None:
        """Apply a command; on refusal tell the GM why (``refused``: hand it the message
        instead, e.g. to show it in the form it came from) and return None."""
        ...

    def game_key_clash(self, text: str) -> None:
        """Tell the GM, once a session, that a game's action was left unbound (its key is the
        panel's or the app's own)."""
        ...

    def game_failed(self, error: Exception) -> bool:
        """True (and the GM told, once) when ``error`` is the open game's failure: a hook
        that raised, or the game's own code; False when it is not the game's."""
        ...

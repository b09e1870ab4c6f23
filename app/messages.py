"""Messages that travel upward from the campaign to the screens."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class CampaignChanged(Message):
    """The campaign changed (a command, an undo, a redo); ``tables`` says which parts."""

    tables: list[str]

"""What a widget reads of the open campaign: the app's campaign and its game, read only.

A widget reads the campaign to draw it; every change goes through its screen's command path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulesets.game import Game

if TYPE_CHECKING:
    from textual.app import App

    from app.host import TableHost
    from app.state import Campaign


class CampaignReader:
    """A mixin for widgets: :attr:`campaign` and :attr:`game` as they are now."""

    if TYPE_CHECKING:
        app: App[None]

    @property
    def campaign(self) -> Campaign:
        return cast("TableHost", self.app).campaign

    @property
    def game(self) -> Game:
        return self.campaign.game

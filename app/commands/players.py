"""The players' view settings: what the GM lets the players see in ``tableside serve``."""

from __future__ import annotations

import secrets

from app.player_settings import SECRET_KEY, SETTINGS_KEY, settings_problem
from app.player_view import PlayerSettings
from app.state import CommandError, Transaction
from rulesets.values import frozen


@frozen
class SetPlayerView:
    """Save the players' view settings; the first time, also the secret the PC codes come from.

    The secret is created here, when the GM first sets the view up, rather than on opening a
    campaign: opening never writes, and undoing this removes the codes with the settings.
    """

    settings: PlayerSettings

    @property
    def label(self) -> str:
        return "Players' view settings"

    def run(self, tx: Transaction) -> list[str]:
        problem = settings_problem(self.settings.to_dict())
        if problem:
            raise CommandError(f"Players' view: {problem}")
        meta = tx.meta()
        lines = []
        if meta.get(SETTINGS_KEY) != self.settings.to_dict():
            meta[SETTINGS_KEY] = self.settings.to_dict()
            s = self.settings
            lines.append(
                f"Players see foe health as {s.foe_health}, "
                f"round {'shown' if s.show_round else 'hidden'}, "
                f"AP {'shown' if s.show_ap else 'hidden'}"
            )
        if not meta.get(SECRET_KEY):
            # Not the campaign rng: a code must not be guessable from seeded dice.
            meta[SECRET_KEY] = secrets.token_hex(16)
            lines.append("Player codes created (shown on the party sheet)")
        if lines:
            tx.put("meta", 1, meta)
        return lines

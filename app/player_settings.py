"""What the GM lets the players see, as the save holds it: the ``meta`` key and its check.

Apart from :mod:`app.player_view` because every save's check reads it (:mod:`app.schema`)
while the view itself is needed only by ``tableside serve`` and the party panel: the
start-up no longer imports the view.
"""

from __future__ import annotations

from typing import Any

SETTINGS_KEY = "player_view"
SECRET_KEY = "player_secret"

FOE_HEALTH: tuple[str, ...] = ("label", "hidden", "numbers")


def settings_problem(raw: Any) -> str | None:
    """Why a saved ``player_view`` cannot be used (``"'foe_health' must be …"``), or None."""
    if not isinstance(raw, dict):
        return "must be an object"
    foe = raw.get("foe_health", "label")
    if foe not in FOE_HEALTH:
        return f"'foe_health' must be one of {', '.join(FOE_HEALTH)}"
    for key in ("show_round", "show_ap"):
        if not isinstance(raw.get(key, True), bool):
            return f"'{key}' must be true or false"
    return None

"""Read-only questions the panels ask of the campaign (no writes here)."""

from __future__ import annotations

from typing import Any

from app.state import Campaign


def current_encounter(campaign: Campaign) -> tuple[int, dict[str, Any]] | None:
    """The encounter the combat panel is running: ``meta.current_encounter`` or the first one."""
    rows = campaign.rows("encounters")
    if not rows:
        return None
    wanted = campaign.meta.get("current_encounter")
    for doc_id, enc in rows:
        if doc_id == wanted:
            return doc_id, enc
    return rows[0]


def fight_running(campaign: Campaign) -> str | None:
    """The name of an encounter started and not ended, or None when no fight is on."""
    for _doc_id, enc in campaign.rows("encounters"):
        if enc.get("started"):
            return str(enc.get("name") or "an encounter")
    return None


def timed_effect_lines(meta: dict[str, Any]) -> list[str]:
    """The campaign clock's timed effects, soonest to end first: ``Torch (Ada) 40 min left``."""
    from rulesets.clock import duration_text, read

    return [
        f"{effect.label}{' · light' if effect.light else ''}: {duration_text(left)} left"
        for effect, left in read(meta).effects_left()
    ]

"""Every game Tableside ships, by ruleset id."""

from __future__ import annotations

import importlib

from rulesets.base import Ruleset

GAMES: dict[str, str] = {
    "somnihil": "Somnihil",
    "resolution": "Resolution rules (Without Number style)",
    "shadows": "Shadows of Humanity",
    "nemron": "Nemron",
    "aspects": "The 2d6 aspects game",
}


def get(ruleset_id: str) -> Ruleset:
    """The ruleset of that id (``rulesets.<id>.RULESET``)."""
    if ruleset_id not in GAMES:
        raise KeyError(f"unknown game {ruleset_id!r}; choose one of {', '.join(GAMES)}")
    module = importlib.import_module(f"rulesets.{ruleset_id}")
    ruleset: Ruleset = module.RULESET
    return ruleset

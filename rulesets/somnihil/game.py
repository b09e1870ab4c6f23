"""Somnihil as Tableside plays it: the declaration the app reads (see :mod:`rulesets.game`)."""

from __future__ import annotations

from rulesets.game import API_VERSION, DemoPC, Game
from rulesets.somnihil import checks, clock, exchange, fight, players, sheet
from rulesets.somnihil.rules import RULESET

DEMO_PARTY = (
    DemoPC(
        "Vesna Kade",
        details={
            "sessions": 1,
            "lists": {
                "spells": [
                    {"name": "Rot Touch", "protocol": "Decay"},
                    {"name": "Blink", "protocol": "Spatial"},
                    {"name": "Wither", "protocol": "Decay"},
                ]
            },
        },
    ),
    DemoPC(
        "Orrin Hale",
        details={
            "sessions": 1,
            "lists": {"spells": [{"name": "Mend", "protocol": "Creation"}]},
        },
    ),
    DemoPC("Tamsin Vey"),
    DemoPC("Ibrahim Sol"),
)

GAME = Game(
    ruleset=RULESET,
    demo_party=DEMO_PARTY,
    fight=fight.FIGHT,
    exchange=exchange.EXCHANGE,
    foes=fight.FOES,
    checks=checks.CHECKS,
    sheet=sheet.SHEET,
    players=players.PLAYERS,
    time=clock.TIME_RULES,
    actions=(*fight.ACTIONS, *checks.ACTIONS, *sheet.ACTIONS),
    summary="d20 outcome bands, action points per session, Anomalies, vitality and Cheat Death",
    api_version=API_VERSION,
)

"""Resolution as Tableside plays it: the declaration the app reads (see :mod:`rulesets.game`)."""

from __future__ import annotations

from rulesets.game import API_VERSION, DemoPC, Game
from rulesets.resolution import checks, clock, exchange, fight, players, sheet
from rulesets.resolution.rules import RULESET

DEMO_PARTY = (
    DemoPC(
        "Mara Quell", attributes={"str": 14, "dex": 12, "con": 13, "int": 10, "wis": 15, "cha": 9}
    ),
    DemoPC(
        "Dov Ashgrove",
        attributes={"str": 9, "dex": 16, "con": 11, "int": 17, "wis": 12, "cha": 10},
        details={"lists": {"deliria": ["Counts every door twice"]}},
    ),
    DemoPC(
        "Sefa Ironwood",
        attributes={"str": 16, "dex": 10, "con": 15, "int": 8, "wis": 11, "cha": 13},
    ),
    DemoPC(
        "Lio Marchetti",
        attributes={"str": 10, "dex": 13, "con": 12, "int": 12, "wis": 9, "cha": 16},
    ),
)

GAME = Game(
    ruleset=RULESET,
    demo_party=DEMO_PARTY,
    fight=fight.FIGHT,
    exchange=exchange.EXCHANGE,
    checks=checks.CHECKS,
    sheet=sheet.SHEET,
    players=players.PLAYERS,
    time=clock.TIME_RULES,
    actions=(*fight.ACTIONS, *checks.ACTIONS, *sheet.ACTIONS),
    summary="Without Number style: DC table, Grip and Deliria, HD-derived NPCs, morale",
    api_version=API_VERSION,
)

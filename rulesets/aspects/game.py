"""Aspects as Tableside plays it: the declaration the app reads (see :mod:`rulesets.game`)."""

from __future__ import annotations

from rulesets.aspects import checks, clock, exchange, fight, foes, players, sheet
from rulesets.aspects.rules import RULESET
from rulesets.game import API_VERSION, DemoPC, Game

DEMO_PARTY = (
    DemoPC("Rowan Pike", details={"lists": {"aspects": ["Disgraced Knight", "Owes the Guild"]}}),
    DemoPC(
        "Juno Hart", details={"lists": {"aspects": ["Street Surgeon", "Never Leaves a Friend"]}}
    ),
    DemoPC("Casimir Dunn", details={"lists": {"aspects": ["Loud and Proud"]}}),
    DemoPC("Ada Wren"),
)

GAME = Game(
    ruleset=RULESET,
    demo_party=DEMO_PARTY,
    fight=fight.FIGHT,
    exchange=exchange.EXCHANGE,
    foes=foes.FOES,
    checks=checks.CHECKS,
    sheet=sheet.SHEET,
    players=players.PLAYERS,
    time=clock.TIME_RULES,
    actions=(*fight.ACTIONS, *checks.ACTIONS, *sheet.ACTIONS),
    summary="2d6 + skill bands, aspects, fate points, stress and consequences",
    api_version=API_VERSION,
)

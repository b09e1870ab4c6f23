"""Nemron as Tableside plays it: the declaration the app reads (see :mod:`rulesets.game`)."""

from __future__ import annotations

from rulesets.game import API_VERSION, DemoPC, Game
from rulesets.nemron import checks, clock, exchange, fight, foes, players, sheet
from rulesets.nemron.rules import RULESET

DEMO_PARTY = (
    DemoPC(
        "Kesh Varn",
        attributes={
            "power": 2,
            "agility": 1,
            "constitution": 2,
            "awareness": 1,
            "sense": 0,
            "focus": 1,
            "control": 0,
            "intellect": 1,
            "willpower": 0,
        },
        details={"skills": {"Brawling": 2, "Firearms": 1}},
    ),
    DemoPC(
        "Ylva Rask",
        attributes={
            "power": 0,
            "agility": 3,
            "constitution": 1,
            "awareness": 2,
            "sense": 1,
            "focus": 0,
            "control": 1,
            "intellect": 0,
            "willpower": 1,
        },
        details={"skills": {"Stealth": 2, "Acrobatics": 1}},
    ),
    DemoPC(
        "Tomas Ert",
        attributes={
            "power": 1,
            "agility": 0,
            "constitution": 1,
            "awareness": 1,
            "sense": 2,
            "focus": 2,
            "control": 2,
            "intellect": 2,
            "willpower": 1,
        },
        details={"skills": {"Medicine": 2, "Lore": 1}},
    ),
    DemoPC(
        "Nadia Fel",
        attributes={
            "power": 1,
            "agility": 1,
            "constitution": 1,
            "awareness": 0,
            "sense": 1,
            "focus": 1,
            "control": 1,
            "intellect": 1,
            "willpower": 3,
        },
        details={"skills": {"Persuasion": 1}},
    ),
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
    summary="rank-dice pools keep highest, boons and penalties, the drama die, limbs, energy",
    api_version=API_VERSION,
)

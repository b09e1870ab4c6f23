"""Shadows as Tableside plays it: the declaration the app reads (see :mod:`rulesets.game`)."""

from __future__ import annotations

from rulesets.game import API_VERSION, DemoPC, Game
from rulesets.shadows import checks, clock, exchange, fight, foes, players, sheet, tarot
from rulesets.shadows.rules import RULESET

DEMO_SKILL = 10
"""The attack skill each demo PC remembers (SOH-14: the attack card plus the attacker's attack
skill). Reading: the sheet holds no skills, so a PC's attack skill is the one it remembers
(the exchange's ctrl+e); the demo's is 10, the text's scale, where a Normal task's 25 is an
average card, a skill and an attribute."""

DEMO_PARTY = (
    DemoPC(
        "Agnes Thorne",
        attributes={
            "quickness": 4,
            "body": 3,
            "mind": 2,
            "spirit": 2,
            "physical": 4,
            "mental": 2,
            "emotional": 2,
            "intuition": 3,
            "discipline": 2,
        },
        details={
            "lists": {"major_arcana": [tarot.major_card("The Star").to_dict()]},
            "attack": {"skill": DEMO_SKILL},
        },
    ),
    DemoPC(
        "Felix Marrow",
        attributes={
            "quickness": 2,
            "body": 2,
            "mind": 4,
            "spirit": 2,
            "physical": 2,
            "mental": 4,
            "emotional": 3,
            "intuition": 2,
            "discipline": 4,
        },
        details={"attack": {"skill": DEMO_SKILL}},
    ),
    DemoPC(
        "Ines Calder",
        attributes={
            "quickness": 3,
            "body": 2,
            "mind": 2,
            "spirit": 4,
            "physical": 2,
            "mental": 2,
            "emotional": 4,
            "intuition": 4,
            "discipline": 2,
        },
        details={"attack": {"skill": DEMO_SKILL}},
    ),
    DemoPC(
        "Bram Okafor",
        attributes={
            "quickness": 1,
            "body": 4,
            "mind": 2,
            "spirit": 2,
            "physical": 5,
            "mental": 1,
            "emotional": 2,
            "intuition": 1,
            "discipline": 3,
        },
        details={"attack": {"skill": DEMO_SKILL}},
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
    decks=tarot.DECKS,
    actions=(*fight.ACTIONS, *checks.ACTIONS, *sheet.ACTIONS),
    summary="tarot Minor and Major Arcana draws, AP per round, combat hands, criticals",
    api_version=API_VERSION,
)

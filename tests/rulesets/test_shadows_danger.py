"""Shadows in the danger estimate: the cards played leave the hand and the hands are dealt again
each round (SOH-11, SOH-13), so no card counts in every attack of every round; a combatant is
out when Health or Life is at 0 (SOH-17)."""

from __future__ import annotations

import random
from pathlib import Path

from rulesets import danger
from rulesets import exchange as ex
from rulesets.shadows import foes
from rulesets.shadows.exchange import EXCHANGE, room
from rulesets.shadows.tarot import Card
from tests.test_danger import demo_data, fight_of, the_encounter


def _pair(tmp_path: Path) -> ex.Setup:
    fight = fight_of(demo_data(tmp_path, "shadows"))
    pc = next(c for c in fight.enc.combatants if c.side == "pc")
    foe = next(c for c in fight.enc.combatants if c.side != "pc")
    return ex.setup_of(fight, foe.id, pc.id)


def test_a_later_exchange_plays_from_fresh_hands_and_the_defender_its_best_card(
    tmp_path: Path,
) -> None:
    """The old reading kept the hand as dealt: a goblin's King struck in every round."""
    setup = _pair(tmp_path)
    assert EXCHANGE.dealt is not None
    later = EXCHANGE.dealt(setup, random.Random(4))
    dealt_hand = [Card.from_dict(c) for c in setup.attacker.extra["hand"]]
    fresh = [Card.from_dict(c) for c in later.attacker.extra["hand"]]
    defence = [Card.from_dict(c) for c in later.target.extra["hand"]]
    assert len(fresh) == len(dealt_hand)
    assert len(defence) == len(setup.target.extra["hand"])
    assert not {c.key for c in fresh} & {c.key for c in defence}  # one deck, dealt once
    hands = {
        tuple(sorted(c["label"] if "label" in c else str(c) for c in
                     EXCHANGE.dealt(setup, random.Random(seed)).attacker.extra["hand"]))
        for seed in range(5)
    }  # fmt: skip
    assert len(hands) > 1
    best = foes.best_defence(defence, 1)
    assert later.defence == ", ".join(c.label for c in best)


def test_room_is_the_smaller_of_health_and_life() -> None:
    health = {"resources": {"health": {"current": 7, "max": 20}, "life": {"current": 3, "max": 20}}}
    side = ex.Side.__new__(ex.Side)
    assert room(side, health) == 3
    assert room(side, {"resources": {}}) == 0


def test_the_demo_party_against_its_three_goblins_is_not_deadly(tmp_path: Path) -> None:
    """Four PCs with Health/Life 20 against three goblins with 10: the hand as dealt made it
    about even, a King in every attack; played out by the rules the party wins nearly always."""
    data = demo_data(tmp_path, "shadows")
    assert sum(c["side"] != "pc" for c in the_encounter(data)["combatants"]) == 3
    found = danger.estimate(fight_of(data), 1000, random.Random(5))
    assert danger.band(found) != "deadly"
    assert found.win_interval[0] > 0.8


def test_the_estimate_does_not_swing_with_the_deal(tmp_path: Path) -> None:
    """Each deal's estimate lies within the others' intervals: the hand as dealt no longer
    decides the whole fight."""
    data = demo_data(tmp_path, "shadows")
    found = [danger.estimate(fight_of(data, seed), 600, random.Random(7)) for seed in (1, 2, 3)]
    lows = [f.win_interval[0] for f in found]
    highs = [f.win_interval[1] for f in found]
    assert max(lows) <= min(highs)

"""Shadows of Humanity (SOH-01..17, GEN-02 for cards)."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.decks import GM, DeckError, DeckState, hand_summary
from rulesets.shadows import rules as soh
from rulesets.shadows.tarot import (
    MAJOR_ARCANA,
    SUITS,
    TOWER_TEXT_ERRATUM,
    Card,
    deck_from_dict,
    full_deck,
    major_card,
    minor_card,
    new_deck,
    spec_of,
)


def stacked(*top: Card, deck: str = "minor") -> DeckState[Card]:
    """A whole deck with ``top`` on top in that order, the rest after in fixed order."""
    keys = {c.key for c in top}
    rest = [c for c in full_deck(deck) if c.key not in keys]  # type: ignore[arg-type]
    return DeckState(spec_of(deck), list(top) + rest)


def m(text: str) -> Card:
    """``m("Q Cups")`` style shorthand: rank word and suit."""
    rank, suit = text.split()
    rank = {"A": "Ace", "P": "Page", "N": "Knight", "Q": "Queen", "K": "King"}.get(rank, rank)
    return minor_card(rank, suit)


# --- SOH-01 decks ----------------------------------------------------------------------------


def test_soh01_minor_deck_values_and_suits() -> None:
    deck = full_deck("minor")
    assert len(deck) == 56
    assert len({c.key for c in deck}) == 56
    assert {c.suit for c in deck} == {"Cups", "Coins", "Swords", "Wands"}
    values = {c.rank: c.value for c in deck}
    assert values["Ace"] == 1 and values["10"] == 10
    assert (values["Page"], values["Knight"], values["Queen"], values["King"]) == (11, 12, 13, 14)
    assert m("Q Cups").name == "Queen of Cups" and m("Q Cups").is_face
    assert not m("10 Cups").is_face


def test_soh01_major_deck_meanings_and_tower_erratum() -> None:
    deck = full_deck("major")
    assert len(deck) == 22 and len(MAJOR_ARCANA) == 22
    tower, devil = major_card("Tower"), major_card("The Devil")
    assert tower.name == "The Tower" and tower.value == 16
    assert devil.meaning() == "Bondage, addiction, sexuality, materialism"
    assert tower.meaning() != devil.meaning()
    assert tower.meaning(reversed_meaning=True) != devil.meaning(reversed_meaning=True)
    assert major_card("Fool", reversed_=True).meaning() == (
        "Naivety, foolishness, recklessness, risk-taking"
    )
    assert "Devil" in TOWER_TEXT_ERRATUM


def test_soh01_card_json_layout_round_trip() -> None:
    card = m("Q Cups")
    assert card.to_dict() == {
        "deck": "minor", "rank": "Queen", "value": 13, "suit": "Cups",
        "reversed": False, "name": "Queen of Cups",
    }  # fmt: skip
    tower = major_card("The Tower", reversed_=True)
    assert tower.to_dict()["rank"] == "The Tower" and tower.to_dict()["suit"] is None
    assert Card.from_dict(tower.to_dict()) == tower
    assert Card.from_dict(card.to_dict()) == card
    with pytest.raises(DeckError):
        Card.from_dict({"deck": "minor", "rank": "Jack", "suit": "Cups"})


def test_soh01_draw_without_replacement_and_reshuffle_event() -> None:
    rng = random.Random(3)
    deck = new_deck("minor", rng)
    first = deck.draw(rng, 56)
    assert len({c.key for c in first.cards}) == 56 and first.events == ()
    assert deck.draw_pile == [] and len(deck.discard) == 56
    again = deck.draw(rng, 1)
    assert again.events and "56 discards reshuffled" in again.events[0]
    assert len(deck.draw_pile) == 55 and len(deck.discard) == 1


def test_soh01_state_round_trip_and_refuses_doubled_card() -> None:
    rng = random.Random(5)
    deck = new_deck("minor", rng)
    deck.draw(rng, 5, to="ann")
    deck.draw(rng, 3)
    data = deck.to_dict()
    back = deck_from_dict(data)
    assert back == deck and back.to_dict() == data
    data["discard"].append(data["draw_pile"][0])
    with pytest.raises(DeckError, match="doubled"):
        deck_from_dict(data)


def test_soh01_recall_hands_and_gather() -> None:
    rng = random.Random(2)
    deck = new_deck("minor", rng)
    deck.draw(rng, 4, to="ann")
    deck.draw(rng, 2, to="bob")
    deck.recall_hands()
    assert deck.hands == {} and len(deck.discard) == 6
    deck.gather_and_shuffle(rng)
    assert len(deck.draw_pile) == 56 and deck.discard == []


def test_soh01_major_shuffle_sets_orientation() -> None:
    deck = new_deck("major", random.Random(8))
    assert {c.reversed for c in deck.draw_pile} == {True, False}
    assert all(not c.reversed for c in new_deck("minor", random.Random(8)).draw_pile)


def test_soh01_cannot_draw_cards_held_in_hands() -> None:
    rng = random.Random(1)
    deck = new_deck("major", rng)
    deck.draw(rng, 21, to="ann")
    deck.draw(rng, 1)
    with pytest.raises(DeckError, match="only 1"):
        deck.draw(rng, 2)
    deck.validate()


OPS = st.lists(
    st.tuples(
        st.sampled_from(["draw", "deal", "play", "recall", "gather", "shuffle"]),
        st.integers(0, 20),
        st.sampled_from(["ann", "bob", "cy"]),
    ),
    max_size=40,
)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10_000), ops=OPS, kind=st.sampled_from(["minor", "major"]))
def test_soh01_property_deck_stays_whole(seed: int, ops: list[Any], kind: str) -> None:
    rng = random.Random(seed)
    deck = new_deck(kind, rng)  # type: ignore[arg-type]
    for op, n, who in ops:
        try:
            if op == "draw":
                deck.draw(rng, n)
            elif op == "deal":
                deck.draw(rng, n, to=who)
            elif op == "play":
                deck.play(who, deck.hand(who)[: n % 4])
            elif op == "recall":
                deck.recall_hands()
            elif op == "gather":
                deck.gather_and_shuffle(rng)
            else:
                deck.shuffle(rng)
        except DeckError:
            pass
        keys = [c.key for c in deck.all_cards()]
        assert len(keys) == len(set(keys))  # never a card twice
        assert sorted(keys) == sorted(c.key for c in full_deck(kind))  # type: ignore[arg-type]
    assert deck_from_dict(deck.to_dict()) == deck


# --- SOH-02..06 all-or-nothing draws ---------------------------------------------------------


def test_soh02_single_card_and_middle_of_three() -> None:
    rng = random.Random(0)
    single = soh.skill_draw(rng, stacked(m("7 Cups")), skill=10, attribute=8, level="Normal")
    assert single.used == m("7 Cups") and single.total == 25 and single.band == "Success"
    three = soh.skill_draw(
        rng, stacked(m("9 Cups"), m("2 Coins"), m("K Wands")), skill=10, attribute=8, mode="three"
    )
    assert three.used == m("9 Cups") and three.extra is None and three.total == 27


def test_soh03_single_king_draws_one_more() -> None:
    rng = random.Random(0)
    result = soh.skill_draw(rng, stacked(m("K Cups"), m("K Swords"), m("5 Coins")), skill=3)
    assert result.extra == m("K Swords")
    assert result.total == 14 + 14 + 3  # the extra card does not chain
    assert result.as_check().dice == (14, 14)


def test_soh03_three_face_cards_draw_one_more() -> None:
    rng = random.Random(0)
    deck = stacked(m("P Cups"), m("N Coins"), m("P Wands"), m("6 Swords"))
    result = soh.skill_draw(rng, deck, skill=2, mode="three")
    assert result.used.value == 11 and result.extra == m("6 Swords") and result.total == 19
    two_faces = soh.skill_draw(rng, stacked(m("P Cups"), m("N Coins"), m("9 Wands")), mode="three")
    assert two_faces.extra is None


def test_soh04_queen_grants_major_arcana_to_character() -> None:
    rng = random.Random(0)
    major = stacked(major_card("The Star"), deck="major")
    result = soh.skill_draw(rng, stacked(m("Q Cups")), major=major, character_id="ann")
    assert result.granted == major_card("The Star")
    assert [c.name for c in major.hand("ann")] == ["The Star"]
    middle = soh.skill_draw(
        rng, stacked(m("2 Cups"), m("Q Coins"), m("K Cups")), mode="three", major=major,
        character_id="ann",
    )  # fmt: skip
    assert middle.granted is not None and len(major.hand("ann")) == 2


def test_soh04_sheet_list_use_and_carry_over_at_most_one() -> None:
    rng = random.Random(1)
    major = new_deck("major", rng)
    ann = soh.new_character("Ann")
    for card in major.draw(rng, 3, to="ann").cards:
        ann = soh.grant_major_arcana(ann, card)
    held = [c["name"] for c in ann["lists"]["major_arcana"]]
    assert len(held) == 3
    used = soh.use_major_arcana(major, ann, "ann", held[0], reversed_meaning=True)
    assert len(used.character["lists"]["major_arcana"]) == 2
    assert used.meaning == used.card.meaning(reversed_meaning=True)
    end = soh.end_session(major, {"ann": used.character}, keep={"ann": held[1]})
    assert [c["name"] for c in end.characters["ann"]["lists"]["major_arcana"]] == [held[1]]
    assert [c.name for c in major.hand("ann")] == [held[1]]
    major.validate()
    nothing = soh.end_session(major, end.characters)
    assert nothing.characters["ann"]["lists"]["major_arcana"] == [] and major.hands == {}


@pytest.mark.parametrize(
    ("level", "fumble_max", "success", "critical"),
    [
        ("Mundane", 1, 15, 30), ("Simple", 1, 20, 35), ("Normal", 1, 25, 40),
        ("Difficult", 2, 30, 45), ("Hard", 2, 35, 50), ("Very Hard", 3, 40, 60),
        ("Extremely Hard", 3, 45, 65), ("Absurd", 4, 50, 70),
    ],
)  # fmt: skip
def test_soh05_difficulty_table_bands(
    level: str, fumble_max: int, success: int, critical: int
) -> None:
    assert soh.band_for(fumble_max, 99, level) == "Critical Failure"
    assert soh.band_for(fumble_max + 1, success - 1, level) == "Failure"
    assert soh.band_for(fumble_max + 1, success, level) == "Success"
    assert soh.band_for(fumble_max + 1, critical - 1, level) == "Success"
    assert soh.band_for(fumble_max + 1, critical, level) == "Critical Success"


def test_soh05_total_is_card_skill_attribute() -> None:
    result = soh.skill_draw(
        random.Random(0), stacked(m("10 Swords")), skill=12, attribute=9, level="Hard"
    )
    assert result.total == 31 and result.band == "Failure"
    assert soh.BANDS == ("Critical Failure", "Failure", "Success", "Critical Success")
    with pytest.raises(soh.RuleError):
        soh.difficulty("Impossible")


def test_soh06_fumble_fails_and_gm_draws_omen() -> None:
    rng = random.Random(0)
    major = stacked(major_card("The Moon"), deck="major")
    result = soh.skill_draw(rng, stacked(m("A Cups")), skill=40, major=major, level="Mundane")
    assert result.fumble and result.band == "Critical Failure" and result.total == 41
    assert result.omen == major_card("The Moon") and major.discard == [major_card("The Moon")]
    hard = soh.skill_draw(rng, stacked(m("A Cups"), m("2 Coins"), m("9 Wands")), mode="three",
                          level="Difficult", skill=40)  # fmt: skip
    assert hard.used.value == 2 and hard.band == "Critical Failure"


def test_soh06_combat_fumble_on_ace_attack() -> None:
    rng = random.Random(0)
    fumbled = soh.resolve_attack(rng, stacked(m("3 Cups")), m("A Swords"), 30, 5, fumble_value=3)
    assert fumbled.fumble is not None and fumbled.fumble.fumbled and fumbled.damage == 0
    safe = soh.resolve_attack(rng, stacked(m("4 Cups")), m("A Swords"), 30, 5, fumble_value=3)
    assert safe.fumble is not None and not safe.fumble.fumbled and safe.damage == 26


def test_soh07_assistance_half_and_quarter() -> None:
    assert soh.assistance_bonus(9) == 4
    assert soh.assistance_bonus(10, 9) == 5 + 2
    assert soh.assistance_bonus() == 0
    result = soh.skill_draw(
        random.Random(0), stacked(m("5 Cups")), skill=10, attribute=5,
        assistance=soh.assistance_bonus(10, 8),
    )  # fmt: skip
    assert result.total == 5 + 10 + 5 + 5 + 2


# --- SOH-08 opposed, SOH-09 counter ----------------------------------------------------------


def test_soh08_opposed_tie_draws_again() -> None:
    deck = stacked(m("7 Cups"), m("9 Coins"), m("3 Wands"), m("5 Swords"))
    result = soh.opposed_draw(random.Random(0), deck, 12, 10)
    assert result.cards_a == (m("7 Cups"), m("3 Wands"))  # 19 v 19 tied, both drew again
    assert result.total_a == 22 and result.total_b == 24 and result.winner == "b"
    assert len(deck.discard) == 4


def test_soh08_contest_hidden_margin() -> None:
    rng = random.Random(4)
    deck = new_deck("minor", rng)
    contest = soh.Contest(margin=3)
    while not contest.finished:
        contest, _ = contest.draw(rng, deck, 10, 10)
    assert abs(contest.score_a - contest.score_b) == 3 and contest.winner in ("a", "b")
    assert "margin" not in contest.public()
    assert soh.Contest.from_dict(contest.to_dict()) == contest
    with pytest.raises(soh.RuleError):
        contest.draw(rng, deck, 10, 10)
    points = soh.Contest(max_draws=2, scoring="points")
    points, first = points.draw(rng, deck, 5, 0)
    assert points.score_a == first.total_a
    with pytest.raises(soh.RuleError):
        soh.Contest()


def test_soh09_counter_action() -> None:
    hit = soh.counter_action(m("9 Cups"), m("4 Swords"), 20, {"Cups"})
    assert hit.success and hit.reduction == 5 and hit.new_target_total == 15 and hit.ap_cost == 1
    wrong_suit = soh.counter_action(m("9 Coins"), m("4 Swords"), 20, {"Cups"})
    assert not wrong_suit.success and wrong_suit.new_target_total == 20
    lower = soh.counter_action(m("3 Cups"), m("4 Swords"), 20, {"Cups"})
    assert not lower.success
    drawn = soh.draw_counter(random.Random(0), stacked(m("K Cups")), m("4 Swords"), 20, {"Cups"})
    assert drawn.reduction == 10


# --- SOH-10..12 AP and hands -----------------------------------------------------------------


def test_soh10_ap_per_round() -> None:
    assert soh.ap_per_round(1) == 6 and soh.ap_per_round(2) == 6
    assert soh.ap_per_round(7) == 9 and soh.ap_per_round(16) == 13
    assert {soh.ap_per_round(q) for q in range(1, 17)} == set(range(6, 14))
    assert soh.acting_order({"a": 3, "b": 9, "c": 3}) == ["b", "a", "c"]
    assert soh.spend_ap(5, 2) == 3
    with pytest.raises(soh.RuleError):
        soh.spend_ap(1, 2)
    ann = soh.new_character("Ann", quickness=9)
    assert ann["resources"]["ap"] == {"current": 10, "max": 10}


def test_soh11_hand_size_by_focus_and_deal() -> None:
    attrs = {"body": 6, "physical": 5, "mind": 4, "mental": 8, "spirit": 3, "emotional": 3}
    assert soh.hand_size(attrs, "physical") == 8
    assert soh.hand_size(attrs, "mental") == 8
    assert soh.hand_size(attrs, "spiritual") == 4
    rng = random.Random(6)
    deck = new_deck("minor", rng)
    deck.draw(rng, 10)
    deal = soh.deal_combat_hands(rng, deck, {"ann": 8, "orc": 4})
    assert deal.dealt == {"ann": 8, "orc": 4} and len(deck.draw_pile) == 44
    short = soh.deal_combat_hands(rng, deck, {"a": 30, "b": 30})
    assert sum(short.dealt.values()) == 56 and any("ran out" in e for e in short.events)


def test_soh11_redraw_off_focus_and_effort() -> None:
    rng = random.Random(7)
    deck = new_deck("minor", rng)
    deck.draw(rng, 6, to="ann")
    old = deck.hand("ann")[:3]
    redraw = soh.redraw_hand(rng, deck, "ann", old)
    assert redraw.ap_cost == 1 and len(redraw.drawn) == 3 and len(deck.hand("ann")) == 6
    with pytest.raises(soh.RuleError):
        soh.redraw_hand(rng, deck, "ann", deck.hand("ann")[:4])
    assert soh.off_focus_penalty("physical", "mental") == -3
    assert soh.off_focus_penalty("mental", "mental") == 0
    assert soh.effort_allowed([m("3 Cups"), m("9 Coins")], 1)
    assert not soh.effort_allowed([m("K Cups"), m("9 Coins")], 1)
    assert soh.effort_allowed([m("K Cups"), m("9 Coins")], 2)


def test_soh12_hands_are_private() -> None:
    rng = random.Random(9)
    deck = new_deck("minor", rng)
    deck.draw(rng, 5, to="ann")
    deck.draw(rng, 3, to="bob")
    ann_view = hand_summary(deck, "ann")
    assert ann_view["ann"].cards == tuple(deck.hand("ann"))
    assert ann_view["bob"].cards is None and ann_view["bob"].count == 3
    gm_view = hand_summary(deck, GM)
    assert all(v.cards is not None for v in gm_view.values())
    assert ann_view["bob"].to_dict() == {"holder": "bob", "count": 3, "cards": None}


# --- SOH-13..17 combat -----------------------------------------------------------------------


def test_soh13_defence_value() -> None:
    attrs = {"quickness": 7, "intuition": 4, "discipline": 9}
    plain = soh.defence(attrs)
    assert plain.total == 7 and plain.attribute == "quickness"
    played = soh.defence(attrs, "physical", [m("6 Coins"), m("5 Cups")], attacker_ap=2, cover=10)
    assert played.total == 7 + 12 + 5 + 10 and played.ap_spent == 2
    assert soh.defence(attrs, "spiritual").total == 4
    assert soh.defence(attrs, "mana", armour=2).total == 11
    assert soh.defence(attrs, cover=15, accuracy=10).total == 12
    with pytest.raises(soh.RuleError):
        soh.defence(attrs, cards=[m("2 Cups"), m("3 Cups")], attacker_ap=1)
    with pytest.raises(soh.RuleError):
        soh.defence(attrs, cover=7)


def test_soh14_damage_full_on_suit_else_one_plus_modifier() -> None:
    rng = random.Random(0)
    on_suit = soh.resolve_attack(rng, stacked(m("4 Cups")), m("9 Swords"), 8, 10, "physical", "D1")
    assert on_suit.suit_match and on_suit.base_damage == 7 and on_suit.damage == 7 + 4
    off = soh.resolve_attack(rng, stacked(m("4 Cups")), m("9 Coins"), 8, 10, "physical", "D1")
    assert not off.suit_match and off.damage == 1 + 4
    miss = soh.resolve_attack(rng, stacked(m("4 Cups")), m("2 Swords"), 8, 10, "physical", "D1")
    assert not miss.hit and miss.damage == 0
    spell = soh.resolve_attack(rng, stacked(), m("9 Wands"), 5, 10, "mana")
    assert spell.suit_match and spell.damage == 4
    assert soh.attack_value(m("9 Wands"), 5, soh.off_focus_penalty("mental", "physical")) == 11


def test_soh15_damage_modifiers() -> None:
    assert soh.modifier_value("D1", [9]) == 9
    assert soh.modifier_value("D2", [9, 4]) == 13
    assert soh.modifier_value("L2", [9, 4]) == 4
    assert soh.modifier_value("H2", [9, 4]) == 9
    assert soh.modifier_value("L3", [9, 4, 12]) == 13
    assert soh.modifier_value("H3", [9, 4, 12]) == 21
    assert soh.modifier_value("M3", [9, 4, 12]) == 9
    drawn = soh.draw_damage_modifier(
        random.Random(0), stacked(m("2 Cups"), m("K Coins"), m("7 Wands")), "m3"
    )
    assert drawn.value == 7 and len(drawn.cards) == 3
    with pytest.raises(soh.RuleError):
        soh.modifier_value("X9", [1])


def test_soh16_minor_and_major_criticals() -> None:
    rng = random.Random(0)
    minor = soh.resolve_attack(rng, stacked(m("6 Cups")), m("K Swords"), 0, 10)
    assert minor.critical is not None and minor.critical.level == "minor"
    assert minor.damage == 4 + 6
    deck = stacked(m("Q Cups"), m("P Swords"), m("N Coins"), m("3 Wands"))
    major = soh.resolve_attack(rng, deck, m("K Swords"), 0, 10, critical_suit="Swords")
    assert major.critical is not None and major.critical.level == "major"
    assert major.critical.major_cards == (m("P Swords"),)
    assert major.damage == 4 + 13 + 11 + 12 + 3
    defended = soh.defence({"quickness": 0}, cards=[m("P Cups")], attacker_ap=1)
    blocked = soh.resolve_attack(rng, stacked(m("6 Cups")), m("K Swords"), 11, defended)
    assert blocked.critical is None and blocked.damage == 14 + 11 - 11
    no_face = soh.resolve_attack(rng, stacked(m("6 Cups")), m("10 Swords"), 5, 10)
    assert no_face.critical is None


def test_soh17_firearm_life_damage_and_susceptibility() -> None:
    assert [soh.firearm_life_damage(v) for v in (1, 5, 6, 10, 11, 14)] == [1, 1, 2, 2, 3, 3]
    assert soh.scale_damage(7, "vulnerable") == 14
    assert soh.scale_damage(7, "resistant") == 3
    assert soh.scale_damage(7, "immune") == 0
    ann = soh.new_character("Ann")
    hit = soh.apply_hit(ann, 12, ("health", "life"), firearm=True)
    assert hit.character["resources"]["health"]["current"] == 8
    assert hit.character["resources"]["life"]["current"] == 17
    assert ann["resources"]["health"]["current"] == 20  # not mutated
    vuln = soh.apply_damage(ann, 12, "aessence", "vulnerable")
    assert vuln.applied == 24 and vuln.after == 0 and vuln.log
    down = soh.apply_damage(ann, 25, "health")
    assert down.character["status"] == "incapacitated"
    dead = soh.apply_damage(ann, 20, "life")
    assert dead.character["status"] == "dead"


# --- GEN-02 exact odds -----------------------------------------------------------------------


def test_gen02_soh05_single_draw_odds_full_deck() -> None:
    odds = soh.draw_odds(full_deck("minor"), 10, "Normal", "single")
    assert odds == {
        "Critical Failure": Fraction(1, 14),
        "Failure": Fraction(6, 7),
        "Success": Fraction(1, 14),
        "Critical Success": Fraction(0),
    }


def test_gen02_soh02_three_card_fumble_odds() -> None:
    odds = soh.draw_odds(full_deck("minor"), 15, "Hard", "three")
    # middle ≤ 2 needs two of the eight Aces and Twos
    assert odds["Critical Failure"] == Fraction(28 * 48 + 56, 27720)
    assert sum(odds.values()) == 1


def test_gen02_odds_fast_enough() -> None:
    deck = full_deck("minor")
    start = time.perf_counter()
    soh.draw_odds(deck, 20, "Very Hard", "three")
    soh.draw_odds(deck, 20, "Very Hard", "single")
    assert time.perf_counter() - start < 0.05


def _brute_force(cards: Sequence[Card], bonus: int, level: str, mode: str) -> dict[str, Fraction]:
    """Every ordered draw of the needed cards (plus the extra) equally likely."""
    need = 1 if mode == "single" else 3
    odds = dict.fromkeys(soh.BANDS, Fraction(0))
    perms = list(itertools.permutations(range(len(cards)), need))
    for perm in perms:
        drawn = [cards[i] for i in perm]
        used = drawn[0] if need == 1 else sorted(drawn, key=lambda c: c.value)[1]
        extra_due = used.rank == "King" if need == 1 else all(c.is_face for c in drawn)
        rest = [c for i, c in enumerate(cards) if i not in perm]
        p = Fraction(1, len(perms))
        if extra_due and rest:
            for extra in rest:
                band = soh.band_for(used.value, used.value + extra.value + bonus, level)
                odds[band] += p / len(rest)
        else:
            odds[soh.band_for(used.value, used.value + bonus, level)] += p
    return odds


@settings(max_examples=40, deadline=None)
@given(
    picks=st.lists(st.integers(0, 55), min_size=3, max_size=9, unique=True),
    bonus=st.integers(0, 40),
    level=st.sampled_from(soh.DIFFICULTY_NAMES),
    mode=st.sampled_from(["single", "three"]),
)
def test_gen02_property_odds_exact_and_sum_to_one(
    picks: list[int], bonus: int, level: str, mode: str
) -> None:
    deck = full_deck("minor")
    cards = [deck[i] for i in picks] + [m("K Cups"), m("Q Coins"), m("P Wands")]
    cards = list({c.key: c for c in cards}.values())
    odds = soh.draw_odds(cards, bonus, level, mode)  # type: ignore[arg-type]
    assert sum(odds.values()) == 1
    assert odds == _brute_force(cards, bonus, level, mode)


def test_gen02_check_odds_uses_draw_pile() -> None:
    rng = random.Random(1)
    deck = new_deck("minor", rng)
    deck.draw(rng, 50)
    odds = soh.check_odds(deck, 10, "Normal", "three")
    assert odds == soh.draw_odds(deck.draw_pile, 10, "Normal", "three")
    deck.draw(rng, 4)
    assert sum(soh.check_odds(deck, 10, "Normal", "three").values()) == 1


# --- the ruleset ---------------------------------------------------------------------------


def test_soh_ruleset_contract() -> None:
    ruleset = soh.RULESET
    assert ruleset.id == "shadows" and ruleset.turn_model == "ap_rounds"
    keys = [a.key for a in ruleset.sheet.attributes]
    assert keys == [
        "quickness", "body", "mind", "spirit", "physical", "mental", "emotional",
        "intuition", "discipline",
    ]  # fmt: skip
    assert [r.key for r in ruleset.sheet.resources] == ["health", "life", "aessence", "ap"]
    assert [s.key for s in ruleset.sheet.lists] == ["major_arcana"]
    ann = ruleset.make_character("Ann", quickness=4)
    assert ann["resources"]["ap"]["max"] == 7 and ann["lists"]["major_arcana"] == []
    assert ruleset.health(ann) == "H 20/20 · L 20/20 · Æ 20/20"
    assert ruleset.check is not None
    result = ruleset.check(random.Random(3), skill=5, attribute=4, difficulty="Simple")
    assert result.band in soh.BANDS and result.total == (result.natural or 0) + 9 + (
        result.dice[1] if len(result.dice) > 1 else 0
    )
    deck = new_deck("minor", random.Random(0))
    ruleset.check(random.Random(0), deck=deck, mode="three")
    assert len(deck.discard) >= 3


def test_soh10_new_round_refills_ap() -> None:
    ann = soh.new_character("Ann", quickness=10)
    ann["resources"]["ap"]["current"] = 0
    assert soh.new_round(ann)["resources"]["ap"] == {"current": 10, "max": 10}


def test_soh11_a_redraw_forgoes_the_first_ap_once_a_round() -> None:
    soh.check_redraw("Agnes", 7, 7, redrawn_this_round=False)  # nothing spent yet: allowed
    with pytest.raises(soh.RuleError, match="already spent AP this round .6/7.: a redraw forgoes"):
        soh.check_redraw("Agnes", 6, 7, redrawn_this_round=False)
    with pytest.raises(soh.RuleError, match="already redrawn this round"):
        soh.check_redraw("Agnes", 7, 7, redrawn_this_round=True)


@pytest.mark.parametrize(
    ("ranks", "bonus_a", "bonus_b"),
    [
        (("3", "3", "5", "5", "7", "9"), 0, 0),  # two ties in a row, drawn again and added
        (("Ace", "3", "4", "8", "8", "Queen"), 2, 0),  # the bonus makes Ace v 3 a tie
        (("2", "6", "9", "King", "Page", "5"), 0, 4),
    ],
)
def test_soh08_opposed_odds_are_exact_over_every_order_of_the_pile(
    ranks: tuple[str, ...], bonus_a: int, bonus_b: int
) -> None:
    """SOH-08: the exact odds agree with the draw itself over all 720 orders of a pile."""
    cards = [minor_card(rank, suit) for rank, suit in zip(ranks, SUITS * 2, strict=False)]
    wins = 0
    orders = list(itertools.permutations(cards))
    for order in orders:
        deck = DeckState("minor", list(order))  # type: ignore[arg-type]
        wins += soh.opposed_draw(random.Random(0), deck, bonus_a, bonus_b).winner == "a"
    odds = soh.opposed_odds(cards, bonus_a, bonus_b)
    assert odds["wins"] == Fraction(wins, len(orders)) and odds["loses"] == 1 - odds["wins"]


def test_soh08_opposed_odds_from_a_pile_of_one_then_the_discards() -> None:
    pile, discard = [minor_card("9", "Cups")], [minor_card("2", "Cups"), minor_card("King", "Cups")]
    # The roller's card is the pile's 9; the opposition's is a shuffled discard: 2 or King.
    assert soh.opposed_odds(pile, 0, 0, discard)["wins"] == Fraction(1, 2)
    assert soh.opposed_odds(pile, 5, 0, discard)["wins"] == Fraction(1, 2) + Fraction(1, 4)
    with pytest.raises(soh.RuleError, match="needs two"):
        soh.opposed_odds([], 0, 0, [minor_card("2", "Cups")])

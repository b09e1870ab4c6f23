"""How the tracker writes an exchange's damage odds: every amount is counted, even when
only the likeliest are named."""

from __future__ import annotations

from fractions import Fraction

from rulesets.exchange import damage_text


def test_a_hit_of_1d6_plus_1_at_even_odds_names_every_amount() -> None:
    """d20+1 vs AC 12 with 1d6+1: a miss half the time, each of 2..7 a twelfth. One amount
    past the six named is named too, not dropped (the line summed to 92%)."""
    dist = {0: Fraction(1, 2)} | {k: Fraction(1, 12) for k in range(2, 8)}
    assert damage_text(dist) == "0 50% · 2 8% · 3 8% · 4 8% · 5 8% · 6 8% · 7 8%"


def test_a_long_distribution_says_the_share_it_leaves_off() -> None:
    """A Triumph doubling 1d6 at Somnihil's odds: ten amounts; six are named and the rest
    are still said, how many and their share, so the line adds up."""
    dist = {0: Fraction(1, 4)} | {k: Fraction(7, 60) for k in range(1, 7)}
    for k in (2, 4, 6, 8, 10, 12):
        dist[k] = dist.get(k, Fraction(0)) + Fraction(1, 120)
    text = damage_text(dist)
    assert text.startswith("0 25% · ")
    assert text.count("·") == 6
    assert text.endswith("· 4 other amounts 14%")


def test_a_short_distribution_is_written_whole() -> None:
    dist = {0: Fraction(3, 10), 1: Fraction(7, 20), 2: Fraction(7, 20)}
    assert damage_text(dist) == "0 30% · 1 35% · 2 35%"


def test_an_amount_under_half_a_percent_reads_under_one_not_nought() -> None:
    """A 1-in-400 amount is possible: ``<1%``, not a rounded ``0%`` that says it cannot be."""
    dist = {0: Fraction(399, 800), 3: Fraction(399, 800), 9: Fraction(1, 400)}
    assert damage_text(dist) == "0 50% · 3 50% · 9 <1%"

"""How the tracker writes an exchange's damage odds: every amount is counted, even when
only the likeliest are named."""

from __future__ import annotations

from fractions import Fraction

from rulesets.exchange import damage_text


def test_a_hit_of_1d6_plus_1_at_even_odds_leaves_no_share_unsaid() -> None:
    """d20+1 vs AC 12 with 1d6+1: a miss half the time, each of 2..7 a twelfth. Six are
    named; the seventh amount's share is still on the line, not silently dropped."""
    dist = {0: Fraction(1, 2)} | {k: Fraction(1, 12) for k in range(2, 8)}
    text = damage_text(dist)
    assert text.startswith("0 50% · 2 8% · 3 8% · 4 8% · 5 8% · 6 8%")
    assert text.endswith("· others 8%")


def test_a_short_distribution_is_written_whole() -> None:
    dist = {0: Fraction(3, 10), 1: Fraction(7, 20), 2: Fraction(7, 20)}
    assert damage_text(dist) == "0 30% · 1 35% · 2 35%"

"""GEN-02: exact odds of dice expressions, checked against brute-force enumeration."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import odds


def brute(faces: list[int], rule) -> dict[int, Fraction]:  # type: ignore[no-untyped-def]
    counts: Counter[int] = Counter()
    combos = list(itertools.product(*[range(1, f + 1) for f in faces]))
    for combo in combos:
        counts[rule(combo)] += 1
    return {v: Fraction(c, len(combos)) for v, c in counts.items()}


def test_gen02_keep_highest_matches_enumeration() -> None:
    assert odds.distribution("4d6kh3") == brute([6] * 4, lambda r: sum(sorted(r)[1:]))


def test_gen02_keep_lowest_and_drop() -> None:
    assert odds.distribution("2d20kl1") == brute([20, 20], min)
    assert odds.distribution("4d6pl1") == odds.distribution("4d6kh3")
    assert odds.distribution("3d6ph1") == brute([6] * 3, lambda r: sum(sorted(r)[:2]))


def test_gen02_mixed_set_keep_highest() -> None:
    assert odds.distribution("(1d6,1d10,1d8)kh1") == brute([6, 10, 8], max)


def test_gen02_arithmetic_and_labels() -> None:
    assert odds.distribution("2d6+1 [fire]") == brute([6, 6], lambda r: sum(r) + 1)
    assert odds.distribution("1d4*2-1") == {
        1: Fraction(1, 4),
        3: Fraction(1, 4),
        5: Fraction(1, 4),
        7: Fraction(1, 4),
    }
    assert odds.distribution("1d6-1d6")[0] == Fraction(1, 6)


def test_gen02_explode_is_bounded_and_sums_to_one() -> None:
    dist = odds.distribution("1d6e6")
    assert sum(dist.values()) == 1
    assert dist[7] == Fraction(1, 36)
    assert 6 not in dist
    assert max(dist) == 6 * (odds.EXPLODE_DEPTH + 1)


def test_gen02_rerolls() -> None:
    once = odds.distribution("1d20ro1")
    assert once[1] == Fraction(1, 400)
    assert once[2] == Fraction(21, 400)
    always = odds.distribution("1d6rr1")
    # The roller rerolls a die at most REROLL_DEPTH times; the last roll stands, even a 1.
    assert always[1] == Fraction(1, 6) ** (odds.REROLL_DEPTH + 1)
    assert always[2] == (1 - always[1]) / 5


def test_gen02_min_max() -> None:
    assert odds.distribution("1d20mi5")[5] == Fraction(5, 20)
    assert odds.distribution("1d6ma3")[3] == Fraction(4, 6)


def test_gen02_target_gives_success_and_failure() -> None:
    bands = odds.target("2d6+1 >= 8")
    assert bands == {"success": Fraction(21, 36), "failure": Fraction(15, 36)}
    assert odds.odds("2d6") == {"distribution": odds.distribution("2d6")}
    assert odds.target("2d6") is None


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("2d", "column"),
        ("1d6rr<7", "rerolls on every face"),
        ("1d6e<7", "explodes on every face"),
        ("10d6kh3ro1", "more than 4,096 possible rolls"),
        ("1d6/(1d2-1)", "divide by zero"),
        ("1d1000*1000000+1", "which the roller refuses"),
        ("1d6rr1+100d6e6", "more than 1000 dice"),
        ("1d6/(1d2-1)", "divide by zero"),
        ("200d6", "at most"),
    ],
)
def test_gen02_unsupported_is_a_clear_error(expr: str, fragment: str) -> None:
    with pytest.raises(odds.OddsError, match=fragment):
        odds.distribution(expr)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 5),
    sides=st.sampled_from([4, 6, 8, 10, 12, 20]),
    keep=st.integers(1, 5),
    op=st.sampled_from(["kh", "kl", "ph", "pl"]),
    const=st.integers(-5, 5),
)
def test_gen02_odds_always_sum_to_one(n: int, sides: int, keep: int, op: str, const: int) -> None:
    dist = odds.distribution(f"{n}d{sides}{op}{min(keep, n)}+{const}")
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())


def test_gen02_fast_sum_matches_enumeration() -> None:
    assert odds.distribution("2d6+1d8-1d4") == brute(
        [6, 6, 8, 4], lambda r: r[0] + r[1] + r[2] - r[3]
    )
    assert odds.distribution("3d4e4") == odds.distribution("1d4e4+1d4e4+1d4e4")


def test_gen02_one_kept_die_of_a_large_pool() -> None:
    dist = odds.distribution("100d1000kh1")
    assert dist[1000] == 1 - Fraction(999, 1000) ** 100
    assert odds.distribution("3d20pl2") == brute([20] * 3, max)


@pytest.mark.parametrize("expr", ["100d1000", "50d100", "20d100kh10", "1d1000*1d1000"])
def test_gen02_too_large_is_refused_not_a_hang(expr: str) -> None:
    with pytest.raises(odds.OddsError, match="too large"):
        odds.distribution(expr)

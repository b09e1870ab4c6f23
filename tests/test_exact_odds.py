"""Issue 14: the odds shown are exactly what the roller does, for every check and expression.

Brute force is :func:`rulesets.dice.every_outcome`: the roller (or the game's check function,
or the deck) runs once per possible sequence of draws from an injected ``random.Random`` that
replays that sequence, and the results are tallied with Fractions. The odds functions must give
the same fractions, to the last digit; where the roller fails on some outcome (a division by
zero, a total out of bounds), the odds must refuse with a message instead.

Hypothesis runs derandomised (as the fuzz tests do), so CI sees the same examples every time.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import random
import types
from collections.abc import Callable, Hashable
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from app import cli, cli_tray
from app.cli_base import EXIT_BAD_INPUT
from rulesets import dice, npc, odds
from rulesets.aspects import rules as aspects
from rulesets.base import RuleError
from rulesets.decks import DeckError, DeckState
from rulesets.nemron import rules as nemron
from rulesets.resolution import rules as resolution
from rulesets.shadows import rules as shadows
from rulesets.shadows import tarot
from rulesets.shadows.tarot import full_deck, minor_card, new_deck
from rulesets.somnihil import rules as somnihil

K = TypeVar("K", bound=Hashable)
EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
BRUTE_LIMIT = 20_000
"""Sequences of draws the brute force goes through per example; bigger examples are skipped."""


def brute(procedure: Callable[[random.Random], K], limit: int = BRUTE_LIMIT) -> dict[K, Fraction]:
    """Every result of ``procedure`` → its exact probability, by running every draw sequence."""
    tally: dict[K, Fraction] = {}
    for result, p in dice.every_outcome(procedure, limit):
        tally[result] = tally.get(result, Fraction(0)) + p
    return tally


def shown(bands: dict[str, Fraction]) -> dict[str, Fraction]:
    """The bands with a chance (the odds list every band, brute force only what happens)."""
    return {band: p for band, p in bands.items() if p}


def test_every_outcome_weighs_each_sequence_of_draws() -> None:
    two_dice = brute(lambda rng: rng.randint(1, 6) + rng.randint(1, 6))
    assert two_dice[7] == Fraction(1, 6) and sum(two_dice.values()) == 1
    # A draw that depends on an earlier one: the second die is rolled only on a 1.
    assert brute(lambda rng: rng.randint(1, 2) == 1 and rng.randint(1, 4) == 4) == {
        False: Fraction(7, 8),
        True: Fraction(1, 8),
    }
    with pytest.raises(dice.DiceError, match="more than 10 possible rolls"):
        brute(lambda rng: rng.randint(1, 20), limit=10)


# --- the examples, each failing on the old code -------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("(0-7)/2", {-3: Fraction(1)}),
        ("(1d6-4)/2", {-1: Fraction(1, 3), 0: Fraction(1, 2), 1: Fraction(1, 6)}),
        ("1d6/2*2", {v: Fraction(1, 6) for v in range(1, 7)}),  # d20 keeps the half
        ("7//2", {3: Fraction(1)}),
        ("1d%", {v: Fraction(1, 10) for v in range(0, 100, 10)}),
    ],
)
def test_gen02_odds_round_as_the_roller_does(
    expression: str, expected: dict[int, Fraction]
) -> None:
    assert odds.distribution(expression) == expected
    assert dice.outcomes(expression) == expected


def test_gen02_explosion_is_bounded_alike_and_said() -> None:
    """The odds gave totals the roller could not reach (its explosion was cut at 9 extra dice
    while d20 rolled on); now both stop at EXPLODE_DEPTH and the output says so."""
    assert odds.distribution("1d4e4") == dice.outcomes("1d4e4")
    assert max(odds.distribution("1d4e4")) == 4 * (dice.EXPLODE_DEPTH + 1)
    rolled = dice.roll("1d2e2", _always(1))  # a die that shows 2 every time
    assert len(rolled.dice) == dice.EXPLODE_DEPTH + 1
    assert rolled.text.endswith(f"(stopped at the bound: {dice.BOUND_NOTE})")
    assert "stopped" not in dice.roll("1d2e2", _always(0)).text
    rerolled = dice.roll("1d2rr2", _always(1))
    assert len(rerolled.dice) == dice.REROLL_DEPTH + 1 and "stopped at the bound" in rerolled.text
    assert odds.notes("1d6e6") == [dice.BOUND_NOTE]
    assert odds.notes("2d6+1") == []


def _always(answer: int) -> random.Random:
    class Always(random.Random):
        def _randbelow(self, n: int) -> int:
            return min(answer, n - 1)

    return Always()


def test_gen02_cli_odds_says_explosions_are_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["odds", "1d6e6"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"note: {dice.BOUND_NOTE}"
    assert "9 times" in dice.BOUND_NOTE
    assert cli.main(["odds", "(0-7)/2"]) == 0
    assert capsys.readouterr().out.split() == ["-3", "100.00%", "█" * cli_tray.BAR_WIDTH]


def test_soh_odds_with_one_card_left_are_that_card() -> None:
    """The 9 of Cups alone in the pile, bonus 16, Normal: the draw is certain, 25, Success."""
    deck = DeckState(tarot.MINOR, [minor_card("9", "Cups")], [c for c in full_deck("minor")
                     if c.name != "9 of Cups"])  # fmt: skip
    assert shown(shadows.check_odds(deck, 16, "Normal", "single")) == {"Success": 1}
    drawn = shadows.skill_draw(random.Random(1), deck, skill=16, level="Normal")
    assert (drawn.total, drawn.band) == (25, "Success")


def test_soh_king_with_nothing_left_adds_nothing() -> None:
    """The Reading always said so for the odds; the draw raised DeckError instead."""
    deck = DeckState(tarot.MINOR, [minor_card("King", "Cups")], [])
    drawn = shadows.skill_draw(random.Random(1), deck, skill=10, major=new_deck(
        "major", random.Random(0)))  # fmt: skip
    assert drawn.extra is None and drawn.total == 24
    assert "no card left to add to the total" in drawn.events


# --- every game's check against its odds ------------------------------------------------------


@EXAMPLES
@given(st.integers(-1, 2), st.integers(-1, 2), st.booleans())
def test_som_check_matches_odds(advantage: int, disadvantage: int, spell: bool) -> None:
    expected = brute(lambda rng: somnihil.check(rng, advantage, disadvantage, spell).band)
    assert shown(somnihil.odds(somnihil.edge(advantage, disadvantage))) == expected


@EXAMPLES
@given(
    dc=st.one_of(st.sampled_from([6, 8, 9, 10, 12, 14]), st.integers(-5, 40)),
    modifier=st.integers(-5, 10),
    kind=st.sampled_from(["2d6", "d20", "1d20"]),
    system=st.sampled_from(["swn", "5e", "ce"]),
)
def test_rr_check_matches_odds(dc: int, modifier: int, kind: str, system: str) -> None:
    expected = brute(lambda rng: resolution.check(rng, dc, modifier, kind, dc_system=system).band)
    assert shown(resolution.odds(dc, modifier, kind, dc_system=system)) == expected
    if system == "swn":  # what the tray and the CLI call
        assert shown(resolution.odds(dc, modifier, kind)) == expected


@EXAMPLES
@given(grip=st.integers(0, 21), major=st.booleans())
def test_rr_grip_check_matches_odds(grip: int, major: bool) -> None:
    def grip_check(rng: random.Random) -> tuple[str, str]:
        character = resolution.new_character("Ann", int=18)
        character["resources"]["grip"]["current"] = grip
        result, _ = resolution.make_grip_check(rng, character, major)
        return result.band, result.detail

    expected = brute(grip_check)
    cost = f"lose {resolution.MAJOR_GRIP_LOSS if major else resolution.GRIP_LOSS} Grip"
    assert all(detail == ("" if band == "success" else cost) for band, detail in expected)
    bands = {band: sum(p for (b, _), p in expected.items() if b == band) for band, _ in expected}
    assert shown(resolution.grip_odds(grip)) == bands


@settings(EXAMPLES, max_examples=20)
@given(
    modifier=st.integers(-3, 4),
    npc_modifier=st.integers(-3, 4),
    kind=st.sampled_from(["2d6", "d20"]),
    floor=st.one_of(st.none(), st.integers(5, 12)),
)
def test_rr_opposed_check_and_delirium_match_odds(
    modifier: int, npc_modifier: int, kind: str, floor: int | None
) -> None:
    expected = brute(
        lambda rng: resolution.opposed_check(rng, modifier, npc_modifier, kind, floor).band
    )
    assert shown(resolution.opposed_odds(modifier, npc_modifier, kind, floor)) == expected
    held = modifier + 4
    expected = brute(lambda rng: resolution.delirium_roll(rng, held).band)
    assert shown(resolution.delirium_odds(held)) == expected


@EXAMPLES
@given(will=st.integers(-3, 8))
def test_npc_morale_check_matches_odds(will: int) -> None:
    expected = brute(lambda rng: npc.morale_check(rng, will).band)
    assert shown(npc.morale_odds(will)) == expected


BOONS = [None, "lesser boon", "greater boon", "lesser penalty", "greater penalty"]


@EXAMPLES
@given(
    pool=st.lists(st.sampled_from(nemron.RANK_DICE), min_size=1, max_size=3),
    dc=st.integers(-1, 14),
    boon=st.sampled_from(BOONS),
    specialised=st.booleans(),
)
def test_nem_check_matches_odds(
    pool: list[int], dc: int, boon: str | None, specialised: bool
) -> None:
    extra = nemron.MODIFIER_DICE[boon][0] if boon else 1
    drama = math.prod(pool) * extra * 20 <= BRUTE_LIMIT  # the drama d20 when small enough

    def check(rng: random.Random) -> tuple[str, str | None]:
        result = nemron.check(rng, pool, dc, boon, specialised=specialised, drama=drama)
        kept = [d for i, d in enumerate(result.dice) if i not in result.dropped]
        assert kept == [result.total]  # the log marks all but the kept die
        return result.band, nemron.drama_of(result)

    expected = brute(check)
    bands: dict[str, Fraction] = {}
    for (band, _), p in expected.items():
        bands[band] = bands.get(band, Fraction(0)) + p
    assert shown(nemron.odds(pool, dc, boon, specialised=specialised)) == bands
    if drama:
        for name, chance in nemron.drama_odds().items():
            assert sum(p for (_, d), p in expected.items() if d == name) == chance


@EXAMPLES
@given(skill=st.integers(-3, 8), opposing=st.integers(0, 6))
def test_asp_check_matches_odds(skill: int, opposing: int) -> None:
    expected = brute(lambda rng: aspects.roll_2d6(rng, skill, opposing).band)
    assert shown(aspects.odds(skill, opposing)) == expected
    assert brute(lambda rng: aspects.check(rng, skill, opposing).band) == expected


MINOR = full_deck("minor")


@settings(EXAMPLES, max_examples=150)
@given(
    picks=st.lists(st.integers(0, len(MINOR) - 1), min_size=0, max_size=9, unique=True),
    on_pile=st.integers(0, 5),
    faces=st.booleans(),
    bonus=st.integers(0, 45),
    level=st.sampled_from(shadows.DIFFICULTY_NAMES),
    mode=st.sampled_from(["single", "three"]),
)
def test_soh_draw_matches_odds_from_any_small_deck(
    picks: list[int], on_pile: int, faces: bool, bonus: int, level: str, mode: str
) -> None:
    """The pile's order is unknown, so every order of it counts alike; the discards come in
    shuffled (the replayed rng goes through every shuffle) when the pile runs out."""
    cards = [MINOR[i] for i in picks]
    if faces:  # Kings and three faces, so the extra card is drawn often
        cards = [c for c in cards if not c.is_face] + [c for c in MINOR if c.rank == "King"][:2]
        cards += [minor_card("Queen", "Cups"), minor_card("Page", "Wands")]
    pile, discard = cards[:on_pile], cards[on_pile:][:4]
    assume(math.factorial(len(pile)) * math.factorial(len(discard)) <= 3000)
    major = new_deck("major", random.Random(0))
    deck = DeckState(tarot.MINOR, pile, discard)

    def draw(rng: random.Random, order: tuple[int, ...]) -> str:
        state = DeckState(tarot.MINOR, [pile[i] for i in order], list(discard))
        return shadows.skill_draw(
            rng, state, skill=bonus, level=level, mode=mode,  # type: ignore[arg-type]
            major=DeckState(tarot.MAJOR, list(major.draw_pile)),
        ).band  # fmt: skip

    if len(pile) + len(discard) < (1 if mode == "single" else 3):
        with pytest.raises(DeckError):
            draw(random.Random(0), tuple(range(len(pile))))
        with pytest.raises(RuleError, match="needs"):
            shadows.check_odds(deck, bonus, level, mode)  # type: ignore[arg-type]
        return
    expected: dict[str, Fraction] = {}
    orders = list(itertools.permutations(range(len(pile))))
    for order in orders:
        for band, p in brute(lambda rng, order=order: draw(rng, order)).items():  # type: ignore[misc]
            expected[band] = expected.get(band, Fraction(0)) + p / len(orders)
    assert shown(shadows.check_odds(deck, bonus, level, mode)) == expected  # type: ignore[arg-type]


# --- the dice grammar ------------------------------------------------------------------------


@st.composite
def small_dice(draw: st.DrawFn) -> str:
    """An ``NdM`` with a few dice operations: every one of the grammar's, small enough to count."""
    count = draw(st.integers(0, 3))
    size = draw(st.sampled_from(["1", "2", "3", "4", "%"]))
    text = f"{count}d{size}" if count != 1 or draw(st.booleans()) else f"d{size}"
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]))
        if op in ("mi", "ma"):
            text += f"{op}{draw(st.integers(0, 5)) * (10 if size == '%' else 1)}"
            continue
        kinds = ["h", "l", "", ">", "<"] if op in ("k", "p") else ["", ">", "<", "h", "l"]
        kind = draw(st.sampled_from(kinds))
        number = draw(st.integers(0, 4)) * (10 if size == "%" and kind not in "hl" else 1)
        text += f"{op}{kind}{number}"
    return text


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> str:
    """A random expression over every operator of d20's grammar."""
    leaf = st.one_of(
        small_dice(),
        st.integers(-3, 9).map(str),
        st.sampled_from(["0.5", "2.5", "0.1", "1.0"]),
    )
    if depth >= 2:
        return draw(leaf)
    shape = draw(st.sampled_from(["leaf", "leaf", "binary", "unary", "paren", "set", "label"]))
    if shape == "leaf":
        return draw(leaf)
    inner = expressions(depth + 1)
    if shape == "binary":
        op = draw(
            st.sampled_from(["+", "-", "*", "/", "//", "%", "<", ">", "==", ">=", "<=", "!="])
        )
        return f"{draw(inner)} {op} {draw(inner)}"
    if shape == "unary":
        return f"{draw(st.sampled_from(['-', '+']))}{draw(inner)}"
    if shape == "label":
        return f"{draw(leaf)} [fire]"
    ops = ""
    for _ in range(draw(st.integers(0, 2))):
        ops += (
            f"{draw(st.sampled_from(['k', 'p']))}{draw(st.sampled_from(['h', 'l', '', '>', '<']))}"
        )
        ops += str(draw(st.integers(0, 3)))
    if shape == "paren":
        return f"({draw(inner)}){ops}"
    members = draw(st.lists(inner, min_size=1, max_size=3))
    return "(" + ", ".join(members) + ("," if len(members) == 1 else "") + ")" + ops


def roller_totals(expression: str) -> dict[int, Fraction] | None:
    """Brute force of the roller, or None when some roll of it fails (the odds must refuse)."""
    try:
        return brute(lambda rng: dice.roll(expression, rng).total, limit=5000)
    except dice.DiceError as exc:
        if "possible rolls" in str(exc):
            assume(False)  # too big to count by brute force: not an example
        return None


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(expressions())
def test_gen02_odds_equal_the_roller_on_random_expressions(expression: str) -> None:
    assume(dice.validate(expression) is None)
    expected = roller_totals(expression)
    if expected is None:
        event("the roller fails on some roll: refused")
        with pytest.raises(odds.OddsError):
            odds.distribution(expression)
        return
    assert odds.distribution(expression) == expected
    modelled = odds.modelled(expression)  # the fast path, not the roller run once per roll
    event("modelled" if modelled is not None else "counted by running the roller")
    assert modelled is None or modelled == expected


# --- the command line, in-process ------------------------------------------------------------


def _cli_json(argv: list[str]) -> dict[str, Any] | None:
    """The last JSON line a CLI command prints, or None if it exits 2 (bad input)."""
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = cli.main(argv)
    if code != 0:
        assert code == EXIT_BAD_INPUT
        return None
    document: dict[str, Any] = json.loads(out.getvalue().splitlines()[-1])
    return document


def cli_roll_totals(expression: str, monkeypatch: pytest.MonkeyPatch) -> dict[int, Fraction]:
    """``tableside roll EXPR --json``, run once per possible sequence of dice."""

    def roll(rng: random.Random) -> int:
        monkeypatch.setattr(cli, "random", types.SimpleNamespace(Random=lambda seed=None: rng))
        rolled = _cli_json(["roll", expression, "--json"])
        if rolled is None:
            raise dice.DiceError("the CLI refuses some roll")
        total: int = rolled["total"]
        return total

    try:
        return brute(roll, limit=1000)
    finally:
        monkeypatch.setattr(cli, "random", random)


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(expression=expressions())
def test_gen02_cli_odds_and_roll_agree(expression: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assume(dice.validate(expression) is None)
    try:
        rolled = cli_roll_totals(expression, monkeypatch)
    except dice.DiceError as exc:
        assume("possible rolls" not in str(exc))  # too big to count by brute force
        assert _cli_json(["odds", expression, "--json"]) is None  # refused as the roller is
        return
    document = _cli_json(["odds", expression, "--json"])
    assert document is not None, expression
    exact = document["exact"]
    if odds.target(expression) is not None:  # a target: the CLI gives success and failure
        success = Fraction(exact["success"])
        assert rolled.get(1, Fraction(0)) == success
        return
    assert {int(k): Fraction(v) for k, v in exact.items()} == rolled

"""Issue 14, GEN-03: the roll log shows every die of a roll, the dropped ones struck through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.commands.dice import RollDice
from app.state import Campaign
from rulesets.nemron.checks import NemronCheck
from rulesets.resolution.checks import ResolutionCheck
from rulesets.somnihil.checks import SomnihilCheck
from widgets.roll_log import DROPPED_STYLE, SHOWN_DICE, dice_text, format_entry


def _struck(entry: dict[str, Any]) -> list[str]:
    """The dice text the log strikes through."""
    text = format_entry(entry)
    return [text.plain[s.start : s.end] for s in text.spans if s.style == DROPPED_STYLE]


def _rolls(campaign: Any) -> list[dict[str, Any]]:
    return [e for e in campaign.log_entries() if e.get("kind") == "roll"]


def _marked(entry: dict[str, Any]) -> str:
    """What the log must show for the entry's dice: every one, dropped ones marked x."""
    dropped = entry.get("dropped", [])
    return "[" + " ".join(
        f"x{d}" if i in dropped else str(d) for i, d in enumerate(entry["dice"])
    ) + "]"  # fmt: skip


def test_gen03_somnihil_advantage_shows_both_dice_and_strikes_the_lower(
    campaign_factory: Callable[..., Campaign],
) -> None:
    """The log showed ``2d20kh1 18`` while the save held [13, 18]."""
    campaign = campaign_factory("somnihil")
    campaign.apply(SomnihilCheck(None, 1))
    entry = _rolls(campaign)[-1]
    (gone,) = entry["dropped"]
    assert len(entry["dice"]) == 2 and entry["dice"][gone] == min(entry["dice"])
    assert f"2d20kh1  {_marked(entry)} {entry['total']}" in format_entry(entry).plain
    assert _struck(entry) == [f"x{entry['dice'][gone]}"]


def test_gen03_nemron_pool_shows_every_die_and_the_kept_one(
    campaign_factory: Callable[..., Campaign],
) -> None:
    """The log showed ``kept 7`` for dice [5, 3, 7]."""
    campaign = campaign_factory("nemron")
    campaign.apply(NemronCheck(None, pool=(6, 10, 8), dc=5, boons=("lesser",)))
    entry = _rolls(campaign)[-1]
    assert len(entry["dice"]) == 4  # three pool dice and the boon's d8
    kept = [d for i, d in enumerate(entry["dice"]) if i not in entry["dropped"]]
    assert kept == [entry["total"]] == [max(entry["dice"])]
    assert _marked(entry) in format_entry(entry).plain
    assert len(_struck(entry)) == 3


def test_gen03_resolution_check_shows_its_dice(campaign_factory: Callable[..., Campaign]) -> None:
    """``2d6+2 vs DC 10 6 failure`` showed no dice."""
    campaign = campaign_factory("resolution")
    campaign.apply(ResolutionCheck(None, 10, 2, "2d6"))
    entry = _rolls(campaign)[-1]
    first, second = entry["dice"]
    assert f"2d6+2 vs DC 10  [{first} {second}] {entry['total']}" in format_entry(entry).plain
    assert _struck(entry) == [] and "dropped" not in entry


def test_gen03_dice_line_marks_what_the_roller_drops(
    campaign_factory: Callable[..., Campaign],
) -> None:
    campaign = campaign_factory("somnihil")
    campaign.apply(RollDice("4d6kh3"))
    entry = _rolls(campaign)[-1]
    (gone,) = entry["dropped"]
    assert entry["dice"][gone] == min(entry["dice"])
    assert _struck(entry) == [f"x{entry['dice'][gone]}"]


def test_gen03_long_entries_are_clipped_unless_full() -> None:
    entry = {
        "at": "2026-11-21T20:00:00+00:00",
        "kind": "roll",
        "who": "W" * 50,
        "expression": "100d6",
        "total": 350,
        "dice": [3] * 100,
        "detail": "d" * 2000,  # a pasted wall: a log line bounds it to a few rows
    }
    short = format_entry(entry).plain
    assert f"+{100 - SHOWN_DICE} more" in short and "d" * 2000 not in short
    whole = format_entry(entry, full=True).plain
    assert "W" * 50 in whole and "d" * 2000 in whole and whole.count("3 ") >= 99
    assert "more" not in whole


def test_gen03_a_hand_edited_dropped_field_is_ignored_not_a_crash() -> None:
    for junk in ("x", [True, "1", None], {"a": 1}, [99]):
        text = dice_text({"dice": [1, 2], "dropped": junk})
        assert text.plain == "[1 2]"
    assert dice_text({"dice": "not a list"}).plain == ""

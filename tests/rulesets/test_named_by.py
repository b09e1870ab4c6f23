"""Picking a combatant or an encounter by what the GM typed: the one rule the tracker's attack
line and the command line share."""

from __future__ import annotations

from rulesets.text import named_by

NAMES = [("g1", "Goblin 1"), ("g2", "Goblin 2"), ("gob", "Gob"), ("m", "Mara Quell")]


def test_a_prefix_of_one_name_names_it_case_aside() -> None:
    assert named_by(NAMES, "  mA ") == [("m", "Mara Quell")]


def test_a_prefix_of_several_names_every_one_of_them() -> None:
    assert named_by(NAMES, "gobl") == [("g1", "Goblin 1"), ("g2", "Goblin 2")]


def test_an_exact_name_wins_over_the_longer_names_it_begins() -> None:
    assert named_by(NAMES, "GOB") == [("gob", "Gob")]


def test_blank_or_unknown_names_no_one() -> None:
    assert named_by(NAMES, "   ") == [] and named_by(NAMES, "zq") == []

"""The chosen-next order's refusals say what is so: the one acting now has not acted yet."""

from __future__ import annotations

import pytest

from rulesets import encounter as er


def test_choosing_the_one_acting_now_says_it_is_acting_not_that_it_acted() -> None:
    """Aspects: `c` on the acting character said "has already acted this round"."""
    e = er.Encounter(name="Test", model="chosen_next")
    er.add_combatants(e, [er.Combatant(name=n, side="pc") for n in ("Ann", "Bea", "Cid")])
    ann = e.combatants[0]
    er.start(e)
    er.choose_next(e, ann.id)
    with pytest.raises(er.EncounterError, match="Ann is acting now: select who acts next"):
        er.choose_next(e, ann.id)
    er.choose_next(e, e.combatants[1].id)
    with pytest.raises(er.EncounterError, match="Ann has already acted this round"):
        er.choose_next(e, ann.id)

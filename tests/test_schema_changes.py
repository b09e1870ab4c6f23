"""The store's check of a changed encounter reads again only the combatants the change made
different (reading all 300 was a cost on every tracker key), and refuses exactly what
the whole check refuses, naming the same field."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from app import schema
from rulesets import encounter as er

Doc = dict[str, Any]


def _fight(size: int = 5) -> Doc:
    enc = er.Encounter(id="e1", name="Ambush", model="initiative")
    er.add_combatants(
        enc,
        [
            er.Combatant(name=f"Goblin {i}", side="npc", initiative=10 + i, stats={"hp": 7})
            for i in range(size)
        ],
    )
    er.start(enc)
    return enc.to_dict()


def _outcome(doc: Doc, before: Doc | None) -> str:
    try:
        schema.check_document("encounters", "1", doc, "resolution", before=before)
    except schema.SchemaError as exc:
        return str(exc)
    return "accepted"


def _nested(levels: int) -> list[Any]:
    deep: list[Any] = [1]
    for _ in range(levels):
        deep = [deep]
    return deep


def _hp(value: object) -> Callable[[Doc], None]:
    return lambda c: c["stats"].update(hp=value)


CHANGES: dict[str, Callable[[Doc], None]] = {
    "a hit": _hp(3),
    "a number past 2**53": _hp(2**60),
    "not a number": _hp(float("nan")),
    "initiative that is not a number": lambda c: c.update(initiative="fast"),
    "conditions that are not a list of effects": lambda c: c.update(conditions="poisoned"),
    "nested too deep": lambda c: c["stats"].update(deep=_nested(schema.MAX_DEPTH)),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_changed_combatant_is_judged_as_the_whole_check_judges_it(change: str) -> None:
    before = _fight()
    doc = copy.deepcopy(before)
    CHANGES[change](doc["combatants"][2])
    whole = _outcome(doc, None)
    assert _outcome(doc, before) == whole
    if change == "a hit":
        assert whole == "accepted"
    else:
        assert whole != "accepted"
    if change == "a number past 2**53":
        assert whole.startswith("encounters[1].combatants[2].stats.hp: ")


def test_a_combatant_moved_in_the_order_is_matched_by_its_id() -> None:
    before = _fight()
    doc = copy.deepcopy(before)
    doc["combatants"].reverse()
    doc["combatants"][0]["stats"]["hp"] = 2**60
    assert _outcome(doc, before) == _outcome(doc, None) != "accepted"
    assert _outcome(doc, None).startswith("encounters[1].combatants[0].stats.hp: ")


def test_only_the_changed_combatants_are_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _fight(300)
    doc = copy.deepcopy(before)
    doc["combatants"][7]["stats"]["hp"] = 1
    doc["round"] = 2
    read: list[str] = []
    real = er.Combatant.from_dict

    def counted(data: Doc) -> er.Combatant:
        read.append(str(data.get("id")))
        return real(data)

    monkeypatch.setattr(er.Combatant, "from_dict", counted)
    assert _outcome(doc, before) == "accepted"
    assert read == [doc["combatants"][7]["id"]]
    read.clear()
    assert _outcome(doc, None) == "accepted"
    assert len(read) == 300

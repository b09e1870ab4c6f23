"""A change takes back the encounter the change before it saved (Transaction.keep/take_kept)
instead of reading the whole document again: the saves are the same as by reading, a change
refused midway leaves the save as it was, and what a command changed after saving is not
taken back."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from app.commands import combat as cmd
from app.queries import current_encounter
from app.state import Campaign, CommandError, Transaction
from rulesets import encounter as er
from rulesets.base import RuleError
from rulesets.fight import EncounterCommand, Fight, load
from rulesets.values import frozen
from tests.apphelpers import open_demo
from tests.games import BUILT_IN


@frozen
class Mark(EncounterCommand):
    """Appends to a list inside a combatant's sheet, in place (as a game's rule may), and is
    refused after that when asked."""

    combatant_id: str = ""
    refuse: bool = False

    LABEL = "Mark"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        marks = c.stats.setdefault("marks", [])
        marks.append(len(marks))
        if self.refuse:
            raise RuleError("Refused after marking")
        return [f"{c.name} marked"]


@frozen
class SaveThenScribble:
    """Saves the encounter, then renames it without saving again."""

    encounter_id: int
    label: str = "Scribble"

    def run(self, tx: Transaction) -> list[str]:
        fight = load(tx, self.encounter_id)
        fight.enc.round += 1
        fight.save()
        fight.enc.name = "Scribbled"  # after the save: the change does not have it
        return ["scribbled"]


def encounter_doc(campaign: Campaign) -> tuple[int, dict[str, Any]]:
    found = current_encounter(campaign)
    assert found is not None
    return found


def foe_id(campaign: Campaign) -> str:
    _, doc = encounter_doc(campaign)
    return next(str(c["id"]) for c in doc["combatants"] if c["side"] == "npc")


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many combatants each reading of an encounter document reads."""
    read: list[int] = []
    real = er.Encounter.from_dict

    def counted(data: dict[str, Any], *args: Any, **kwargs: Any) -> er.Encounter:
        read.append(len(data.get("combatants") or []))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(er.Encounter, "from_dict", counted)
    return read


def test_the_next_change_takes_the_encounter_back_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign = open_demo(tmp_path, "resolution")
    eid, _ = encounter_doc(campaign)
    for _ in range(2):
        campaign.apply(cmd.QuickAdd(eid, name="Goblin", count=40, hd=1))
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(cmd.NextTurn(eid))
    read = count_reads(monkeypatch)
    campaign.apply(cmd.NextTurn(eid))
    _, doc = encounter_doc(campaign)
    assert len(doc["combatants"]) > 60
    assert sum(read) <= 4, read  # the combatants the turn changed, checked before saving
    campaign.undo()
    read.clear()
    campaign.apply(cmd.NextTurn(eid))  # after an undo: read again, all of it
    assert sum(read) >= len(doc["combatants"])
    campaign.store.close()


def steps(campaign: Campaign) -> list[Any]:
    eid, doc = encounter_doc(campaign)
    foe = foe_id(campaign)
    start: list[Any] = [] if doc.get("started") else [cmd.StartEncounter(eid)]
    return [
        *start,
        cmd.NextTurn(eid),
        Mark(eid, combatant_id=foe),
        cmd.Damage(eid, combatant_id=foe, amount="2"),
        Mark(eid, combatant_id=foe, refuse=True),
        cmd.AddEffect(eid, combatant_id=foe, name="Dazed", turns=2),
        "undo",
        "redo",
        cmd.NextTurn(eid),
        cmd.NextTurn(eid),
        Mark(eid, combatant_id=foe),
        "undo",
        cmd.PreviousTurn(eid),
        SaveThenScribble(eid),
        cmd.NextTurn(eid),
        cmd.Damage(eid, combatant_id=foe, amount="1"),
    ]


def play(campaign: Campaign, step: Any) -> str:
    if step == "undo":
        return str(campaign.undo())
    if step == "redo":
        return str(campaign.redo())
    try:
        return "\n".join(campaign.apply(step))
    except CommandError as exc:
        return f"refused: {exc}"


@pytest.mark.parametrize("game", BUILT_IN)
def test_taking_it_back_saves_what_reading_it_saves(tmp_path: Path, game: str) -> None:
    kept = open_demo(tmp_path / "kept", game)
    read = open_demo(tmp_path / "read", game)
    read.take_kept = lambda table, doc_id: None  # type: ignore[method-assign]
    for step in steps(kept):
        said = play(kept, step), play(read, step)
        assert said[0] == said[1], step
        assert kept.store.data == read.store.data, step
    _, doc = encounter_doc(kept)
    assert doc["name"] != "Scribbled"
    kept.store.close()
    read.store.close()


def test_a_change_refused_midway_leaves_the_save_as_it_was(tmp_path: Path) -> None:
    campaign = open_demo(tmp_path, "resolution")
    eid, _ = encounter_doc(campaign)
    foe = foe_id(campaign)

    def marks() -> Any:
        _, doc = encounter_doc(campaign)
        return next(c for c in doc["combatants"] if c["id"] == foe)["stats"].get("marks")

    campaign.apply(Mark(eid, combatant_id=foe))
    saved = copy.deepcopy(campaign.store.data)
    with pytest.raises(CommandError, match="Refused after marking"):
        campaign.apply(Mark(eid, combatant_id=foe, refuse=True))
    assert campaign.store.data == saved
    assert marks() == [0]
    campaign.apply(Mark(eid, combatant_id=foe))
    assert marks() == [0, 1]
    campaign.undo()
    assert marks() == [0]
    campaign.store.close()


def test_what_a_command_changed_after_saving_is_not_taken_back(tmp_path: Path) -> None:
    campaign = open_demo(tmp_path, "resolution")
    eid, doc = encounter_doc(campaign)
    name = doc["name"]
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(SaveThenScribble(eid))
    campaign.apply(cmd.NextTurn(eid))
    _, doc = encounter_doc(campaign)
    assert doc["name"] == name
    campaign.store.close()


@pytest.mark.parametrize("game", BUILT_IN)
def test_going_back_a_turn_and_undoing_it_restores_the_turn_records(
    tmp_path: Path, game: str
) -> None:
    campaign = open_demo(tmp_path, game)
    eid, doc = encounter_doc(campaign)
    if not doc.get("started"):
        campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(cmd.NextTurn(eid))
    campaign.apply(cmd.NextTurn(eid))
    before = copy.deepcopy(campaign.store.data["encounters"])
    assert encounter_doc(campaign)[1]["rewind"]
    campaign.apply(cmd.PreviousTurn(eid))
    campaign.undo()
    assert campaign.store.data["encounters"] == before
    campaign.store.close()

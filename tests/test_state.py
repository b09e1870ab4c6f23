"""The one state path: apply, log, undo/redo across commands, persistence after each change."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.commands.dice import RollDice
from app.state import Campaign, CommandError, Transaction
from app.store import read_campaign


@dataclass(frozen=True)
class AddPc:
    name: str

    @property
    def label(self) -> str:
        return f"Add {self.name}"

    def run(self, tx: Transaction) -> list[str]:
        tx.insert("party", {"name": self.name, "resources": {"hp": {"current": 5, "max": 5}}})
        return [f"{self.name} joins the party"]


@dataclass(frozen=True)
class Hurt:
    doc_id: int
    amount: int

    @property
    def label(self) -> str:
        return f"Hurt {self.doc_id}"

    def run(self, tx: Transaction) -> list[str]:
        pc = tx.get("party", self.doc_id)
        if self.amount < 0:
            raise CommandError("damage cannot be negative")
        pc["resources"]["hp"]["current"] -= self.amount
        tx.put("party", self.doc_id, pc)
        return [f"{pc['name']} takes {self.amount}"]


def hp(campaign: Campaign, doc_id: int) -> int:
    doc = campaign.doc("party", doc_id)
    assert doc is not None
    return int(doc["resources"]["hp"]["current"])


def test_gen06_undo_and_redo_every_change(campaign_factory: Callable[..., Campaign]) -> None:
    c = campaign_factory()
    c.apply(AddPc("Ada"))
    c.apply(Hurt(1, 2))
    c.apply(RollDice("1d20"))
    assert hp(c, 1) == 3
    assert c.undo() == "Roll 1d20"
    assert c.undo() == "Hurt 1"
    assert hp(c, 1) == 5
    assert c.redo() == "Hurt 1"
    assert hp(c, 1) == 3
    assert c.undo() == "Hurt 1"
    assert c.undo() == "Add Ada"
    assert c.doc("party", 1) is None
    assert c.undo() is None
    texts = [e.get("text", "") for e in c.log_entries()]
    assert "Undid: Add Ada" in texts


def test_redo_replays_the_same_dice(campaign_factory: Callable[..., Campaign]) -> None:
    c = campaign_factory()
    c.apply(RollDice("10d20"))
    first = c.log_entries()[-1]["dice"]
    c.undo()
    c.redo()
    rolls = [e for e in c.log_entries() if e["kind"] == "roll"]
    assert rolls[-1]["dice"] == first


def test_refused_command_changes_nothing(campaign_factory: Callable[..., Campaign]) -> None:
    c = campaign_factory()
    c.apply(AddPc("Ada"))
    before = len(c.undo_stack)
    with pytest.raises(CommandError, match="negative"):
        c.apply(Hurt(1, -3))
    assert hp(c, 1) == 5 and len(c.undo_stack) == before


def test_bad_dice_expression_is_a_command_error(campaign_factory: Callable[..., Campaign]) -> None:
    c = campaign_factory()
    with pytest.raises(CommandError, match="column"):
        c.apply(RollDice("2d"))
    with pytest.raises(CommandError, match="more than"):
        c.apply(RollDice("1000000d1000000"))


def test_gen07_every_change_is_saved(
    campaign_factory: Callable[..., Campaign], tmp_path: Path
) -> None:
    c = campaign_factory(path=tmp_path / "s.json")
    c.apply(AddPc("Ada"))
    c.apply(Hurt(1, 4))
    c.store.flush()
    data = read_campaign(tmp_path / "s.json")
    assert data["party"]["1"]["resources"]["hp"]["current"] == 1
    c.undo()
    c.store.flush()
    assert read_campaign(tmp_path / "s.json")["party"]["1"]["resources"]["hp"]["current"] == 5


def test_gen03_roll_log_has_time_who_expression_total(
    campaign_factory: Callable[..., Campaign],
) -> None:
    c = campaign_factory()
    c.apply(RollDice("2d6+1", who="Mira"))
    entry = c.log_entries()[-1]
    assert entry["at"] == "2026-11-21T20:00:00+00:00"
    assert entry["who"] == "Mira" and entry["expression"] == "2d6+1"
    assert entry["total"] == sum(entry["dice"]) + 1


def test_undo_puts_a_document_back_in_its_place(campaign_factory: Callable[..., Campaign]) -> None:
    c = campaign_factory()
    for name in ("Ada", "Bo", "Cy"):
        c.apply(AddPc(name))
    c.apply(Hurt(1, 1))
    c.undo()
    assert [doc["name"] for _, doc in c.rows("party")] == ["Ada", "Bo", "Cy"]


@dataclass(frozen=True)
class RollThenHurt:
    """A command that rolls (logging the roll itself) and says what the roll did."""

    @property
    def label(self) -> str:
        return "Roll and hurt"

    def run(self, tx: Transaction) -> list[str]:
        from rulesets.base import CheckResult

        line = tx.log_roll("GM", CheckResult(expression="1d6", total=4, dice=(4,)))
        return [line, "Ada takes 4"]


def test_a_rolling_command_logs_its_roll_once_and_what_it_did(
    campaign_factory: Callable[..., Campaign],
) -> None:
    c = campaign_factory()
    c.apply(RollThenHurt())
    entries = c.log_entries()
    assert [e["kind"] for e in entries] == ["roll", "event"]
    assert entries[1]["text"] == "Ada takes 4"


@dataclass(frozen=True)
class BreakARule:
    @property
    def label(self) -> str:
        return "Learn a third Protocol"

    def run(self, tx: Transaction) -> list[str]:
        from rulesets.somnihil.rules import RuleError

        tx.insert("party", {"name": "Ada"})
        raise RuleError("Ada already knows spells from two Protocols")


def test_any_rules_refusal_becomes_a_command_error_and_changes_nothing(
    campaign_factory: Callable[..., Campaign],
) -> None:
    c = campaign_factory()
    with pytest.raises(CommandError, match="two Protocols"):
        c.apply(BreakARule())
    assert c.rows("party") == [] and c.undo_stack == []


@dataclass(frozen=True)
class Bulk:
    """Adds and replaces many documents the batch way (an import)."""

    add: tuple[str, ...]
    rename: tuple[tuple[int, str], ...] = ()

    @property
    def label(self) -> str:
        return "Bulk"

    def run(self, tx: Transaction) -> list[str]:
        tx.insert_many("party", [{"name": n, "resources": {}} for n in self.add])
        tx.put_many("party", {i: {"name": n, "resources": {}} for i, n in self.rename})
        return ["bulk"]


def test_batch_insert_and_replace_undo_and_redo_in_place(
    campaign_factory: Callable[..., Campaign], tmp_path: Path
) -> None:
    campaign = campaign_factory()
    campaign.apply(Bulk(("A", "B", "C")))
    campaign.apply(Bulk(("D",), ((1, "A2"), (3, "C2"))))
    names = [d["name"] for _, d in campaign.rows("party")]
    assert names == ["A2", "B", "C2", "D"]
    campaign.undo()
    assert [d["name"] for _, d in campaign.rows("party")] == ["A", "B", "C"]
    campaign.redo()
    assert [(i, d["name"]) for i, d in campaign.rows("party")] == [
        (1, "A2"),
        (2, "B"),
        (3, "C2"),
        (4, "D"),
    ]
    campaign.store.flush()
    saved = read_campaign(campaign.store.path)["party"]
    assert [d["name"] for d in saved.values()] == names
    with pytest.raises(CommandError, match="nothing with id 9 in party"):
        campaign.apply(Bulk((), ((9, "X"),)))
    assert [d["name"] for _, d in campaign.rows("party")] == names

"""A campaign held in dicts, seen through :class:`rulesets.table.Tx`: rules tests run a game's
time rules without the app (no store, no undo), with a seeded ``random.Random``."""

from __future__ import annotations

import copy
import random
from typing import Any

from rulesets import registry
from rulesets.base import CheckResult, RuleError
from rulesets.game import Game
from rulesets.table import roll_line

Doc = dict[str, Any]


class MemoryTx:
    def __init__(self, game_id: str, seed: int = 1, party: list[Doc] | None = None) -> None:
        self._game = registry.game(game_id)
        self._rng = random.Random(seed)
        self.tables: dict[str, dict[int, Doc]] = {"meta": {1: {"ruleset": game_id}}}
        for pc in party or []:
            self.insert("party", pc)

    @classmethod
    def with_demo_party(cls, game_id: str, seed: int = 1) -> MemoryTx:
        game = registry.game(game_id)
        party = []
        for pc in game.demo_party:
            known = {a.key for a in game.ruleset.sheet.attributes}
            attrs = {k: v for k, v in pc.attributes.items() if k in known}
            party.append(game.ruleset.make_character(pc.name, **attrs))
        return cls(game_id, seed, party)

    @property
    def rng(self) -> random.Random:
        return self._rng

    @property
    def game(self) -> Game:
        return self._game

    def now(self) -> str:
        return "2026-11-21T20:00:00+00:00"

    def get(self, table: str, doc_id: int) -> Doc:
        found = self.find(table, doc_id)
        if found is None:
            raise RuleError(f"nothing with id {doc_id} in {table}")
        return found

    def find(self, table: str, doc_id: int) -> Doc | None:
        doc = self.tables.get(table, {}).get(doc_id)
        return copy.deepcopy(doc) if doc is not None else None

    def all(self, table: str) -> list[tuple[int, Doc]]:
        return [(k, copy.deepcopy(v)) for k, v in self.tables.get(table, {}).items()]

    def insert(self, table: str, doc: Doc) -> int:
        rows = self.tables.setdefault(table, {})
        doc_id = max(rows, default=0) + 1
        rows[doc_id] = copy.deepcopy(doc)
        return doc_id

    def put(self, table: str, doc_id: int, doc: Doc, *, handed_over: bool = False) -> None:
        self.tables.setdefault(table, {})[doc_id] = copy.deepcopy(doc)

    def remove(self, table: str, doc_id: int) -> None:
        self.tables.get(table, {}).pop(doc_id, None)

    def meta(self) -> Doc:
        return self.get("meta", 1)

    def log_roll(self, who: str, result: CheckResult, *, extra: Doc | None = None) -> str:
        entry = {"who": who, **result.as_log(), **(extra or {})}
        self.insert("log", entry)
        return roll_line(entry)

    def pc(self, doc_id: int = 1) -> Doc:
        return self.get("party", doc_id)

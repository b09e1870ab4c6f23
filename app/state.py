"""The one state path: every change is a :class:`Command` applied by :meth:`Campaign.apply`.

``apply`` validates, runs the command inside a :class:`Transaction` that records the before and
after image of every document it touches, appends the command's log lines, pushes the change on
the undo stack, and asks the store to persist. Undo and redo replay the recorded images rather
than re-running commands, so a redone roll shows the same dice and nothing random runs twice.

Widgets never write: they read through the query methods and send commands.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import field
from datetime import datetime
from typing import Any, Protocol, cast

import orjson
from tinydb.table import Table

from app.store import CampaignStore, SaveTooLarge, StoreError, UnopenableChange
from rulesets import registry
from rulesets.base import CheckResult, RuleError, Ruleset
from rulesets.game import Game
from rulesets.guard import GameHookError, culprit
from rulesets.table import roll_line
from rulesets.turn_orders.table import seated
from rulesets.values import record

Doc = dict[str, Any]
UNDO_LIMIT = 500


def _clone(value: Any) -> Any:
    """A deep copy of a JSON-safe document; orjson is ~10x faster than copy.deepcopy on the
    big ones (a 300-combatant encounter), and anything orjson refuses falls back to deepcopy."""
    try:
        return orjson.loads(orjson.dumps(value))
    except TypeError:
        return copy.deepcopy(value)


class CommandError(ValueError):
    """A command refused; the message is shown to the GM as is."""


class Command(Protocol):
    """A change a GM makes. ``label`` names it in the log and in undo ("Damage Goblin 1")."""

    @property
    def label(self) -> str: ...

    def run(self, tx: Transaction) -> list[str]:
        """Apply the change through ``tx``; return log lines. Raise CommandError to refuse."""
        ...


@record
class _Change:
    table: str
    doc_id: int
    before: Doc | None
    after: Doc | None


@record
class Entry:
    """One applied command on the undo stack."""

    label: str
    changes: list[_Change]
    lines: list[str]


@record
class Transaction:
    """What a command sees: reads, writes that are recorded, the campaign's rng, the clock."""

    campaign: Campaign
    changes: dict[tuple[str, int], _Change] = field(default_factory=dict)
    logged_lines: set[str] = field(default_factory=set)
    """Lines the command already wrote to the log itself (its rolls); not logged again."""
    kept: dict[tuple[str, int], tuple[Doc, object]] = field(default_factory=dict)
    """What the command made each document it stored from (:meth:`keep`), with the document."""

    @property
    def rng(self) -> random.Random:
        return self.campaign.rng

    @property
    def ruleset(self) -> Ruleset:
        return self.campaign.ruleset

    @property
    def game(self) -> Game:
        return self.campaign.game

    def now(self) -> str:
        return self.campaign.now()

    def log_roll(self, who: str, result: CheckResult, *, extra: Doc | None = None) -> str:
        """Append one roll to the roll log and return its line (not logged again as an event)."""
        entry: Doc = {"at": self.now(), "kind": "roll", "who": who, **result.as_log()}
        if extra:
            entry.update(extra)
        self.insert("log", entry)
        line = roll_line(entry)
        self.logged_lines.add(line)
        return line

    def table(self, name: str) -> Table:
        return self.campaign.store.db.table(name, cache_size=0)

    def get(self, table: str, doc_id: int) -> Doc:
        doc = self.table(table).get(doc_id=doc_id)
        if doc is None:
            raise CommandError(f"nothing with id {doc_id} in {table}")
        return cast(Doc, _clone(dict(doc)))

    def find(self, table: str, doc_id: int) -> Doc | None:
        doc = self.table(table).get(doc_id=doc_id)
        return None if doc is None else _clone(dict(doc))

    def all(self, table: str) -> list[tuple[int, Doc]]:
        return [(d.doc_id, _clone(dict(d))) for d in self.table(table).all()]

    # Invariant that keeps this cheap: a stored document is never mutated below its top level
    # (TinyDB replaces top-level values; commands mutate their own clones from ``get``), so a
    # shallow copy of a stored document is a faithful image of it, and one clone per write is
    # shared by the store and the undo record.

    def _record(self, table: str, doc_id: int, before: Doc | None) -> _Change:
        key = (table, doc_id)
        if key not in self.changes:
            self.changes[key] = _Change(table, doc_id, before, None)
        return self.changes[key]

    # Writes go to the store's documents directly (``CampaignStore.put_doc``), one document
    # each: TinyDB's own insert and update copy the whole table, so with TinyDB a roll cost
    # more the longer the campaign's log grew.

    def _stored(self, table: str, doc_id: int) -> Doc | None:
        return cast("Doc | None", self.campaign.store.data.get(table, {}).get(str(doc_id)))

    def insert(self, table: str, doc: Doc) -> int:
        store = self.campaign.store
        fresh = _clone(doc)
        doc_id = store.new_id(table)
        store.put_doc(table, doc_id, fresh)
        self._record(table, doc_id, None).after = fresh
        return doc_id

    def insert_many(self, table: str, docs: list[Doc]) -> list[int]:
        return [self.insert(table, doc) for doc in docs]

    def put_many(self, table: str, docs: dict[int, Doc]) -> None:
        """Replace existing documents (all of them, or none if one is missing)."""
        for doc_id in docs:
            if self._stored(table, doc_id) is None:
                raise CommandError(f"nothing with id {doc_id} in {table}")
        for doc_id, doc in docs.items():
            self.put(table, doc_id, doc)

    def put(self, table: str, doc_id: int, doc: Doc, *, handed_over: bool = False) -> None:
        """Replace the whole document (insert it under that id if absent).

        ``handed_over``: the caller built ``doc`` from its own clones and will not touch it
        again, so it is stored as is; a 300-combatant encounter skips a second deep copy.
        """
        existing = self._stored(table, doc_id)
        change = self._record(table, doc_id, dict(existing) if existing is not None else None)
        fresh = doc if handed_over else _clone(doc)
        self.campaign.store.put_doc(table, doc_id, fresh)
        change.after = fresh

    def keep(self, table: str, doc_id: int, made_from: object) -> None:
        """The document just stored under ``doc_id`` (with ``put(..., handed_over=True)``) was
        made from ``made_from``, which the caller will not touch again: once this change is
        saved, the next change may take it back (:meth:`take_kept`) rather than read the
        document again."""
        stored = self._stored(table, doc_id)
        if stored is not None:
            self.kept[(table, doc_id)] = (stored, made_from)

    def take_kept(self, table: str, doc_id: int) -> tuple[Doc, object] | None:
        """The stored document (not a copy: read it, never change it) and what the last change
        made it from (now the caller's), if no change since has touched the campaign; else None.
        At 300 combatants reading the encounter again was a third of a tracker key's cost."""
        return self.campaign.take_kept(table, doc_id)

    def remove(self, table: str, doc_id: int) -> None:
        existing = self._stored(table, doc_id)
        if existing is None:
            return
        change = self._record(table, doc_id, dict(existing))
        self.campaign.store.put_doc(table, doc_id, None)
        change.after = None

    def meta(self) -> Doc:
        return self.get("meta", 1)


class Campaign:
    """The open campaign: the store, its game, the rng and the session's undo history."""

    def __init__(
        self,
        store: CampaignStore,
        rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.store = store
        self.rng = rng if rng is not None else random.Random()
        self._clock = clock or (lambda: datetime.now().astimezone())
        self.undo_stack: list[Entry] = []
        self.redo_stack: list[Entry] = []
        self.listeners: list[Callable[[list[str]], None]] = []
        self.version = 0
        self._kept: dict[tuple[str, int], tuple[Doc, object]] = {}
        """What the newest change made its documents from (Transaction.keep), while
        :attr:`version` is still :attr:`_kept_version`."""
        self._kept_version = -1
        """Counts changes (apply, undo, redo): a view that drew version N is still current."""
        self.stepped: tuple[tuple[str, int], ...] = ()
        """(table, doc id) of each document the last undo or redo put back, valid while
        :attr:`version` is :attr:`stepped_at`: a list keeps its cursor on the row that changed."""
        self.stepped_at = -1

    # --- reading -----------------------------------------------------------------------------
    @property
    def meta(self) -> Doc:
        doc = self.store.db.table("meta").get(doc_id=1)
        return dict(doc) if doc is not None else {}

    @property
    def game(self) -> Game:
        """The campaign's game (its package is imported on first use)."""
        return registry.game(self.meta["ruleset"])

    @property
    def ruleset(self) -> Ruleset:
        return self.game.ruleset

    @property
    def name(self) -> str:
        return str(self.meta.get("name", ""))

    def rows(self, table: str) -> list[tuple[int, Doc]]:
        """Read-only view: (doc_id, document) pairs in insertion order. Do not mutate."""
        raw = self.store.data.get(table, {})
        return [(int(k), v) for k, v in raw.items()]

    def doc(self, table: str, doc_id: int) -> Doc | None:
        return cast("Doc | None", self.store.data.get(table, {}).get(str(doc_id)))

    def log_entries(self, limit: int | None = None) -> list[Doc]:
        """The log's entries, oldest first; ``limit``: only the newest ones (read from the
        end, so the cost does not grow with a long campaign's log)."""
        if limit:
            return [entry for _, entry in self.newest("log", limit)]
        return [v for _, v in self.rows("log")]

    def newest(
        self, table: str, limit: int, where: Callable[[Doc], bool] | None = None
    ) -> list[tuple[int, Doc]]:
        """The newest ``limit`` rows of ``table`` (those ``where`` accepts), oldest first.

        Read backwards from the end: a long log's tail costs what is read, not the log's
        length. Read-only, like :meth:`rows`."""
        raw = self.store.data.get(table, {})
        found: list[tuple[int, Doc]] = []
        for key, doc in reversed(raw.items()):
            if len(found) >= limit:
                break
            if where is None or where(doc):
                found.append((int(key), doc))
        found.reverse()
        return found

    def count(self, table: str) -> int:
        return len(self.store.data.get(table, {}))

    def now(self) -> str:
        return self._clock().isoformat(timespec="seconds")

    # --- changing ----------------------------------------------------------------------------
    def apply(self, command: Command) -> list[str]:
        """Validate, apply, log, record for undo, persist. Raises CommandError, changing nothing.

        When it returns, the change is on disk (the store's journal, synced): what the caller
        shows of it next is saved."""
        with self.store.changing():
            return self._apply(command)

    def _apply(self, command: Command) -> list[str]:
        tx = Transaction(self)
        try:
            with seated(tx):  # a turn order's random source and decks: this change's
                lines = command.run(tx)
        except CommandError:
            self._rollback(tx)
            raise
        except RuleError as exc:
            # Any rules refusal (a third Protocol, a spent deck, a bad dice expression, a game
            # hook that raised: rulesets.guard) is a refusal to the GM: converted here once,
            # not in every command.
            self._rollback(tx)
            if isinstance(exc, GameHookError):
                exc.said = True
            raise CommandError(str(exc)) from None
        except Exception as exc:
            self._rollback(tx)
            fault = self.game_fault(exc)
            if fault is None:
                raise  # the shell's own bug: not hidden as a refusal
            fault.said = True
            raise CommandError(str(fault)) from exc
        if not tx.changes and not lines:
            return []
        self._append_log(tx, command.label, lines)
        try:
            self._persist(list(tx.changes), {key: c.before for key, c in tx.changes.items()})
        except TypeError:
            # A number past 64 bits (10**100 HP typed into any field): kept in memory it would
            # make every later autosave fail, so the change is refused whole.
            self._rollback(tx)
            raise CommandError("A number in that change is too large to save") from None
        except SaveTooLarge as exc:
            self._rollback(tx)
            raise CommandError(f"Not done: {exc}") from None
        except UnopenableChange as exc:
            # The last line of defence: whatever path a value came by (an import, a form, a
            # game's rule), a document the reader would refuse never reaches the disk.
            self._rollback(tx)
            raise CommandError(f"Not done: the save could not be opened again ({exc})") from None
        except StoreError:
            self._rollback(tx)  # saving has stopped: the change would be lost, so it is not made
            raise
        self._kept = tx.kept
        self._kept_version = self.version
        self.undo_stack.append(Entry(command.label, list(tx.changes.values()), lines))
        del self.undo_stack[:-UNDO_LIMIT]
        self.redo_stack.clear()
        return lines

    def take_kept(self, table: str, doc_id: int) -> tuple[Doc, object] | None:
        """See :meth:`Transaction.take_kept`: handed out once, and only while the document
        stored is the very one the newest change kept and nothing has changed since."""
        found = self._kept.pop((table, doc_id), None)
        if found is None or self._kept_version != self.version:
            return None
        if self.store.data.get(table, {}).get(str(doc_id)) is not found[0]:
            return None
        return found

    def game_fault(self, error: BaseException) -> GameHookError | None:
        """``error`` as the game's failure: a hook that raised (its :class:`GameHookError`,
        also when it caused ``error``), or an exception out of the game's own code (a
        command it made, a helper: named by the game's outermost frame); None when the game
        is not at fault."""
        seen: BaseException | None = error
        while seen is not None:
            if isinstance(seen, GameHookError):
                return seen
            seen = seen.__cause__ or seen.__context__
        game_id = str(self.meta.get("ruleset", ""))
        try:
            where = culprit(error.__traceback__, registry.origin(game_id))
        except registry.UnknownGame:
            return None
        return None if where is None else GameHookError(self.game.name, where, error)

    def _append_log(self, tx: Transaction, label: str, lines: list[str]) -> None:
        said = [line for line in lines if line not in tx.logged_lines]
        if not said:
            return
        tx.insert(
            "log",
            {
                "at": self.now(),
                "kind": "event",
                "who": "GM",
                "text": "; ".join(said),
                "label": label,
            },
        )

    def _rollback(self, tx: Transaction) -> None:
        self._restore(tx.changes.values(), use_after=False)

    def _restore(
        self, changes: Iterator[_Change] | list[_Change] | Any, *, use_after: bool
    ) -> None:
        # A restored document comes back in its old place, not at the end (put_doc keeps id
        # order): ids grow with insertion, so id order is the order the GM created things in.
        for change in changes:
            image = change.after if use_after else change.before
            self.store.put_doc(change.table, change.doc_id, image)

    def undo(self) -> str | None:
        """Undo the last change of this session; returns its label, None if nothing to undo."""
        return self._step(self.undo_stack, self.redo_stack, "undo", "Undid")

    def redo(self) -> str | None:
        return self._step(self.redo_stack, self.undo_stack, "redo", "Redid")

    def _step(self, source: list[Entry], target: list[Entry], kind: str, done: str) -> str | None:
        if not source:
            return None
        with self.store.changing():
            entry = source.pop()
            forward = kind == "redo"
            self._restore(entry.changes if forward else reversed(entry.changes), use_after=forward)
            target.append(entry)
            note = self._journal(kind, f"{done}: {entry.label}")
            self.stepped = tuple((c.table, c.doc_id) for c in entry.changes)
            self.stepped_at = self.version + 1
            keys = [(c.table, c.doc_id) for c in entry.changes]
            self._persist([*keys, ("log", note)])
        return entry.label

    def stepped_ids(self, table: str) -> list[int]:
        """The documents of ``table`` the undo or redo that made this version put back."""
        if self.stepped_at != self.version:
            return []
        return [doc_id for name, doc_id in self.stepped if name == table]

    def _journal(self, kind: str, text: str) -> int:
        """Undo/redo notes go in the log but are not themselves undoable; returns its id."""
        doc_id = self.store.new_id("log")
        self.store.put_doc(
            "log", doc_id, {"at": self.now(), "kind": kind, "who": "GM", "text": text}
        )
        return doc_id

    def _persist(
        self, keys: list[tuple[str, int]], before: dict[tuple[str, int], Doc | None] | None = None
    ) -> None:
        """Journal the changed documents (on disk before this returns), then tell the views.
        ``before``: each document as it was stored (checked then), for the store's check."""
        self.store.record(keys, before)
        changed = sorted({table for table, _ in keys} | {"log"})
        self.version += 1
        for listener in list(self.listeners):
            listener(changed)

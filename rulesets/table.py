"""What a game sees of the table, and what it offers the GM: the seam between a game and the app.

A game never imports the app. It is handed a :class:`Tx` (the open change: reads, recorded
writes, the campaign's ``random.Random``, the roll log) when one of its commands runs, and a
:class:`Context` (what the GM has selected) when the app asks which of its actions apply now.
The app's transaction satisfies :class:`Tx` structurally, so a game's command is an ordinary
command of the app's one state path: validated, logged, undoable and saved like any other.

A game offers the GM :class:`Action` s: an id, a panel, a default key, a label, the form it asks
for (:class:`Field` s, rendered by the app), when it is available, and the command it makes.
The app builds its bindings, Footer, help and command palette from them, so a game's keys appear
in its own campaigns only, and only while they work.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from rulesets.base import Character, CheckResult, RuleError
from rulesets.values import frozen

if TYPE_CHECKING:
    from rulesets.game import Game

Doc = dict[str, Any]
Panel = Literal["combat", "tray", "npcs", "party"]
PANELS: tuple[Panel, ...] = ("combat", "tray", "npcs", "party")

FieldKind = Literal["text", "int", "optint", "amount", "choice"]


@frozen
class Field:
    """One thing a form asks the GM.

    ``kind``: text (non-empty unless not ``required``), int (whole, within ``minimum`` ..
    ``maximum``), optint (blank = None), amount (a number or a dice expression, rolled by the
    command), choice (one of ``choices``, case-insensitive; blank allowed if not ``required``).
    """

    key: str
    label: str
    default: str = ""
    kind: FieldKind = "text"
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 1_000_000
    required: bool = True
    suggestions: tuple[str, ...] = ()
    secret: bool = False
    """Typed text is not shown (a contest's hidden margin)."""


class Reader(Protocol):
    """Read-only access to the campaign's documents (what a panel shows from)."""

    def rows(self, table: str) -> list[tuple[int, Doc]]: ...

    def doc(self, table: str, doc_id: int) -> Doc | None: ...


class Tx(Protocol):
    """The open change as a game's command sees it; every write is recorded for undo."""

    @property
    def rng(self) -> random.Random: ...

    @property
    def game(self) -> Game: ...

    def now(self) -> str:
        """ISO timestamp of the change (``"2026-11-21T20:00:00+00:00"``)."""
        ...

    def get(self, table: str, doc_id: int) -> Doc:
        """A private copy of a document; raises a refusal if it does not exist."""
        ...

    def find(self, table: str, doc_id: int) -> Doc | None:
        """A private copy of a document, or None."""
        ...

    def all(self, table: str) -> list[tuple[int, Doc]]: ...

    def insert(self, table: str, doc: Doc) -> int: ...

    def put(self, table: str, doc_id: int, doc: Doc, *, handed_over: bool = False) -> None: ...

    def remove(self, table: str, doc_id: int) -> None: ...

    def meta(self) -> Doc: ...

    def log_roll(self, who: str, result: CheckResult, *, extra: Doc | None = None) -> str:
        """Append one roll to the roll log (``extra``: more keys on its entry); its line."""
        ...


class Command(Protocol):
    """A change a GM makes: ``label`` names it in the log and in undo."""

    @property
    def label(self) -> str: ...

    def run(self, tx: Tx) -> list[str]:
        """Apply the change through ``tx``; return log lines. Raise RuleError to refuse."""
        ...


@frozen
class Context:
    """What the GM has in hand when an action is offered or taken; panels fill what they know."""

    read: Reader
    game: Game
    panel: Panel
    encounter_id: int | None = None
    encounter: Doc | None = None
    """The running encounter's document."""
    combatant: Doc | None = None
    """The selected combatant (a dict of the encounter document)."""
    pc_id: int | None = None
    """The selected PC (party panel) or the character rolling (tray); None for the GM."""
    row: str = ""
    """The party sheet row under the cursor (``"res:ap"``, ``"item:consequences:0"``)."""
    setup: Mapping[str, Any] = field(default_factory=dict)
    """The tray's check as set up (its inputs' values)."""
    selection: tuple[str, ...] = ()
    """Extra panel state an action may read (the highlighted card's key in a shown hand)."""

    @property
    def pc(self) -> Doc | None:
        return self.read.doc("party", self.pc_id) if self.pc_id is not None else None

    @property
    def pc_name(self) -> str:
        pc = self.pc
        return str(pc.get("name", "?")) if pc is not None else "GM"


Needs = Literal["", "encounter", "combatant", "pc"]


def _always(ctx: Context) -> bool:
    return True


@frozen
class Action:
    """Something a GM can do in a panel of this game, by one key.

    ``make`` turns the form's answers into a command (or raises :class:`RuleError` with the
    message the GM sees). ``needs`` names what must be selected first; the app says so rather
    than calling ``make`` without it. ``available`` is asked whenever keys are shown: an action
    that would only be refused now is hidden from the Footer, help and the palette.
    """

    id: str
    panel: Panel
    key: str
    """The default key as Textual names it (``"g"``, ``"alt+a"``, ``"right_square_bracket"``)."""
    label: str
    make: Callable[[Context, Mapping[str, Any]], Command]
    description: str = ""
    """One line for help and the command palette; the label when empty."""
    show: bool = True
    """In the Footer (help and the palette list every available action)."""
    needs: Needs = ""
    form: Callable[[Context], Sequence[Field]] | None = None
    title: Callable[[Context], str] | None = None
    available: Callable[[Context], bool] = _always

    @property
    def binding_id(self) -> str:
        """The id a keymap rebinds it by (``"party.grip_check"``)."""
        return f"{self.panel}.{self.id}"

    @property
    def text(self) -> str:
        return self.description or self.label


@frozen
class PcChange:
    """One rule applied to one PC's sheet, one undo step: the common shape of a sheet action."""

    pc_id: int
    what: str
    rule: Callable[[Tx, Character], list[str]]

    @property
    def label(self) -> str:
        return self.what

    def run(self, tx: Tx) -> list[str]:
        pc = tx.get("party", self.pc_id)
        lines = self.rule(tx, pc)
        tx.put("party", self.pc_id, pc)
        return lines


def roll_line(entry: Doc) -> str:
    """A roll log entry as one line: ``"Vesna: 1d20 = 14 — Success (natural 14)"``."""
    who = entry.get("who") or "GM"
    band = f" — {entry['band']}" if entry.get("band") else ""
    detail = f" ({entry['detail']})" if entry.get("detail") else ""
    return f"{who}: {entry.get('expression', '')} = {entry.get('total', '')}{band}{detail}"


def need_pc(ctx: Context, what: str) -> int:
    """The selected character's id, or a refusal naming what needs one."""
    if ctx.pc_id is None:
        raise RuleError(f"{what} is for a character: pick one first")
    return ctx.pc_id

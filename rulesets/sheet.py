"""A PC's sheet in play: how its resources and lists change, what the detail pane shows beyond
the generic rows, and the party-wide rests.

The party panel knows a sheet only as :class:`rulesets.base.SheetSpec` lays it out (name,
status, resources, attributes, lists, notes) and asks the game's :class:`SheetRules` for the
rest: what ``+``/``-`` on a resource means, what adding to or removing from a list does (and
the form it asks), which statuses a PC can be given, what to re-derive after an attribute
changed, the extra rows it shows (limbs as bars, skills with rank dice, advancements), how a
list's header and an entry read, and which of the four rests the game has.

Every hook is a pure function of a :class:`rulesets.table.Tx` (or a plain sheet) and the PC's
document; it changes the document in place and returns the log lines, or raises
:class:`rulesets.base.RuleError` with the GM's message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any, Literal

from rulesets.base import AttributeSpec, Character, RuleError, accepts
from rulesets.table import Field, Reader, Tx
from rulesets.values import frozen

Part = tuple[str, str]
"""A piece of a row's value: (text shown literally, Rich style)."""
Parts = tuple[Part, ...]

Lines = list[str]
Adjust = Callable[[Tx, Character, int], Lines | None]
"""``+``/``-`` on one resource by ``delta``; None leaves it to the generic clamp to max."""
Step = Callable[[Tx, Character, str, int], Lines]
"""``+``/``-`` on a row the game added (``limb:torso`` → ``step(tx, pc, "torso", delta)``)."""


@frozen
class SheetRow:
    """A row of the detail pane the game adds beyond the generic ones.

    ``key`` is ``"<kind>:<name>"`` (``limb:torso``, ``skill:Brawling``, ``list:skills``): ``+``
    and ``-`` on it call :attr:`SheetRules.steps` of its kind, ``n`` (and ``e``) open the
    :attr:`SheetRules.adding` named by ``adds``, with the row's name as the target.
    """

    key: str
    label: str
    value: Parts = ()
    bar: tuple[int, int] | None = None
    """(current, max), drawn as a bar before ``value``."""
    entry: bool = False
    """An entry under the row above it (its label is dimmed)."""
    place: Literal["resources", "attributes"] = "attributes"
    """After which generic block the row goes."""
    adds: str = ""

    @property
    def kind(self) -> str:
        return self.key.partition(":")[0]

    @property
    def name(self) -> str:
        return self.key.partition(":")[2]


@frozen
class Adding:
    """What ``n`` adds on a row: a list entry, a skill, a domain's feature.

    ``fields(pc, target)`` is the form (``target``: the name of the row ``n`` was pressed on);
    ``add(tx, pc, values)`` gets the answers by field key. Without ``add`` the first answer is
    appended as text to the list of that key.
    """

    title: str
    fields: Callable[[Character, str], Sequence[Field]] | None = None
    add: Callable[[Tx, Character, Mapping[str, Any]], Lines] | None = None

    def form(self, pc: Character, target: str = "") -> tuple[Field, ...]:
        if self.fields is None:
            return (Field("text", "Entry"),)
        return tuple(self.fields(pc, target))


@frozen
class RestCall:
    """The GM's answers to a rest's form, as one rest's rule reads them."""

    hours: int = 0
    chosen: Mapping[str, str] = field(default_factory=dict)
    """Per PC (doc id as text): the choice made for that PC (a card to carry over)."""


PerPc = Callable[[Tx, Character, RestCall], Lines]


@frozen
class Rest:
    """One party-wide rest: the form it asks, what it does first, and its rule for each PC.

    A form's ``hours`` field becomes :attr:`RestCall.hours`; a field keyed ``pc_<doc id>``
    becomes that PC's entry in :attr:`RestCall.chosen`. ``before`` runs once, ahead of the PCs
    (the Major Arcana go back to the deck); a PC the rule refuses is named and skipped.
    """

    per_pc: PerPc | None = None
    form: Callable[[Reader], Sequence[Field]] | None = None
    before: Callable[[Tx, RestCall], Lines] | None = None


MAX_REST_HOURS = 24 * 365
"""A rest of more than a year is a typing slip (and a rest heals per period: it would hang)."""

REST_IDS = ("session", "scene", "regroup", "rest")
"""The party-wide rests the panel offers (S, C, g, R); a game says which it has."""


@frozen
class SheetRules:
    """The party sheet's questions to a game; the defaults are the plain sheet."""

    adjust: Mapping[str, Adjust] = field(default_factory=dict)
    """By resource key: its own ``+``/``-`` rule."""
    counters: frozenset[str] = frozenset()
    """Resources shown as a plain number (XP), not a bar."""
    steps: Mapping[str, Step] = field(default_factory=dict)
    """By the kind of a row the game added (``"limb"``): ``+``/``-`` on it."""
    adding: Mapping[str, Adding] = field(default_factory=dict)
    """By list key (or a row's ``adds``): how ``n`` adds to it. Others: one line of text."""
    remove: Mapping[str, Callable[[Tx, Character, str], Lines]] = field(default_factory=dict)
    """By list key: removing the entry of that name (the default pops it)."""
    rename: Mapping[str, Callable[[Tx, Character, str, str], Lines]] = field(default_factory=dict)
    """By list key: ``e`` on an entry renames it by this rule (old name, new name): a
    consequence the defender names, or a refusal (a held card is a card, not a typo). Without
    a rule ``e`` retypes the entry's name."""
    headers: Mapping[str, Callable[[Character], str]] = field(default_factory=dict)
    """By list key: its header (``"3/4 known · Protocols: …"``); the default is the count."""
    entries: Mapping[str, Callable[[Any], Parts | None]] = field(default_factory=dict)
    """By list key: how one entry reads (a held card with its meaning); None: the default."""
    statuses: Callable[[Character], Sequence[tuple[str, str]]] | None = None
    """The statuses the GM may pick for this PC, as (value, text shown)."""
    set_status: Callable[[Tx, Character, str], Lines | None] | None = None
    """The game's own rule for a status (a fate for a perished PC); None: just set it."""
    derive: Callable[[Character], None] | None = None
    """What else to re-derive after an attribute changed (the maxes are re-derived anyway)."""
    attribute_text: Callable[..., str] | None = None
    """How an attribute's value reads (``"d8  (rank 2; rank up 3 XP)"``):
    ``attribute_text(value, key)`` told which attribute (or ``attribute_text(value)``, as
    games written for the game API 1.1 declare it). An attribute's own
    :attr:`~rulesets.base.AttributeSpec.text` comes first."""

    def attribute_shown(self, spec: AttributeSpec, value: int) -> str:
        """How ``value`` of the attribute ``spec`` reads, by the game's rules."""
        if spec.text is not None:
            return spec.text(value)
        told = self.attribute_text
        if told is None:
            return str(value)
        return told(value, spec.key) if accepts(told, 2) else told(value)
    rows: Callable[[Character], Sequence[SheetRow]] | None = None
    """The detail pane's extra rows."""
    rests: Mapping[str, Rest] = field(default_factory=dict)
    """By :data:`REST_IDS`; a new session is always offered (it opens a log section)."""
    problems: Callable[[Character], Iterable[tuple[str, str]]] | None = None
    """A hand-edited sheet's values the game's rules cannot read, as (field, reason): the save
    is refused on opening naming them, instead of a panel failing on them later."""

    def problems_of(self, pc: Character) -> list[tuple[str, str]]:
        return list(self.problems(pc)) if self.problems is not None else []

    def has_rest(self, rest: str) -> bool:
        return rest == "session" or rest in self.rests

    def extra_rows(self, pc: Character) -> tuple[SheetRow, ...]:
        return tuple(self.rows(pc)) if self.rows is not None else ()

    def status_choices(self, pc: Character, statuses: Sequence[str]) -> list[tuple[str, str]]:
        if self.statuses is not None:
            return list(self.statuses(pc))
        return [(s, s) for s in statuses]


def run_rest(tx: Tx, rest_id: str, call: RestCall) -> Lines:
    """One of the game's party-wide rests: its ``before`` once, then its rule on every PC
    (a PC the rule refuses is named and skipped, the rest of the party goes on)."""
    rest = tx.game.sheet.rests.get(rest_id)
    lines: Lines = []
    if rest is not None and rest.before is not None:
        lines.extend(rest.before(tx, call))
    rule = rest.per_pc if rest is not None else None
    if rule is None:
        return lines
    for doc_id, pc in tx.all("party"):
        try:
            lines.extend(rule(tx, pc, call))
        except RuleError as exc:
            lines.append(f"{pc.get('name', '?')}: {exc}")
            continue
        tx.put("party", doc_id, pc)
    return lines

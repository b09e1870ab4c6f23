"""The combat tracker model, the same for all five games (GEN-04, GEN-05, SOH-09, SOH-10).

Pure data and pure operations: an :class:`Encounter` holds :class:`Combatant` rows in turn order;
each operation mutates the encounter and returns plain-text log lines, or raises
:class:`EncounterError` (a ``ValueError``) with a message for the GM when the action is illegal.
Everything round-trips through JSON-safe dicts (``to_dict`` / ``from_dict``) because the app
saves the encounter after every change. Game numbers (AP max, initiative rolls, Quickness) come in
from the game modules; nothing here depends on them.

Three built-in turn models (``Encounter.model``, an id of a :mod:`rulesets.turn_orders` object;
a game may declare more). What differs between them lives in those objects; this module keeps
the shared core (effects, combatants, the roster, ticks, turn begin and end, going back) and
re-exports the built-ins' functions (``delay``, ``spend_ap``, ``choose_next`` ...) for callers:

- ``"initiative"`` (Somnihil, resolution, Nemron): a fixed order; ``next_turn`` walks it and
  wraps into a new round; delay, hold and ``use_held`` rearrange it.
- ``"ap_rounds"`` (Shadows of Humanity, SOH-10): each round every combatant gets its AP; whoever
  has spent the fewest this round acts (the faster first at a tie); spending AP (``spend_ap``, ``counter_action``, ``pass_turn``) moves
  the turn; the round ends when everyone is spent and the next round refills the AP.
- ``"chosen_next"`` (the 2d6 aspects game): the acting character names who acts next among those
  who have not acted this round; the round ends when everyone has acted.

Timed effects (GEN-05): an :class:`Effect` sits on its bearer and is ticked by its *owner*'s turn
(``"turn_start"`` / ``"turn_end"``) or by each new round (``"round"``). ``remaining`` counts the
ticks left; reaching 0 removes it with the line ``"<name> on <bearer> expires"``. Each turn start,
turn end and round start ticks at most once: a combatant's ``turn_round`` / ``ended_round`` and the
encounter's ``ticked_round`` remember what already ran, so delaying or resuming an interrupted
turn never ticks twice.

Going back (``previous_turn``) takes back what the turn change did: ``next_turn`` and ``hold``
record, in ``Encounter.rewind``, each field they changed (the turn, the round, who acted, the
AP, each countdown and the effects that expired) with its value before and after, and
``previous_turn`` puts back the newest record: the countdowns, the AP, the turn bookkeeping, so
the next ``next_turn`` ticks them again. A field changed since by something else (damage, a
spend, a condition edited by hand) keeps its new value; with no record for the turn on screen
(a turn moved by delay or a removal, or more than :data:`REWIND_DEPTH` turns back) the
initiative model only steps the pointer back, as it always did.

Cost: every operation is one or two passes over the combatants (O(n), no sorting except in
``sort_by_initiative``), so 300 combatants turn over in microseconds.

Reading: hidden combatants still take turns (only ``order_view(players=True)`` leaves them out)
because hiding is about what the players see, not about whether the monster acts.
Reading: the Nemron "PCs always go first" tie rule (NEM-05) is the default tie-break for every
game, then the existing order, because no other text gives a tie rule for initiative.
Reading: holding ends the turn (turn-end effects tick, per Nemron's "even if they choose to hold
their action"); ``use_held`` inserts the holder just before the current combatant and makes it
current, and the interrupted turn resumes after it without ticking again; an unused held action
lapses when the round ends (it is an action of that round: the holder gets a fresh turn in the
next, so a hold from round 1 never shows as "holding" in round 2), or at the holder's next turn.
Reading: delaying does not end the turn (no turn-end tick, not marked acted) and cannot carry a
combatant past the end of the round: it stops at the last place.
Reading: ``"round"`` effects tick when a new round begins (round 2 onwards); Nemron's "usually at
the same initiative as when it started" is served by a ``"turn_start"`` effect owned by the starter.
Reading: in AP rounds (SOH-10) whoever has spent the fewest AP this round acts next, ties by
higher Quickness, then PCs, then order: everyone's first action comes before anyone's second,
the faster first, and the AP a faster character has over a slower one are spent "towards the
end of each round", after the slower ones are spent (not all first, as "most AP left" did).
A combatant's turn spans its share of the round: turn-start
effects tick when it first becomes the actor in a round, turn-end effects when its AP runs out.
Reading: a counter action (SOH-09) costs 1 AP by default; the text lets the GM charge more, so
``counter_action`` takes a ``cost``. AP may be spent by anyone (defence, counters), not only
the actor.
Reading: chosen-next (aspects): once everyone has acted, the last actor may choose anyone for the
next round, itself included, because the text bars re-choosing only "until each character has
gone". The first actor of the fight is chosen by the GM (``current`` is None after ``start``).
Reading: effects owned by a removed combatant pass to their bearer, so they keep ticking instead
of freezing forever; those counting on the turns of a defeated one (its turns are skipped) count
down once each new round instead.
Reading: group initiative (GEN-04, chosen per encounter, initiative model only): the foes of
one library NPC (or of one name, ``Goblin 1``..``Goblin 3``) roll one initiative and stand
together in the order; the first one's turn is the whole group's: they all begin it (each one's
turn-start effects tick) and ``next_turn`` ends it for all of them. A delayed member leaves its
group; a defeated one is skipped as ever.
Reading: going back undoes what the turn change did and nothing else; an effect is recognised
by its name, owner, tick, note and count (not its rank, which a game may decay after the tick).
"""

from __future__ import annotations

import copy
import heapq
import re
from collections.abc import Callable, Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, cast

from rulesets.base import RuleError, TurnModel
from rulesets.values import frozen, record

if TYPE_CHECKING:
    from rulesets.turn_orders.base import TurnOrder

Side = Literal["pc", "npc"]
Tick = Literal["turn_start", "turn_end", "round"]

SIDES: tuple[str, ...] = ("pc", "npc")
TICKS: tuple[str, ...] = ("turn_start", "turn_end", "round")
MODELS: tuple[str, ...] = ("initiative", "ap_rounds", "chosen_next")
ECONOMY_KINDS: tuple[str, ...] = ("action", "reaction", "movement")
"""Nemron's per-turn economy (NEM-06, rules in nemron.py): True = used this turn."""


class EncounterError(RuleError):
    """An illegal tracker action; the message is meant for the GM."""


_NO_ECONOMY_USED: dict[str, bool] = dict.fromkeys(ECONOMY_KINDS, False)


def _fresh_economy() -> dict[str, bool]:
    return _NO_ECONOMY_USED.copy()


@record
class Effect:
    """GEN-05: a condition or timed effect on a combatant.

    ``remaining`` is the number of ticks left (None = indefinite); ``tick`` says when it counts
    down; ``owner`` is the combatant whose turn ticks it (defaults to the bearer when added).
    """

    name: str
    remaining: int | None = None
    tick: Tick = "turn_end"
    owner: str | None = None
    rank: int | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.tick not in TICKS:
            raise EncounterError(f"Unknown tick {self.tick!r}: use one of {', '.join(TICKS)}")

    def label(self) -> str:
        """Short text for tables: ``"Stunned 2"``, ``"Blessed (rank 3)"``, ``"Prone"``."""
        text = self.name
        if self.rank is not None:
            text += f" (rank {self.rank})"
        if self.remaining is not None:
            text += f" {self.remaining}"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "remaining": self.remaining,
            "tick": self.tick,
            "owner": self.owner,
            "rank": self.rank,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Effect:
        return cls(
            name=str(data["name"]),
            remaining=_opt_int(data.get("remaining")),
            tick=cast(Tick, data.get("tick", "turn_end")),
            owner=data.get("owner"),
            rank=_opt_int(data.get("rank")),
            note=str(data.get("note", "")),
        )


@record
class Combatant:
    """One row of the tracker: a PC, an NPC from the library, or an ad-hoc foe.

    ``turn_round`` / ``ended_round`` are bookkeeping: the round whose turn start / turn end of
    this combatant already ran (so nothing ticks twice).
    """

    id: str = ""
    name: str = ""
    side: Side = "npc"
    ref: str | None = None
    initiative: int | None = None
    quickness: int = 0
    hidden: bool = False
    ap: int = 0
    ap_max: int = 0
    acted: bool = False
    held: bool = False
    economy: dict[str, bool] = field(default_factory=_fresh_economy)
    conditions: list[Effect] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    turn_round: int = 0
    ended_round: int = 0
    defeated: bool = False
    """Out of the fight (dropped, taken out, dead, retired, or marked by hand): dimmed, its
    turns skipped, left out of the players' view."""
    group: str = ""
    """The group of the same NPC it shares one initiative roll with (see
    :func:`group_key`); it acts together with its group while the encounter's
    ``group_initiative`` is on. "": none."""

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise EncounterError(f"Side must be 'pc' or 'npc', not {self.side!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict. ``stats`` is copied one level deep only: the app serialises the
        result at once, and a deep copy of 300 combatants' sheets per keypress is measurable."""
        return {
            "id": self.id,
            "name": self.name,
            "side": self.side,
            "ref": self.ref,
            "initiative": self.initiative,
            "quickness": self.quickness,
            "hidden": self.hidden,
            "ap": {"current": self.ap, "max": self.ap_max},
            "acted": self.acted,
            "held": self.held,
            "economy": dict(self.economy),
            "conditions": [e.to_dict() for e in self.conditions],
            "stats": dict(self.stats),
            "turn_round": self.turn_round,
            "ended_round": self.ended_round,
            "defeated": self.defeated,
            **({"group": self.group} if self.group else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Combatant:
        ap = data.get("ap") or {}
        economy = _fresh_economy()
        if (saved := data.get("economy")) and saved != _NO_ECONOMY_USED:
            economy.update({str(k): bool(v) for k, v in saved.items()})
        return cls(
            id=str(data.get("id", "")),
            name=str(data.get("name", "")),
            side=cast(Side, data.get("side", "npc")),
            ref=data.get("ref"),
            initiative=_opt_int(data.get("initiative")),
            quickness=int(data.get("quickness", 0)),
            hidden=bool(data.get("hidden", False)),
            ap=int(ap.get("current", 0)),
            ap_max=int(ap.get("max", 0)),
            acted=bool(data.get("acted", False)),
            held=bool(data.get("held", False)),
            economy=economy,
            conditions=[Effect.from_dict(e) for e in data.get("conditions", [])],
            stats=dict(data.get("stats") or {}),
            turn_round=int(data.get("turn_round", 0)),
            ended_round=int(data.get("ended_round", 0)),
            defeated=bool(data.get("defeated", False)),
            group=str(data.get("group") or ""),
        )


@record
class Encounter:
    """GEN-04: one fight. ``combatants`` is the turn order; ``round`` 0 = not started."""

    id: str = ""
    name: str = ""
    model: TurnModel = "initiative"
    combatants: list[Combatant] = field(default_factory=list)
    round: int = 0
    current: str | None = None
    started: bool = False
    ticked_round: int = 0
    """Highest round whose ``"round"`` effects already ticked."""
    next_seq: int = 1
    """Counter for new combatant ids (``"c1"``, ``"c2"`` ...), saved so ids stay unique."""
    rewind: list[dict[str, Any]] = field(default_factory=list)
    """What each of the last turn changes did (newest last), for :func:`previous_turn`."""
    touched: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    """While a turn change is recorded: each combatant it touches, as it was before."""
    group_initiative: bool = False
    """GEN-04: each group of the same NPC rolls one initiative and takes its turn together
    (the initiative turn model), chosen per encounter."""

    def __post_init__(self) -> None:
        # Any id: a game may declare its own turn order; the app checks it against the game.
        if not isinstance(self.model, str) or not self.model:
            raise EncounterError(f"A turn model is an id, not {self.model!r}")

    def index_of(self, combatant_id: str) -> int:
        """Position of a combatant in the order; EncounterError if absent."""
        for i, c in enumerate(self.combatants):
            if c.id == combatant_id:
                return i
        raise EncounterError(f"No combatant with id {str(combatant_id)[:40]!r} in this encounter")

    def get(self, combatant_id: str) -> Combatant:
        """The combatant with that id; EncounterError if absent."""
        return self.combatants[self.index_of(combatant_id)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "model": self.model,
            "combatants": [c.to_dict() for c in self.combatants],
            "round": self.round,
            "current": self.current,
            "started": self.started,
            "ticked_round": self.ticked_round,
            "next_seq": self.next_seq,
            "rewind": self.rewind,
            "group_initiative": self.group_initiative,
        }

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        combatant: Callable[[dict[str, Any]], Combatant] = Combatant.from_dict,
    ) -> Encounter:
        """``combatant`` reads one combatant; a reader that only displays may pass one that
        reuses what it read last time for unchanged documents."""
        enc = cls(
            id=str(data.get("id", "")),
            name=str(data.get("name", "")),
            model=cast(TurnModel, data.get("model", "initiative")),
            combatants=[combatant(c) for c in data.get("combatants", [])],
            round=int(data.get("round", 0)),
            current=data.get("current"),
            started=bool(data.get("started", False)),
            ticked_round=int(data.get("ticked_round", 0)),
            next_seq=int(data.get("next_seq", 1)),
            rewind=records(data.get("rewind")),
            group_initiative=bool(data.get("group_initiative", False)),
        )
        if enc.current is not None and all(c.id != enc.current for c in enc.combatants):
            enc.current = None
        return enc


@frozen
class OrderRow:
    """One display row of ``order_view``."""

    position: int
    id: str
    name: str
    side: str
    initiative: int | None
    is_current: bool
    acted: bool
    held: bool
    hidden: bool
    ap: int
    ap_max: int
    effects: tuple[str, ...]


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def records(value: Any) -> list[dict[str, Any]]:
    """The saved turn records; anything malformed (a hand edit) is no record (going back then
    only steps the pointer)."""
    if not isinstance(value, list):
        return []
    return [r for r in value if isinstance(r, dict)]


# --------------------------------------------------------------------------- queries


def current_combatant(enc: Encounter) -> Combatant | None:
    """The combatant whose turn it is, or None."""
    if enc.current is None:
        return None
    for c in enc.combatants:
        if c.id == enc.current:
            return c
    return None


def group_of(enc: Encounter, c: Combatant) -> str:
    """The group ``c`` acts with (GEN-04 group initiative), or "" when it acts alone."""
    if enc.group_initiative and c.side == "npc" and turn_order_of(enc).uses_initiative:
        return c.group
    return ""


def group_run(enc: Encounter, c: Combatant) -> list[Combatant]:
    """``c`` and the members of its group right after it in the order: those who take their
    turn with it. A combatant acting alone is a run of one."""
    key = group_of(enc, c)
    if not key:
        return [c]
    i = enc.index_of(c.id)
    run = [c]
    for other in enc.combatants[i + 1 :]:
        if group_of(enc, other) != key:
            break
        run.append(other)
    return run


def acting(enc: Encounter) -> list[Combatant]:
    """Whoever takes the turn now: the current combatant and, with group initiative, the rest
    of its group still in the fight."""
    cur = current_combatant(enc)
    if cur is None:
        return []
    return [cur, *(m for m in group_run(enc, cur)[1:] if not m.defeated)]


def group_key(c: Combatant) -> str:
    """GEN-04: which group of the same NPC a foe belongs to: its library NPC, else its name
    without the number (``Goblin 3`` → ``Goblin``); "" for a PC (PCs roll their own)."""
    if c.side != "npc":
        return ""
    if c.ref:
        return f"npc:{c.ref}"
    return f"name:{_split_number(c.name)[0].casefold()}"


def group_order(enc: Encounter) -> Callable[[Combatant], Any]:
    """A tie-break for :func:`sort_by_initiative` that keeps each group together: PCs first,
    then by where the group's first member stands now (the sort is stable within it)."""
    first: dict[str, int] = {}
    for i, c in enumerate(enc.combatants):
        first.setdefault(group_of(enc, c) or f"#{c.id}", i)
    return lambda c: (pcs_first(c), first[group_of(enc, c) or f"#{c.id}"])


def place_with_group(enc: Encounter, combatant_id: str) -> list[str]:
    """A newcomer sharing its group's initiative goes right after the last member already
    placed, so the group stays together; alone, it goes to its place by initiative."""
    c = enc.get(combatant_id)
    key = group_of(enc, c)
    members = [i for i, o in enumerate(enc.combatants) if o is not c and group_of(enc, o) == key]
    if not key or not members:
        return place_by_initiative(enc, combatant_id)
    i = enc.index_of(c.id)
    enc.combatants.pop(i)
    j = members[-1] + (0 if members[-1] < i else 1)
    enc.combatants.insert(j, c)
    if enc.started and enc.current not in (None, c.id):
        c.acted = j < enc.index_of(str(enc.current))
    return [] if i == j else [f"{c.name} goes to place {j + 1}, with its group"]


def order_view(enc: Encounter, players: bool = False) -> list[OrderRow]:
    """Rows for the tracker table, in turn order; ``players=True`` leaves hidden ones out."""
    rows = []
    for i, c in enumerate(enc.combatants, start=1):
        if players and c.hidden:
            continue
        rows.append(
            OrderRow(
                position=i,
                id=c.id,
                name=c.name,
                side=c.side,
                initiative=c.initiative,
                is_current=c.id == enc.current,
                acted=c.acted,
                held=c.held,
                hidden=c.hidden,
                ap=c.ap,
                ap_max=c.ap_max,
                effects=tuple(e.label() for e in c.conditions),
            )
        )
    return rows


# --------------------------------------------------------------------------- bookkeeping


def _tick(enc: Encounter, owner: str | None, when: Tick) -> list[str]:
    """GEN-05: count down every effect that ticks now; drop and log the expired ones.

    A new round also counts down, once, what counts on the turns of one out of the fight (its
    turns are skipped): an Anomaly collapses on its count whoever is down."""
    lines: list[str] = []
    out = {c.id for c in enc.combatants if c.defeated} if when == "round" else set()
    for bearer in enc.combatants:
        if not bearer.conditions:
            continue
        kept: list[Effect] = []
        expired = False
        for e in bearer.conditions:
            if e.remaining is not None and (
                (e.tick == when and (when == "round" or e.owner == owner))
                or (e.tick != "round" and e.owner in out)
            ):
                _touch(enc, bearer)
                e.remaining -= 1
                if e.remaining <= 0:
                    lines.append(f"{e.name} on {bearer.name} expires")
                    expired = True
                    continue
            kept.append(e)
        if expired:
            bearer.conditions = kept
    return lines


def _begin_turn(enc: Encounter, c: Combatant) -> list[str]:
    """Make ``c`` current; its turn start runs once per round (ticks, held lapse, economy).

    With group initiative the rest of its group after it begins its turn too (GEN-04)."""
    _touch(enc, c)
    enc.current = c.id
    with_it = [m for m in group_run(enc, c)[1:] if not m.defeated]
    lines = [f"{c.name}'s turn"]
    if with_it:
        lines[0] += f", with {_names(with_it)} (group initiative)"
    for member in (c, *with_it):
        lines += _turn_start(enc, member)
    return lines


def _turn_start(enc: Encounter, c: Combatant) -> list[str]:
    """``c``'s turn start, once per round: its held action lapses, its economy refills, its
    turn-start effects tick."""
    if c.turn_round == enc.round:
        return []
    _touch(enc, c)
    c.turn_round = enc.round
    c.economy = _fresh_economy()
    lines: list[str] = []
    if c.held:
        c.held = False
        lines.append(f"{c.name}'s held action lapses")
    return lines + _tick(enc, c.id, "turn_start")


def _names(cs: list[Combatant]) -> str:
    return _names_text([c.name for c in cs])


def _end_turn(enc: Encounter, c: Combatant) -> list[str]:
    """Mark ``c`` as having acted; its turn end runs once per round."""
    _touch(enc, c)
    c.acted = True
    if c.ended_round == enc.round:
        return []
    c.ended_round = enc.round
    return _tick(enc, c.id, "turn_end")


def _new_round(enc: Encounter) -> list[str]:
    lines = [f"{c.name}'s held action lapses" for c in enc.combatants if c.held]
    enc.round += 1
    for c in enc.combatants:
        if c.acted or c.held:
            _touch(enc, c)
        c.acted = c.held = False
    lines.append(f"Round {enc.round}")
    if enc.round > enc.ticked_round:
        enc.ticked_round = enc.round
        if enc.round > 1:
            lines += _tick(enc, None, "round")
    return lines


def _require_started(enc: Encounter) -> None:
    if not enc.started:
        raise EncounterError("The encounter has not started")


def turn_order_of(enc: Encounter) -> TurnOrder:
    """The encounter's turn order (a built-in, or one a loaded game declared): ask it what
    differs (``uses_ap``, ``uses_initiative``), never compare the model's name."""
    from rulesets.turn_orders import turn_order  # the package imports this module first

    return turn_order(enc.model)


def require_order(enc: Encounter, uses: Literal["initiative", "ap"]) -> None:
    """Refuse an operation of one kind of turn order: it works in every order that says it
    uses initiative (delay, hold, group initiative) or AP (spend, counter, pass), a game's own
    included."""
    order = turn_order_of(enc)
    if uses == "initiative" and not order.uses_initiative:
        raise EncounterError(f"That works in an initiative order; this encounter uses {enc.model}")
    if uses == "ap" and not order.uses_ap:
        raise EncounterError(
            f"That works in a turn order with action points; this encounter uses {enc.model}"
        )


# --------------------------------------------------------------------------- roster (GEN-04)


def new_combatant_id(enc: Encounter) -> str:
    """A fresh id (``"c<n>"``) unused in this encounter."""
    taken = {c.id for c in enc.combatants}
    while True:
        cid = f"c{enc.next_seq}"
        enc.next_seq += 1
        if cid not in taken:
            return cid


def add_combatant(enc: Encounter, combatant: Combatant, position: int | None = None) -> list[str]:
    """GEN-04: add one combatant (at the end, or at ``position``); an empty or taken id is replaced.

    Mid-fight it simply joins the order; in AP rounds it has whatever AP it was given.
    """
    return add_combatants(enc, [combatant], position)


def add_combatants(
    enc: Encounter, combatants: Iterable[Combatant], position: int | None = None
) -> list[str]:
    """GEN-04: add several combatants in one pass (one id scan for all of them)."""
    taken = {c.id for c in enc.combatants}
    new = list(combatants)
    for c in new:
        while not c.id or c.id in taken:
            c.id = f"c{enc.next_seq}"
            enc.next_seq += 1
        taken.add(c.id)
        for e in c.conditions:
            if e.owner is None:
                e.owner = c.id
    at = len(enc.combatants) if position is None else max(0, min(position, len(enc.combatants)))
    enc.combatants[at:at] = new
    lines = [f"{c.name} joins the encounter" for c in new]
    return lines + turn_order_of(enc).joined(enc, new, position is not None)


_NUMBERED = re.compile(r"^(.*?) (\d+)$")


def _split_number(name: str) -> tuple[str, int | None]:
    m = _NUMBERED.match(name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


def _highest_number(enc: Encounter, base: str) -> int:
    """Highest number in use for ``base`` (``"Goblin 3"`` → 3; a bare ``"Goblin"`` counts 1)."""
    best = 0
    for c in enc.combatants:
        if c.name == base:
            best = max(best, 1)
            continue
        stem, number = _split_number(c.name)
        if number is not None and stem == base:
            best = max(best, number)
    return best


def add_group(
    enc: Encounter, base_name: str, count: int, factory: Callable[[str], Combatant]
) -> list[str]:
    """GEN-04: add ``count`` combatants named ``"<base> 1"``, ``"<base> 2"`` ...

    Numbers continue after those already present (two Goblins in, three more are Goblin 3..5).
    ``factory(name)`` builds each combatant (stats, initiative, ref from the NPC library).
    """
    if count < 1:
        raise EncounterError("A group needs at least one combatant")
    base = base_name.strip()
    if not base:
        raise EncounterError("A group needs a name")
    start = _highest_number(enc, base) + 1
    made = []
    for n in range(start, start + count):
        c = factory(f"{base} {n}")
        c.name = f"{base} {n}"
        made.append(c)
    return add_combatants(enc, made)


def duplicate_combatant(enc: Encounter, combatant_id: str) -> list[str]:
    """GEN-04: a numbered copy right after the original (stats, initiative and effects copied)."""
    i = enc.index_of(combatant_id)
    original = enc.combatants[i]
    copy_ = Combatant.from_dict(original.to_dict())
    copy_.stats = copy.deepcopy(original.stats)  # to_dict shares nested stats; a twin must not
    base, _ = _split_number(original.name)
    copy_.id = ""
    copy_.name = f"{base} {_highest_number(enc, base) + 1}"
    copy_.acted = copy_.held = False
    copy_.turn_round = copy_.ended_round = 0
    copy_.economy = _fresh_economy()
    add_combatants(enc, [copy_], i + 1)
    for e in copy_.conditions:
        if e.owner == original.id:
            e.owner = copy_.id
    return [f"{copy_.name} added (copy of {original.name})"]


def remove_combatant(enc: Encounter, combatant_id: str) -> list[str]:
    """GEN-04: remove a combatant, mid-fight too; if it was acting, the turn passes on.

    Initiative: the next in order acts (wrapping into a new round if it was last). AP rounds: the
    one who has spent the fewest AP acts. Chosen-next: nobody is current until the GM chooses.
    Effects it owned on others pass to their bearers.
    """
    i = enc.index_of(combatant_id)
    gone = enc.combatants.pop(i)
    lines = [f"{gone.name} leaves the encounter"]
    for c in enc.combatants:
        for e in c.conditions:
            if e.owner == gone.id:
                e.owner = c.id
    if enc.current != gone.id:
        return lines
    enc.current = None
    if not enc.started or not enc.combatants:
        return lines
    return lines + turn_order_of(enc).left(enc, i)


def move_combatant(enc: Encounter, combatant_id: str, delta: int) -> list[str]:
    """GEN-04: move a combatant ``delta`` places (negative = up); clamped at the ends.

    The current turn stays with whoever has it.
    """
    i = enc.index_of(combatant_id)
    j = max(0, min(i + delta, len(enc.combatants) - 1))
    if i == j:
        return []
    c = enc.combatants.pop(i)
    enc.combatants.insert(j, c)
    return [f"{c.name} moves to place {j + 1}"]


def move_up(enc: Encounter, combatant_id: str) -> list[str]:
    """GEN-04: one place earlier in the order (alt+k)."""
    return move_combatant(enc, combatant_id, -1)


def move_down(enc: Encounter, combatant_id: str) -> list[str]:
    """GEN-04: one place later in the order (alt+j)."""
    return move_combatant(enc, combatant_id, 1)


def set_initiative(
    enc: Encounter, combatant_id: str, value: int | None, resort: bool = False
) -> list[str]:
    """GEN-04: set an initiative by hand (None clears it).

    ``resort``: in the initiative model the combatant moves to its new place, unless it is
    the one whose turn it is (moving it would move the turn marker with it).
    """
    c = enc.get(combatant_id)
    c.initiative = value
    lines = [f"{c.name}'s initiative is {'unset' if value is None else value}"]
    if resort and c.id != enc.current and turn_order_of(enc).uses_initiative:
        lines += place_by_initiative(enc, c.id)
    return lines


def initiative_key(
    c: Combatant, tiebreak: Callable[[Combatant], Any] | None = None
) -> tuple[Any, ...]:
    """Sort key of the initiative order: highest first, unset last, then the tie-break."""
    return (c.initiative is None, -(c.initiative or 0), (tiebreak or pcs_first)(c))


def place_by_initiative(
    enc: Encounter, combatant_id: str, tiebreak: Callable[[Combatant], Any] | None = None
) -> list[str]:
    """GEN-04: move one combatant to its place by initiative, after those it ties with.

    Nobody else moves, so the turn stays where it is. Mid-round, a combatant placed above
    the one acting has missed this round's turn (it is marked acted) and acts next round;
    placed below, it acts this round.
    """
    i = enc.index_of(combatant_id)
    c = enc.combatants.pop(i)
    key = initiative_key(c, tiebreak)
    j = next(
        (n for n, o in enumerate(enc.combatants) if key < initiative_key(o, tiebreak)),
        len(enc.combatants),
    )
    enc.combatants.insert(j, c)
    if enc.started and enc.current not in (None, c.id) and turn_order_of(enc).uses_initiative:
        c.acted = j < enc.index_of(str(enc.current))
    return [] if i == j else [f"{c.name} goes to place {j + 1}"]


def _place_all(enc: Encounter, joining: list[Combatant]) -> None:
    """:func:`place_by_initiative` for each of ``joining`` in turn, in one pass where it can.

    Where the rest of the order is sorted (as the tracker keeps it unless the GM moved someone),
    placing each one after those it ties with is a stable merge: linear, not one scan of the
    order per joiner (20,000 imported combatants took minutes). An order the GM rearranged is
    placed one by one, as before."""
    if not joining:
        return
    moving = {id(c) for c in joining}
    rest = [c for c in enc.combatants if id(c) not in moving]
    keys = [initiative_key(c) for c in rest]
    if any(later < earlier for earlier, later in zip(keys, keys[1:], strict=False)):
        for c in joining:
            place_by_initiative(enc, c.id)
        return
    # heapq.merge is stable: at equal keys the order already there comes first.
    enc.combatants = list(
        heapq.merge(rest, sorted(joining, key=initiative_key), key=initiative_key)
    )
    if enc.started and enc.current is not None:
        # Placed above the one acting, it has missed this round's turn (place_by_initiative).
        acting = next((i for i, c in enumerate(enc.combatants) if c.id == enc.current), None)
        if acting is not None:
            for i, c in enumerate(enc.combatants):
                if id(c) in moving and c.id != enc.current:
                    c.acted = i < acting


def set_group_initiative(enc: Encounter, on: bool) -> list[str]:
    """GEN-04: switch group initiative for this encounter, before the fight or between rounds.

    On: each group of the same NPC (:func:`group_key`) shares one initiative (its first
    member's, where one has it; else ``i`` rolls one for the group) and stands together in the
    order. Off: each foe takes its own turn again (the shared numbers stay).
    """
    require_order(enc, "initiative")
    if not between_rounds(enc):
        raise EncounterError("Switch group initiative between rounds: finish this round first")
    enc.group_initiative = on
    if not on:
        return ["Group initiative off: each foe takes its own turn"]
    shared: dict[str, int | None] = {}
    for c in enc.combatants:
        c.group = group_key(c)
        if c.group and shared.get(c.group) is None:
            shared[c.group] = c.initiative
    for c in enc.combatants:
        if c.group and shared.get(c.group) is not None:
            c.initiative = shared[c.group]
    sort_by_initiative(enc, group_order(enc))
    groups = sum(1 for key in shared if sum(c.group == key for c in enc.combatants) > 1)
    lines = [
        "Group initiative on: each group of the same NPC rolls once and acts together "
        f"({groups} group{'s' if groups != 1 else ''} here)"
    ]
    return lines + restart_round(enc)


def between_rounds(enc: Encounter) -> bool:
    """Before the fight, or at the top of a round before anyone has finished a turn."""
    return not enc.started or not any(c.acted for c in enc.combatants)


def restart_round(enc: Encounter) -> list[str]:
    """After the order was rebuilt between rounds: the first one up takes the turn."""
    if not enc.started or not enc.combatants or not turn_order_of(enc).uses_initiative:
        return []
    first = _first_up(enc, 0)
    if first.id == enc.current:
        return []
    return _begin_turn(enc, first)


def _first_up(enc: Encounter, i: int) -> Combatant:
    """The first combatant from place ``i`` on (not wrapping) who is not defeated; if all of
    them are, the one at ``i``."""
    for c in enc.combatants[i:]:
        if not c.defeated:
            return c
    return enc.combatants[min(i, len(enc.combatants) - 1)]


def set_defeated(enc: Encounter, combatant_id: str, defeated: bool) -> list[str]:
    """Mark a combatant out of the fight (its turns are skipped) or back in.

    A defeated combatant never holds the turn: marking the acting one passes the turn on as
    its turn order says (:meth:`TurnOrder.defeated`).
    """
    c = enc.get(combatant_id)
    if c.defeated == defeated:
        return []
    c.defeated = defeated
    if defeated and enc.started:
        lines = turn_order_of(enc).defeated(enc, c)
        if lines:
            return [f"{c.name} is defeated", *lines]
    return [f"{c.name} is {'defeated' if defeated else 'back in the fight'}"]


def every_foe_out(enc: Encounter) -> bool:
    """A running fight with foes, every one of them down or fled (marked defeated)."""
    foes = [c for c in enc.combatants if c.side == "npc"]
    return enc.started and bool(foes) and all(c.defeated for c in foes)


def set_hidden(enc: Encounter, combatant_id: str, hidden: bool) -> list[str]:
    """Hide a combatant from the players' view, or reveal it."""
    c = enc.get(combatant_id)
    c.hidden = hidden
    return [f"{c.name} is {'hidden' if hidden else 'revealed'}"]


def rename_combatant(enc: Encounter, combatant_id: str, name: str) -> list[str]:
    """Rename a combatant (its id stays)."""
    name = name.strip()
    if not name:
        raise EncounterError("A combatant needs a name")
    c = enc.get(combatant_id)
    old, c.name = c.name, name
    return [f"{old} is now {name}"]


def pcs_first(c: Combatant) -> int:
    """Default tie-break (NEM-05): PCs before NPCs at equal initiative."""
    return 0 if c.side == "pc" else 1


def sort_by_initiative(
    enc: Encounter, tiebreak: Callable[[Combatant], Any] | None = None
) -> list[str]:
    """GEN-04: order by initiative, highest first; unset initiatives go last.

    ``tiebreak(c)`` is a sort key among equal initiatives (lower first; default
    :func:`pcs_first`); remaining ties keep their present order. The current turn stays put.
    """
    key = tiebreak or pcs_first
    enc.combatants.sort(
        key=lambda c: (c.initiative is None, -(c.initiative or 0), key(c)),
    )
    return ["Order sorted by initiative"]


# --------------------------------------------------------------------------- going back

REWIND_DEPTH = 30
"""Turn changes :func:`previous_turn` can take back, newest first (a few rounds of a fight)."""
TURN_FIELDS: tuple[str, ...] = ("acted", "held", "economy", "turn_round", "ended_round", "ap")
"""What a turn change may change on a combatant besides its effects."""
_MATCH: tuple[str, ...] = ("name", "owner", "tick", "note", "remaining")
"""How an effect is recognised when going back (not its rank: a game may decay it later)."""


KEPT_FIELDS: tuple[str, ...] = ("initiative", "quickness", "ap_max", "stats")
"""What a game's own turn order may also change in a turn change (a card dealt each round
is an initiative, a stat, a new order): recorded for going back in those orders only (the
built-ins change none of it, and a copy of every sheet per turn would cost a big fight)."""


def _own_order(enc: Encounter) -> bool:
    """The encounter runs a game's own turn order, not a built-in."""
    from rulesets.turn_orders import BUILT_IN  # the package imports this module first

    return enc.model not in BUILT_IN


def _kept_state(c: Combatant) -> dict[str, Any]:
    return {f: copy.deepcopy(getattr(c, f)) for f in KEPT_FIELDS}


def _turn_state(c: Combatant) -> dict[str, Any]:
    return {f: dict(c.economy) if f == "economy" else getattr(c, f) for f in TURN_FIELDS}


def _touch(enc: Encounter, c: Combatant) -> None:
    """About to change ``c`` in a recorded turn change: keep it as it is, once."""
    touched = enc.touched
    if touched is not None and c.id not in touched:
        touched[c.id] = (c, _turn_state(c), [(e, e.remaining, e.rank) for e in c.conditions])


def _recorded(enc: Encounter, change: Callable[[], list[str]]) -> list[str]:
    """Run a turn change and record what it changed, for :func:`previous_turn`.

    Only the combatants it touched are compared (a turn in a 300-strong fight touches two).
    A changed field is kept as ``[before, after]``, a changed effect as ``[place, before,
    after]`` (``after`` None: it expired; ``place``: where it was in its bearer's list)."""
    turn = [enc.round, enc.current, enc.ticked_round]
    own = _own_order(enc)
    extra = {c.id: (c, _kept_state(c)) for c in enc.combatants} if own else {}
    order = [c.id for c in enc.combatants]
    enc.touched = {}
    try:
        lines = change()
        touched = enc.touched
    finally:
        enc.touched = None
    combatants: dict[str, Any] = {}
    for cid, (c, state, effects) in touched.items():
        now = _turn_state(c)
        changed: dict[str, Any] = {f: [state[f], now[f]] for f in TURN_FIELDS if now[f] != state[f]}
        counted = []
        for place, (e, remaining, rank) in enumerate(effects):
            kept = any(e is x for x in c.conditions)
            if not kept or (e.remaining, e.rank) != (remaining, rank):
                before = {**e.to_dict(), "remaining": remaining, "rank": rank}
                counted.append([place, before, e.to_dict() if kept else None])
        if counted:
            changed["effects"] = counted
        if changed:
            combatants[cid] = changed
    for cid, (c, state) in extra.items():
        now = _kept_state(c)
        moved = {f: [state[f], now[f]] for f in KEPT_FIELDS if now[f] != state[f]}
        if moved:
            combatants.setdefault(cid, {}).update(copy.deepcopy(moved))
    record: dict[str, Any] = {
        "before": turn,
        "after": [enc.round, enc.current, enc.ticked_round],
        "combatants": combatants,
    }
    now_order = [c.id for c in enc.combatants]
    if now_order != order:
        record["order"] = [order, now_order]
    enc.rewind = [*enc.rewind[-(REWIND_DEPTH - 1) :], record]
    return lines


def _rewinds(enc: Encounter, record: dict[str, Any]) -> bool:
    """The record is of the turn change that led to the turn on screen, and can be taken back."""
    try:
        after, before = list(record["after"]), list(record["before"])
        ids = {c.id for c in enc.combatants}
        return (
            after[:2] == [enc.round, enc.current]
            and (before[1] is None or before[1] in ids)
            and isinstance(record.get("combatants"), dict)
        )
    except (KeyError, TypeError, ValueError):
        return False


def _same_effect(e: Effect, saved: dict[str, Any]) -> bool:
    return all(getattr(e, k) == saved.get(k) for k in _MATCH)


def _rewind(enc: Encounter, record: dict[str, Any]) -> list[str]:
    """Put back what a recorded turn change did, field by field where nothing changed since."""
    back_round, back_current, back_ticked = record["before"]
    if enc.ticked_round == record["after"][2]:
        enc.ticked_round = int(back_ticked)
    enc.round, enc.current = int(back_round), back_current
    counts: list[str] = []
    for c in enc.combatants:
        changed = record["combatants"].get(c.id)
        if not isinstance(changed, dict):
            continue
        for name in (*TURN_FIELDS, *KEPT_FIELDS):
            pair = changed.get(name)
            if isinstance(pair, list) and len(pair) == 2 and getattr(c, name) == pair[1]:
                setattr(c, name, copy.deepcopy(pair[0]))
        counts += _rewind_effects(c, changed.get("effects") or [])
    _rewind_order(enc, record.get("order"))
    cur = current_combatant(enc)
    said = f"Back to {cur.name}'s turn" if cur is not None else "Back to choosing who acts"
    lines = [f"{said} (round {enc.round})"]
    if counts:
        lines.append("Counting again: " + ", ".join(counts))
    return lines


def _rewind_order(enc: Encounter, order: Any) -> None:
    """The order as it was before the turn change, where nobody has moved or left since."""
    if not (isinstance(order, list) and len(order) == 2):
        return
    before, after = order
    if [c.id for c in enc.combatants] != after or sorted(map(str, before)) != sorted(after):
        return
    by_id = {c.id: c for c in enc.combatants}
    enc.combatants = [by_id[str(cid)] for cid in before]


def _rewind_effects(c: Combatant, counted: list[Any]) -> list[str]:
    """A bearer's effects as they were before the turn change: counts back, expired ones back
    in their places. Each comes back as a new Effect (a game's tick hook does not count it)."""
    said: list[str] = []
    gone = sorted(int(place) for place, _, after in counted if after is None)
    back: set[int] = set()  # effects already put back (two alike must not take one place)
    returning: list[tuple[int, Effect]] = []
    for place, before, after in counted:
        effect = Effect.from_dict(before)
        if after is None:
            returning.append((int(place), effect))
        else:
            # Where it should be now (its place less the expired before it), else any alike.
            guess = int(place) - sum(1 for g in gone if g < int(place))
            order = [guess, *range(len(c.conditions))]
            k = next(
                (
                    k
                    for k in order
                    if 0 <= k < len(c.conditions)
                    and id(c.conditions[k]) not in back
                    and _same_effect(c.conditions[k], after)
                ),
                None,
            )
            if k is None:
                continue  # removed or changed by hand since: left as it is now
            c.conditions[k] = effect
            back.add(id(effect))
        said.append(f"{effect.name} {effect.remaining} on {c.name}")
    for place, effect in sorted(returning, key=lambda r: r[0]):
        c.conditions.insert(min(place, len(c.conditions)), effect)
    return said


# --------------------------------------------------------------------------- turns (GEN-04)


def start(enc: Encounter) -> list[str]:
    """GEN-04: begin round 1.

    Initiative: the first in order acts. AP rounds: every AP pool refills from its max and the
    one the SOH-10 order names acts (see :func:`start_ap_round` to set the maxes). Chosen-next: nobody is
    current until :func:`choose_next`.
    """
    if enc.started:
        raise EncounterError("The encounter is already running")
    if not enc.combatants:
        raise EncounterError("Add combatants before starting")
    enc.started = True
    enc.round = 0
    enc.ticked_round = 0
    enc.current = None
    enc.rewind = []
    for c in enc.combatants:
        c.acted = c.held = False
        c.turn_round = c.ended_round = 0
    return [f"{enc.name or 'Encounter'} begins"] + _new_round(enc) + turn_order_of(enc).start(enc)


def end(enc: Encounter) -> list[str]:
    """GEN-04: end the fight: round back to 0, no current turn; combatants and effects stay.
    In an order that spends AP every pool is full again (a defeated one's empty)."""
    _require_started(enc)
    rounds = enc.round
    enc.started = False
    enc.round = 0
    enc.ticked_round = 0
    enc.current = None
    enc.rewind = []
    # AP are a round's (SOH-10): none is spent outside a fight, so the column shows full pools
    # (a defeated one none) instead of the last round's spending until the next fight.
    refill = turn_order_of(enc).uses_ap
    for c in enc.combatants:
        c.acted = c.held = False
        c.turn_round = c.ended_round = 0
        c.economy = _fresh_economy()
        if refill:
            c.ap = 0 if c.defeated else c.ap_max
    return [f"{enc.name or 'Encounter'} ends after {rounds} round{'s' if rounds != 1 else ''}"]


def end_effects(enc: Encounter, stays: Callable[[Combatant, Effect], bool]) -> list[str]:
    """GEN-05 at a fight's end: every effect ends with the fight but those ``stays`` keeps
    (the game's choice); one line names what ended and on whom.

    Reading: a fight's conditions and countdowns belong to it (they count its turns and
    rounds), so they end with it unless the game says one outlives it."""
    ended: dict[str, list[str]] = {}
    for c in enc.combatants:
        kept = [e for e in c.conditions if stays(c, e)]
        for e in c.conditions:
            if not any(e is k for k in kept):
                ended.setdefault(e.name, []).append(c.name)
        c.conditions = kept
    if not ended:
        return []
    said = "; ".join(f"{name} on {_names_text(who)}" for name, who in ended.items())
    return [f"Ended with the fight: {said}"]


def _names_text(names: list[str]) -> str:
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]


def next_turn(enc: Encounter) -> list[str]:
    """GEN-04: end the current turn and pass it on.

    Initiative: the next in order; past the last one a new round begins (round effects tick).
    AP rounds: the current actor passes (spends its remaining AP, :func:`pass_turn`).
    Chosen-next: the first combatant in order who may still act is chosen (:func:`choose_next`).
    What it changed is recorded for :func:`previous_turn`.
    """
    return _recorded(enc, lambda: _next_turn(enc))


def _next_turn(enc: Encounter) -> list[str]:
    _require_started(enc)
    if not enc.combatants:
        raise EncounterError("Nobody is left in the encounter")
    return turn_order_of(enc).next_turn(enc)


def previous_turn(enc: Encounter) -> list[str]:
    """GEN-04: back to the previous turn, taking back what the turn change did.

    With a record of the turn change that led here (:func:`next_turn`, :func:`hold`), every
    field it changed and nothing has changed since is put back: the turn, the round, who acted
    or holds, the AP, each countdown (an effect that expired comes back), so stepping forward
    again ticks them again. Without one (initiative only) the pointer steps back one place
    (into the previous round from the first) and ``acted`` is recomputed from the order.
    """
    _require_started(enc)
    record = enc.rewind[-1] if enc.rewind else None
    if record is not None and _rewinds(enc, record):
        enc.rewind.pop()
        return _rewind(enc, record)
    enc.rewind = []  # the turn moved another way since: the older records no longer hold
    return turn_order_of(enc).previous_turn(enc)


def use_economy(enc: Encounter, combatant_id: str, kind: str, used: bool = True) -> list[str]:
    """Mark a Nemron action, reaction or movement as used (NEM-06 rules live in nemron.py)."""
    if kind not in ECONOMY_KINDS:
        raise EncounterError(f"Unknown action kind {kind!r}: use one of {', '.join(ECONOMY_KINDS)}")
    c = enc.get(combatant_id)
    c.economy[kind] = used
    return [f"{c.name} {'uses' if used else 'regains'} {kind}"]


# ------------------------------------------------ what a turn order builds on

begin_turn = _begin_turn
"""Make a combatant current; its turn start (and its group's) runs once per round."""
end_turn = _end_turn
"""Mark a combatant as having acted; its turn end runs once per round."""
new_round = _new_round
"""The next round begins: round effects tick, who acted is cleared."""
first_up = _first_up
"""The first combatant from a place on who is not defeated."""


# --------------------------------------------------------------------------- effects (GEN-05)


def add_effect(enc: Encounter, combatant_id: str, effect: Effect) -> list[str]:
    """GEN-05: put an effect on a combatant; its owner defaults to the bearer."""
    bearer = enc.get(combatant_id)
    if effect.remaining is not None and effect.remaining < 1:
        raise EncounterError("A timed effect needs at least 1 to run")
    if effect.owner is None:
        effect.owner = bearer.id
    owner = enc.get(effect.owner)
    bearer.conditions.append(effect)
    if effect.remaining is None:
        return [f"{bearer.name} gains {effect.name}"]
    when = {
        "turn_start": f"at the start of {owner.name}'s turn",
        "turn_end": f"at the end of {owner.name}'s turn",
        "round": "each round",
    }[effect.tick]
    return [f"{bearer.name} gains {effect.name} ({effect.remaining}, counting down {when})"]


def remove_effect(enc: Encounter, combatant_id: str, name: str) -> list[str]:
    """GEN-05: remove the first effect of that name (case-insensitive) from a combatant."""
    bearer = enc.get(combatant_id)
    for k, e in enumerate(bearer.conditions):
        if e.name.casefold() == name.casefold():
            del bearer.conditions[k]
            return [f"{e.name} removed from {bearer.name}"]
    raise EncounterError(f"{bearer.name} has no effect called {name!r}")


# The built-in turn orders' own operations, where callers have always found them. Imported last:
# those modules build on everything above.
from rulesets.turn_orders.ap_rounds import (  # noqa: E402
    _refill_ap as _refill_ap,
)
from rulesets.turn_orders.ap_rounds import (  # noqa: E402
    _refresh_ap_actor as _refresh_ap_actor,
)
from rulesets.turn_orders.ap_rounds import (  # noqa: E402
    counter_action as counter_action,
)
from rulesets.turn_orders.ap_rounds import (  # noqa: E402
    next_ap_actor as next_ap_actor,
)
from rulesets.turn_orders.ap_rounds import pass_turn as pass_turn  # noqa: E402
from rulesets.turn_orders.ap_rounds import set_ap as set_ap  # noqa: E402
from rulesets.turn_orders.ap_rounds import spend_ap as spend_ap  # noqa: E402
from rulesets.turn_orders.ap_rounds import (  # noqa: E402
    start_ap_round as start_ap_round,
)
from rulesets.turn_orders.chosen_next import choosable as choosable  # noqa: E402
from rulesets.turn_orders.chosen_next import choose_next as choose_next  # noqa: E402
from rulesets.turn_orders.initiative import delay as delay  # noqa: E402
from rulesets.turn_orders.initiative import hold as hold  # noqa: E402
from rulesets.turn_orders.initiative import use_held as use_held  # noqa: E402

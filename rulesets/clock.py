"""The campaign clock: in-game time outside the fight, and the time part of a game's declaration.

A campaign keeps one clock in its ``meta`` document (``meta.clock``): the seconds since the
campaign began, the hour of day it began at, the timed effects kept outside the fight (a torch,
a spell, a curse: each with the clock time it ends), the random-encounter checks the GM set and
what the last one brought up. Every advance is one pure function of a :class:`~rulesets.table.Tx`
(:func:`advance`), so it runs inside one command of the app's state path: undoable, logged,
saved. It ticks the effects, makes the encounter checks, applies the game's rests by the hours
actually rested, and asks the game's :class:`TimeRules` what else time does in that game.

A game declares its part as :class:`TimeRules` (``Game.time``); the default declares nothing
game-specific, so a game that says nothing still gets a clock, rounds of 6 seconds and a rest
that moves only time.

Layout of ``meta.clock``::

    {"seconds": 3600, "start_hour": 8, "next_id": 3, "players": false,
     "effects": [{"id": 1, "name": "Torch", "ends": 7200, "light": true, "on": "Rowan"}],
     "checks": [{"id": 2, "every": 3600, "since": 0, "chance": [1, 6],
                 "table": [{"name": "Goblin", "count": "2d4"}]}],
     "came_up": {"at": 3600, "text": "3 Goblin", "foes": [{"name": "Goblin", "count": 3}]}}

Reading: the campaign starts on Day 1 at 08:00 (the GM may set another hour), and a day is
numbered from there, because no rules text gives a calendar; a game may name its days.
Reading: a fight's round passes time when the fight reaches a round it has not had before (the
round counter's high-water mark), so stepping back a turn and forward again passes it once; the
round in which the fight starts and the one in which it ends add nothing.
Reading: encounter checks fall every N from the moment the GM set them; each is one roll of
"n in d" (a percentage is n in 100); a long advance makes every check it passes in order and
stops at the first that comes up: time stops there, and the party meets what came up.
Reading: an encounter table's entries are equally likely (list one twice to make it likelier);
an entry's count is a dice expression (``2d4``) rolled when it comes up.
Reading: a rest that an encounter cuts short is the rest of the hours actually rested: the game's
rest rule is chosen again by those hours (a night's rest broken at hour 3 is a short rest).
Reading: an effect ends when the clock reaches its end, and is gone from then on; going back in
time (undo) brings it back with the rest of the change.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from rulesets.base import RuleError
from rulesets.values import frozen

if TYPE_CHECKING:
    from rulesets.table import Tx

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR
WEEK = 7 * DAY
MAX_ADVANCE = 366 * DAY
"""Longest single advance: more is a typing slip (a year of checks and rests at once)."""
MAX_EFFECT = 100 * 366 * DAY
"""Longest timed effect (a curse of a century is still a number the save can hold)."""
MIN_CHECK_EVERY = MINUTE
MAX_CHECKS = 200_000
"""Encounter checks one advance makes at most (a year of checks every few minutes)."""
MAX_TABLE = 50
MAX_NAME = 80
START_HOUR = 8

TIME, REST, EFFORT = "time", "rest", "effort"
"""What the party does while time passes: nothing in particular, rest, or hard effort."""
ACTIVITY_WORDS = {TIME: "time passes", REST: "rest", EFFORT: "hard effort"}

CLOCK_KEY = "clock"
"""The clock's key in the campaign's ``meta`` document."""


class ClockError(RuleError):
    """A duration, effect or check the clock cannot take; the message says why."""


# --- durations -------------------------------------------------------------------------------
_UNITS = {
    "s": 1, "sec": 1, "second": 1, "seconds": 1,
    "m": MINUTE, "min": MINUTE, "mins": MINUTE, "minute": MINUTE, "minutes": MINUTE,
    "h": HOUR, "hr": HOUR, "hrs": HOUR, "hour": HOUR, "hours": HOUR,
    "d": DAY, "day": DAY, "days": DAY,
    "w": WEEK, "week": WEEK, "weeks": WEEK,
}  # fmt: skip
_PART = re.compile(r"\s*([0-9]{1,7})\s*([a-z]+)")


def parse_duration(text: str, *, longest: int = MAX_ADVANCE) -> int:
    """Seconds in a typed duration: ``10m``, ``1h``, ``8h``, ``2d``, ``1h30m``, ``3 days``.

    Raises:
        ClockError: not a duration, nothing long, or longer than ``longest``.
    """
    raw = str(text).strip().lower()
    example = "e.g. 10m, 1h, 8h, 2d or 1h30m"
    if not raw:
        raise ClockError(f"a duration is needed ({example})")
    total, at = 0, 0
    while at < len(raw):
        found = _PART.match(raw, at)
        if found is None or found.group(2) not in _UNITS:
            raise ClockError(f"{text!r} is not a duration ({example})")
        total += int(found.group(1)) * _UNITS[found.group(2)]
        at = found.end()
        while at < len(raw) and raw[at] in " ,+":
            at += 1
    if total <= 0:
        raise ClockError(f"{text!r} is no time at all ({example})")
    if total > longest:
        raise ClockError(f"{text!r} is longer than {duration_text(longest)} at once")
    return total


def duration_text(seconds: int) -> str:
    """A duration as a GM says it: ``6 s``, ``10 min``, ``1 h 30 min``, ``3 days 4 h``."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} h")
    if minutes and not days:
        parts.append(f"{minutes} min")
    if secs and not days and not hours:
        parts.append(f"{secs} s")
    return " ".join(parts) or "0 s"


# --- the game's part -------------------------------------------------------------------------
@frozen
class Passage:
    """One stretch of time as a game's time rule sees it: from ``start`` to ``end`` (seconds
    since the campaign began), what the party did, and the named rest it was (if any)."""

    start: int
    end: int
    activity: str = TIME
    rest: str = ""
    """The game's rest applied for this stretch (``"rest"``, ``"regroup"``); empty: none."""

    @property
    def seconds(self) -> int:
        return self.end - self.start

    @property
    def hours(self) -> int:
        """Whole hours in this stretch (an hour of effort or rest counts once it is whole)."""
        return self.seconds // HOUR


Lines = list[str]
PARTS_OF_DAY: tuple[tuple[int, str], ...] = (
    (5, "night"),
    (7, "dawn"),
    (12, "morning"),
    (17, "afternoon"),
    (21, "evening"),
    (24, "night"),
)
"""(hour it ends before, name): the default words for the time of day."""


@frozen
class TimeRules:
    """What time does in a game: the clock's questions to a game (the default says nothing).

    ``rest_hours`` gives how long each of the game's named rests (its
    ``SheetRules.rests``) takes; a rest of a typed length is the longest
    named rest that fits in it (one the game asks the hours of counts from an hour). ``passing``
    is the game's rule for any stretch of time (Energy spent by hard effort, consequences due
    to heal), given the :class:`Passage`; it changes documents through the ``Tx`` and returns
    log lines.
    """

    round_seconds: int = 6
    """How long a round of the fight lasts in the game's fiction."""
    round_word: str = "round"
    day_word: str = "Day"
    parts_of_day: tuple[tuple[int, str], ...] = PARTS_OF_DAY
    rest_hours: Mapping[str, int] = field(default_factory=lambda: {"regroup": 1, "rest": 8})
    """By rest id: its length in hours. A rest the game asks the hours of (a form) is absent."""
    rest_names: Mapping[str, str] = field(
        default_factory=lambda: {"regroup": "Regroup", "rest": "a night's rest"}
    )
    """By rest id: the rest in the game's words."""
    activities: tuple[str, ...] = (TIME, REST)
    """What the party may do while time passes (``effort`` where the game prices it)."""
    passing: Callable[[Tx, Passage], Lines] | None = None
    asked_rest_from: int = HOUR
    """A rest the game asks the hours of is chosen for a typed rest of at least this long."""
    no_rest: str = "the game has no rest of its own: only what time itself brings"
    """Said when the party rests in a game without a rest (its text's reason, if it has one)."""
    rest_needs_peace: str = ""
    """The text's words that a rest is not taken in a fight (``"rest … without conflict"``):
    given, a rest is refused while a fight runs, with these words; empty, a rest is allowed."""

    def rest_name(self, rest: str) -> str:
        return self.rest_names.get(rest, rest.capitalize())

    def part_of_day(self, hour: int) -> str:
        return next((name for end, name in self.parts_of_day if hour < end), "")

    def rest_for(self, seconds: int, offered: Sequence[str]) -> str:
        """The named rest (of ``offered``, the ids the game's sheet has) a rest of ``seconds``
        is: the longest that fits; a rest the game asks the hours of fits from
        :attr:`asked_rest_from`. Empty: too short for any."""
        fitting = [
            (self.rest_hours.get(rest, 0) * HOUR or self.asked_rest_from, rest) for rest in offered
        ]
        fitting = [(length, rest) for length, rest in fitting if length <= seconds]
        return max(fitting)[1] if fitting else ""


# --- the clock's state -----------------------------------------------------------------------
@frozen
class Effect:
    """A timed effect kept outside the fight: it ends at clock time ``ends``."""

    id: int
    name: str
    ends: int
    light: bool = False
    on: str = ""
    """Whose it is (a PC's name), or empty: the party's."""

    def to_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "name": self.name, "ends": self.ends}
        if self.light:
            doc["light"] = True
        if self.on:
            doc["on"] = self.on
        return doc

    @property
    def label(self) -> str:
        return f"{self.name} ({self.on})" if self.on else self.name


@frozen
class TableEntry:
    name: str
    count: str = "1"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "count": self.count}

    @property
    def text(self) -> str:
        return self.name if self.count == "1" else f"{self.name} {self.count}"


@frozen
class Check:
    """A random-encounter check: every ``every`` seconds from ``since``, ``chance`` = n in d."""

    id: int
    every: int
    chance: tuple[int, int]
    table: tuple[TableEntry, ...] = ()
    since: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "every": self.every,
            "since": self.since,
            "chance": list(self.chance),
            "table": [e.to_dict() for e in self.table],
        }

    @property
    def text(self) -> str:
        n, d = self.chance
        odds = f"{n}%" if d == 100 else f"{n} in {d}"
        table = "; ".join(e.text for e in self.table) or "no table"
        return f"every {duration_text(self.every)}, {odds}: {table}"

    def due_between(self, start: int, end: int) -> Iterator[int]:
        """The clock times in (start, end] this check falls on."""
        first = (start - self.since) // self.every + 1
        last = (end - self.since) // self.every
        for k in range(max(first, 1), last + 1):
            yield self.since + k * self.every


@frozen
class Foe:
    name: str
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "count": self.count}


@frozen
class CameUp:
    """What the last encounter check brought up, until it becomes a fight or time moves on."""

    at: int
    text: str
    foes: tuple[Foe, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "text": self.text, "foes": [f.to_dict() for f in self.foes]}


@frozen
class Clock:
    seconds: int = 0
    start_hour: int = START_HOUR
    effects: tuple[Effect, ...] = ()
    checks: tuple[Check, ...] = ()
    came_up: CameUp | None = None
    players: bool = False
    """The players' view may show the time of day and the light left."""
    next_id: int = 1

    def to_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "seconds": self.seconds,
            "start_hour": self.start_hour,
            "next_id": self.next_id,
            "players": self.players,
            "effects": [e.to_dict() for e in self.effects],
            "checks": [c.to_dict() for c in self.checks],
        }
        if self.came_up is not None:
            doc["came_up"] = self.came_up.to_dict()
        return doc

    @classmethod
    def from_dict(cls, raw: Any) -> Clock:
        """The clock as saved; a save without one is at its start (validated on open)."""
        if not isinstance(raw, dict):
            return cls()
        came = raw.get("came_up")
        return cls(
            seconds=int(raw.get("seconds", 0)),
            start_hour=int(raw.get("start_hour", START_HOUR)),
            effects=tuple(
                Effect(
                    int(e["id"]),
                    str(e["name"]),
                    int(e["ends"]),
                    bool(e.get("light")),
                    str(e.get("on", "")),
                )
                for e in raw.get("effects", [])
            ),
            checks=tuple(
                Check(
                    int(c["id"]),
                    int(c["every"]),
                    (int(c["chance"][0]), int(c["chance"][1])),
                    tuple(TableEntry(str(t["name"]), str(t.get("count", "1"))) for t in c["table"]),
                    int(c.get("since", 0)),
                )
                for c in raw.get("checks", [])
            ),
            came_up=None
            if not isinstance(came, dict)
            else CameUp(
                int(came["at"]),
                str(came["text"]),
                tuple(Foe(str(f["name"]), int(f["count"])) for f in came.get("foes", [])),
            ),
            players=bool(raw.get("players", False)),
            next_id=int(raw.get("next_id", 1)),
        )

    # --- reading the time -------------------------------------------------------------------
    def day(self, at: int | None = None) -> int:
        return (self.start_hour * HOUR + (self.seconds if at is None else at)) // DAY + 1

    def time_of_day(self, at: int | None = None) -> int:
        """Seconds since midnight."""
        return (self.start_hour * HOUR + (self.seconds if at is None else at)) % DAY

    def date(self, rules: TimeRules, at: int | None = None) -> str:
        """The campaign's date: ``Day 3``."""
        return f"{rules.day_word} {self.day(at)}"

    def clock_text(self, at: int | None = None, seconds: bool = False) -> str:
        hours, rest = divmod(self.time_of_day(at), HOUR)
        minutes, secs = divmod(rest, MINUTE)
        return f"{hours:02d}:{minutes:02d}" + (f":{secs:02d}" if seconds and secs else "")

    def text(self, rules: TimeRules, at: int | None = None, *, seconds: bool = True) -> str:
        """``Day 3 14:20 afternoon`` (seconds shown when there are some and ``seconds``)."""
        part = rules.part_of_day(self.time_of_day(at) // HOUR)
        return f"{self.date(rules, at)} {self.clock_text(at, seconds)} {part}".strip()

    def light_left(self) -> list[tuple[Effect, int]]:
        """Every light burning and the seconds it has left, soonest out first."""
        return sorted(
            ((e, e.ends - self.seconds) for e in self.effects if e.light), key=lambda p: p[1]
        )

    def effects_left(self) -> list[tuple[Effect, int]]:
        return sorted(((e, e.ends - self.seconds) for e in self.effects), key=lambda p: p[1])


def read(tx_or_meta: Tx | Mapping[str, Any]) -> Clock:
    """The campaign's clock, from a transaction or a ``meta`` document."""
    meta = tx_or_meta if isinstance(tx_or_meta, Mapping) else tx_or_meta.meta()
    return Clock.from_dict(meta.get(CLOCK_KEY))


def write(tx: Tx, clock: Clock) -> None:
    meta = tx.meta()
    meta[CLOCK_KEY] = clock.to_dict()
    tx.put("meta", 1, meta)


def campaign_date(tx: Tx) -> str:
    """Today on the campaign's calendar (``Day 3``): the date a wound is received."""
    return read(tx).date(tx.game.time)


_DAY_NUMBER = re.compile(r"([0-9]+)\s*$")


def day_number(date: str) -> int | None:
    """The day a campaign date names (``Day 3`` → 3); None for another kind of date."""
    found = _DAY_NUMBER.search(str(date))
    return int(found.group(1)) if found and not re.fullmatch(r"\d{4}-\d\d-\d\d", date) else None


def clock_problem(raw: Any) -> str | None:
    """Why a saved ``meta.clock`` cannot be used (naming the field), or None."""
    if not isinstance(raw, dict):
        return "must be an object"

    def whole(value: Any, low: int = 0, high: int = 2**53) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    for key, low, high in (("seconds", 0, 2**53), ("start_hour", 0, 23), ("next_id", 1, 2**53)):
        if key in raw and not whole(raw[key], low, high):
            return f"'{key}' must be a whole number from {low} to {high}"
    if not isinstance(raw.get("players", False), bool):
        return "'players' must be true or false"
    for at, effect in enumerate(raw.get("effects", [])):
        where = f"'effects'[{at}]"
        if not isinstance(effect, dict):
            return f"{where} must be an object"
        if not whole(effect.get("id"), 1) or not whole(effect.get("ends"), -(2**53)):
            return f"{where} needs whole-number 'id' and 'ends'"
        if not isinstance(effect.get("name"), str) or not isinstance(effect.get("on", ""), str):
            return f"{where} 'name' and 'on' must be text"
    for at, check in enumerate(raw.get("checks", [])):
        where = f"'checks'[{at}]"
        if not isinstance(check, dict):
            return f"{where} must be an object"
        chance = check.get("chance")
        if not (isinstance(chance, list) and len(chance) == 2 and all(whole(v) for v in chance)):
            return f"{where} 'chance' must be [n, d]"
        if not 0 < chance[1] <= 1000 or not 0 <= chance[0] <= chance[1]:
            return f"{where} 'chance' must be n in d with 0 <= n <= d <= 1000"
        if not whole(check.get("id"), 1) or not whole(check.get("every"), MIN_CHECK_EVERY):
            return f"{where} needs whole-number 'id' and 'every' (at least {MIN_CHECK_EVERY})"
        if not whole(check.get("since", 0)):
            return f"{where} 'since' must be a whole number"
        table = check.get("table")
        if not isinstance(table, list) or not all(
            isinstance(t, dict)
            and isinstance(t.get("name"), str)
            and isinstance(t.get("count", "1"), str)
            for t in table
        ):
            return f"{where} 'table' must be a list of {{'name', 'count'}} texts"
    for key in ("effects", "checks"):
        if not isinstance(raw.get(key, []), list):
            return f"'{key}' must be a list"
    came = raw.get("came_up")
    if came is not None and not (
        isinstance(came, dict)
        and whole(came.get("at"))
        and isinstance(came.get("text"), str)
        and isinstance(came.get("foes", []), list)
        and all(
            isinstance(f, dict) and isinstance(f.get("name"), str) and whole(f.get("count"), 0)
            for f in came.get("foes", [])
        )
    ):
        return "'came_up' must hold 'at', 'text' and 'foes' [{'name', 'count'}]"
    return None


# --- the GM's settings -----------------------------------------------------------------------
_CHANCE = re.compile(
    r"\s*([0-9]{1,4})\s*(?:in|-in-|/|:)\s*([0-9]{1,4})\s*$|\s*([0-9]{1,3})\s*%\s*$"
)


def parse_chance(text: str) -> tuple[int, int]:
    """``1 in 6``, ``2-in-6``, ``1/6`` or ``15%`` as (n, d)."""
    found = _CHANCE.match(str(text).lower())
    if found is None:
        raise ClockError(f"{text!r} is not a chance (e.g. 1 in 6, 2 in 6 or 15%)")
    if found.group(3) is not None:
        n, d = int(found.group(3)), 100
    else:
        n, d = int(found.group(1)), int(found.group(2))
    if not 0 < d <= 1000 or not 0 <= n <= d:
        raise ClockError(f"{text!r}: a chance is n in d with n from 0 to d (d at most 1000)")
    return n, d


_COUNT = re.compile(r"(?:x|×)?([0-9][0-9dDkKhHlL+\-]*)")
"""A count as typed beside a name: ``3``, ``2d4``, ``1d4+1``, ``x3``."""


def _entry(text: str) -> TableEntry:
    """``Goblin 2d4``, ``2d4 Goblin``, ``Wolf x3`` or ``Hedge Witch`` (one)."""
    words = text.split()
    count = "1"
    if len(words) > 1 and (found := _COUNT.fullmatch(words[-1])):
        count, words = found.group(1), words[:-1]
    elif len(words) > 1 and (found := _COUNT.fullmatch(words[0])):
        count, words = found.group(1), words[1:]
    name = " ".join(words)
    if not name or _COUNT.fullmatch(name):
        raise ClockError(f"{text!r} needs a name beside its count (Goblin 2d4)")
    return TableEntry(name, count.lower())


def parse_table(text: str) -> tuple[TableEntry, ...]:
    """``Goblin 2d4; Wolf x3; Hedge Witch`` as entries (a count is a dice expression, before or
    after the name; 1 when none is given). Refuses an entry without a name, a count that
    cannot be rolled, and more than :data:`MAX_TABLE` entries."""
    from rulesets.dice import DiceError, roll

    entries = []
    for part in re.split(r"[;\n]", str(text)):
        if not part.strip():
            continue
        entry = _entry(part.strip())
        if len(entry.name) > MAX_NAME:
            raise ClockError(f"an encounter's name is at most {MAX_NAME} characters")
        try:
            roll(entry.count)
        except DiceError as exc:
            raise ClockError(f"{entry.name}: {exc}") from None
        entries.append(entry)
    if len(entries) > MAX_TABLE:
        raise ClockError(f"an encounter table holds at most {MAX_TABLE} entries")
    return tuple(entries)


def add_effect(
    clock: Clock, name: str, lasts: int, *, light: bool = False, on: str = ""
) -> tuple[Clock, str]:
    """A timed effect from now for ``lasts`` seconds; the new clock and its line."""
    clean = " ".join(str(name).split())
    if not clean:
        raise ClockError("a timed effect needs a name")
    if len(clean) > MAX_NAME:
        raise ClockError(f"an effect's name is at most {MAX_NAME} characters")
    if not 0 < lasts <= MAX_EFFECT:
        raise ClockError(f"an effect lasts from a second to {duration_text(MAX_EFFECT)}")
    effect = Effect(clock.next_id, clean, clock.seconds + lasts, light, on)
    new = replace(clock, effects=(*clock.effects, effect), next_id=clock.next_id + 1)
    kind = " (light)" if light else ""
    return new, f"{effect.label}{kind} lasts {duration_text(lasts)}"


def end_effect(clock: Clock, effect_id: int) -> tuple[Clock, str]:
    effect = next((e for e in clock.effects if e.id == effect_id), None)
    if effect is None:
        raise ClockError("no such timed effect (it may have ended)")
    left = tuple(e for e in clock.effects if e.id != effect_id)
    return replace(clock, effects=left), f"{effect.label} ends early"


def set_check(
    clock: Clock, every: int, chance: tuple[int, int], table: Sequence[TableEntry]
) -> tuple[Clock, str]:
    if every < MIN_CHECK_EVERY:
        raise ClockError(f"checks at most every {duration_text(MIN_CHECK_EVERY)}")
    if every > MAX_ADVANCE:
        raise ClockError(f"checks at least every {duration_text(MAX_ADVANCE)}")
    check = Check(clock.next_id, every, chance, tuple(table), clock.seconds)
    new = replace(clock, checks=(*clock.checks, check), next_id=clock.next_id + 1)
    return new, f"Encounter check {check.text}"


def remove_check(clock: Clock, check_id: int) -> tuple[Clock, str]:
    check = next((c for c in clock.checks if c.id == check_id), None)
    if check is None:
        raise ClockError("no such encounter check")
    return (
        replace(clock, checks=tuple(c for c in clock.checks if c.id != check_id)),
        f"No more encounter check {check.text}",
    )


# --- time passing ----------------------------------------------------------------------------
@frozen
class Encounter:
    """An encounter check that came up: when, which check, the roll and what came up."""

    at: int
    check: Check
    rolled: int
    came_up: CameUp


def _check_times(checks: Sequence[Check], start: int, end: int) -> Iterator[tuple[int, Check]]:
    def stream(check: Check) -> Iterator[tuple[int, int, Check]]:
        return ((at, check.id, check) for at in check.due_between(start, end))

    for at, _, check in heapq.merge(*(stream(c) for c in checks)):
        yield at, check


def _roll_foes(tx: Tx, check: Check) -> CameUp:
    from rulesets.dice import DiceError, roll

    if not check.table:
        return CameUp(0, "an encounter (the table is empty: the GM decides what)")
    entry = check.table[tx.rng.randrange(len(check.table))]
    try:
        count = max(0, roll(entry.count, tx.rng).total)
    except DiceError:
        count = 1  # a count hand-edited into nonsense: one of them
    return CameUp(
        0, entry.name if count == 1 else f"{entry.name} ×{count}", (Foe(entry.name, count),)
    )


def first_encounter(tx: Tx, clock: Clock, start: int, end: int) -> tuple[Encounter | None, int]:
    """Make every check due in (start, end] in time order until one comes up: that one (or
    None) and how many were rolled."""
    rolled = 0
    for at, check in _check_times(clock.checks, start, end):
        if rolled >= MAX_CHECKS:
            break
        rolled += 1
        n, d = check.chance
        face = tx.rng.randint(1, d)
        if face <= n:
            found = _roll_foes(tx, check)
            return Encounter(at, check, face, replace(found, at=at)), rolled
    return None, rolled


def _expire(clock: Clock, until: int) -> tuple[Clock, Lines]:
    ended = sorted((e for e in clock.effects if e.ends <= until), key=lambda e: e.ends)
    if not ended:
        return clock, []
    left = tuple(e for e in clock.effects if e.ends > until)
    lines = []
    for effect in ended:
        verb = "burns out" if effect.light else "ends"
        lines.append(f"{effect.label} {verb} at {clock.clock_text(effect.ends, seconds=True)}")
    if any(e.light for e in ended) and not any(e.light for e in left):
        lines.append("No light is left")
    return replace(clock, effects=left), lines


def _rest(tx: Tx, passage: Passage) -> Lines:
    """The game's named rest for the hours rested, run on every PC."""
    from rulesets.sheet import RestCall, run_rest

    return run_rest(tx, passage.rest, RestCall(hours=passage.hours))


@frozen
class Advanced:
    """What one advance did: its lines, how far it went and what came up."""

    lines: Lines
    start: int
    end: int
    encounter: Encounter | None = None


def advance(
    tx: Tx, seconds: int, activity: str = TIME, *, rest: str = "", what: str = ""
) -> Advanced:
    """Let ``seconds`` pass: the encounter checks (time stops at the first that comes up),
    the effects that end, the game's rest for a rest, and the game's own rule for time.

    ``rest``: the named rest the GM asked for (a rest cut short is chosen again by the hours
    actually rested); for a plain rest the longest named rest that fits is chosen. ``what``
    names the step in the first line (``an hour``); by default the duration.
    """
    rules = tx.game.time
    if not 0 < seconds <= MAX_ADVANCE:
        raise ClockError(f"time moves on from a second to {duration_text(MAX_ADVANCE)} at once")
    if activity not in rules.activities and activity != TIME:
        raise ClockError(f"{tx.game.name} has no {ACTIVITY_WORDS.get(activity, activity)}")
    if activity == REST and rules.rest_needs_peace:
        fight = next((e for _, e in tx.all("encounters") if e.get("started")), None)
        if fight is not None:
            raise ClockError(
                f"No rest while the fight ({fight.get('name') or 'an encounter'}) runs: "
                f"{rules.rest_needs_peace}. End the fight first"
            )
    clock = read(tx)
    start = clock.seconds
    met, _ = first_encounter(tx, clock, start, start + seconds)
    end = met.at if met is not None else start + seconds
    clock = replace(clock, seconds=end, came_up=met.came_up if met else None)
    clock, ended = _expire(clock, end)
    offered = tuple(r for r in tx.game.sheet.rests if r in ("regroup", "rest"))
    named = ""
    if activity == REST:
        named = rest if rest and met is None else rules.rest_for(end - start, offered)
    passage = Passage(start, end, activity, named)
    lines = [
        f"{_span(clock, rules, start, end)} · {_doing(rules, activity, named, end - start, what)}"
    ]
    if met is not None:
        n, d = met.check.chance
        lines.append(
            f"Encounter check at {clock.clock_text(met.at)} ({n} in {d}, rolled {met.rolled}): "
            f"{met.came_up.text}, ready to become the fight"
        )
        if end < start + seconds:
            lines.append(f"Time stops there: {duration_text(start + seconds - end)} did not pass")
    lines += ended
    if named:
        lines += _rest(tx, passage)
    elif activity == REST and offered:
        lines.append(f"{duration_text(end - start)} of rest is too short for the game's rests")
    elif activity == REST:
        lines.append(rules.no_rest)
    if rules.passing is not None:
        lines += rules.passing(tx, passage)
    write(tx, clock)
    return Advanced(lines, start, end, met)


def _span(clock: Clock, rules: TimeRules, start: int, end: int) -> str:
    """``Day 1 08:00 → 09:00`` (the day again when it changed)."""
    later = (
        clock.text(rules, end)
        if clock.day(end) != clock.day(start)
        else clock.clock_text(end, seconds=True)
    )
    return f"{clock.text(rules, start, seconds=False)} → {later}"


def _doing(rules: TimeRules, activity: str, rest: str, seconds: int, what: str) -> str:
    """What the step was: ``an hour``, ``Rest (8 h)``, ``hard effort (2 h)``."""
    length = duration_text(seconds)
    if activity == REST:
        return f"{rules.rest_name(rest) if rest else 'rest'} ({length})"
    if activity == EFFORT:
        return f"hard effort ({length})"
    return what or length


def rounds_passed(tx: Tx, rounds: int) -> Lines:
    """A fight went on ``rounds`` new rounds: the clock moves by the game's round, and only
    what that changed is said (the round counter already says the round passed)."""
    rules = tx.game.time
    if rounds <= 0:
        return []
    done = advance(tx, rounds * rules.round_seconds, what=f"{rounds} {rules.round_word}")
    return done.lines[1:]


def clear_came_up(tx: Tx) -> CameUp:
    clock = read(tx)
    if clock.came_up is None:
        raise ClockError("No encounter check has come up (ctrl+t sets them)")
    write(tx, replace(clock, came_up=None))
    return clock.came_up


def players_line(clock: Clock, rules: TimeRules) -> str:
    """What the players may see of the clock: the time of day and the light left."""
    lights = clock.light_left()
    light = (
        "; ".join(f"{e.name} {duration_text(left)} left" for e, left in lights)
        if lights
        else "no light burning"
    )
    part = rules.part_of_day(clock.time_of_day() // HOUR)
    return f"{clock.date(rules)}, {part} · {light}"

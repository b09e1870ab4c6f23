"""The campaign clock's changes: time passing, timed effects, encounter checks, their fight.

Each is one command of the app's state path (one undo step, one log entry, saved); the rules
are :mod:`rulesets.clock` and the open game's :class:`~rulesets.clock.TimeRules`. Durations,
chances and tables arrive as the GM typed them and are read here, inside the command, so the
TUI, the command line and a script get the same refusal in the same words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets import clock
from rulesets.base import RuleError
from rulesets.table import Tx
from rulesets.values import frozen

if TYPE_CHECKING:
    from app.state import Transaction

LIGHT_WORDS = ("torch", "lantern", "lamp", "candle", "light", "glowstone", "flare")
"""A timed effect named with one of these burns as a light unless the GM says otherwise."""

STEPS: dict[str, tuple[int, str]] = {
    "turn": (10 * clock.MINUTE, "an exploration turn (10 min)"),
    "hour": (clock.HOUR, "an hour"),
    "watch": (4 * clock.HOUR, "a watch (4 h)"),
    "day": (clock.DAY, "a day"),
}
"""The clock's usual steps outside a round and a rest, by id: (seconds, as the log says it)."""


def is_light(name: str) -> bool:
    words = name.casefold()
    return any(word in words for word in LIGHT_WORDS)


@frozen
class Advance:
    """Time passes: ``duration`` as typed (``10m``, ``8h``) or ``step`` (``hour``, ``round``,
    ``rest``), while the party does ``activity`` (time, rest, effort)."""

    duration: str = ""
    activity: str = clock.TIME
    step: str = ""

    @property
    def label(self) -> str:
        if self.step:
            return f"Time: {self.step}"
        return f"Time: {self.duration} of {self.activity}".replace("of time", "passes")

    def run(self, tx: Tx) -> list[str]:
        rules = tx.game.time
        rest = ""
        if self.step == "round":
            seconds, what = rules.round_seconds, f"a {rules.round_word}"
        elif self.step == "rest":
            # The game's long rest; a game without one rests a night's eight hours.
            rest = "rest" if "rest" in tx.game.sheet.rests else ""
            seconds = rules.rest_hours.get("rest", 8) * clock.HOUR
            return clock.advance(tx, seconds, clock.REST, rest=rest).lines
        elif self.step:
            if self.step not in STEPS:
                raise RuleError(f"no clock step {self.step!r}")
            seconds, what = STEPS[self.step]
        else:
            seconds, what = clock.parse_duration(self.duration), ""
        return clock.advance(tx, seconds, self.activity, what=what).lines


@frozen
class AddTimedEffect:
    """A timed effect kept outside the fight (a torch of 1 hour, a curse of 3 days)."""

    name: str
    lasts: str
    light: bool | None = None
    """None: a light if its name says so (a torch, a lantern)."""
    on: str = ""

    @property
    def label(self) -> str:
        return f"Timed effect {self.name}"

    def run(self, tx: Tx) -> list[str]:
        seconds = clock.parse_duration(self.lasts, longest=clock.MAX_EFFECT)
        light = is_light(self.name) if self.light is None else self.light
        if self.on and not any(pc.get("name") == self.on for _, pc in tx.all("party")):
            raise RuleError(f"no PC called {self.on!r} in the party")
        new, line = clock.add_effect(clock.read(tx), self.name, seconds, light=light, on=self.on)
        clock.write(tx, new)
        return [line]


@frozen
class EndTimedEffect:
    effect_id: int

    @property
    def label(self) -> str:
        return "End a timed effect"

    def run(self, tx: Tx) -> list[str]:
        new, line = clock.end_effect(clock.read(tx), self.effect_id)
        clock.write(tx, new)
        return [line]


@frozen
class SetEncounterCheck:
    """A random-encounter check every ``every`` (``10m``, ``1h``) at ``chance`` (``1 in 6``),
    on ``table`` (``Goblin 2d4; Wolf 1d3``: library NPC names and counts)."""

    every: str
    chance: str
    table: str = ""

    @property
    def label(self) -> str:
        return "Set an encounter check"

    def run(self, tx: Tx) -> list[str]:
        every = clock.parse_duration(self.every)
        new, line = clock.set_check(
            clock.read(tx), every, clock.parse_chance(self.chance), clock.parse_table(self.table)
        )
        clock.write(tx, new)
        return [line]


@frozen
class RemoveEncounterCheck:
    check_id: int

    @property
    def label(self) -> str:
        return "Remove an encounter check"

    def run(self, tx: Tx) -> list[str]:
        new, line = clock.remove_check(clock.read(tx), self.check_id)
        clock.write(tx, new)
        return [line]


@frozen
class ClockSettings:
    """The hour the campaign began at, and whether the players' view shows the time."""

    start_hour: int
    players: bool

    @property
    def label(self) -> str:
        return "Clock settings"

    def run(self, tx: Tx) -> list[str]:
        if not 0 <= self.start_hour <= 23:
            raise RuleError("the campaign starts at an hour from 0 to 23")
        from dataclasses import replace

        new = replace(clock.read(tx), start_hour=self.start_hour, players=self.players)
        clock.write(tx, new)
        shown = "shows" if self.players else "does not show"
        return [f"Now {new.text(tx.game.time)}; the players' view {shown} the time and light"]


@frozen
class FightWhatCameUp:
    """What the last encounter check brought up becomes the running encounter: a new fight with
    the party and the foes (library NPCs by name, quick-added foes otherwise)."""

    @property
    def label(self) -> str:
        return "Make the fight from the encounter check"

    def run(self, tx: Transaction) -> list[str]:
        from app.commands.combat import AddParty, NewEncounter, QuickAdd
        from app.commands.npcs import MAX_GROUP, AddNpcsToEncounter

        found = clock.read(tx)
        came = clock.clear_came_up(tx)
        when = f"{found.date(tx.game.time, came.at)} {found.clock_text(came.at)}"
        lines = NewEncounter(f"{came.text} · {when}"[:80]).run(tx)
        encounter_id = int(tx.meta()["current_encounter"])
        if tx.all("party"):  # no party yet: the foes alone
            lines += AddParty(encounter_id).run(tx)
        library = {str(doc.get("name", "")).casefold(): doc_id for doc_id, doc in tx.all("npcs")}
        for foe in came.foes:
            count = min(foe.count, MAX_GROUP)
            if count < 1:
                continue
            npc_id = library.get(foe.name.casefold())
            if npc_id is not None:
                lines += AddNpcsToEncounter(npc_id, count).run(tx)
            else:
                health = tx.game.fight.foe.health_default
                lines += QuickAdd(encounter_id, name=foe.name, count=count, health=health).run(tx)
        return lines

"""Every installed game, found through the ``tableside.games`` entry-point group.

As Harlequin finds its adapters: each entry point names a :class:`rulesets.game.Game` object
(``somnihil = "rulesets.somnihil.game:GAME"``), and only the open campaign's game is imported.
A game published as its own package registers the same way and is then offered like the
built-in five. :func:`register` adds a game in-process (tests, embedding).

A game that cannot be used is one line, never a traceback (issue 25): its package raises on
import, names a module that is not there, its object is not a :class:`Game` of that id, or it
was written for another game API (:data:`rulesets.game.API_VERSION`). :func:`game` raises
:class:`GameUnavailable` with that line; :func:`listing` shows every installed game with its
state. A game that loads is handed out guarded (:mod:`rulesets.guard`): a hook that raises
later is a refusal naming the game and the hook.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Literal

from rulesets import turn_orders
from rulesets.base import Ruleset
from rulesets.game import API_VERSION, Game, api_problem
from rulesets.guard import guard_value, one_line, package_of
from rulesets.values import frozen

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "tableside.games"
DEFAULT = "somnihil"
"""The game of a new campaign, or a demo, when none is named (as docs/cli.md promises)."""
SHIPPED: dict[str, str] = {
    "somnihil": "rulesets.somnihil.game:GAME",
    "resolution": "rulesets.resolution.game:GAME",
    "shadows": "rulesets.shadows.game:GAME",
    "nemron": "rulesets.nemron.game:GAME",
    "aspects": "rulesets.aspects.game:GAME",
}
"""The games in Tableside's own package, with the entry points pyproject.toml registers for
them (tests/test_registry.py checks the two agree). Opening one of these reads no installed
package's metadata: importing importlib.metadata and scanning every installed package took 12 ms
of a 300 ms start-up (issue 26). Any other game is found through its entry point."""

_extra: dict[str, Game] = {}
_loaded: dict[str, Game] = {}
_failed: dict[str, GameUnavailable] = {}
_origins: dict[str, str] = {}


class UnknownGame(KeyError):
    """No installed game has that id; the message lists the ones there are."""

    def __str__(self) -> str:
        return str(self.args[0])


State = Literal["ok", "broken", "incompatible"]


class GameUnavailable(UnknownGame):
    """An installed game that cannot be used: broken (it fails to load) or incompatible (it
    was written for another game API). The message is one line naming the game and why."""

    def __init__(self, game_id: str, where: str, state: State, reason: str) -> None:
        self.game_id = game_id
        self.state: State = state
        self.reason = reason
        what = "is written for another game API" if state == "incompatible" else "failed to load"
        super().__init__(f"the game {game_id!r} ({where}) {what}: {reason}")


@frozen
class Listed:
    """One installed game as a list of games shows it."""

    id: str
    name: str
    state: State
    reason: str = ""
    summary: str = ""
    api_version: str = ""


@cache
def _entry_points() -> dict[str, EntryPoint]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=GROUP)}


def ids() -> list[str]:
    """Every installed game's id, without importing any game (broken ones too)."""
    return sorted({*SHIPPED, *_entry_points(), *_extra})


def is_known(game_id: str) -> bool:
    return game_id in _extra or game_id in SHIPPED or game_id in _entry_points()


def _where(game_id: str) -> str | None:
    """Where the game's object is, ``module:attribute`` (None: no installed game has that id)."""
    if game_id in SHIPPED:
        return SHIPPED[game_id]
    ep = _entry_points().get(game_id)
    return None if ep is None else ep.value


_OBJECT_REFERENCE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attribute>[\w.]+)\s*)?(\[.*\])?\s*$")
"""An entry point's value, ``module:attribute [extras]``, as importlib.metadata reads it."""


def _import(game_id: str, where: str) -> object:
    try:
        found = _OBJECT_REFERENCE.match(where)
        if found is None:
            raise ValueError(f"{where!r} is not module:attribute")
        loaded: object = importlib.import_module(found["module"])
        for name in filter(None, (found["attribute"] or "").split(".")):
            loaded = getattr(loaded, name)
        return loaded
    except (Exception, SystemExit) as exc:  # a broken plug-in is one line, not a traceback
        raise GameUnavailable(game_id, where, "broken", one_line(exc)) from None


def _checked(game_id: str, where: str, loaded: object) -> Game:
    if not isinstance(loaded, Game):
        kind = type(loaded).__name__
        reason = f"{where} is not a Game (tableside_api.Game) but {kind!r}"
        raise GameUnavailable(game_id, where, "broken", reason)
    if loaded.id != game_id:
        reason = f"its Game's id is {loaded.id!r}, not the entry point's {game_id!r}"
        raise GameUnavailable(game_id, where, "broken", reason)
    problem = api_problem(loaded.api_version)
    if problem:
        raise GameUnavailable(game_id, where, "incompatible", problem)
    if loaded.turn_model not in turn_orders.known(loaded):
        reason = f"its turn model {loaded.turn_model!r} is neither built in nor one it declares"
        raise GameUnavailable(game_id, where, "broken", reason)
    # A saved encounter names its turn order by id only: the encounter core finds it here.
    turn_orders.declare(*loaded.turn_orders)
    return guard_value(loaded, loaded.name or game_id, "")


def game(game_id: str) -> Game:
    """The game of that id, importing its package on first use.

    Raises:
        UnknownGame: no installed game has that id.
        GameUnavailable: the game is installed but broken or incompatible (one line why).
    """
    if game_id in _extra:
        return _extra[game_id]
    if game_id in _loaded:
        return _loaded[game_id]
    if game_id in _failed:
        raise _failed[game_id]
    where = _where(game_id)
    if where is None:
        raise UnknownGame(f"unknown game {game_id!r}; installed: {', '.join(ids()) or 'none'}")
    try:
        loaded = _checked(game_id, where, _import(game_id, where))
    except GameUnavailable as exc:
        _failed[game_id] = exc
        raise
    _origins[game_id] = package_of(where.partition(":")[0].strip())
    _loaded[game_id] = loaded
    return loaded


def origin(game_id: str) -> str:
    """The package the game's own code lives in (where a failure is the game's)."""
    game(game_id)
    return _origins[game_id]


def get(game_id: str) -> Ruleset:
    """The rules core of that game (its id, name, turn model, sheet and check)."""
    return game(game_id).ruleset


def listing() -> list[Listed]:
    """Every installed game with its state (imports each: for listings, not start-up)."""
    out = []
    for gid in ids():
        try:
            found = game(gid)
        except GameUnavailable as exc:
            out.append(Listed(gid, gid, exc.state, exc.reason))
        else:
            out.append(Listed(gid, found.name, "ok", "", found.summary, found.api_version))
    return out


def playable() -> list[str]:
    """The ids of the installed games that load and speak this game API."""
    return [entry.id for entry in listing() if entry.state == "ok"]


def names() -> dict[str, str]:
    """Every installed game's id and name (a game that cannot be used: why)."""
    return {
        entry.id: entry.name if entry.state == "ok" else f"({entry.state}: {entry.reason})"
        for entry in listing()
    }


def register(new: Game, *, origin: str | None = None) -> Callable[[], None]:
    """Offer a game in this process; returns the call that withdraws it. ``origin``: the
    package of the game's own code (default: where its standard check, or its character
    maker, is defined).

    Raises:
        GameUnavailable: it declares another game API.
    """
    _extra[new.id] = _checked(new.id, "registered", new)
    own = new.ruleset.check or new.ruleset.new_character or new.ruleset.health_summary
    _origins[new.id] = origin or package_of(own.__module__ if own else type(new).__module__)

    def withdraw() -> None:
        _extra.pop(new.id, None)

    return withdraw


__all__ = [
    "API_VERSION",
    "DEFAULT",
    "GROUP",
    "GameUnavailable",
    "Listed",
    "UnknownGame",
    "game",
    "get",
    "ids",
    "is_known",
    "listing",
    "names",
    "origin",
    "playable",
    "register",
]

"""Every installed game, found through the ``tableside.games`` entry-point group.

As Harlequin finds its adapters: each entry point names a :class:`rulesets.game.Game` object
(``somnihil = "rulesets.somnihil.game:GAME"``), and only the open campaign's game is imported.
A game published as its own package registers the same way and is then offered like the
built-in five. :func:`register` adds a game in-process (tests, embedding).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from rulesets.base import Ruleset
from rulesets.game import Game

GROUP = "tableside.games"
DEFAULT = "somnihil"
"""The game of a new campaign, or a demo, when none is named (README's promise)."""

_extra: dict[str, Game] = {}
_loaded: dict[str, Game] = {}


class UnknownGame(KeyError):
    """No installed game has that id; the message lists the ones there are."""

    def __str__(self) -> str:
        return str(self.args[0])


@cache
def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def ids() -> list[str]:
    """Every installed game's id, without importing any game."""
    return sorted({*_entry_points(), *_extra})


def is_known(game_id: str) -> bool:
    return game_id in _extra or game_id in _entry_points()


def game(game_id: str) -> Game:
    """The game of that id, importing its package on first use."""
    if game_id in _extra:
        return _extra[game_id]
    if game_id in _loaded:
        return _loaded[game_id]
    ep = _entry_points().get(game_id)
    if ep is None:
        raise UnknownGame(f"unknown game {game_id!r}; installed: {', '.join(ids()) or 'none'}")
    try:
        loaded = ep.load()
    except Exception as exc:  # a broken plug-in is reported by name, not a traceback
        raise UnknownGame(f"the game {game_id!r} ({ep.value}) failed to load: {exc}") from None
    if not isinstance(loaded, Game) or loaded.id != game_id:
        raise UnknownGame(f"the entry point {game_id!r} ({ep.value}) is not a Game of that id")
    _loaded[game_id] = loaded
    return loaded


def get(game_id: str) -> Ruleset:
    """The rules core of that game (its id, name, turn model, sheet and check)."""
    return game(game_id).ruleset


def names() -> dict[str, str]:
    """Every installed game's id and name (imports each: for listings, not start-up)."""
    out = {}
    for gid in ids():
        try:
            out[gid] = game(gid).name
        except UnknownGame as exc:
            out[gid] = f"(broken: {exc})"
    return out


def register(new: Game) -> Callable[[], None]:
    """Offer a game in this process; returns the call that withdraws it."""
    _extra[new.id] = new

    def withdraw() -> None:
        _extra.pop(new.id, None)

    return withdraw

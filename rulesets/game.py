"""One game, declared: everything the app needs from a game, in one object.

The app (``app/``, ``screens/``, ``widgets/``) never asks "which game is this?"; it asks the
open campaign's :class:`Game` for its character sheet, its foes (what an HD statblock becomes
and how it attacks), its turn model, how damage, healing and initiative work, the checks the
tray can state, the panel actions, what time does (its rests' lengths, its round) and the demo
campaign, and renders what it gets. Games are found through the ``tableside.games`` entry-point
group (:mod:`rulesets.registry`); the five built-in games register there like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

from rulesets.base import Ruleset, TurnModel
from rulesets.checks import CheckRules
from rulesets.clock import TimeRules
from rulesets.exchange import HD_EXCHANGE, ExchangeRules
from rulesets.fight import FightRules
from rulesets.foes import FoeRules
from rulesets.players import PlayerViewRules
from rulesets.sheet import SheetRules
from rulesets.table import Action, Panel
from rulesets.turn_orders.base import TurnOrder
from rulesets.values import frozen

if TYPE_CHECKING:
    # Only a game with cards needs the deck rules: its own module imports them (a game
    # without cards starts 4 ms sooner, issue 26).
    from rulesets.decks import DeckSpec

API_VERSION = "1.1"
"""The game API this Tableside speaks, ``MAJOR.MINOR``. A game declares the one it was written
for (:attr:`Game.api_version`); it loads when the major is this one's and its minor is not
newer (1.0 runs on any 1.x; a 1.3 game needs a 1.3 Tableside or newer; 2.0 is another API).
1.1 added :attr:`Game.turn_orders` and the ``tableside_api`` module."""


def _version(text: str) -> tuple[int, int] | None:
    major, dot, minor = text.partition(".")
    if not (dot and major.isdigit() and minor.isdigit()):
        return None
    return int(major), int(minor)


def api_problem(declared: str) -> str:
    """Why a game declaring ``declared`` cannot run on this game API ("" when it can)."""
    ours = _version(API_VERSION)
    assert ours is not None
    if not declared:
        return f"it declares no api_version (this Tableside has the game API {API_VERSION})"
    theirs = _version(declared)
    if theirs is None:
        return f"its api_version {declared!r} is not MAJOR.MINOR (such as {API_VERSION!r})"
    if theirs[0] != ours[0] or theirs[1] > ours[1]:
        newer = "a newer Tableside" if theirs > ours else "an older Tableside, or a newer game"
        return (
            f"it is written for the game API {declared}; this Tableside has {API_VERSION} "
            f"(it needs {newer})"
        )
    return ""


@frozen
class DemoPC:
    """A demo party member: attributes by key, and anything else to set on the sheet."""

    name: str
    attributes: Mapping[str, int] = field(default_factory=dict)
    details: Mapping[str, Any] = field(default_factory=dict)


@frozen
class Game:
    """A game as the app sees it. ``ruleset`` holds its id, name, turn model and PC sheet."""

    ruleset: Ruleset
    demo_party: tuple[DemoPC, ...]
    fight: FightRules = field(default_factory=FightRules)
    foes: FoeRules = field(default_factory=FoeRules)
    """How an HD statblock becomes this game's foe and how that foe acts (:mod:`rulesets.foes`)."""
    exchange: ExchangeRules = HD_EXCHANGE
    """The attack as one thing, from the attacker's roll to the pools it lands on
    (:mod:`rulesets.exchange`); a game that declares none fights with the NPC rules' own."""
    checks: CheckRules = field(default_factory=CheckRules)
    sheet: SheetRules = field(default_factory=SheetRules)
    players: PlayerViewRules = field(default_factory=PlayerViewRules)
    time: TimeRules = field(default_factory=TimeRules)
    """What time does in the game: its round, its rests' lengths, its rules for time passing."""
    decks: tuple[DeckSpec[Any], ...] = ()
    """The decks of cards the game plays with (:mod:`rulesets.decks`): the tray shows them and
    their hands, ``tableside draw --deck ID`` draws from them; none: the game uses no cards."""
    actions: tuple[Action, ...] = ()
    turn_orders: tuple[TurnOrder, ...] = ()
    """Turn orders of the game's own (:mod:`rulesets.turn_orders`), beside the built-in three;
    ``ruleset.turn_model`` may name one of them."""
    summary: str = ""
    """One line on what the game is, for lists of installed games."""
    api_version: str = ""
    """The game API the game is written for (``"1.0"``: :data:`API_VERSION` when it was
    written); checked when the game loads. A game that declares none does not load."""

    def __post_init__(self) -> None:
        # Two actions on one key in one panel would leave one unreachable: refused at import.
        seen: dict[tuple[str, str, str], str] = {}
        for action in self.actions:
            for what, value in (("an id", action.id), ("a key", action.key)):
                slot = (action.panel, what, value)
                if slot in seen:
                    raise ValueError(
                        f"{self.ruleset.id}: {action.label!r} and {seen[slot]!r} share "
                        f"{what} in the {action.panel} panel"
                    )
                seen[slot] = action.label

    @property
    def id(self) -> str:
        return self.ruleset.id

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def turn_model(self) -> TurnModel:
        return self.ruleset.turn_model

    def actions_for(self, panel: Panel) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.panel == panel)

    def action(self, panel: Panel, action_id: str) -> Action:
        for a in self.actions:
            if a.panel == panel and a.id == action_id:
                return a
        raise KeyError(f"{self.id} has no {panel} action {action_id!r}")

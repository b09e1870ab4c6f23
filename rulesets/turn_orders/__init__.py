"""Turn orders as objects: the built-in three and those a game declares.

:func:`turn_order` finds one by id: a game's own (``Game.turn_orders``) or a built-in; asked
without a game (the encounter core, which does not know it), a built-in or one a loaded game
declared in this process. See :mod:`rulesets.turn_orders.base`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The encounter core first: it re-exports the built-ins' functions, importing these modules at
# its end, so it must be complete before any of them asks it for a name.
import rulesets.encounter  # noqa: F401
from rulesets.base import RuleError
from rulesets.turn_orders.ap_rounds import AP_ROUNDS, APRounds
from rulesets.turn_orders.base import TurnOrder
from rulesets.turn_orders.chosen_next import CHOSEN_NEXT, ChosenNext
from rulesets.turn_orders.initiative import INITIATIVE, Initiative

if TYPE_CHECKING:
    from rulesets.game import Game


BUILT_IN: dict[str, TurnOrder] = {o.id: o for o in (INITIATIVE, AP_ROUNDS, CHOSEN_NEXT)}
"""The three every Tableside has, by id."""

_declared: dict[str, TurnOrder] = {}
"""Turn orders games declared, by id, as met (a saved encounter names only the id)."""


class UnknownTurnOrder(RuleError):
    """No built-in and no declared turn order has that id."""


def declare(*orders: TurnOrder) -> None:
    """Make a game's turn orders known to the encounter core (done when a game loads)."""
    for order in orders:
        if order.id not in BUILT_IN:
            _declared[order.id] = order


def known(game: Game | None = None) -> list[str]:
    """Every turn order id that ``game`` may use: the built-ins and its own."""
    own = [o.id for o in game.turn_orders] if game is not None else []
    return list(BUILT_IN) + [i for i in own if i not in BUILT_IN]


def turn_order(model_id: str, game: Game | None = None) -> TurnOrder:
    """The turn order of that id: ``game``'s own or a built-in; with no game (the encounter
    core), a built-in or one a loaded game declared."""
    for order in game.turn_orders if game is not None else ():
        if order.id == model_id:
            _declared.setdefault(order.id, order)
            return order
    found = BUILT_IN.get(model_id)
    if found is None and game is None:
        found = _declared.get(model_id)
    if found is None:
        raise UnknownTurnOrder(
            f"Unknown turn model {str(model_id)[:40]!r}: use one of {', '.join(known(game))}"
        )
    return found


__all__ = [
    "AP_ROUNDS",
    "BUILT_IN",
    "CHOSEN_NEXT",
    "INITIATIVE",
    "APRounds",
    "ChosenNext",
    "Initiative",
    "TurnOrder",
    "UnknownTurnOrder",
    "declare",
    "known",
    "turn_order",
]

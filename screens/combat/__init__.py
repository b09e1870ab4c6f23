"""Panel 1: the combat tracker (:class:`CombatScreen`), composed of widgets that each own what
they show (see :mod:`screens.combat.screen`)."""

from screens.combat.screen import CombatScreen

__all__ = ["CombatScreen"]

"""Panel 1: the combat tracker (:class:`CombatScreen`), in parts by what each shows (see
:mod:`screens.combat.base`)."""

from screens.combat.screen import CombatScreen

__all__ = ["CombatScreen"]

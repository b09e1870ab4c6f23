"""Aspects in the combat tracker: its foes, initiative, damage and healing, and its combat actions."""

from __future__ import annotations

from rulesets.fight import FightRules
from rulesets.table import Action

FIGHT = FightRules()
ACTIONS: tuple[Action, ...] = ()

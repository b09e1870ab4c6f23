"""Nemron in the tray: the checks it lets the GM state, and its tray actions."""

from __future__ import annotations

from rulesets.checks import CheckRules
from rulesets.table import Action

CHECKS = CheckRules()
ACTIONS: tuple[Action, ...] = ()

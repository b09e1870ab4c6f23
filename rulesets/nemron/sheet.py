"""Nemron on the party sheet: how its resources and lists change, its rests and its sheet actions."""

from __future__ import annotations

from rulesets.sheet import SheetRules
from rulesets.table import Action

SHEET = SheetRules()
ACTIONS: tuple[Action, ...] = ()

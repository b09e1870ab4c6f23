"""The game API: the one stable name a game imports from (``import tableside_api``).

A sixth game is a package of its own that declares a :class:`Game` and registers it in the
``tableside.games`` entry-point group; everything that declaration is built from is here, so a
game never imports ``rulesets.*`` (where the built-in five live, free to move). This module is
the folder ``rulesets/api/`` installed under the name ``tableside_api`` (pyproject.toml's
``package-dir``). :data:`API_VERSION` names what it offers; a game declares the one it was
written for in :attr:`Game.api_version`. ``tableside_api.testing`` checks a game the way the
shell uses it. The guide: ``docs/writing-a-game.md``.
"""

from __future__ import annotations

from rulesets.base import (
    AttributeSpec,
    Character,
    CheckResult,
    ListSpec,
    ResourceSpec,
    RuleError,
    Ruleset,
    SheetSpec,
    TurnModel,
)
from rulesets.checks import CardTable, Check, CheckInput, CheckRules, CheckSpec, Preset, Setup
from rulesets.clock import Passage, TimeRules
from rulesets.decks import (
    Card,
    CardText,
    DealCards,
    DeckError,
    DeckSpec,
    DeckState,
    DrawCards,
    PlayCard,
    load_deck,
    save_deck,
)
from rulesets.encounter import (
    Combatant,
    Effect,
    Encounter,
    EncounterError,
    begin_turn,
    current_combatant,
    end_turn,
    first_up,
    group_run,
    new_round,
    turn_order_of,
)
from rulesets.exchange import (
    HD_EXCHANGE,
    Blow,
    D20Attack,
    ExchangeRules,
    Odds,
    Plan,
    Rolled,
    Side,
    d20_plan,
    d20_roll,
    hp_hurt,
    hp_out,
)
from rulesets.exchange import Setup as ExchangeSetup
from rulesets.fight import HD_FOES, FightRules, FoeSheet, Hit
from rulesets.foes import HD_FOE_RULES, Foe, FoeRules, RollKind, Strike, Swing, generic_roll
from rulesets.game import API_VERSION, DemoPC, Game
from rulesets.npc import NPC
from rulesets.players import Band, Hand, PlayerViewRules, band_of, pool
from rulesets.sheet import Adding, Rest, RestCall, SheetRow, SheetRules
from rulesets.table import Action, Command, Context, Field, Panel, PcChange, Reader, Tx, need_pc
from rulesets.turn_orders import TurnOrder

__all__ = [
    "Combatant",
    "Effect",
    "Encounter",
    "EncounterError",
    "begin_turn",
    "current_combatant",
    "end_turn",
    "first_up",
    "group_run",
    "new_round",
    "turn_order_of",
    "TurnOrder",
    "API_VERSION",
    "HD_EXCHANGE",
    "HD_FOES",
    "Blow",
    "D20Attack",
    "ExchangeRules",
    "ExchangeSetup",
    "Odds",
    "Plan",
    "Rolled",
    "Side",
    "d20_plan",
    "d20_roll",
    "hp_hurt",
    "hp_out",
    "HD_FOE_RULES",
    "NPC",
    "Action",
    "Adding",
    "AttributeSpec",
    "Band",
    "Card",
    "CardTable",
    "CardText",
    "Character",
    "Check",
    "CheckInput",
    "CheckResult",
    "CheckRules",
    "CheckSpec",
    "Command",
    "Context",
    "DealCards",
    "DeckError",
    "DeckSpec",
    "DeckState",
    "DemoPC",
    "DrawCards",
    "Field",
    "FightRules",
    "Foe",
    "FoeRules",
    "FoeSheet",
    "Game",
    "Hand",
    "Hit",
    "ListSpec",
    "Panel",
    "Passage",
    "PcChange",
    "PlayCard",
    "PlayerViewRules",
    "Preset",
    "Reader",
    "Rest",
    "RestCall",
    "ResourceSpec",
    "RollKind",
    "RuleError",
    "Ruleset",
    "SheetRow",
    "SheetRules",
    "SheetSpec",
    "Setup",
    "Strike",
    "Swing",
    "TimeRules",
    "TurnModel",
    "Tx",
    "band_of",
    "generic_roll",
    "load_deck",
    "need_pc",
    "pool",
    "save_deck",
]

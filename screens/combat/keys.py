"""The combat tracker's keys: every one a Binding with an id (rebindable, in the Footer, in ``?``
and in the command palette), following Improved Initiative's defaults, and the Footer's order
before and during a fight."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from rulesets.turn_orders import BUILT_IN
from widgets.footer import GAME_KEYS

if TYPE_CHECKING:
    from textual.app import App

    from app.state import Command
    from rulesets.encounter import Combatant
    from rulesets.game import Game
    from screens.combat.forms import Ask
    from screens.combat.screen import CombatScreen
    from screens.combat.tracker_state import TrackerState


def _b(key: str, action: str, text: str, bid: str, show: bool = True, display: str = "") -> Binding:
    return Binding(key, action, text, show=show, id=f"combat.{bid}", key_display=display or None)


BINDINGS: tuple[Binding, ...] = (
    _b("n", "next_turn", "Next turn", "next_turn"),
    _b("alt+n", "previous_turn", "Prev turn", "previous_turn"),
    _b("j", "cursor(1)", "Down", "down"),
    _b("k", "cursor(-1)", "Up", "up"),
    _b("alt+j", "move(1)", "Move down", "move_down"),
    _b("alt+k", "move(-1)", "Move up", "move_up"),
    _b("t", "damage", "Damage", "damage"),
    _b("l", "heal", "Heal", "heal"),
    _b("plus", "mark", "Mark for an area (moves down)", "mark", show=False, display="+"),
    _b("T", "damage_last_roll", "Land the attack (or the last roll)", "damage_last", False),
    _b("alt+t", "temp_hp", "Temp HP", "temp_hp"),
    _b("g", "add_effect", "Condition", "add_effect"),
    _b("h", "hide", "Hide/reveal", "hide"),
    _b("e", "edit", "Edit", "edit"),
    _b("alt+d", "duplicate", "Duplicate", "duplicate"),
    _b("delete", "remove", "Remove", "remove"),
    _b("alt+r", "start", "Start", "start"),
    _b("alt+shift+r,shift+alt+r", "end", "End", "end", display="shift+alt+r"),
    _b("a", "spend_ap", "Spend AP", "spend_ap"),
    _b("i", "roll_initiative", "Initiative", "roll_initiative"),
    _b("I", "reroll_initiative", "Re-roll everyone (between rounds)", "reroll", show=False),
    _b("alt+p", "party_initiative", "Players' initiative rolls", "party_init", show=False),
    _b("X", "defeated", "Defeated / back in", "defeated", show=False),
    _b("p", "add_party", "Add party", "add_party", show=False),
    _b("b", "add_npc", "Add NPCs from the library", "add_npc", show=False),
    _b("q", "quick_add", "Quick add a foe", "quick_add", show=False),
    _b("ctrl+n", "new_encounter", "New encounter", "new_encounter", show=False),
    _b("right_square_bracket", "switch(1)", "Next encounter", "next_enc", False, "]"),
    _b("left_square_bracket", "switch(-1)", "Previous encounter", "prev_enc", False, "["),
    _b("alt+m", "turn_model", "Switch turn model", "turn_model", show=False),
    _b("L", "fold_list", "Show/hide the encounter list", "fold_list", show=False),
    _b("alt+i", "roll_initiative_npcs", "Roll initiative for NPCs only", "init_npcs", False),
    _b("G", "group_initiative", "Group initiative on/off", "group_init", show=False),
    _b("w", "delay", "Delay (move down the order)", "delay", show=False),
    _b("o", "hold", "Hold the action", "hold", show=False),
    _b("alt+o", "use_held", "Selected uses its held action now", "use_held", show=False),
    _b("c", "choose_next", "Choose the selected to act next", "choose_next", show=False),
    _b("x", "counter", "Counter action: 1 AP", "counter", show=False),
    _b("alt+g", "remove_effect", "Remove a condition", "remove_effect", show=False),
    _b("s", "morale", "Morale check", "morale", show=False),
    _b("S", "morale_due", "Every due morale check", "morale_due", show=False),
    _b("alt+s", "statblock", "Show/hide the statblock beside the table", "statblock", False),
    _b("slash", "find", "Jump to a combatant by name", "find", display="/"),
    _b("ctrl+d", "danger", "Danger: the estimate whole", "danger", show=False),
    _b(
        "ctrl+b",
        "build_danger",
        "Build to a danger (easy, hard, deadly)",
        "build_danger",
        False,
    ),
    # Last, so the Footer's first keys stay put as the selection moves on and off a statblock.
    _b("A", "exchange", "Attack: whoever acts attacks the selected", "sb_attack"),
    _b("V", "statblock_roll('save')", "Save / defence", "sb_save"),
    _b("K", "statblock_roll('skill')", "Skill check", "sb_skill"),
    _b("M", "statblock_roll('morale')", "Morale roll", "sb_morale"),
    _b("E", "statblock_roll('effort')", "Effort", "sb_effort"),
    _b("B", "roll_with", "Roll with Brawl/Wit/Will", "sb_roll_with", show=False),
    _b("F", "full_effort", "Full Effort again", "sb_full_effort", show=False),
)
SETUP_FOOTER: tuple[str, ...] = (
    *("combat.start", "combat.quick_add", "combat.add_npc", "combat.add_party"),
    *("combat.roll_initiative", "app.help", GAME_KEYS, "combat.new_encounter"),
    *("combat.damage", "combat.heal", "combat.add_effect", "app.undo", "combat.edit"),
)
"""The Footer before the fight: what sets it up (the game's keys after ``?``)."""
FOOTER: tuple[str, ...] = (
    # A foe's turn is A then enter.
    *("combat.next_turn", "combat.sb_attack", "combat.damage", "combat.heal", "app.help"),
    *("combat.damage_last", "combat.find", "combat.spend_ap", "combat.choose_next"),
    "combat.add_effect",
    GAME_KEYS,
    *("combat.previous_turn", "app.undo", "combat.counter"),
    *("combat.roll_initiative", "combat.quick_add", "combat.add_npc", "combat.edit"),
    *("combat.end",),
)
"""The Footer in a running fight: the turn, damage and healing first, then ``?`` and the
game's keys (they show only while they apply)."""
FOOTER_WORDS: dict[str, str] = {
    "combat.sb_attack": "Attack",
    "combat.damage_last": "Land",
    "combat.quick_add": "Quick add",
    "combat.add_npc": "NPCs",
    "combat.add_party": "Party",
    "combat.roll_initiative": "Init",
    "combat.new_encounter": "New",
    "combat.previous_turn": "Back",
    "combat.counter": "Counter",
    "combat.choose_next": "Choose next",
    "combat.find": "Find",
}
STATBLOCK_KEYS: tuple[str, ...] = (
    *("sb_attack", "sb_save", "sb_skill", "sb_morale", "sb_effort"),
    *("sb_roll_with", "sb_full_effort", "damage_last"),
)
"""Binding ids of the selected combatant's statblock keys, which the pane lists."""
MODEL_KEYS: frozenset[str] = frozenset().union(*(o.actions for o in BUILT_IN.values()))
"""Shell keys of one turn model (its TurnOrder's actions): hidden (and inert) in an encounter of
another."""


def roll_kind(game: Game, kind: str) -> str:
    """V is the game's answer to an attack: a save where it has one, else its defence."""
    rolls = game.foes.rolls
    if kind == "save" and "save" not in rolls and "defence" in rolls:
        return "defence"
    return kind


def raw_keys(app: App[Any], bid: str) -> list[str]:
    """The keys a tracker binding has in the GM's keymap (``sb_morale`` -> ``["M"]``)."""
    default = next(b.key for b in BINDINGS if b.id == f"combat.{bid}")
    keys = str(getattr(app, "keymap", {}).get(f"combat.{bid}", default))
    return [k.strip() for k in keys.split(",") if k.strip()] or [default]


def key_display(app: App[Any], bid: str) -> str:
    """A key of the tracker as the GM's keymap has it (``sb_attack`` -> ``A``)."""
    return app.get_key_display(Binding(raw_keys(app, bid)[0], ""))


STATBLOCK_WORDS: dict[str, tuple[str, str]] = {
    "sb_save": ("save", "roll"),
    "sb_skill": ("skill", "roll"),
    "sb_morale": ("morale", "roll"),
    "sb_effort": ("effort", "roll"),
    "sb_roll_with": ("roll_with", "choice"),
    "sb_full_effort": ("effort", "refresh"),
}
"""The statblock's own keys: the roll each needs the game to have, and what it is."""


def statblock_refusal(screen: CombatScreen, key: str) -> str | None:
    """Why a statblock key (V, K, M, E, B, F) pressed where it does nothing (a PC selected, a
    foe without a statblock) does nothing; None when ``key`` is none of them or works now."""
    bid = next((b for b in STATBLOCK_WORDS if key in raw_keys(screen.app, b)), None)
    if bid is None:
        return None
    found = screen.active_bindings.get(key)
    if found is not None and found.enabled:
        return None  # bound to something that applies now (a game's own key)
    needs, noun = STATBLOCK_WORDS[bid]
    game = screen.game
    what = {
        "sb_save": roll_kind(game, "save").capitalize(),
        "sb_roll_with": "Brawl, Wit or Will",
        "sb_full_effort": "Full Effort",
    }.get(bid, needs.capitalize())
    rules = game.foes
    has = rules.roll_with if needs == "roll_with" else roll_kind(game, needs) in rules.rolls
    c = screen.tracker.selected()
    if not has:
        return f"{game.name} gives a foe's statblock no {what.casefold()} {noun}"
    if c is None:
        return f"{what} is a foe's statblock {noun}: select a foe"
    if c.side == "pc":
        return f"{what} is a foe's statblock {noun}: {c.name} is a PC"
    return (
        f"{what} is a foe's statblock {noun}: {c.name} has none (library NPCs (b) have "
        "theirs; quick add (q) with an HD)"
    )


def encounter_key(make: Callable[[int], Command]) -> Callable[[CombatScreen], None]:
    """A key's action that sends ``make``'s command for the running encounter."""

    def action(screen: CombatScreen) -> None:
        screen.for_encounter(make)

    return action


def selected_form(
    make: Callable[[TrackerState, int, Combatant], Ask],
) -> Callable[[CombatScreen], None]:
    """A key's action that shows ``make``'s form for the selected combatant."""

    def action(screen: CombatScreen) -> None:
        screen.form_for_selected(make)

    return action


def selected_key(
    make: Callable[[int, Combatant], Command], follow: bool = False
) -> Callable[[CombatScreen], None]:
    """A key's action that sends ``make``'s command for the selected combatant (``follow``: the
    selection stays on it, wherever it moves in the order)."""

    def action(screen: CombatScreen) -> None:
        screen.for_selected(make, follow)

    return action

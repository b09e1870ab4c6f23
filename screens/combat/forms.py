"""The tracker's forms: add NPCs, quick add, edit a combatant, a new encounter, effects,
temporary HP, AP and the party's initiative.

Each is a function of what it asks about, returning an :class:`Ask`: the form's title, its
fields, and the command its answers make. The tracker shows the form and sends the command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from app.lazy import LazyModule
from app.state import Command
from rulesets import encounter as er
from rulesets import fight as fr
from rulesets.game import Game
from rulesets.npc import MAX_QUICK_HD
from rulesets.turn_orders import known as known_orders
from rulesets.values import record
from screens.form import Field
from widgets.literal import clean

if TYPE_CHECKING:
    from app.commands import combat as cmd
    from app.commands import npcs
    from app.state import Campaign
    from screens.combat.tracker_state import TrackerState
    from screens.npc_pick import NpcPickScreen
else:
    cmd = LazyModule("app.commands.combat")
    npcs = LazyModule("app.commands.npcs")


@record
class Ask:
    """A form to show, and the command its answers make."""

    title: str
    fields: list[Field]
    make: Callable[[dict[str, Any]], Command]


def party_initiative(eid: int, enc: er.Encounter) -> Ask | str:
    """The players' initiative rolls, each PC's blank to leave it as it is (or why not)."""
    pcs = [c for c in enc.combatants if c.side == "pc"]
    if not pcs:
        return "No PCs in this encounter (p adds the party)"
    fields = [
        Field(
            c.id,
            f"{clean(c.name, 40)} (blank: as it is)",
            "" if c.initiative is None else str(c.initiative),
            "optint",
            minimum=-99,
        )
        for c in pcs
    ]
    return Ask(
        "Players' initiative rolls",
        fields,
        lambda v: cmd.PartyInitiative(eid, {c.id: v.get(c.id) for c in pcs}),
    )


def spend_ap(eid: int, enc: er.Encounter, cid: str | None) -> Ask | str:
    """AP spent by ``cid``; the form names whose, and may change it (or why not)."""
    c = next((x for x in enc.combatants if x.id == cid), None)
    if c is None:
        return "Select a combatant first (j/k)"
    by_name = {x.name: x.id for x in enc.combatants if not x.defeated or x.id == c.id}

    def spend(v: dict[str, Any]) -> Command:
        who = by_name.get(str(v.get("who") or c.name), c.id)
        return cmd.SpendAp(eid, who, int(v["n"]))

    return Ask(
        f"Spend AP: {c.name} ({c.ap}/{c.ap_max} AP)",
        [
            Field("n", "AP to spend", "1", "int", minimum=1),
            Field("who", "Whose", c.name, "choice", choices=tuple(by_name)),
        ],
        spend,
    )


def new_encounter(game: Game, count: int) -> Ask:
    """A new encounter (``count``: how many there are)."""
    return Ask(
        "New encounter",
        [
            Field("name", "Name", f"Encounter {count + 1}"),
            Field(
                "model",
                "Turn model",
                game.turn_model,
                "choice",
                choices=tuple(known_orders(game)),
            ),
            Field(
                "groups",
                "Group initiative: one roll per NPC group, acting together",
                "no",
                "choice",
                choices=("no", "yes"),
            ),
        ],
        lambda v: cmd.NewEncounter(v["name"], v["model"], v.get("groups") == "yes"),
    )


def add_npcs(game: Game, npc_id: int, doc: Mapping[str, Any]) -> Ask:
    """How many of the library NPC ``doc`` join the fight, and their HP."""
    # A game whose foes have no HP to roll (a stress track) does not ask.
    hp = (
        [Field("hp", "HP", "rolled", "choice", choices=("rolled", "fixed"))]
        if game.foes.rolls_hp
        else []
    )
    return Ask(
        f"Add {clean(str(doc.get('name', '?')), 40)} to the fight",
        [Field("count", "How many", "1", "int", minimum=1), *hp],
        lambda v: npcs.AddNpcsToEncounter(npc_id, int(v["count"]), v.get("hp") or "rolled"),
    )


def quick_add(
    eid: int, foe: fr.FoeSheet, ordered: bool, preset: Mapping[str, str] | None, title: str
) -> Ask:
    """An ad-hoc foe or group; ``preset`` fills the name, count and HD (a build to a danger
    proposes them), ``title`` says why; ``ordered``: the fight orders by initiative (only then
    is one asked: the GM would type a number nothing reads)."""
    asked = [f for f in foe.fields if ordered or f.key != "initiative"]
    fields = [
        Field("name", "Name", (preset or {}).get("name", "Foe")),
        Field(
            "count",
            "How many (2+ makes a numbered group)",
            (preset or {}).get("count", "1"),
            "int",
            minimum=1,
        ),
        Field(
            "health",
            f"{foe.health_label} (blank: {foe.health_default}; with an HD, its quick build's)",
            "",
            "optint",
        ),
        *asked,
        Field("side", "Side", "foe", "choice", choices=("foe", "ally")),
        Field(
            "hd",
            "HD: the quick build's foe in this game (blank: none)",
            (preset or {}).get("hd", ""),
            "optint",
            minimum=0,
            maximum=MAX_QUICK_HD,
        ),
    ]
    return Ask(
        title or "Quick add",
        fields,
        lambda v: cmd.QuickAdd(
            eid,
            v["name"],
            int(v["count"]),
            v.get("health"),
            v.get("initiative"),
            int(v.get("quickness") or 0),
            side="pc" if v.get("side") == "ally" else "npc",
            answers=v,
            hd=v.get("hd"),
        ),
    )


def edit(eid: int, c: er.Combatant, uses_ap: bool) -> Ask:
    """``c``'s name, initiative, HP (where it has HP) and AP (where the fight counts AP)."""
    fields = [
        Field("name", "Name", c.name),
        Field(
            "initiative",
            "Initiative (blank: unset)",
            "" if c.initiative is None else str(c.initiative),
            "optint",
            minimum=-99,
        ),
    ]
    if fr.health_kind(c) == "hp":
        fields.append(Field("hp", "HP", str(c.stats.get("hp", 0)), "int"))
        fields.append(Field("hp_max", "HP max", str(c.stats.get("hp_max", 0)), "int"))
    if uses_ap:
        fields.append(Field("ap", "AP left", str(c.ap), "int"))
        fields.append(Field("ap_max", "AP max", str(c.ap_max), "int"))
    return Ask(
        f"Edit {c.name}",
        fields,
        lambda v: cmd.EditCombatant(
            eid,
            c.id,
            name=v["name"],
            initiative=v["initiative"],
            clear_initiative=v["initiative"] is None and c.initiative is not None,
            hp=v.get("hp"),
            hp_max=v.get("hp_max"),
            ap=v.get("ap"),
            ap_max=v.get("ap_max"),
        ),
    )


def add_effect(state: TrackerState, eid: int, c: er.Combatant) -> Ask:
    """A condition or effect on ``c``: how long, when it ticks, on whose turn (and its rank,
    where the game's conditions have one that decays)."""
    enc, ranked = state.encounter, state.rules.ranked_conditions
    assert enc is not None  # c was selected in it
    names = tuple(x.name for x in enc.combatants)
    fields = [
        Field("name", "Condition or effect", "", "text"),
        Field("turns", "Lasts (ticks; blank: until removed)", "", "optint", minimum=1),
        Field("tick", "Ticks at", "end", "choice", choices=("start", "end", "round")),
        Field(
            "owner",
            "On whose turn (blank: its own)",
            "",
            "choice",
            choices=names,
            required=False,
        ),
    ]
    if ranked:
        fields.append(Field("rank", "Rank (decays one per tick)", "", "optint", minimum=1))
    by_name = {x.name: x.id for x in enc.combatants}
    return Ask(
        f"Condition on {c.name}",
        fields,
        lambda v: cmd.AddEffect(
            eid,
            c.id,
            v["name"],
            v["turns"],
            v["tick"],
            by_name.get(v["owner"]) if v["owner"] else None,
            v.get("rank"),
        ),
    )


def remove_effect(eid: int, c: er.Combatant) -> Ask:
    """One of ``c``'s conditions (it has some), the newest offered first."""
    names = tuple(e.name for e in c.conditions)
    return Ask(
        f"Remove a condition from {c.name}",
        [Field("name", "Condition", names[-1], "choice", choices=names)],
        lambda v: cmd.RemoveEffect(eid, c.id, v["name"]),
    )


def next_model(game: Game, model: str) -> str:
    """The turn model after ``model`` among the game's (alt+m steps through them)."""
    models = known_orders(game)
    return models[(models.index(model) + 1) % len(models)]


def pick_npc(
    campaign: Campaign, then: Callable[[Ask], None]
) -> tuple[NpcPickScreen, Callable[[int | None], None]] | str:
    """b: the library to pick an NPC from (or why not), and what follows the pick: ``then``
    is handed the form that asks how many and their HP."""
    library = campaign.rows("npcs")
    if not library:
        return "The NPC library is empty (panel 3)"
    from screens.npc_pick import NpcPickScreen

    def picked(npc_id: int | None) -> None:
        doc = campaign.doc("npcs", npc_id) if npc_id is not None else None
        if doc is not None and npc_id is not None:
            then(add_npcs(campaign.game, npc_id, doc))

    return NpcPickScreen(library, "Add NPCs from the library"), picked


def temp_hp(eid: int, c: er.Combatant) -> Ask:
    return Ask(
        f"Temporary HP: {c.name}",
        [Field("n", "Temporary HP (0 removes)", "5", "int")],
        lambda v: cmd.TempHp(eid, c.id, int(v["n"])),
    )

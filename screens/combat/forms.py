"""The tracker's forms: add NPCs, quick add, edit a combatant, a new encounter, effects,
temporary HP, morale, AP and the party's initiative."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.lazy import LazyModule
from rulesets import fight as fr
from rulesets.npc import MAX_QUICK_HD
from rulesets.turn_orders import known as known_orders
from screens.combat.exchange import CombatExchange
from screens.form import Field
from widgets.literal import clean

if TYPE_CHECKING:
    from app.commands import combat as cmd
    from app.commands import npcs
else:
    cmd = LazyModule("app.commands.combat")
    npcs = LazyModule("app.commands.npcs")


class CombatForms(CombatExchange):
    """The forms that add to and edit the fight."""

    def action_party_initiative(self) -> None:
        eid, enc = self._need_encounter(), self.encounter
        if eid is None or enc is None:
            return
        pcs = [c for c in enc.combatants if c.side == "pc"]
        if not pcs:
            self.notify("No PCs in this encounter (p adds the party)", severity="warning")
            return
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
        self._ask(
            "Players' initiative rolls",
            fields,
            lambda v: self._apply(cmd.PartyInitiative(eid, {c.id: v.get(c.id) for c in pcs})),
        )

    def action_spend_ap(self) -> None:
        """a: spend AP of whose turn it is (SOH-10), or of the row the GM moved to since the
        last change (a defence, a counter by another); the form names whose, and may change it."""
        eid, enc = self._need_encounter(), self.encounter
        if eid is None or enc is None:
            return
        chosen = self._chosen if self._chosen == self.table.selected_id else None
        cid = chosen or enc.current or self.table.selected_id
        c = next((x for x in enc.combatants if x.id == cid), None)
        if c is None:
            self.notify("Select a combatant first (j/k)", severity="warning")
            return
        by_name = {x.name: x.id for x in enc.combatants if not x.defeated or x.id == c.id}

        def spend(v: dict[str, Any]) -> None:
            who = by_name.get(str(v.get("who") or c.name), c.id)
            self._apply(cmd.SpendAp(eid, who, int(v["n"])))

        self._ask(
            f"Spend AP: {c.name} ({c.ap}/{c.ap_max} AP)",
            [
                Field("n", "AP to spend", "1", "int", minimum=1),
                Field("who", "Whose", c.name, "choice", choices=tuple(by_name)),
            ],
            spend,
        )

    def action_turn_model(self) -> None:
        eid = self._need_encounter()
        if eid is None or self.encounter is None:
            return
        models = known_orders(self.game)
        nxt = models[(models.index(self.encounter.model) + 1) % len(models)]
        self._apply(cmd.SetModel(eid, nxt))

    def action_new_encounter(self) -> None:
        n = len(self.campaign.rows("encounters")) + 1
        self._ask(
            "New encounter",
            [
                Field("name", "Name", f"Encounter {n}"),
                Field(
                    "model",
                    "Turn model",
                    self.game.turn_model,
                    "choice",
                    choices=tuple(known_orders(self.game)),
                ),
                Field(
                    "groups",
                    "Group initiative: one roll per NPC group, acting together",
                    "no",
                    "choice",
                    choices=("no", "yes"),
                ),
            ],
            lambda v: self._apply(
                cmd.NewEncounter(v["name"], v["model"], v.get("groups") == "yes")
            ),
        )

    def action_add_npc(self) -> None:
        """b: pick a library NPC by typing part of its name (the list narrows as the GM
        types), then how many and their HP."""
        eid = self._need_encounter()
        if eid is None:
            return
        library = self.campaign.rows("npcs")
        if not library:
            self.notify("The NPC library is empty (panel 3)", severity="warning")
            return
        from screens.npc_pick import NpcPickScreen

        def picked(npc_id: int | None) -> None:
            doc = self.campaign.doc("npcs", npc_id) if npc_id is not None else None
            if doc is None or npc_id is None:
                return
            chosen = npc_id
            # A game whose foes have no HP to roll (a stress track) does not ask.
            hp = (
                [Field("hp", "HP", "rolled", "choice", choices=("rolled", "fixed"))]
                if self.game.foes.rolls_hp
                else []
            )
            self._ask(
                f"Add {clean(str(doc.get('name', '?')), 40)} to the fight",
                [Field("count", "How many", "1", "int", minimum=1), *hp],
                lambda v: self._apply(
                    npcs.AddNpcsToEncounter(chosen, int(v["count"]), v.get("hp") or "rolled")
                ),
            )

        self.app.push_screen(NpcPickScreen(library, "Add NPCs from the library"), picked)

    def action_quick_add(self, preset: Mapping[str, str] | None = None, title: str = "") -> None:
        """q: an ad-hoc foe or group; ``preset`` fills the name, count and HD (a build to a
        danger proposes them), ``title`` says why."""
        eid = self._need_encounter()
        if eid is None:
            return
        foe = self.rules.foe
        # Only the initiative turn model orders by initiative: a chosen-next or AP-rounds fight
        # never asks for one (the GM would type a number nothing reads).
        ordered = self.encounter is None or self._turn_order(self.encounter).uses_initiative
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
        self._ask(
            title or "Quick add",
            fields,
            lambda v: self._apply(
                cmd.QuickAdd(
                    eid,
                    v["name"],
                    int(v["count"]),
                    v.get("health"),
                    v.get("initiative"),
                    int(v.get("quickness") or 0),
                    side="pc" if v.get("side") == "ally" else "npc",
                    answers=v,
                    hd=v.get("hd"),
                )
            ),
        )

    def action_edit(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
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
        hp = fr.health_kind(c) == "hp"
        if hp:
            fields.append(Field("hp", "HP", str(c.stats.get("hp", 0)), "int"))
            fields.append(Field("hp_max", "HP max", str(c.stats.get("hp_max", 0)), "int"))
        if self.encounter is not None and self._turn_order(self.encounter).uses_ap:
            fields.append(Field("ap", "AP left", str(c.ap), "int"))
            fields.append(Field("ap_max", "AP max", str(c.ap_max), "int"))

        def done(v: dict[str, Any]) -> None:
            self._apply(
                cmd.EditCombatant(
                    eid,
                    c.id,
                    name=v["name"],
                    initiative=v["initiative"],
                    clear_initiative=v["initiative"] is None and c.initiative is not None,
                    hp=v.get("hp"),
                    hp_max=v.get("hp_max"),
                    ap=v.get("ap"),
                    ap_max=v.get("ap_max"),
                )
            )

        self._ask(f"Edit {c.name}", fields, done)

    def action_add_effect(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        enc = self.encounter
        if eid is None or c is None or enc is None:
            return
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
        if self.rules.ranked_conditions:
            fields.append(Field("rank", "Rank (decays one per tick)", "", "optint", minimum=1))
        by_name = {x.name: x.id for x in enc.combatants}

        def done(v: dict[str, Any]) -> None:
            self._apply(
                cmd.AddEffect(
                    eid,
                    c.id,
                    v["name"],
                    v["turns"],
                    v["tick"],
                    by_name.get(v["owner"]) if v["owner"] else None,
                    v.get("rank"),
                )
            )

        self._ask(f"Condition on {c.name}", fields, done)

    def action_remove_effect(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        if not c.conditions:
            self.notify(f"{c.name} has no conditions", markup=False)
            return
        names = tuple(e.name for e in c.conditions)
        self._ask(
            f"Remove a condition from {c.name}",
            [Field("name", "Condition", names[-1], "choice", choices=names)],
            lambda v: self._apply(cmd.RemoveEffect(eid, c.id, v["name"])),
        )

    def action_morale(self) -> None:
        eid = self._need_encounter()
        if eid is None or self.encounter is None:
            return
        due = self._doc.get("morale_due", [])
        cid = self.table.selected_id
        target = cid if cid and any(d.get("id") == cid for d in due) else None
        if target is None and due:
            target = due[0]["id"]
        target = target or cid
        if target:
            self._apply(cmd.MoraleCheck(eid, target))

    def action_morale_due(self) -> None:
        self._on_encounter(lambda e: cmd.MoraleDue(e))

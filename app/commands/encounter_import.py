"""An Improved Initiative encounter brought over as a running fight, not only as statblocks.

One command imports the file's monsters into the NPC library (:class:`ImportNpcs`, so a
re-import updates them) and recreates each encounter in the tracker: its combatants in their
order with their initiative, HP, temporary HP, conditions and hidden flag, the round counter
and whose turn it is. One undo takes both back.

Reading: a converted monster's HP is HD-derived, not the 5e statblock's, so a wounded
combatant keeps the *share* of its HP it had (a goblin at 3 of 7 is at 3/7 of its new
maximum, rounded, at least 1 while it was above 0): the GM sees the same fight, bloodied where
it was bloodied.
Reading: a game whose foes keep their own sheet (a stress track, limbs, a vitality or
Health pool) starts a library foe on a fresh one built from its statblock: 5e hit points say
nothing about stress boxes or limbs.
Reading: a player's character is matched to the party by name; one not in the party is left
out and said so, since the tracker reads a PC's health from its sheet.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from app.commands.combat import StartEncounter
from app.commands.npcs import ImportNpcs, import_key, npc_block
from app.state import CommandError, Transaction
from rulesets import encounter as er
from rulesets import improved_initiative as ii
from rulesets import npc as npc_rules
from rulesets.fight import DEFAULT_QUICKNESS, FightRules, load
from rulesets.turn_orders import turn_order
from rulesets.values import frozen


def carried_hp(current: int | None, ii_max: int | None, new_max: int) -> int:
    """The HP a converted combatant starts with: the share of its 5e HP it had left."""
    if current is None or not ii_max or ii_max <= 0:
        return new_max
    if current <= 0:
        return 0
    share = round(new_max * min(current, ii_max) / ii_max)
    return max(1, min(new_max, share))


def _effects(entry: ii.EncounterEntry) -> list[er.Effect]:
    return [
        er.Effect(t.text[:80], t.remaining, "turn_start" if t.at_start else "turn_end")
        for t in entry.tags
    ]


@frozen
class ImportEncounters:
    """NPC-09 + GEN-04: the file's monsters into the library and its encounters into the
    tracker, the last one made current."""

    conversions: tuple[npc_rules.Conversion, ...]
    encounters: tuple[ii.SavedEncounter, ...]
    ii_hp: dict[str, int] = field(default_factory=dict, hash=False)
    """The 5e maximum HP of each statblock by name (for the share a wounded one keeps)."""
    outcome: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """Filled by :meth:`run`: the library counts and, per encounter, what was recreated."""

    @property
    def label(self) -> str:
        return f"Import {len(self.encounters)} encounter(s) from {ii.SYSTEM}"

    def run(self, tx: Transaction) -> list[str]:
        if not self.encounters:
            raise CommandError("The file holds no encounter")
        lines: list[str] = []
        if self.conversions:
            library = ImportNpcs(self.conversions, ii.SYSTEM)
            lines += library.run(tx)
            self.outcome.update(library.outcome)
        npcs: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        for doc_id, doc in tx.campaign.rows("npcs"):
            key = import_key(doc)
            if key is not None:
                npcs.setdefault(key, (doc_id, doc))
        party = {
            str(pc.get("name", "")).strip().casefold(): (doc_id, pc)
            for doc_id, pc in tx.all("party")
            if not pc.get("npc")
        }
        made = []
        for saved in self.encounters:
            doc_id, said, summary = self._recreate(tx, saved, npcs, party)
            lines += said
            made.append(summary)
            meta = tx.meta()
            meta["current_encounter"] = doc_id
            tx.put("meta", 1, meta)
        self.outcome["encounters"] = made
        return lines

    def _recreate(
        self,
        tx: Transaction,
        saved: ii.SavedEncounter,
        npcs: dict[tuple[str, str], tuple[int, dict[str, Any]]],
        party: dict[str, tuple[int, dict[str, Any]]],
    ) -> tuple[int, list[str], dict[str, Any]]:
        rules = tx.game.fight
        taken = {str(doc.get("name", "")) for _, doc in tx.all("encounters")}
        name, again = saved.name[:72], 1
        while name in taken:  # imported twice: a second fight, told apart
            again += 1
            name = f"{saved.name[:72]} ({again})"
        enc = er.Encounter(id="", name=name, model=tx.game.turn_model)
        doc_id = tx.insert("encounters", enc.to_dict())
        enc.id = f"e{doc_id}"
        left_out: list[str] = []
        placed: list[tuple[str, er.Combatant]] = []
        entries = list(saved.entries)
        order = turn_order(enc.model, tx.game)
        if order.uses_initiative:  # highest first; those with none after, in file order
            entries.sort(key=lambda e: -e.initiative if e.initiative is not None else 1 << 40)
        for entry in entries:
            combatant = self._combatant(tx, entry, npcs, party, rules)
            if combatant is None:
                left_out.append(entry.name)
            else:
                placed.append((entry.id, combatant))
        er.add_combatants(enc, [c for _, c in placed])
        tx.put("encounters", doc_id, enc.to_dict())
        turn = ""
        if saved.round > 0 and enc.combatants:
            fight = load(tx, doc_id)
            StartEncounter(doc_id).change(fight)
            fight.enc.round = saved.round
            fight.enc.ticked_round = saved.round
            ids = {ii_id: c.id for ii_id, c in placed}
            active = ids.get(saved.active_id or "")
            if active is not None and order.uses_initiative:
                fight.enc.current = active
            current = next((c for c in fight.enc.combatants if c.id == fight.enc.current), None)
            turn = f", {current.name}'s turn" if current is not None else ""
            fight.save()
        state = f"round {saved.round}{turn}" if saved.round > 0 and enc.combatants else "not started"
        line = (
            f"Encounter {name} recreated ({order.name}): "
            f"{len(placed)} combatant(s), {state}"
        )
        said = [line]
        if left_out:
            said.append(
                "Left out (a PC not in the party, or a statblock that did not convert): "
                + ", ".join(left_out)
            )
        summary = {
            "name": name,
            "combatants": len(placed),
            "round": saved.round if enc.combatants else 0,
            "left_out": left_out,
        }
        return doc_id, said, summary

    def _combatant(
        self,
        tx: Transaction,
        entry: ii.EncounterEntry,
        npcs: dict[tuple[str, str], tuple[int, dict[str, Any]]],
        party: dict[str, tuple[int, dict[str, Any]]],
        rules: FightRules,
    ) -> er.Combatant | None:
        if entry.player:
            found = party.get(entry.name.casefold()) or party.get(entry.statblock_name.casefold())
            if found is None:
                return None
            pc_id, pc = found
            combatant = er.Combatant(
                name=str(pc.get("name", entry.name)), side="pc", ref=str(pc_id),
                quickness=tx.game.fight.quickness(pc),
            )
        else:
            match = npcs.get((entry.statblock_name.casefold(), ii.SYSTEM))
            if match is None:
                return None
            npc_id, doc = match
            full = int(doc.get("statblock", {}).get("hp", 0) or 0) or 1
            hp = carried_hp(entry.current_hp, self.ii_hp.get(entry.statblock_name), full)
            # The same path as a library NPC joining a fight: the game's foe of the statblock.
            stats: dict[str, Any] = tx.game.foes.make(entry.name[:80], npc_block(doc), full)
            if "sheet" not in stats:
                stats["hp"] = hp
                if entry.temp_hp:
                    stats["temp_hp"] = entry.temp_hp
            quickness = tx.game.fight.quickness(stats.get("sheet")) or DEFAULT_QUICKNESS
            combatant = er.Combatant(
                name=entry.name[:80], side="npc", ref=str(npc_id), stats=stats,
                quickness=quickness if turn_order(tx.game.turn_model, tx.game).uses_quickness else 0,
            )
            combatant.defeated = entry.current_hp is not None and entry.current_hp <= 0
        combatant.initiative = entry.initiative
        combatant.hidden = entry.hidden
        combatant.conditions = _effects(entry)
        return combatant

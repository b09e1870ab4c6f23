"""What the tracker's table and encounter list show: a row per combatant (its order cell,
health, conditions and turn state, as the turn order and the game say), the title and the
status line, and which of the shell's keys are on offer for the selection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.queries import timed_effect_lines
from rulesets import encounter as er
from rulesets import fight as fr
from rulesets import foes as fo
from screens.combat.base import (
    CombatBase,
    _Seen,
)
from screens.combat.encounter_list import EncounterList
from widgets.combat_table import Row
from widgets.literal import clean

if TYPE_CHECKING:
    pass


class CombatRows(CombatBase):
    """The table, the encounter list, the title and the status line."""

    def _game_keys(self) -> tuple[str, ...]:
        """The game's tracker actions that work on the selection now: the Footer follows them."""
        ctx = self.game_context()
        return tuple(a.id for a in self.game.actions_for("combat") if self._works_now(a, ctx))

    def _keys_now(self, model: str) -> tuple[object, ...]:
        """What the keys on offer depend on: the turn model, an HD NPC in the fight, the game's
        actions that work on the selection, whether the selection has a statblock, and whether
        the fight runs (the Footer's order)."""
        attacker = self._attack_pair()[0] is not None
        running = self.encounter is not None and self.encounter.started
        keys = (model, self._has_hd, self._game_keys(), self._block is not None, attacker)
        return (*keys, running)

    def _offer_keys(self, what: tuple[object, ...]) -> None:
        # The Footer and help ask check_action again only when the turn model (or whether an HD
        # NPC is in the fight) changed, not on every keypress.
        if what != self._keys_for:
            self._keys_for = what
            self.refresh_bindings()

    def _rows_of(self, enc: er.Encounter) -> list[Row]:
        context = (enc.model, enc.started, self.game.id)
        rows: list[Row] = []
        hd = False
        self._acting = {c.id for c in er.acting(enc)}
        for pos, c in enumerate(enc.combatants, 1):
            hd = hd or fr.health_kind(c) == "hp" or fo.has_statblock(c)
            # A PC's health lives on the party sheet, so its row also depends on that sheet.
            key = (pos, c.id in self._acting, context, self._sheet_of(c), c.id in self._marked)
            seen = self._seen.get(c.id)
            if seen is None or seen.combatant is not c:
                seen = _Seen({}, c)
            if seen.row is None or seen.row_key != key:
                seen.row_key, seen.row = key, self._row(pos, c)
            rows.append(seen.row)
        self._has_hd = hd
        return rows

    def _follow_list(self) -> None:
        """The encounter list's table is built the first time the list shows."""
        found = self.query(EncounterList)  # none yet while the screen composes
        if found:
            found.first().follow(self.campaign.rows("encounters"), self.encounter_id)

    def _show_list(self, current: int | None) -> None:
        found = self.query(EncounterList)
        if found:
            found.first().show(self.campaign.rows("encounters"), current)

    def _title(self, enc: er.Encounter) -> str:
        order = self._turn_order(enc)
        model = order.name
        if enc.group_initiative and order.uses_initiative:
            model += " (grouped)"
        if not enc.started:
            return f"{enc.name} · {model} · not started (alt+r starts)"
        cur = er.current_combatant(enc)
        who = f"{cur.name}'s turn" if cur else order.nobody_acting
        acting = er.acting(enc)
        if len(acting) > 1:
            who += f" (its group of {len(acting)})"
        # Whose turn and the round first: a narrow screen cuts the encounter's name instead.
        return f"Round {enc.round} · {who} · {enc.name} · {model}"

    def _status(self, enc: er.Encounter) -> str:
        parts = []
        names = {c.id: c.name for c in enc.combatants}
        due = [names.get(d.get("id", ""), "?") for d in self._doc.get("morale_due", [])]
        if due:
            parts.append(f"Morale check due (s): {', '.join(due)}")
        parts += self.rules.notes(self._doc, names)
        if er.every_foe_out(enc):
            parts.append("Every foe is down or fled: shift+alt+r ends the fight")
        if said := self._turn_order(enc).status(enc):
            parts.append(said)
        if not enc.combatants:
            parts.append("p add the party · b add NPCs · q quick add")
        # The timed effects kept outside the fight tick with its rounds: each with its time left.
        parts += timed_effect_lines(self.campaign.meta)
        return "  ·  ".join(parts)

    def _sheet_of(self, c: er.Combatant) -> dict[str, Any] | None:
        """A PC combatant's party sheet (a shallow copy, a faithful image of a stored doc)."""
        if fr.health_kind(c) != "pc":
            return None
        sheet = self.campaign.doc("party", int(str(c.ref)))
        return dict(sheet) if sheet is not None else None

    def _out_word(self, c: er.Combatant) -> str:
        """A PC out by its game's rule: its status (dead, perished, taken out), else ""."""
        pc = self._sheet_of(c)
        if pc is None or not fr.is_out(self.rules, c, pc):
            return ""
        status = str(pc.get("status") or "")
        return status if status and status != self.campaign.ruleset.sheet.usual_status else "out"

    def _health(self, c: er.Combatant) -> str:
        kind = fr.health_kind(c)
        if kind == "pc":
            pc = self._sheet_of(c)
            text = self.campaign.ruleset.health(pc) if pc is not None else "(not in party)"
            if status := self._out_word(c):
                # Out of the fight, a PC shows its word (dead, taken out), not its numbers; one
                # the game lets keep its turn (dying), or one out by its numbers only ("out" at
                # 0 HP), shows both. A word the health line already has is said once (DOWNED).
                said = [part.casefold() for part in text.split(" · ")]
                if status != "out" and fr.counts_out(self.rules, c, pc):
                    text = status
                elif status.casefold() not in said:
                    text = f"{status} · {text}"
        elif kind == "foe":
            text = fr.foe_health(self.rules, c.stats["sheet"])
        else:
            text = fr.hp_line(c.stats)
        temp = c.stats.get("temp_hp")
        text = f"{text} +{temp} tmp" if temp else text
        if c.defeated and not self._out_word(c):
            # The word leads the Health cell, which never gives way: the Turn column does,
            # and a defeated row read like any other.
            text = f"{'fled' if c.stats.get(fr.FLED) else 'defeated'} · {text}"
        return text

    def _row(self, pos: int, c: er.Combatant) -> Row:
        enc = self.encounter
        assert enc is not None
        current = c.id in self._acting  # the one whose turn it is, and its group with it
        name = ("• " if c.id in self._marked else "") + clean(c.name, 60)
        name += " (hidden)" if c.hidden else ""
        name_style = "bold reverse yellow" if current else ("dim italic" if c.hidden else "")
        # A PC's death (its game's word, in red) and a foe's defeat (dimmed) read apart.
        dead = self._out_word(c)
        health_style = "bold red" if dead else ("dim" if c.defeated else "")
        if c.defeated and not current:
            name_style = "red strike" if dead else "dim strike"
        if c.side == "pc" and not current:
            name_style = name_style or "bold"
        turns = self._turn_order(enc)
        order = turns.cell(enc, c)
        effects = fr.tags_of(self.rules, c, self._sheet_of(c))
        return (
            ("▶" if current else "", "bold yellow"),
            (str(pos), ""),
            (order, "bold" if turns.uses_ap else ""),
            (name, name_style),
            # Long health or conditions wrap in their own row (and the detail line reads a
            # cell cut after three lines whole): the cut here only bounds a hand-edited save.
            (clean(self._health(c), 200), health_style),
            (clean(", ".join(effects), 300), "italic"),
            (self._turn_state(enc, c), "dim"),
        )

    def _turn_state(self, enc: er.Encounter, c: er.Combatant) -> str:
        if not enc.started:
            return ""
        if c.defeated:
            # Out of the fight: whether it acted or holds no longer matters this round, and the
            # Health cell says it is out.
            return ""
        bits: list[str] = []
        if c.held:
            bits.append("holding")
        # Holding already says the turn is over: an order says "acted" only when not holding.
        bits.append(self._turn_order(enc).turn_state(enc, c))
        bits.append(fr.turn_note_of(self.rules, enc, c, self._sheet_of(c)))
        return " ".join(b for b in bits if b)

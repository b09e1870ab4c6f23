"""The statblock pane beside the table: the selected combatant's head (health, Effort,
conditions, morale due) and its statblock with the keys that roll it, or a PC's sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from app.lazy import LazyModule
from rulesets import encounter as er
from rulesets import fight as fr
from rulesets import foes as fo
from rulesets.npc import NPC, statblock_of
from screens.combat.base import (
    IDLE_AMOUNT,
    ROLL_WITH,
    STATBLOCK_KEYS,
    _Seen,
)
from screens.combat.rows import CombatRows
from widgets.literal import clean, literal
from widgets.statblock import powers_text, statblock_text, title_text

if TYPE_CHECKING:
    from app.commands import npcs
else:
    npcs = LazyModule("app.commands.npcs")


class CombatPane(CombatRows):
    """The statblock pane and the keys that roll the selected statblock."""

    ROOMY: ClassVar[int] = 150
    """From this many columns the encounter list, the table and the statblock pane fit side
    by side; below, showing the pane folds the list away (L brings it back)."""

    def _fit_pane(self) -> None:
        """The pane shows from 100 columns, or as the GM chose by alt+s at any width."""
        shown = self._pane_choice if self._pane_choice is not None else self._width >= self.NARROW
        self.set_class(shown, "-statblock", update=self.is_mounted)
        self.set_class(self._width < self.ROOMY, "-crowded", update=self.is_mounted)
        if shown and self.is_mounted:
            self._follow_selection(refresh_keys=False)
        self._follow_list()

    def action_statblock(self) -> None:
        """alt+s: show or hide the statblock pane (the table takes or gives back the room)."""
        self._pane_choice = not self.has_class("-statblock")
        self._fit_pane()

    def action_cursor(self, delta: int) -> None:
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.cursor_row + delta, table.row_count - 1)))
            self._chosen = table.selected_id
            self._show_detail()
            self._follow_selection()

    def _show_detail(self) -> None:
        """The line under the table, while no amount is typed: the game's detail about the
        selected combatant (a Nemron character's limbs), or what the keys there do."""
        if self._inline is not None or self._finding is not None:
            return
        text = ""
        enc, cid = self.encounter, self.table.selected_id
        if enc is not None and cid is not None:
            seen = self._seen.get(cid)
            if seen is not None:
                c = seen.combatant
                kind = fr.health_kind(c)
                sheet = self._sheet_of(c) if kind == "pc" else c.stats.get("sheet")
                try:
                    text = self.rules.detail(c, sheet if isinstance(sheet, dict) else None)
                except (KeyError, TypeError, ValueError, AttributeError):
                    text = ""
        self._set_text("#combat-amount", clean(text, 200) or IDLE_AMOUNT)

    # --- the selected combatant's statblock -----------------------------------------------------
    def _follow_selection(self, refresh_keys: bool = True) -> None:
        """The selection moved or changed: its statblock (the keys that roll it, the pane).

        One combatant's documents are read, whatever the size of the fight."""
        cid = self.table.selected_id if self.is_mounted else None
        seen = self._seen.get(cid) if cid is not None else None
        library: dict[str, Any] | None = None
        block: NPC | None = None
        if seen is not None:
            c = seen.combatant
            ref = fr.ref_id(c)
            library = self.campaign.doc("npcs", ref) if c.side == "npc" and ref else None
            made_of = (library, c.stats.get("hd"))
            if made_of[0] is self._block_of[0] and made_of[1] == self._block_of[1]:
                block = self._block  # the same library NPC (the next Goblin): built already
            else:
                try:
                    block = statblock_of(c.stats, library)
                except (TypeError, ValueError, KeyError):
                    block = None  # a hand-edited statblock the rules cannot build: no keys
                self._block_of = made_of
        self._block = block
        if refresh_keys and self.encounter is not None:
            self._offer_keys(self._keys_now(self.encounter.model))
        if self.has_class("-statblock"):
            self._show_pane(seen, library)

    def _show_pane(self, seen: _Seen | None, library: dict[str, Any] | None) -> None:
        """The head (this instance: name, HP, Effort left, conditions, morale due) and, below,
        the statblock and its keys, which the next Goblin shares: moving from one to the next,
        or a hit, redraws the head's few lines only."""
        cid = seen.combatant.id if seen is not None else None
        due = [d for d in self._doc.get("morale_due", []) if cid and d.get("id") == cid]
        block = self._block
        foe: fo.Foe | None = None
        shown: list[str] = []
        if seen is not None and block is not None:
            doc = library or {}
            concepts = tuple(x for x in doc.get("concepts") or () if isinstance(x, str))
            c = seen.combatant
            foe = fo.Foe(c, block, self._foe_sheet(c), concepts, self.campaign)
            # Asked each time: what the game shows may live elsewhere (a foe's hand).
            shown = self._foe_lines(foe)
        body = Text()  # no statblock: an empty body
        body_key: tuple[object, ...] = ()
        if seen is None:
            head = Text("No combatant selected", style="dim")
        elif block is None and seen.combatant.side == "pc":
            head = self._pc_head(seen.combatant)
        elif block is None:
            c = seen.combatant
            why = "no statblock: library NPCs (b) have theirs, quick add (q) with an HD"
            head = literal(f"{clean(c.name, 60)}: {why}")
        else:
            c = seen.combatant
            doc = library or {}
            head = self._pane_head(c, block, doc, due)
            powers = [x for x in doc.get("powers", []) if isinstance(x, str)]
            assert foe is not None
            body_key = (block, powers, self.roll_with, tuple(shown))
            if body_key != self._pane_body:
                # The foe as its game sees it: the game's lines, the NPC rules' statblock where
                # it means something in the game (AC, Save, Shock), the powers, the roll keys.
                body = Text("\n".join(shown) + ("\n" if shown else ""))
                if self.game.foes.draws_statblock:
                    body.append_text(statblock_text(block, powers, leave_out=("HP", "Effort")))
                else:
                    body.append_text(powers_text(block, powers))
                body.append("\n\n")
                body.append(self._rolls_text(foe))
        if head != self._head_shown:
            # Not keyed by what the head is made of: a PC's health lives on its party sheet,
            # which a hit, the party panel or an undo changes without touching the combatant.
            self._head_shown = head
            self._update_sized(self.query_one("#pane-head", Static), head)
        if body_key != self._pane_body:
            self._pane_body = body_key
            self._update_sized(self.query_one("#pane-statblock", Static), body)

    def _foe_sheet(self, c: er.Combatant) -> dict[str, Any] | None:
        sheet = c.stats.get("sheet")
        return sheet if isinstance(sheet, dict) else None

    def _foe_lines(self, foe: fo.Foe) -> list[str]:
        """The game's own lines about the foe (its skills, pools, ranks): a game that fails
        here costs its lines, not the pane."""
        try:
            return [clean(line, 300) for line in self.game.foes.shows(foe)]
        except Exception:  # noqa: BLE001 - a game's hook: its failure is one missing line
            return [f"({self.game.name} could not describe this foe)"]

    def _pc_head(self, c: er.Combatant) -> Text:
        """A PC in the pane: its health, every pool of its sheet, what its game adds (limbs,
        aspects, focus) and its conditions; the rest is on the party sheet."""
        head = literal(c.name, style="bold")
        pc = self._sheet_of(c)
        if pc is None:
            head.append("\nnot in the party", style="dim")
            return head
        head.append(f"\n{clean(self._health(c), 120)}", style="bold")
        pools = []
        for spec in self.campaign.ruleset.sheet.resources:
            pool = pc.get("resources", {}).get(spec.key)
            if isinstance(pool, dict) and "current" in pool:
                pools.append(f"{spec.label} {pool.get('current')}/{pool.get('max', '?')}")
        if pools:
            head.append(f"\n{clean(' · '.join(pools), 300)}")
        try:
            extra = self.rules.detail(c, pc)
        except (KeyError, TypeError, ValueError, AttributeError):
            extra = ""
        if extra:
            head.append(f"\n{clean(extra, 300)}", style="italic")
        tags = self.rules.tags(c)
        if tags:
            head.append(f"\n{clean(', '.join(tags), 200)}", style="italic")
        head.append("\nThe party sheet (4) has the rest", style="dim")
        return head

    def _pane_head(
        self, c: er.Combatant, block: NPC, doc: dict[str, Any], due: list[dict[str, Any]]
    ) -> Text:
        """Name and concepts, HP and Effort left in this fight, conditions, a morale check due."""
        head = title_text(c.name, [x for x in doc.get("concepts", []) if isinstance(x, str)])
        kind = fr.health_kind(c)
        health = fr.hp_line(c.stats) if kind == "hp" else self._health(c)
        head.append(f"\n{clean(health, 80)}", style="bold")
        left = c.stats.get("effort_left")
        effort = block.effort if left in (None, block.effort) else f"{left} of {block.effort}"
        head.append(f" · Effort {clean(str(effort), 20)}")
        if kind == "foe":
            try:
                extra = self.rules.detail(c, self._foe_sheet(c))  # a foe's limbs
            except (KeyError, TypeError, ValueError, AttributeError):
                extra = ""
            if extra:
                head.append(f"\n{clean(extra, 300)}", style="italic")
        tags = self.rules.tags(c)
        if tags:
            head.append(f"\n{clean(', '.join(tags), 200)}", style="italic")
        if due:
            why = clean(str(due[0].get("why", "")), 60)
            head.append(f"\nMorale check due ({why})", style="bold")
        head.append("\n")
        return head

    def _key(self, bid: str) -> str:
        """A key of this panel as the GM's keymap has it (``sb_attack`` -> ``A``)."""
        default = next(
            b.key for b in self.BINDINGS if isinstance(b, Binding) and b.id == f"combat.{bid}"
        )
        keys = str(getattr(self.app, "keymap", {}).get(f"combat.{bid}", default))
        return self.app.get_key_display(Binding(keys.split(",")[0].strip() or default, ""))

    def _rolls_text(self, foe: fo.Foe) -> Text:
        """The roll keys of the foe's game, as the GM's keymap has them (``A attack +3``)."""
        text = Text()
        rules = self.game.foes
        attr = self.roll_with
        keys = {bid: self._key(bid) for bid in STATBLOCK_KEYS}
        if rules.roll_with:
            nxt = ROLL_WITH[(ROLL_WITH.index(attr) + 1) % len(ROLL_WITH)]
            text.append(f"Rolls with {attr.capitalize()} ", style="bold")
            text.append(f"({keys['sb_roll_with']}: {nxt.capitalize()})\n", style="dim")
        try:
            labels = {**fo.hd_roll_labels(foe, attr), **rules.roll_labels(foe, attr)}
        except Exception:  # noqa: BLE001 - a game's hook: its labels fall back to the kinds
            labels = {}
        pairs = [
            (keys[bid], labels.get(kind, kind))
            for bid, kind in (
                ("sb_attack", "attack"),
                ("sb_save", self._roll_kind("save")),
                ("sb_skill", "skill"),
                ("sb_morale", "morale"),
                ("sb_effort", "effort"),
            )
            if kind in rules.rolls
        ]
        if "effort" in rules.rolls:
            pairs.append((keys["sb_full_effort"], "full Effort"))
        pairs.append((keys["damage_last"], "lands a damage roll"))
        for k, (key, what) in enumerate(pairs):
            text.append(key, style="bold")
            text.append(f" {clean(what, 60)}" + ("\n" if k % 2 else "  "))
        text.rstrip()
        return text

    def action_roll_with(self) -> None:
        """B: the statblock's next roll uses the next attribute (Brawl, Wit, Will)."""
        self.roll_with = ROLL_WITH[(ROLL_WITH.index(self.roll_with) + 1) % len(ROLL_WITH)]
        self._set_text("#combat-last", f"Statblock rolls with {self.roll_with.capitalize()}")
        self._said_version = self.campaign.version
        self._follow_selection()

    def action_full_effort(self) -> None:
        """F: the selected combatant's Effort is full again (after a rest)."""
        self._on_selected(lambda e, c: npcs.RefreshInstanceEffort(e, c.id))

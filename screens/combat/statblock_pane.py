"""The statblock pane beside the tracker's table: the selected combatant's head (health,
Effort, conditions, morale due) and its statblock with the keys that roll it, or a PC's sheet.

The tracker calls :meth:`StatblockPane.show` when the selection moves or the fight changes;
the pane keeps what it last drew, so moving from one Goblin to the next, or a hit, redraws the
head's few lines only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from rulesets import encounter as er
from rulesets import fight as fr
from rulesets import foes as fo
from rulesets.npc import NPC
from screens.campaign_reader import CampaignReader
from screens.combat.amount_line import update_sized
from screens.combat.keys import STATBLOCK_KEYS, roll_kind
from screens.combat.tracker_state import ROLL_WITH, Seen, TrackerState
from widgets.literal import clean, literal
from widgets.statblock import powers_text, statblock_text, title_text

if TYPE_CHECKING:
    pass


ROOMY = 150
"""From this many columns the encounter list, the table and the statblock pane fit side by side;
below, showing the pane folds the list away (L brings it back)."""


def foe_sheet(c: er.Combatant) -> dict[str, Any] | None:
    sheet = c.stats.get("sheet")
    return sheet if isinstance(sheet, dict) else None


class StatblockPane(CampaignReader, VerticalScroll, can_focus=False):
    """The head of the selected combatant and, below, its statblock and roll keys."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.head_shown: Text | None = None
        """The head as last shown: it is built again on every refresh (a few lines) and
        redrawn only when it reads differently, so whatever reaches it (a hit on a PC's sheet,
        the party panel, undo) shows at once."""
        self.body_key: tuple[object, ...] = ()
        """What the statblock part last showed (the next Goblin shares it)."""
        self.wrapped: dict[int, tuple[int, tuple[int, int]]] = {}
        self.choice: bool | None = None
        """The GM showed (True) or hid (False) the pane by alt+s; None: by width."""
        self.width = 0

    def compose(self) -> ComposeResult:
        yield Static("", id="pane-head")
        yield Static("", id="pane-statblock")

    def fit(self, width: int | None, narrow: int, toggle: bool) -> tuple[bool, bool]:
        """Whether the pane shows (from ``narrow`` columns, or as the GM chose by alt+s at any
        width; ``toggle``: alt+s now), and whether the encounter list is crowded out by it."""
        if width is not None:
            self.width = width
        if toggle:
            self.choice = not (self.choice if self.choice is not None else self.width >= narrow)
        shown = self.choice if self.choice is not None else self.width >= narrow
        return shown, self.width < ROOMY

    def follow(self, state: TrackerState, seen: Seen | None, key: Callable[[str], str]) -> None:
        """The selection as ``state`` last read it (``seen``; None: nobody selected)."""
        c = seen.combatant if seen is not None else None
        due = [d for d in state.doc.get("morale_due", []) if c and d.get("id") == c.id]
        roll_with = state.rolls_with(c.id if c is not None else None)
        block, library = state.block, state.library
        self.show(
            c, block, library, due, roll_with, health=state.health, sheet_of=state.sheet_of, key=key
        )

    def show(
        self,
        c: er.Combatant | None,
        block: NPC | None,
        library: dict[str, Any] | None,
        due: list[dict[str, Any]],
        roll_with: str,
        *,
        health: Callable[[er.Combatant], str],
        sheet_of: Callable[[er.Combatant], dict[str, Any] | None],
        key: Callable[[str], str],
    ) -> None:
        """``c`` (None: nobody selected) with its statblock ``block`` (None: it has none),
        built from the library NPC ``library``; ``due``: its morale checks due; ``roll_with``:
        the attribute its rolls use. ``health`` and ``sheet_of`` read a combatant's health line
        and a PC's party sheet; ``key`` gives a tracker key as the GM's keymap has it."""
        foe: fo.Foe | None = None
        shown: list[str] = []
        if c is not None and block is not None:
            doc = library or {}
            concepts = tuple(x for x in doc.get("concepts") or () if isinstance(x, str))
            foe = fo.Foe(c, block, foe_sheet(c), concepts, self.campaign)
            # Asked each time: what the game shows may live elsewhere (a foe's hand).
            shown = self._foe_lines(foe)
        body = Text()  # no statblock: an empty body
        body_key: tuple[object, ...] = ()
        if c is None:
            head = Text("No combatant selected", style="dim")
        elif block is None and c.side == "pc":
            head = self._pc_head(c, sheet_of(c), health)
        elif block is None:
            why = "no statblock: library NPCs (b) have theirs, quick add (q) with an HD"
            head = literal(f"{clean(c.name, 60)}: {why}")
        else:
            doc = library or {}
            head = self._pane_head(c, block, doc, due, health)
            powers = [x for x in doc.get("powers", []) if isinstance(x, str)]
            assert foe is not None
            body_key = (block, powers, roll_with, tuple(shown))
            if body_key != self.body_key:
                # The foe as its game sees it: the game's lines, the NPC rules' statblock where
                # it means something in the game (AC, Save, Shock), the powers, the roll keys.
                body = Text("\n".join(shown) + ("\n" if shown else ""))
                if self.game.foes.draws_statblock:
                    body.append_text(statblock_text(block, powers, leave_out=("HP", "Effort")))
                else:
                    body.append_text(powers_text(block, powers))
                body.append("\n\n")
                body.append(self._rolls_text(foe, roll_with, key))
        if head != self.head_shown:
            # Not keyed by what the head is made of: a PC's health lives on its party sheet,
            # which a hit, the party panel or an undo changes without touching the combatant.
            self.head_shown = head
            update_sized(self.query_one("#pane-head", Static), head, self.wrapped)
        if body_key != self.body_key:
            self.body_key = body_key
            update_sized(self.query_one("#pane-statblock", Static), body, self.wrapped)

    def _foe_lines(self, foe: fo.Foe) -> list[str]:
        """The game's own lines about the foe (its skills, pools, ranks): a game that fails
        here costs its lines, not the pane."""
        try:
            return [clean(line, 300) for line in self.game.foes.shows(foe)]
        except Exception:  # noqa: BLE001 - a game's hook: its failure is one missing line
            return [f"({self.game.name} could not describe this foe)"]

    def _pc_head(
        self,
        c: er.Combatant,
        pc: dict[str, Any] | None,
        health: Callable[[er.Combatant], str],
    ) -> Text:
        """A PC in the pane: its health, every pool of its sheet, what its game adds (limbs,
        aspects, focus) and its conditions; the rest is on the party sheet."""
        head = literal(c.name, style="bold")
        if pc is None:
            head.append("\nnot in the party", style="dim")
            return head
        head.append(f"\n{clean(health(c), 120)}", style="bold")
        pools = []
        for spec in self.campaign.ruleset.sheet.resources:
            pool = pc.get("resources", {}).get(spec.key)
            if isinstance(pool, dict) and "current" in pool:
                pools.append(f"{spec.label} {pool.get('current')}/{pool.get('max', '?')}")
        if pools:
            head.append(f"\n{clean(' · '.join(pools), 300)}")
        self._detail_and_tags(head, c, pc, pc)
        head.append("\nThe party sheet (4) has the rest", style="dim")
        return head

    def _pane_head(
        self,
        c: er.Combatant,
        block: NPC,
        doc: dict[str, Any],
        due: list[dict[str, Any]],
        health: Callable[[er.Combatant], str],
    ) -> Text:
        """Name and concepts, HP and Effort left in this fight, conditions, a morale check due."""
        head = title_text(c.name, [x for x in doc.get("concepts", []) if isinstance(x, str)])
        kind = fr.health_kind(c)
        line = fr.hp_line(c.stats) if kind == "hp" else health(c)
        head.append(f"\n{clean(line, 80)}", style="bold")
        left = c.stats.get("effort_left")
        effort = block.effort if left in (None, block.effort) else f"{left} of {block.effort}"
        head.append(f" · Effort {clean(str(effort), 20)}")
        # A foe's limbs: the detail of a foe whose game keeps a sheet for it.
        self._detail_and_tags(head, c, foe_sheet(c) if kind == "foe" else False, None)
        if due:
            why = clean(str(due[0].get("why", "")), 60)
            head.append(f"\nMorale check due ({why})", style="bold")
        head.append("\n")
        return head

    def _detail_and_tags(
        self,
        head: Text,
        c: er.Combatant,
        sheet: dict[str, Any] | None | bool,
        pc: dict[str, Any] | None,
    ) -> None:
        """What the game adds about ``c`` from ``sheet`` (False: nothing), then its conditions."""
        rules = self.game.fight
        if sheet is not False:
            try:
                extra = rules.detail(c, sheet if isinstance(sheet, dict) else None)
            except (KeyError, TypeError, ValueError, AttributeError):
                extra = ""
            if extra:
                head.append(f"\n{clean(extra, 300)}", style="italic")
        tags = fr.tags_of(rules, c, pc)
        if tags:
            head.append(f"\n{clean(', '.join(tags), 200)}", style="italic")

    def _rolls_text(self, foe: fo.Foe, attr: str, key: Callable[[str], str]) -> Text:
        """The roll keys of the foe's game, as the GM's keymap has them (``A attack +3``)."""
        text = Text()
        rules = self.game.foes
        keys = {bid: key(bid) for bid in STATBLOCK_KEYS}
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
                ("sb_save", roll_kind(self.game, "save")),
                ("sb_skill", "skill"),
                ("sb_morale", "morale"),
                ("sb_effort", "effort"),
            )
            if kind in rules.rolls
        ]
        if "effort" in rules.rolls:
            pairs.append((keys["sb_full_effort"], "full Effort"))
        pairs.append((keys["damage_last"], "lands a damage roll"))
        for k, (shown, what) in enumerate(pairs):
            text.append(shown, style="bold")
            text.append(f" {clean(what, 60)}" + ("\n" if k % 2 else "  "))
        text.rstrip()
        return text

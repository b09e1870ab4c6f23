"""What the combat tracker knows of the running encounter, held by the screen and handed to its
widgets: the encounter as last read, each combatant's parse and row, the combatants marked for
an area, whose turn it is, the selection's statblock, and what each foe's statblock rolls with.

A plain object, not a widget: it reads the campaign and says what the tracker shows (a row per
combatant, the title, the status line, the selection's detail), and changes nothing. The turn
order's own parts are asked of the encounter's :class:`rulesets.turn_orders.TurnOrder`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.queries import current_encounter, timed_effect_lines
from rulesets import encounter as er
from rulesets import exchange as ex
from rulesets import fight as fr
from rulesets import foes as fo
from rulesets.game import Game
from rulesets.npc import NPC, statblock_of
from rulesets.table import Context, Panel
from rulesets.turn_orders import TurnOrder, turn_order
from rulesets.values import record
from screens.combat.keys import MODEL_KEYS, roll_kind
from widgets.combat_table import Row
from widgets.literal import clean

if TYPE_CHECKING:
    from app.state import Campaign, Command

ROLL_WITH = ("brawl", "wit", "will")
"""What the statblock's attack, save and skill roll with, in the order B steps through."""


@record
class Seen:
    """A combatant's document, its parse, and the row last shown for it."""

    raw: dict[str, Any]
    combatant: er.Combatant
    row_key: tuple[Any, ...] | None = None
    row: Row | None = None


class TrackerState:
    """The running encounter as the tracker last read it, and what it shows of it."""

    def __init__(self, campaign: Callable[[], Campaign]) -> None:
        self._campaign = campaign
        self.encounter_id: int | None = None
        self.encounter: er.Encounter | None = None
        self.doc: dict[str, Any] = {}
        self.seen: dict[str, Seen] = {}
        """Each combatant as last read and shown, so a keypress in a 300-strong fight parses
        and lays out only the combatants it changed."""
        self._next_seen: dict[str, Seen] = {}
        self.marked: set[str] = set()
        """Combatants marked (+) for one damage or heal on all of them (an area)."""
        self.acting: set[str] = set()
        """Whose turn it is: the current combatant and, with group initiative, its group."""
        self.has_hd = False
        """The running encounter has an HD NPC (the morale key works)."""
        self._orders: dict[str, TurnOrder] = {}
        """Each turn model's TurnOrder as the game declares it, looked up once: it is asked
        for every row's cells and every binding's check."""
        self._rolls_with: dict[tuple[int | None, str], str] = {}
        """The attribute each foe's statblock attack, save and skill roll with, by (encounter,
        combatant): B steps the selected foe's only; Brawl until the GM steps it."""
        self.block: NPC | None = None
        """The selected combatant's statblock (None: it has none): its keys work."""
        self.library: dict[str, Any] | None = None
        """The library NPC the selected combatant was added from, if any."""
        self._block_of: tuple[object, object] = (None, None)
        """What :attr:`block` was built from (the library document, the quick-add HD)."""
        self._keys_for: tuple[object, ...] = ()
        """What the keys on offer were last worked out for (:meth:`keys_now`)."""

    @property
    def campaign(self) -> Campaign:
        return self._campaign()

    @property
    def game(self) -> Game:
        return self.campaign.game

    @property
    def rules(self) -> fr.FightRules:
        return self.game.fight

    # --- reading ------------------------------------------------------------------------------
    def read(self) -> er.Encounter | None:
        """Read the running encounter again (None: there is none)."""
        found = current_encounter(self.campaign)
        if found is None:
            self.encounter_id, self.encounter, self.doc = None, None, {}
            self.has_hd = False
            return None
        self.encounter_id, self.doc = found
        self._next_seen = {}
        self.encounter = er.Encounter.from_dict(self.doc, combatant=self._read_combatant)
        self.seen, self._next_seen = self._next_seen, {}
        return self.encounter

    def _read_combatant(self, raw: dict[str, Any]) -> er.Combatant:
        """Parse a combatant, or reuse last refresh's parse if its document is unchanged: the
        screen only reads combatants, and a keypress changes one or two of three hundred."""
        cid = str(raw.get("id", ""))
        seen = self.seen.get(cid)
        if seen is not None and seen.raw == raw:
            self._next_seen[cid] = seen
            return seen.combatant
        combatant = er.Combatant.from_dict(raw)
        self._next_seen[cid] = Seen(raw, combatant)
        return combatant

    def turn_order(self, enc: er.Encounter) -> TurnOrder:
        """The encounter's turn order: what the tracker shows and offers differently in it."""
        found = self._orders.get(enc.model)
        if found is None:
            found = self._orders[enc.model] = turn_order(enc.model, self.game)
        return found

    @property
    def order(self) -> TurnOrder | None:
        """The running encounter's turn order (None: no encounter)."""
        return self.turn_order(self.encounter) if self.encounter is not None else None

    def context(self, cid: str | None, panel: Panel) -> Context:
        """What the GM has selected, for the game's actions: the encounter, the combatant."""
        seen = self.seen.get(cid) if cid is not None else None
        return Context(
            read=self.campaign,
            game=self.game,
            panel=panel,
            encounter_id=self.encounter_id,
            encounter=self.doc or None,
            combatant=seen.raw if seen is not None and seen.raw else None,
        )

    def keys_now(self, model: str, game: tuple[str, ...], cid: str | None) -> tuple[object, ...]:
        """What the keys on offer depend on: the turn model, an HD NPC in the fight, the game's
        actions that work on the selection (``game``), whether the selection has a statblock
        or attacks, and whether the fight runs (the Footer's order)."""
        attacker = self.attack_pair(cid)[0] is not None
        running = self.encounter is not None and self.encounter.started
        return (model, self.has_hd, game, self.block is not None, attacker, running)

    def keys_changed(self, what: tuple[object, ...]) -> bool:
        """Whether the keys on offer depend on something else now than when last asked."""
        changed, self._keys_for = what != self._keys_for, what
        return changed

    def marked_line(self, c: er.Combatant, after: er.Combatant | None) -> str:
        """What + did: ``c`` marked or unmarked, the cursor moved to ``after`` (None: it
        stayed), and what t or l now lands on."""
        done = "marked" if c.id in self.marked else "unmarked"
        where = f"the cursor moved down to {after.name}" if after else "the cursor stays (last row)"
        count = len(self.area())
        lands = f"t or l lands on all {count} marked" if count else "nothing marked"
        return f"{c.name} {done} · {where} · {lands}"

    def combatant(self, cid: str | None) -> er.Combatant | None:
        """The combatant ``cid`` as last read (None: none such)."""
        seen = self.seen.get(cid) if cid is not None else None
        return seen.combatant if seen is not None else None

    def area(self) -> tuple[str, ...]:
        """The marked combatants still in the fight, in turn order."""
        enc = self.encounter
        if enc is None or not self.marked:
            return ()
        return tuple(c.id for c in enc.combatants if c.id in self.marked)

    def strike(self) -> dict[str, Any] | None:
        """The attack waiting to land in the running encounter (an older Tableside rolled it)."""
        if self.encounter_id is None:
            return None
        doc = self.campaign.doc("encounters", self.encounter_id) or {}
        found = doc.get(fo.STRIKE_KEY)
        return found if isinstance(found, dict) else None

    def landing(self, c: er.Combatant | None) -> Command | str | None:
        """T: an attack rolled by an older Tableside and waiting to land lands on its target;
        else the log's last roll lands on ``c`` (or the marked), once: an attack's damage or a
        plain roll's total, never a check. A str: why nothing lands."""
        eid = self.encounter_id
        if eid is not None and self.strike() is not None:
            return fo.LandStrike(eid, answer="", answers={})
        if c is None or eid is None:
            return None
        rolls = self.campaign.newest("log", 1, lambda e: e.get("kind") == "roll")
        if not rolls:
            return (
                "Nothing to land: no attack waiting and no damage roll in the log "
                "(A attacks; d rolls dice)"
            )
        return ex.LandRoll(eid, roll_id=rolls[-1][0], combatant_ids=self.area() or (c.id,))

    def next_encounter(self, delta: int) -> int | None:
        """The encounter ``delta`` on from the running one (None: there is no other)."""
        ids = [doc_id for doc_id, _ in self.campaign.rows("encounters")]
        if len(ids) < 2 or self.encounter_id is None:
            return None
        return ids[(ids.index(self.encounter_id) + delta) % len(ids)]

    def morale_target(self, cid: str | None) -> str | None:
        """Whose morale s checks: the selected if a check is due for it, else the first due,
        else the selected."""
        due = self.doc.get("morale_due", [])
        if cid and any(d.get("id") == cid for d in due):
            return cid
        return str(due[0]["id"]) if due else cid

    # --- the statblock of the selection ----------------------------------------------------------
    def rolls_with(self, cid: str | None) -> str:
        """The attribute that foe's statblock rolls with (B steps it)."""
        return self._rolls_with.get((self.encounter_id, cid or ""), ROLL_WITH[0])

    def step_rolls_with(self, cid: str) -> str:
        """B: that foe's statblock rolls with the next attribute; every other foe keeps its own."""
        now = ROLL_WITH[(ROLL_WITH.index(self.rolls_with(cid)) + 1) % len(ROLL_WITH)]
        self._rolls_with[(self.encounter_id, cid)] = now
        return now

    def follow_block(self, cid: str | None) -> Seen | None:
        """The selection moved or changed: its statblock (:attr:`block`, :attr:`library`).

        One combatant's documents are read, whatever the size of the fight."""
        seen = self.seen.get(cid) if cid is not None else None
        library: dict[str, Any] | None = None
        block: NPC | None = None
        if seen is not None:
            c = seen.combatant
            ref = fr.ref_id(c)
            library = self.campaign.doc("npcs", ref) if c.side == "npc" and ref else None
            made_of = (library, c.stats.get("hd"))
            if made_of[0] is self._block_of[0] and made_of[1] == self._block_of[1]:
                block = self.block  # the same library NPC (the next Goblin): built already
            else:
                try:
                    block = statblock_of(c.stats, library)
                except (TypeError, ValueError, KeyError):
                    block = None  # a hand-edited statblock the rules cannot build: no keys
                self._block_of = made_of
        self.block, self.library = block, library
        return seen

    def attack_pair(self, cid: str | None) -> tuple[er.Combatant | None, er.Combatant | None]:
        """Who attacks whom on A: the selected, if it has a statblock (at its default target);
        else the one acting, if it has one, at the selected on the other side."""
        enc = self.encounter
        seen = self.seen.get(cid) if cid is not None else None
        if enc is None or seen is None:
            return None, None
        if self.block is not None:
            return seen.combatant, None
        acting = enc.current
        actor = self.seen.get(acting) if acting else None
        if (
            actor is not None
            and actor.combatant.id != cid
            and fo.has_statblock(actor.combatant)
            and actor.combatant.side != seen.combatant.side
            and not seen.combatant.defeated
        ):
            return actor.combatant, seen.combatant
        return None, None

    def offers(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether the tracker's key for ``action`` works now (None: not one of these): a turn
        model's keys in its encounters only, morale where an HD NPC fights or a check is due,
        the statblock's keys where the selection has a statblock."""
        enc, rolls = self.encounter, self.game.foes.rolls
        if action in MODEL_KEYS and enc is not None:
            return action in self.turn_order(enc).actions
        if action == "morale" and enc is not None:
            return self.has_hd or bool(self.doc.get("morale_due"))
        if action == "morale_due" and enc is not None:
            return self.has_hd
        if action == "statblock_roll":
            kind = str(parameters[0]) if parameters else ""
            return self.block is not None and roll_kind(self.game, kind) in rolls
        if action == "roll_with":
            return self.block is not None and self.game.foes.roll_with
        if action == "full_effort":
            return self.block is not None and "effort" in rolls
        return None

    # --- what the tracker shows ----------------------------------------------------------------
    def detail(self, cid: str | None) -> str:
        """The game's detail about the combatant (a Nemron character's limbs), if any."""
        c = self.combatant(cid) if self.encounter is not None else None
        if c is None:
            return ""
        sheet = self.sheet_of(c) if fr.health_kind(c) == "pc" else c.stats.get("sheet")
        try:
            return self.rules.detail(c, sheet if isinstance(sheet, dict) else None)
        except (KeyError, TypeError, ValueError, AttributeError):
            return ""

    def rows(self, enc: er.Encounter) -> list[Row]:
        context = (enc.model, enc.started, self.game.id)
        rows: list[Row] = []
        hd = False
        self.acting = {c.id for c in er.acting(enc)}
        for pos, c in enumerate(enc.combatants, 1):
            hd = hd or fr.health_kind(c) == "hp" or fo.has_statblock(c)
            # A PC's health lives on the party sheet, so its row also depends on that sheet.
            key = (pos, c.id in self.acting, context, self.sheet_of(c), c.id in self.marked)
            seen = self.seen.get(c.id)
            if seen is None or seen.combatant is not c:
                seen = Seen({}, c)
            if seen.row is None or seen.row_key != key:
                seen.row_key, seen.row = key, self._row(pos, c)
            rows.append(seen.row)
        self.has_hd = hd
        return rows

    def title(self, enc: er.Encounter) -> str:
        order = self.turn_order(enc)
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

    def status(self, enc: er.Encounter | None) -> str:
        parts = []
        if enc is not None:
            names = {c.id: c.name for c in enc.combatants}
            due = [names.get(d.get("id", ""), "?") for d in self.doc.get("morale_due", [])]
            if due:
                parts.append(f"Morale check due (s): {', '.join(due)}")
            parts += self.rules.notes(self.doc, names)
            if er.every_foe_out(enc):
                parts.append("Every foe is down or fled: shift+alt+r ends the fight")
            if said := self.turn_order(enc).status(enc):
                parts.append(said)
            if not enc.combatants:
                parts.append("p add the party · b add NPCs · q quick add")
        # The timed effects kept outside the fight tick with its rounds: each with its time left.
        parts += timed_effect_lines(self.campaign.meta)
        return "  ·  ".join(parts)

    def sheet_of(self, c: er.Combatant) -> dict[str, Any] | None:
        """A PC combatant's party sheet (a shallow copy, a faithful image of a stored doc)."""
        if fr.health_kind(c) != "pc":
            return None
        sheet = self.campaign.doc("party", int(str(c.ref)))
        return dict(sheet) if sheet is not None else None

    def out_word(self, c: er.Combatant) -> str:
        """A PC out by its game's rule: its status (dead, perished, taken out), else ""."""
        pc = self.sheet_of(c)
        if pc is None or not fr.is_out(self.rules, c, pc):
            return ""
        status = str(pc.get("status") or "")
        return status if status and status != self.campaign.ruleset.sheet.usual_status else "out"

    def health(self, c: er.Combatant) -> str:
        kind = fr.health_kind(c)
        if kind == "pc":
            pc = self.sheet_of(c)
            text = self.campaign.ruleset.health(pc) if pc is not None else "(not in party)"
            if status := self.out_word(c):
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
        if c.defeated and not self.out_word(c):
            # The word leads the Health cell, which never gives way: the Turn column does,
            # and a defeated row read like any other.
            text = f"{'fled' if c.stats.get(fr.FLED) else 'defeated'} · {text}"
        return text

    def _row(self, pos: int, c: er.Combatant) -> Row:
        enc = self.encounter
        assert enc is not None
        current = c.id in self.acting  # the one whose turn it is, and its group with it
        name = ("• " if c.id in self.marked else "") + clean(c.name, 60)
        name += " (hidden)" if c.hidden else ""
        name_style = "bold reverse yellow" if current else ("dim italic" if c.hidden else "")
        # A PC's death (its game's word, in red) and a foe's defeat (dimmed) read apart.
        dead = self.out_word(c)
        health_style = "bold red" if dead else ("dim" if c.defeated else "")
        if c.defeated and not current:
            name_style = "red strike" if dead else "dim strike"
        if c.side == "pc" and not current:
            name_style = name_style or "bold"
        turns = self.turn_order(enc)
        order = turns.cell(enc, c)
        effects = fr.tags_of(self.rules, c, self.sheet_of(c))
        return (
            ("▶" if current else "", "bold yellow"),
            (str(pos), ""),
            (order, "bold" if turns.uses_ap else ""),
            (name, name_style),
            # Long health or conditions wrap in their own row (and the detail line reads a
            # cell cut after three lines whole): the cut here only bounds a hand-edited save.
            (clean(self.health(c), 200), health_style),
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
        bits.append(self.turn_order(enc).turn_state(enc, c))
        bits.append(fr.turn_note_of(self.rules, enc, c, self.sheet_of(c)))
        return " ".join(b for b in bits if b)

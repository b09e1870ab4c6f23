"""Combat tracker changes: the roster, turns, effects, damage and healing (GEN-04, GEN-05,
SOH-09/10, NPC-08), the same in every game.

The machinery (:class:`rulesets.fight.EncounterCommand`, :class:`~rulesets.fight.Fight`, where a
combatant's health lives) is :mod:`rulesets.fight`; what differs by game (foe sheets, initiative,
the damage and heal forms and where they land, AP per round) is asked of the open game's
:class:`~rulesets.fight.FightRules` (``tx.game.fight``). A game's own combat commands (an
Anomaly, a fate, the turn economy) live in its package, ``rulesets/<id>/fight.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from rulesets import encounter as er
from rulesets import npc
from rulesets.base import CheckResult, RuleError, hp_change
from rulesets.fight import (
    DEFAULT_QUICKNESS,
    FLED,
    KEPT_IN,
    MAX_AMOUNT,
    MAX_NUMBER,
    OUT_BY_SHEET,
    TICK_WORDS,
    Answers,
    EncounterCommand,
    Fight,
    Hit,
    after_morale,
    check_numbers,
    counts_out,
    deal_damage,
    health_kind,
    hp_line,
    load,
    parse_amount,
    settle_defeated,
)
from rulesets.table import Tx
from rulesets.turn_orders import turn_order
from rulesets.values import frozen

__all__ = [
    "MAX_AMOUNT",
    "MAX_NUMBER",
    "EncounterCommand",
    "Fight",
    "health_kind",
    "hp_line",
    "load",
    "parse_amount",
]


# --------------------------------------------------------------------------- encounters


@frozen
class NewEncounter:
    """GEN-04: a new, empty encounter in the game's turn model, made current."""

    name: str
    model: str = ""
    group_initiative: bool = False
    """GEN-04: each group of the same NPC rolls one initiative and acts together."""

    @property
    def label(self) -> str:
        return f"New encounter {self.name}"

    def run(self, tx: Tx) -> list[str]:
        name = self.name.strip()
        if not name:
            raise RuleError("An encounter needs a name")
        order = turn_order(self.model or tx.game.turn_model, tx.game)
        fight = er.Encounter(id="", name=name, model=order.id)
        fight.group_initiative = self.group_initiative and order.uses_initiative
        doc_id = tx.insert("encounters", fight.to_dict())
        fight.id = f"e{doc_id}"
        tx.put("encounters", doc_id, fight.to_dict())
        meta = tx.meta()
        meta["current_encounter"] = doc_id
        tx.put("meta", 1, meta)
        groups = ", group initiative" if fight.group_initiative else ""
        return [f"New encounter {name} ({order.name}{groups})"]


@frozen
class SelectEncounter:
    """Make another encounter the one the tracker runs."""

    encounter_id: int

    @property
    def label(self) -> str:
        return "Switch encounter"

    def run(self, tx: Tx) -> list[str]:
        check_numbers(self)
        fight = load(tx, self.encounter_id)
        meta = tx.meta()
        if meta.get("current_encounter") == self.encounter_id:
            return []
        meta["current_encounter"] = self.encounter_id
        tx.put("meta", 1, meta)
        return [f"Running {fight.enc.name}"]


@frozen
class SetModel(EncounterCommand):
    """Switch this encounter's turn model (before it starts)."""

    model: str = "initiative"

    @property
    def label(self) -> str:
        return f"Turn model {self.model}"

    def change(self, fight: Fight) -> list[str]:
        if fight.enc.started:
            raise RuleError("End the encounter before switching its turn model")
        order = turn_order(self.model, fight.tx.game)  # a RuleError naming the known ones
        fight.enc.model = order.id
        return [f"{fight.enc.name} now uses {order.name}"]


# --------------------------------------------------------------------------- roster


@frozen
class AddParty(EncounterCommand):
    """GEN-04: every PC of the party not already in the encounter, with one key."""

    LABEL = "Add the party"

    def change(self, fight: Fight) -> list[str]:
        present = {c.ref for c in fight.enc.combatants if c.side == "pc"}
        new = [
            er.Combatant(
                name=str(pc.get("name", "PC")),
                side="pc",
                ref=str(doc_id),
                quickness=fight.rules.quickness(pc),
            )
            for doc_id, pc in fight.tx.all("party")
            if str(doc_id) not in present and not pc.get("npc")
        ]
        if not new:
            raise RuleError("The whole party is already in this encounter")
        if fight.order.uses_ap:
            for c in new:
                c.ap_max = fight.ap_max(c)
                # Joining a running round, they act in it, as a quick-added combatant does;
                # outside a fight nobody has spent any (AP are a round's, SOH-10).
                c.ap = c.ap_max
        return er.add_combatants(fight.enc, new) + fight.reinforced("pc")


@frozen
class QuickAdd(EncounterCommand):
    """GEN-04: an ad-hoc foe (or a numbered group of them) with its game's foe sheet."""

    name: str = ""
    count: int = 1
    health: int | None = 10
    """The game's health for the foe sheet (None: with an HD, its quick build's foe in the game's
    terms; without, the game's default)."""
    initiative: int | None = None
    quickness: int = 0
    side: str = "npc"
    answers: Mapping[str, Any] = field(default_factory=dict)
    """The game's own quick-add answers (:attr:`rulesets.fight.FoeSheet.fields`)."""
    hd: int | None = None
    """NPC-03: an HD gives each one the quick build of that HD as its statblock (its attack,
    save, skill, morale and Effort roll from the tracker); None: no statblock."""

    @property
    def label(self) -> str:
        return f"Quick add {self.name}"

    def change(self, fight: Fight) -> list[str]:
        if self.side not in er.SIDES:
            raise RuleError("A quick-added combatant is a foe (npc) or an ally (pc)")
        return self.add(fight) + fight.reinforced(self.side)

    def add(self, fight: Fight) -> list[str]:
        if (self.health is not None and self.health < 0) or self.quickness < 0:
            raise RuleError("Numbers cannot be negative")
        if not 1 <= self.count <= 50:
            raise RuleError("Add between 1 and 50 at a time")
        if self.hd is not None and not 0 <= self.hd <= npc.MAX_QUICK_HD:
            raise RuleError(f"A quick build's HD is 0 to {npc.MAX_QUICK_HD}, not {self.hd}")
        foe = fight.rules.foe
        answers = Answers({**dict(Answers(self.answers).values), "quickness": self.quickness})
        enc = fight.enc
        block = npc.quick_build(self.hd) if self.hd is not None else None

        def make(name: str) -> er.Combatant:
            if block is not None:
                # NPC-03: the quick build of that HD becomes the game's foe, as a library NPC
                # would; a typed health is its HP (its foe's health where it has no HP).
                stats = fight.tx.game.foes.make(
                    name, block, block.hp if self.health is None else self.health
                )
                stats["hd"] = block.hd
            else:
                health = foe.health_default if self.health is None else self.health
                stats = foe.make(name, health, answers)
            quickness = self.quickness or fight.rules.quickness(stats.get("sheet"))
            c = er.Combatant(
                name=name,
                side=self.side,  # type: ignore[arg-type]
                initiative=self.initiative,
                quickness=quickness,
                stats=stats,
            )
            if fight.order.uses_ap:
                c.ap_max = fight.ap_max(c)
                c.ap = c.ap_max  # full: in a running round it acts; before one, none is spent
            return c

        if self.count == 1:
            name = self.name.strip()
            if not name:
                raise RuleError("A combatant needs a name")
            return er.add_combatant(enc, make(name))
        return er.add_group(enc, self.name, self.count, make)


@frozen
class RemoveCombatant(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Remove combatant"

    def change(self, fight: Fight) -> list[str]:
        fight.doc["morale_due"] = [d for d in fight.due() if d.get("id") != self.combatant_id]
        return er.remove_combatant(fight.enc, self.combatant_id)


@frozen
class DuplicateCombatant(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Duplicate combatant"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        if c.side == "pc":
            raise RuleError("A PC cannot be duplicated; add a quick foe instead")
        lines = er.duplicate_combatant(fight.enc, self.combatant_id)
        twin = fight.enc.combatants[fight.enc.index_of(self.combatant_id) + 1]
        twin.stats.pop("effort_left", None)  # another creature: its Effort is full (NPC-05)
        return lines


@frozen
class MoveCombatant(EncounterCommand):
    combatant_id: str = ""
    delta: int = 1

    LABEL = "Move in the order"

    def change(self, fight: Fight) -> list[str]:
        return er.move_combatant(fight.enc, self.combatant_id, self.delta)


@frozen
class ToggleHidden(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Hide / reveal"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        return er.set_hidden(fight.enc, c.id, not c.hidden)


@frozen
class EditCombatant(EncounterCommand):
    """Rename, set initiative by hand, set HP / AP by hand."""

    combatant_id: str = ""
    name: str = ""
    initiative: int | None = None
    clear_initiative: bool = False
    hp: int | None = None
    hp_max: int | None = None
    ap: int | None = None
    ap_max: int | None = None

    LABEL = "Edit combatant"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        lines: list[str] = []
        if self.name.strip() and self.name.strip() != c.name:
            lines += er.rename_combatant(fight.enc, c.id, self.name)
        if self.clear_initiative or (
            self.initiative is not None and self.initiative != c.initiative
        ):
            lines += er.set_initiative(
                fight.enc, c.id, None if self.clear_initiative else self.initiative, resort=True
            )
        if health_kind(c) == "hp" and (self.hp is not None or self.hp_max is not None):
            was_out = counts_out(fight.rules, c, None)
            top = self.hp_max if self.hp_max is not None else int(c.stats.get("hp_max", 0))
            now = self.hp if self.hp is not None else int(c.stats.get("hp", 0))
            if top < 0 or now < 0:
                raise RuleError("HP cannot be negative")
            c.stats["hp_max"], c.stats["hp"] = top, min(now, top)
            lines.append(f"{c.name}: {hp_line(c.stats)}")
            lines += settle_defeated(fight, c, was_out, None)
        if (self.ap is not None or self.ap_max is not None) and (self.ap, self.ap_max) != (
            c.ap,
            c.ap_max,
        ):
            lines += er.set_ap(fight.enc, c.id, self.ap, self.ap_max)
        return lines


# --------------------------------------------------------------------------- turns


def _ap_maxes(fight: Fight) -> dict[str, int]:
    """SOH-10: the game's AP per round for each combatant (a PC's Quickness from its sheet)."""
    maxes = {}
    for c in fight.enc.combatants:
        sheet = fight.sheet(c) if health_kind(c) != "hp" else None
        quickness = fight.rules.quickness(sheet) or c.quickness
        # A statblock without Quickness gets the tracker's default, for its AP and its defence.
        c.quickness = quickness or DEFAULT_QUICKNESS
        maxes[c.id] = fight.ap_max(c) if quickness else (c.ap_max or fight.ap_max(c))
    return maxes


@frozen
class StartEncounter(EncounterCommand):
    """GEN-04: round 1. AP rounds (SOH-10): every combatant gets 5 + ceil(Quickness / 2) AP."""

    LABEL = "Start encounter"

    def change(self, fight: Fight) -> list[str]:
        starting = not fight.enc.started
        scene = _scene_start(fight) if starting else []
        if fight.order.uses_ap and starting:
            lines = er.start_ap_round(fight.enc, _ap_maxes(fight)) + scene
        else:
            lines = er.start(fight.enc) + scene
        if starting:
            lines += _games_own(fight, fight.rules.fight_start)
        return lines


def _games_own(fight: Fight, hook: Callable[[Tx, int], list[str]] | None) -> list[str]:
    """The game's hook at a fight's start or end, on the encounter as saved so far; what it
    writes to the encounter stands (read back, so the command's own save keeps it)."""
    if hook is None:
        return []
    fight.save()
    lines = hook(fight.tx, fight.doc_id)
    again = load(fight.tx, fight.doc_id)
    fight.doc, fight.enc = again.doc, again.enc
    return lines


def _scene_start(fight: Fight) -> list[str]:
    """The game's start of a scene for each PC in the fight (only the party's few rows)."""
    starts = fight.rules.scene_start
    if starts is None:
        return []
    pcs = [c for c in fight.enc.combatants if health_kind(c) == "pc" and not c.defeated]
    sheets = [(c, sheet) for c in pcs if (sheet := fight.sheet(c)) is not None]
    lines = starts([sheet for _, sheet in sheets])
    if lines:  # the party's few sheets: all written back rather than told apart
        for c, sheet in sheets:
            fight.put_sheet(c, sheet)
    return lines


@frozen
class EndEncounter(EncounterCommand):
    """GEN-04: the fight ends; what belongs to it ends with it (its effects, unless the game
    keeps one: :attr:`~rulesets.fight.FightRules.at_fight_end`; then the game's own end),
    and the GM is told what ended."""

    LABEL = "End encounter"

    def change(self, fight: Fight) -> list[str]:
        fight.doc["morale_due"] = []
        rules = fight.rules
        lines = er.end(fight.enc)
        lines += er.end_effects(fight.enc, lambda c, e: rules.at_fight_end(c, e) == "stays")
        return lines + _games_own(fight, rules.fight_end)


@frozen
class NextTurn(EncounterCommand):
    """GEN-04: next turn (AP rounds: the actor passes; chosen-next: the first who may act)."""

    LABEL = "Next turn"

    def change(self, fight: Fight) -> list[str]:
        acting = fight.enc.current
        fallen = _mark_fallen_pcs(fight)
        if fight.enc.current != acting:
            return fallen  # the one acting fell: its turn has already passed on
        return fallen + er.next_turn(fight.enc)


def _mark_fallen_pcs(fight: Fight) -> list[str]:
    """A PC who died, retired or was taken out outside the tracker (the party sheet, a game's
    own action) is marked defeated before the turn passes, so it is skipped. A PC the GM put
    back in by hand stays in. Only the party's few rows are read."""
    lines: list[str] = []
    for c in fight.enc.combatants:
        if c.side != "pc" or c.defeated or c.stats.get(KEPT_IN) or health_kind(c) != "pc":
            continue
        sheet = fight.tx.find("party", int(str(c.ref)))
        if sheet is not None and counts_out(fight.rules, c, sheet):
            c.stats[OUT_BY_SHEET] = True
            lines += er.set_defeated(fight.enc, c.id, True)
    return lines


@frozen
class ToggleDefeated(EncounterCommand):
    """Mark the selected combatant defeated (skipped, dimmed, out of the players' view), or
    put it back in the fight."""

    combatant_id: str = ""

    LABEL = "Defeated / back in"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        if c.defeated:
            c.stats[KEPT_IN] = True
            c.stats.pop(FLED, None)  # back from fleeing too
        else:
            c.stats.pop(KEPT_IN, None)
        c.stats.pop(OUT_BY_SHEET, None)  # by the GM's hand now, either way
        return er.set_defeated(fight.enc, c.id, not c.defeated)


@frozen
class PreviousTurn(EncounterCommand):
    LABEL = "Previous turn"

    def change(self, fight: Fight) -> list[str]:
        return er.previous_turn(fight.enc)


@frozen
class Delay(EncounterCommand):
    places: int = 1

    LABEL = "Delay"

    def change(self, fight: Fight) -> list[str]:
        return er.delay(fight.enc, self.places)


@frozen
class Hold(EncounterCommand):
    LABEL = "Hold action"

    def change(self, fight: Fight) -> list[str]:
        return er.hold(fight.enc)


@frozen
class UseHeld(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Use held action"

    def change(self, fight: Fight) -> list[str]:
        return er.use_held(fight.enc, self.combatant_id)


@frozen
class ChooseNext(EncounterCommand):
    """Chosen-next (aspects): the acting character names who acts next."""

    combatant_id: str = ""

    LABEL = "Choose who acts next"

    def change(self, fight: Fight) -> list[str]:
        return er.choose_next(fight.enc, self.combatant_id)


@frozen
class SpendAp(EncounterCommand):
    """SOH-10: spend AP (default 1); SOH-09: a counter action spends 1 AP of the counterer."""

    combatant_id: str = ""
    amount: int = 1
    counter: bool = False

    @property
    def label(self) -> str:
        return "Counter action" if self.counter else "Spend AP"

    def change(self, fight: Fight) -> list[str]:
        if self.counter:
            return er.counter_action(fight.enc, self.combatant_id, self.amount)
        return er.spend_ap(fight.enc, self.combatant_id, self.amount)


def _initiative(fight: Fight, c: er.Combatant) -> CheckResult:
    """The game's initiative roll from the combatant's sheet or library document."""
    return fight.rules.initiative(fight.tx.rng, fight.sheet(c), fight.npc_doc(c))


def _require_initiative(fight: Fight) -> None:
    if not fight.order.uses_initiative:
        raise RuleError(
            f"{fight.order.name} has no initiative rolls; "
            "switch the turn model (alt+m) to use one"
        )


def _rolled_line(rolled: list[str]) -> str:
    return f"Initiative: {', '.join(rolled[:8])}{' …' if len(rolled) > 8 else ''}"


def _sorted_in(fight: Fight, newcomers: list[er.Combatant]) -> list[str]:
    """Before the fight the whole order is sorted; once it runs, each newcomer is placed and
    nobody else moves, so the turn stays where it is."""
    enc = fight.enc
    if not enc.started:
        return er.sort_by_initiative(enc, er.group_order(enc))
    lines: list[str] = []
    for c in newcomers:
        lines += er.place_with_group(enc, c.id)
    if enc.current is None and enc.combatants:
        lines += er.next_turn(enc)
    return lines


def _roll_for(
    fight: Fight, cs: list[er.Combatant], known: dict[str, int] | None = None
) -> tuple[list[str], list[er.Combatant]]:
    """GEN-04/NEM-05: an initiative for each of ``cs``; with group initiative one roll per
    group of the same NPC (or the number the group already has, ``known``), shared by all of
    it. The rolls said, and who got a number."""
    groups = fight.enc.group_initiative and fight.order.uses_initiative
    shared: dict[str, int] = dict(known or {})
    rolled: list[str] = []
    for c in cs:
        key = er.group_key(c) if groups else ""
        if key:
            c.group = key
        if key and key in shared:
            c.initiative = shared[key]
            continue
        result = _initiative(fight, c)
        members = [o for o in cs if key and er.group_key(o) == key]
        who = f"{c.name.rsplit(' ', 1)[0]} (group of {len(members)})" if len(members) > 1 else c.name
        fight.tx.log_roll(who, result)
        c.initiative = result.total
        rolled.append(f"{who} {result.total}")
        if key:
            shared[key] = result.total
    return rolled, cs


@frozen
class ToggleGroupInitiative(EncounterCommand):
    """GEN-04: group initiative on or off for this encounter (before the fight or between
    rounds): each group of the same NPC rolls once and takes its turn together."""

    LABEL = "Group initiative"

    def change(self, fight: Fight) -> list[str]:
        _require_initiative(fight)
        return er.set_group_initiative(fight.enc, not fight.enc.group_initiative)


@frozen
class RollInitiative(EncounterCommand):
    """GEN-04/NEM-05: roll for those who have no initiative yet (or the NPCs among them) and
    sort each into its place; PCs win ties with NPCs. Nobody already placed rolls again (as
    Improved Initiative's "roll for unset"): :class:`RerollInitiative` does that."""

    npcs_only: bool = False

    LABEL = "Roll initiative"

    def change(self, fight: Fight) -> list[str]:
        _require_initiative(fight)
        enc = fight.enc
        waiting = [
            c
            for c in enc.combatants
            if not (self.npcs_only and c.side == "pc") and c.initiative is None
        ]
        if not waiting:
            raise RuleError("Everyone has an initiative; shift+i re-rolls everyone between rounds")
        # A newcomer to a group that already rolled shares its number (group initiative).
        known = {
            c.group: c.initiative
            for c in enc.combatants
            if c.group and c.initiative is not None and er.group_of(enc, c)
        }
        rolled, newcomers = _roll_for(fight, waiting, known)
        joined = [f"{c.name} {c.initiative}" for c in newcomers if c.group in known]
        said = [_rolled_line(rolled)] if rolled else []
        if joined:
            said.append(f"With their group: {', '.join(joined[:8])}{' …' if len(joined) > 8 else ''}")
        return said + _sorted_in(fight, newcomers)


@frozen
class RerollInitiative(EncounterCommand):
    """GEN-04: everyone rolls again and the order is rebuilt, before the fight or between
    rounds only (mid-round it would take turns from those who have not acted)."""

    LABEL = "Re-roll everyone's initiative"

    def change(self, fight: Fight) -> list[str]:
        _require_initiative(fight)
        if not er.between_rounds(fight.enc):
            raise RuleError("Re-roll everyone between rounds: finish this round first")
        if not fight.enc.combatants:
            raise RuleError("Nobody to roll for")
        rolled, _ = _roll_for(fight, list(fight.enc.combatants))
        lines = [_rolled_line(rolled)] + er.sort_by_initiative(fight.enc, er.group_order(fight.enc))
        return lines + er.restart_round(fight.enc)


@frozen
class PartyInitiative(EncounterCommand):
    """The players' own initiative rolls, typed for the whole party at once (by combatant id;
    None leaves one as it is); each is sorted into its place."""

    rolls: Mapping[str, int | None] = field(default_factory=dict)

    LABEL = "Players' initiative"

    def change(self, fight: Fight) -> list[str]:
        _require_initiative(fight)
        typed, placed = [], []
        for cid, value in self.rolls.items():
            if value is None:
                continue
            if not isinstance(value, int) or abs(value) > MAX_NUMBER:
                raise RuleError(f"An initiative is a whole number up to {MAX_NUMBER:,}")
            c = fight.combatant(str(cid))
            c.initiative = value
            typed.append(f"{c.name} {value}")
            if c.id != fight.enc.current:
                placed.append(c)
        if not typed:
            raise RuleError("Type at least one roll")
        return [_rolled_line(typed)] + _sorted_in(fight, placed)


# --------------------------------------------------------------------------- effects (GEN-05)


@frozen
class AddEffect(EncounterCommand):
    """GEN-05: a condition (no duration) or a timed effect ticking on a chosen turn or round.

    A ranked condition (NEM-12) with no turn count ticks one rank per interval, so its
    remaining count is its rank.
    """

    combatant_id: str = ""
    name: str = ""
    turns: int | None = None
    tick: str = "end"
    owner_id: str | None = None
    rank: int | None = None

    @property
    def label(self) -> str:
        return f"Add {self.name}"

    def change(self, fight: Fight) -> list[str]:
        name, turns = self.name.strip(), self.turns
        if not name:
            raise RuleError("An effect needs a name")
        if self.rank is not None and self.rank < 1:
            raise RuleError("A rank is at least 1")
        if turns is None and self.rank is not None:
            turns = self.rank
        effect = er.Effect(
            name=name,
            remaining=turns,
            tick=TICK_WORDS.get(self.tick, self.tick),  # type: ignore[arg-type]
            owner=self.owner_id or None,
            rank=self.rank,
        )
        return er.add_effect(fight.enc, self.combatant_id, effect)


@frozen
class RemoveEffect(EncounterCommand):
    combatant_id: str = ""
    name: str = ""

    @property
    def label(self) -> str:
        return f"Remove {self.name}"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        name = self.name.strip() or (c.conditions[-1].name if c.conditions else "")
        if not name:
            raise RuleError(f"{c.name} has no effects")
        return er.remove_effect(fight.enc, c.id, name)


# --------------------------------------------------------------------------- damage


@frozen
class Damage(EncounterCommand):
    """Damage by the game's rules (``tx.game.fight``).

    ``amount`` is a number or a dice expression (rolled into the log); ``answers`` are the rest
    of the game's damage form (a limb, a pool, a Triumph, an attack card, a defence total …).
    """

    combatant_id: str = ""
    amount: str = "0"
    answers: Mapping[str, Any] = field(default_factory=dict)

    LABEL = "Damage"

    def change(self, fight: Fight) -> list[str]:
        return deal_damage(fight, self.combatant_id, str(self.amount), self.answers)


@frozen
class Heal(EncounterCommand):
    """Heal by the game's rules: HP up to the max for an HD NPC; a PC's or a foe's sheet by
    the game (a Nemron limb, a Shadows pool, minor injuries in the aspects game)."""

    combatant_id: str = ""
    amount: str = "0"
    answers: Mapping[str, Any] = field(default_factory=dict)

    LABEL = "Heal"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        amount = parse_amount(self.amount, fight.tx, c.name)
        kind = health_kind(c)
        if kind == "hp":
            was_out = counts_out(fight.rules, c, None)
            before, top = int(c.stats.get("hp", 0)), int(c.stats.get("hp_max", 0))
            c.stats["hp"] = min(top, before + amount)
            healed = [hp_change(c.name, before, int(c.stats["hp"]), top, heal=True)]
            return healed + settle_defeated(fight, c, was_out, None)
        sheet = fight.sheet(c)
        assert sheet is not None
        was_out = counts_out(fight.rules, c, sheet)
        heal = fight.rules.foe.heal if kind == "foe" else fight.rules.heal
        sheet, lines = heal(Hit(fight, c, kind, Answers(self.answers)), sheet, amount)
        fight.put_sheet(c, sheet)
        return lines + settle_defeated(fight, c, was_out, sheet)


@frozen
class Area(EncounterCommand):
    """One damage or heal on several combatants at once (an area), one undo for all.

    A dice amount is rolled once and the same total lands on each; each target then takes it
    by its own game's rules (its defence, its sheet)."""

    combatant_ids: tuple[str, ...] = ()
    amount: str = "0"
    answers: Mapping[str, Any] = field(default_factory=dict)
    heal: bool = False

    @property
    def label(self) -> str:
        return f"{'Heal' if self.heal else 'Damage'} {len(self.combatant_ids)} at once"

    def change(self, fight: Fight) -> list[str]:
        if not self.combatant_ids:
            raise RuleError("Mark the combatants first (+)")
        targets = [fight.combatant(cid) for cid in dict.fromkeys(self.combatant_ids)]
        amount = str(parse_amount(self.amount, fight.tx, "Area"))
        one = Heal if self.heal else Damage
        lines: list[str] = []
        for c in targets:
            lines += one(self.encounter_id, c.id, amount, self.answers).change(fight)
        return lines


@frozen
class TempHp(EncounterCommand):
    """Temporary HP: absorbs damage first; a new value replaces a lower one."""

    combatant_id: str = ""
    amount: int = 0

    LABEL = "Temporary HP"

    def change(self, fight: Fight) -> list[str]:
        if self.amount < 0:
            raise RuleError("Temporary HP cannot be negative")
        c = fight.combatant(self.combatant_id)
        if self.amount == 0:
            c.stats.pop("temp_hp", None)
            return [f"{c.name} loses temporary HP"]
        c.stats["temp_hp"] = max(self.amount, int(c.stats.get("temp_hp", 0) or 0))
        return [f"{c.name} has {c.stats['temp_hp']} temporary HP"]


@frozen
class MoraleCheck(EncounterCommand):
    """NPC-08: 2d6 + Will on the morale table, for an HD NPC (the due ones are offered)."""

    combatant_id: str = ""

    LABEL = "Morale check"

    def change(self, fight: Fight) -> list[str]:
        return _morale(fight, fight.combatant(self.combatant_id))


def _morale(fight: Fight, c: er.Combatant) -> list[str]:
    if health_kind(c) == "pc":
        raise RuleError("Only NPCs check morale")
    block = npc.statblock_of(c.stats, fight.npc_doc(c))
    will = block.attribute("will") if block is not None else 0  # a quick build's is its E
    result = npc.morale_check(fight.tx.rng, will)
    line = fight.tx.log_roll(c.name, result)
    return [line, *after_morale(fight, c, result)]


@frozen
class MoraleDue(EncounterCommand):
    """NPC-08: every NPC whose morale check is due rolls it, in one key."""

    LABEL = "Morale checks due"

    def change(self, fight: Fight) -> list[str]:
        due = [str(d.get("id")) for d in fight.due()]
        present = {c.id: c for c in fight.enc.combatants}
        lines: list[str] = []
        for cid in due:
            if cid in present:
                lines += _morale(fight, present[cid])
        fight.doc["morale_due"] = []
        if not lines:
            raise RuleError("No morale check is due")
        return lines

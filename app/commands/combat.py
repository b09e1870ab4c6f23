"""Combat tracker changes (GEN-04, GEN-05, SOH-09/10/13/17, SOM-03/05/08/09/11, NEM-05..12,
ASP-05/06, NPC-08).

Every command loads the encounter document, rebuilds :class:`rulesets.encounter.Encounter`,
calls one pure rules function and puts the whole encounter back, so the saved document always
holds the full state (order, current turn, round, AP left, effects) and closing the app
mid-fight resumes on the same turn. Keys of the document that the rules model does not know
(``morale_due``, ``pending``) are kept by merging, never dropped.

Where a combatant's health lives (the "health sheet"):

- a PC (``side == "pc"``, ``ref`` = party doc id): the party document itself, so the party
  sheet and the tracker show one record; damage runs the game's ``apply_damage`` on it;
- a quick-added foe with ``stats["sheet"]``: a character-like dict made by the game's
  ``make_character`` (vitality, limbs, Health/Life/Æssence, injuries), so the same rules apply;
- an HD NPC (``stats`` = ``{"hp", "hp_max"}``), in any game: plain HP, and the NPC-08 morale
  check is offered when an ally drops, when it has lost half its HP, or when enemy
  reinforcements arrive.

Reading: temporary HP (``stats["temp_hp"]``) absorbs numeric damage first in every game but the
aspects game, whose damage is an overlap, not points.
Reading: Nemron NPCs without a sheet roll initiative with Wit as Agility and Awareness and Will
as Sense, because HD NPCs have no Nemron attributes; other games' NPCs roll the game's die
with no modifier.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from app.commands.dice import log_roll
from app.state import CommandError, Transaction
from rulesets import dice, npc
from rulesets import encounter as er
from rulesets.aspects import rules as aspects
from rulesets.base import CheckResult
from rulesets.decks import load_deck, save_deck
from rulesets.nemron import rules as nemron
from rulesets.resolution import rules as resolution
from rulesets.shadows import rules as shadows
from rulesets.somnihil import rules as somnihil
from rulesets.tarot import Card, minor_card

Doc = dict[str, Any]

MODEL_LABELS: dict[str, str] = {
    "initiative": "Initiative order",
    "ap_rounds": "AP rounds",
    "chosen_next": "Chosen-next",
}
TICK_WORDS: dict[str, str] = {"start": "turn_start", "end": "turn_end", "round": "round"}
MAX_AMOUNT = 10_000
MAX_NUMBER = 1_000_000
"""Bound of every other number a tracker command takes (initiative, HP, AP, turns, ranks…)."""


# --------------------------------------------------------------------------- helpers


def parse_amount(text: str, tx: Transaction, who: str) -> int:
    """A whole number, or a dice expression rolled into the log; never negative."""
    text = str(text).strip()
    if not text:
        raise CommandError("Type an amount or a dice expression")
    if re.fullmatch(r"[+-]?[0-9]+", text):
        if text.startswith("-"):
            raise CommandError("The amount cannot be negative")
        if len(text) > 9 or int(text) > MAX_AMOUNT:
            raise CommandError(f"The amount is at most {MAX_AMOUNT:,}")
        return int(text)
    result = dice.roll(text, tx.rng)
    if result.total > MAX_AMOUNT:
        raise CommandError(f"{text} came to {result.total:,}; the amount is at most {MAX_AMOUNT:,}")
    log_roll(
        tx,
        who,
        CheckResult(
            expression=result.expression, total=result.total, dice=result.dice, detail=result.text
        ),
    )
    return max(0, result.total)


def parse_card(text: str) -> Card:
    """SOH-14: a Minor Arcana attack card typed as ``"9 Swords"``, ``"Queen of Cups"``."""
    words = [w for w in str(text).split() if w.casefold() != "of"]
    if len(words) != 2:
        raise CommandError("Type the attack card as rank and suit, e.g. 9 Swords or Queen of Cups")
    return minor_card(words[0], words[1])


def _ref_id(combatant: er.Combatant) -> int | None:
    try:
        return int(str(combatant.ref))
    except (TypeError, ValueError):
        return None


def health_kind(combatant: er.Combatant) -> str:
    """ "pc" (party doc), "sheet" (stats["sheet"]) or "hp" (plain HD HP)."""
    if combatant.side == "pc" and _ref_id(combatant) is not None:
        return "pc"
    if isinstance(combatant.stats.get("sheet"), dict):
        return "sheet"
    return "hp"


def hp_line(stats: dict[str, Any]) -> str:
    """An HD NPC's health: ``"5/7 HP +3 tmp"``."""
    line = f"{stats.get('hp', 0)}/{stats.get('hp_max', stats.get('hp', 0))} HP"
    return line


def quick_sheet(game: str, name: str, health: int, quickness: int) -> Doc:
    """A quick-added foe's character-like sheet: the few numbers the game needs.

    ``health``: vitality (somnihil), HP (resolution), HP per limb (nemron), Health/Life/Æssence
    (shadows), stress cap (aspects, consequences 0 as for most NPCs).
    """
    if game == "somnihil":
        sheet = somnihil.new_character(name)
        sheet["resources"]["vitality"] = {"current": health, "max": health}
    elif game == "resolution":
        sheet = resolution.new_character(name, hp=health)
    elif game == "nemron":
        sheet = nemron.new_character(name)
        sheet["tracks"]["limbs"] = {limb: {"hp": health, "max": health} for limb in nemron.LIMBS}
    elif game == "shadows":
        sheet = shadows.new_character(name, quickness=max(1, min(16, quickness or 6)))
        for pool in shadows.POOLS:
            sheet["resources"][pool] = {"current": health, "max": health}
    elif game == "aspects":
        sheet = aspects.new_character(
            name, physical_stress_cap=health, mental_stress_cap=health, consequence_slots=0
        )
    else:  # pragma: no cover - registry only has five games
        raise CommandError(f"Unknown game {game!r}")
    return sheet


@dataclass
class Fight:
    """What an encounter command works on: the document, the model, and writes to do."""

    tx: Transaction
    doc_id: int
    doc: Doc
    enc: er.Encounter

    def save(self) -> None:
        """Store the encounter; the last thing a command does (the document is handed over:
        it shares nested values with this fight, which must not change them afterwards)."""
        merged = {**self.doc, **self.enc.to_dict()}
        self.tx.put("encounters", self.doc_id, merged, handed_over=True)

    def combatant(self, cid: str) -> er.Combatant:
        return self.enc.get(cid)

    def sheet(self, c: er.Combatant) -> Doc | None:
        kind = health_kind(c)
        if kind == "pc":
            ref = _ref_id(c)
            assert ref is not None
            return self.tx.get("party", ref)
        if kind == "sheet":
            return copy.deepcopy(c.stats["sheet"])
        return None

    def put_sheet(self, c: er.Combatant, sheet: Doc) -> None:
        if health_kind(c) == "pc":
            ref = _ref_id(c)
            assert ref is not None
            self.tx.put("party", ref, sheet)
        else:
            c.stats["sheet"] = sheet

    def due(self) -> list[dict[str, str]]:
        due: list[dict[str, str]] = self.doc.setdefault("morale_due", [])
        return due

    def offer_morale(self, c: er.Combatant, why: str) -> list[str]:
        """NPC-08: note that this NPC should check morale (shown in the tracker, rolled by M)."""
        if c.side != "npc" or health_kind(c) != "hp" or c.stats.get("hp", 0) <= 0:
            return []
        if any(d.get("id") == c.id for d in self.due()):
            return []
        self.due().append({"id": c.id, "why": why})
        return [f"Morale check for {c.name} ({why})"]


def load(tx: Transaction, doc_id: int) -> Fight:
    try:
        doc = tx.get("encounters", doc_id)
    except CommandError:
        raise CommandError("That encounter no longer exists") from None
    try:
        enc = er.Encounter.from_dict(doc)
    except (ValueError, KeyError, TypeError) as exc:
        raise CommandError(f"The encounter cannot be read: {exc}") from None
    return Fight(tx, doc_id, doc, enc)


def _ranked_countdowns(enc: er.Encounter) -> dict[int, int | None]:
    return {id(e): e.remaining for c in enc.combatants for e in c.conditions if e.rank is not None}


def _decay_ranks(enc: er.Encounter, before: dict[int, int | None]) -> None:
    """NEM-12: a ranked condition loses a rank (nemron.decay) each time its tick fires, on
    whatever turn change fired it (next turn, the first turn, a removal, a delay …)."""
    for c in enc.combatants:
        for e in c.conditions:
            if id(e) in before and before[id(e)] != e.remaining:
                after = nemron.decay({"name": e.name, "rank": e.rank})
                e.rank = after["rank"] if after else 0


@dataclass(frozen=True)
class EncounterCommand:
    """Base: load the encounter, :meth:`change` it, save it; rule errors become refusals."""

    encounter_id: int
    LABEL: ClassVar[str] = ""
    """The change's name in the log and in undo; commands with a varying label override
    :attr:`label` instead."""

    @property
    def label(self) -> str:
        return self.LABEL or type(self).__name__

    def run(self, tx: Transaction) -> list[str]:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
                what = spec.name.replace("_", " ")
                raise CommandError(f"The {what} is out of range (at most {MAX_NUMBER:,})")
        fight = load(tx, self.encounter_id)
        ticking = _ranked_countdowns(fight.enc) if tx.ruleset.id == "nemron" else {}
        try:
            lines = self.change(fight)
            _decay_ranks(fight.enc, ticking)
        except CommandError:
            raise
        except ValueError as exc:  # EncounterError, RuleError, DeckError ...: all ValueErrors
            raise CommandError(str(exc)) from None
        fight.save()
        return lines

    def change(self, fight: Fight) -> list[str]:
        raise NotImplementedError


# --------------------------------------------------------------------------- encounters


@dataclass(frozen=True)
class NewEncounter:
    """GEN-04: a new, empty encounter in the game's turn model, made current."""

    name: str
    model: str = ""

    @property
    def label(self) -> str:
        return f"New encounter {self.name}"

    def run(self, tx: Transaction) -> list[str]:
        name = self.name.strip()
        if not name:
            raise CommandError("An encounter needs a name")
        model = self.model or tx.ruleset.turn_model
        fight = er.Encounter(id="", name=name, model=model)  # type: ignore[arg-type]
        doc_id = tx.insert("encounters", fight.to_dict())
        fight.id = f"e{doc_id}"
        tx.put("encounters", doc_id, fight.to_dict())
        meta = tx.meta()
        meta["current_encounter"] = doc_id
        tx.put("meta", 1, meta)
        return [f"New encounter {name} ({MODEL_LABELS[model]})"]


@dataclass(frozen=True)
class SelectEncounter:
    """Make another encounter the one the tracker runs."""

    encounter_id: int

    @property
    def label(self) -> str:
        return "Switch encounter"

    def run(self, tx: Transaction) -> list[str]:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
                what = spec.name.replace("_", " ")
                raise CommandError(f"The {what} is out of range (at most {MAX_NUMBER:,})")
        fight = load(tx, self.encounter_id)
        meta = tx.meta()
        if meta.get("current_encounter") == self.encounter_id:
            return []
        meta["current_encounter"] = self.encounter_id
        tx.put("meta", 1, meta)
        return [f"Running {fight.enc.name}"]


@dataclass(frozen=True)
class SetModel(EncounterCommand):
    """Switch this encounter's turn model (before it starts)."""

    model: str = "initiative"

    @property
    def label(self) -> str:
        return f"Turn model {self.model}"

    def change(self, fight: Fight) -> list[str]:
        if fight.enc.started:
            raise CommandError("End the encounter before switching its turn model")
        if self.model not in er.MODELS:
            raise CommandError(f"Unknown turn model {self.model!r}")
        fight.enc.model = self.model  # type: ignore[assignment]
        return [f"{fight.enc.name} now uses {MODEL_LABELS[self.model]}"]


# --------------------------------------------------------------------------- roster


def _pc_quickness(pc: Doc) -> int:
    return int(pc.get("attributes", {}).get("quickness", 0) or 0)


@dataclass(frozen=True)
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
                quickness=_pc_quickness(pc),
            )
            for doc_id, pc in fight.tx.all("party")
            if str(doc_id) not in present and not pc.get("npc")
        ]
        if not new:
            raise CommandError("The whole party is already in this encounter")
        if fight.enc.model == "ap_rounds":
            for c in new:
                c.ap_max = shadows.ap_per_round(c.quickness or 6)
                # Joining a running round, they act in it, as a quick-added combatant does.
                c.ap = c.ap_max if fight.enc.started else 0
        lines = er.add_combatants(fight.enc, new)
        if fight.enc.started:
            for c in fight.enc.combatants:
                if c.side == "npc":
                    lines += fight.offer_morale(c, "enemy reinforcements")
        return lines


@dataclass(frozen=True)
class QuickAdd(EncounterCommand):
    """GEN-04: an ad-hoc foe (or a numbered group of them) with the few numbers the game needs."""

    name: str = ""
    count: int = 1
    health: int = 10
    initiative: int | None = None
    quickness: int = 0
    side: str = "npc"

    @property
    def label(self) -> str:
        return f"Quick add {self.name}"

    def change(self, fight: Fight) -> list[str]:
        if self.health < 0 or self.quickness < 0:
            raise CommandError("Numbers cannot be negative")
        if not 1 <= self.count <= 50:
            raise CommandError("Add between 1 and 50 at a time")
        game = fight.tx.ruleset.id
        enc = fight.enc

        def make(name: str) -> er.Combatant:
            sheet = quick_sheet(game, name, self.health, self.quickness)
            c = er.Combatant(
                name=name,
                side=self.side,  # type: ignore[arg-type]
                initiative=self.initiative,
                quickness=self.quickness,
                stats={"sheet": sheet},
            )
            if enc.model == "ap_rounds":
                c.ap_max = shadows.ap_per_round(self.quickness or 6)
                c.ap = c.ap_max if enc.started else 0
            return c

        if self.count == 1:
            name = self.name.strip()
            if not name:
                raise CommandError("A combatant needs a name")
            return er.add_combatant(enc, make(name))
        return er.add_group(enc, self.name, self.count, make)


@dataclass(frozen=True)
class RemoveCombatant(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Remove combatant"

    def change(self, fight: Fight) -> list[str]:
        fight.doc["morale_due"] = [d for d in fight.due() if d.get("id") != self.combatant_id]
        return er.remove_combatant(fight.enc, self.combatant_id)


@dataclass(frozen=True)
class DuplicateCombatant(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Duplicate combatant"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        if c.side == "pc":
            raise CommandError("A PC cannot be duplicated; add a quick foe instead")
        return er.duplicate_combatant(fight.enc, self.combatant_id)


@dataclass(frozen=True)
class MoveCombatant(EncounterCommand):
    combatant_id: str = ""
    delta: int = 1

    LABEL = "Move in the order"

    def change(self, fight: Fight) -> list[str]:
        return er.move_combatant(fight.enc, self.combatant_id, self.delta)


@dataclass(frozen=True)
class ToggleHidden(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Hide / reveal"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        return er.set_hidden(fight.enc, c.id, not c.hidden)


@dataclass(frozen=True)
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
                fight.enc, c.id, None if self.clear_initiative else self.initiative
            )
        if health_kind(c) == "hp" and (self.hp is not None or self.hp_max is not None):
            top = self.hp_max if self.hp_max is not None else int(c.stats.get("hp_max", 0))
            now = self.hp if self.hp is not None else int(c.stats.get("hp", 0))
            if top < 0 or now < 0:
                raise CommandError("HP cannot be negative")
            c.stats["hp_max"], c.stats["hp"] = top, min(now, top)
            lines.append(f"{c.name}: {hp_line(c.stats)}")
        if (self.ap is not None or self.ap_max is not None) and (self.ap, self.ap_max) != (
            c.ap,
            c.ap_max,
        ):
            lines += er.set_ap(fight.enc, c.id, self.ap, self.ap_max)
        return lines


# --------------------------------------------------------------------------- turns


def _ap_maxes(fight: Fight) -> dict[str, int]:
    """SOH-10: 5 + ceil(Quickness / 2) for each combatant (a PC's Quickness from its sheet)."""
    maxes = {}
    for c in fight.enc.combatants:
        q = c.quickness
        sheet = fight.sheet(c)
        if sheet is not None:
            q = int(sheet.get("attributes", {}).get("quickness", q) or q)
        c.quickness = q
        maxes[c.id] = shadows.ap_per_round(q) if q else (c.ap_max or shadows.ap_per_round(6))
    return maxes


@dataclass(frozen=True)
class StartEncounter(EncounterCommand):
    """GEN-04: round 1. AP rounds (SOH-10): every combatant gets 5 + ceil(Quickness / 2) AP."""

    LABEL = "Start encounter"

    def change(self, fight: Fight) -> list[str]:
        if fight.enc.model == "ap_rounds" and not fight.enc.started:
            return er.start_ap_round(fight.enc, _ap_maxes(fight))
        return er.start(fight.enc)


@dataclass(frozen=True)
class EndEncounter(EncounterCommand):
    LABEL = "End encounter"

    def change(self, fight: Fight) -> list[str]:
        fight.doc["morale_due"] = []
        return er.end(fight.enc)


@dataclass(frozen=True)
class NextTurn(EncounterCommand):
    """GEN-04: next turn (AP rounds: the actor passes; chosen-next: the first who may act)."""

    LABEL = "Next turn"

    def change(self, fight: Fight) -> list[str]:
        return er.next_turn(fight.enc)


@dataclass(frozen=True)
class PreviousTurn(EncounterCommand):
    LABEL = "Previous turn"

    def change(self, fight: Fight) -> list[str]:
        return er.previous_turn(fight.enc)


@dataclass(frozen=True)
class Delay(EncounterCommand):
    places: int = 1

    LABEL = "Delay"

    def change(self, fight: Fight) -> list[str]:
        return er.delay(fight.enc, self.places)


@dataclass(frozen=True)
class Hold(EncounterCommand):
    LABEL = "Hold action"

    def change(self, fight: Fight) -> list[str]:
        return er.hold(fight.enc)


@dataclass(frozen=True)
class UseHeld(EncounterCommand):
    combatant_id: str = ""

    LABEL = "Use held action"

    def change(self, fight: Fight) -> list[str]:
        return er.use_held(fight.enc, self.combatant_id)


@dataclass(frozen=True)
class ChooseNext(EncounterCommand):
    """Chosen-next (aspects): the acting character names who acts next."""

    combatant_id: str = ""

    LABEL = "Choose who acts next"

    def change(self, fight: Fight) -> list[str]:
        return er.choose_next(fight.enc, self.combatant_id)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class ToggleEconomy(EncounterCommand):
    """NEM-06: mark the action, reaction or movement used this turn (or give it back)."""

    combatant_id: str = ""
    kind: str = "action"

    @property
    def label(self) -> str:
        return f"Use {self.kind}"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        return er.use_economy(fight.enc, c.id, self.kind, not c.economy.get(self.kind, False))


def _initiative(fight: Fight, c: er.Combatant) -> CheckResult:
    """NEM-05 pool for Nemron; 1d8 + DEX modifier (resolution); the game's d20 otherwise."""
    game = fight.tx.ruleset.id
    rng = fight.tx.rng
    sheet = fight.sheet(c)
    if game == "nemron":
        if sheet is None:
            doc = _npc_doc(fight, c)
            wit = max(0, min(4, int(doc.get("wit", 0)))) if doc else 0
            will = max(0, min(4, int(doc.get("will", 0)))) if doc else 0
            sheet = {"attributes": {"agility": wit, "awareness": wit, "sense": will}}
        pool = nemron.initiative_pool(sheet)
        faces = [rng.randint(1, s) for s in pool]
        text = "+".join(f"d{s}" for s in pool)
        return CheckResult(f"initiative {text} keep highest", max(faces), tuple(faces))
    if game == "resolution":
        mod = 0
        if sheet is not None:
            mod = resolution.attribute_modifier(int(sheet.get("attributes", {}).get("dex", 10)))
        die = rng.randint(1, 8)
        return CheckResult(f"initiative 1d8{mod:+d}", die + mod, (die,))
    die = rng.randint(1, 20)
    return CheckResult("initiative 1d20", die, (die,))


def _npc_doc(fight: Fight, c: er.Combatant) -> Doc | None:
    ref = _ref_id(c)
    if c.side != "npc" or ref is None:
        return None
    try:
        return fight.tx.get("npcs", ref)
    except CommandError:
        return None


@dataclass(frozen=True)
class RollInitiative(EncounterCommand):
    """GEN-04/NEM-05: roll for all (or NPCs only) and sort; PCs win ties with NPCs."""

    npcs_only: bool = False

    LABEL = "Roll initiative"

    def change(self, fight: Fight) -> list[str]:
        if fight.enc.model != "initiative":
            raise CommandError(
                f"{MODEL_LABELS[fight.enc.model]} has no initiative rolls; "
                "switch the turn model (alt+m) to use one"
            )
        rolled = []
        for c in fight.enc.combatants:
            if self.npcs_only and c.side == "pc":
                continue
            result = _initiative(fight, c)
            log_roll(fight.tx, c.name, result)
            c.initiative = result.total
            rolled.append(f"{c.name} {result.total}")
        if not rolled:
            raise CommandError("Nobody to roll for")
        lines = [f"Initiative: {', '.join(rolled[:8])}{' …' if len(rolled) > 8 else ''}"]
        lines += er.sort_by_initiative(fight.enc, er.pcs_first)
        if fight.enc.started and fight.enc.current is None and fight.enc.combatants:
            lines += er.next_turn(fight.enc)
        return lines


# --------------------------------------------------------------------------- effects (GEN-05)


@dataclass(frozen=True)
class AddEffect(EncounterCommand):
    """GEN-05: a condition (no duration) or a timed effect ticking on a chosen turn or round.

    SOM-05: an Anomaly (``anomaly_cost`` > 0) lasts 2/4/6/8 turns by AP cost and gives
    disadvantage while it lasts. NEM-12: a ranked condition with no turn count ticks one rank
    per interval, so its remaining count is its rank.
    """

    combatant_id: str = ""
    name: str = ""
    turns: int | None = None
    tick: str = "end"
    owner_id: str | None = None
    rank: int | None = None
    anomaly_cost: int = 0

    @property
    def label(self) -> str:
        return f"Add {self.name or 'Anomaly'}"

    def change(self, fight: Fight) -> list[str]:
        name, turns, note, tick = self.name.strip(), self.turns, "", self.tick
        if self.anomaly_cost:
            turns = somnihil.anomaly_duration(self.anomaly_cost)
            name, note, tick = "Anomaly", "disadvantage while it lasts (SOM-05)", "end"
        if not name:
            raise CommandError("An effect needs a name")
        if self.rank is not None and self.rank < 1:
            raise CommandError("A rank is at least 1")
        if turns is None and self.rank is not None:
            turns = self.rank
        effect = er.Effect(
            name=name,
            remaining=turns,
            tick=TICK_WORDS.get(tick, tick),  # type: ignore[arg-type]
            owner=self.owner_id or None,
            rank=self.rank,
            note=note,
        )
        return er.add_effect(fight.enc, self.combatant_id, effect)


@dataclass(frozen=True)
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
            raise CommandError(f"{c.name} has no effects")
        return er.remove_effect(fight.enc, c.id, name)


# --------------------------------------------------------------------------- damage


def has_anomaly(c: er.Combatant) -> bool:
    return any(e.name.casefold() == "anomaly" for e in c.conditions)


def _absorb(c: er.Combatant, amount: int) -> tuple[int, list[str]]:
    temp = int(c.stats.get("temp_hp", 0) or 0)
    if temp <= 0 or amount <= 0:
        return amount, []
    used = min(temp, amount)
    c.stats["temp_hp"] = temp - used
    if c.stats["temp_hp"] == 0:
        del c.stats["temp_hp"]
    return amount - used, [f"{c.name}'s temporary HP absorbs {used}"]


@dataclass(frozen=True)
class Damage(EncounterCommand):
    """Damage by each game's rules.

    ``amount`` is a number or a dice expression (rolled into the log). Options by game:
    somnihil ``triumph`` doubles (SOM-03), at 0 vitality Cheat Death is rolled (SOM-08, with
    disadvantage under an Anomaly); nemron ``limb`` (a limb name, "" = location die, "aoe" = one
    die per point, NEM-08/09); shadows ``pool`` ("health", "life", "aessence", "hit" = Health
    and Life), ``modifier`` (SOH-17 normal/vulnerable/resistant/immune) and ``firearm``;
    aspects: ``amount`` is the attack total and ``defence`` the defence total (ASP-05).

    Shadows attack (SOH-13/14/15/16): with ``attack_card`` set, ``amount`` is ignored; the
    defence is the defender's attribute for ``kind`` (physical/spiritual/mana) + ``cover`` +
    ``defence_cards`` (the played cards' total as the GM counts it, Coins doubled), and the
    damage is the rules' margin (suit match) or 1, + the ``weapon`` modifier drawn (SOH-15) + a
    critical chain if a face card beats a defence without one (``defence_face``).
    Nemron (NEM-07): ``defence_roll`` reduces the attack roll in ``amount`` (never below 0).
    """

    combatant_id: str = ""
    amount: str = "0"
    triumph: bool = False
    limb: str = ""
    pool: str = "health"
    modifier: str = "normal"
    firearm: bool = False
    defence: int = 0
    kind: str = "physical"
    attack_card: str = ""
    attack_skill: int = 0
    cover: int = 0
    defence_cards: int = 0
    defence_face: bool = False
    weapon: str = ""
    defence_roll: int | None = None

    LABEL = "Damage"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        tx = fight.tx
        game = tx.ruleset.id
        lines: list[str] = []
        if game == "shadows" and self.attack_card.strip():
            amount, lines = self._shadows_attack(fight, c)
            if amount <= 0:
                return lines
        else:
            amount = parse_amount(self.amount, tx, c.name)
        if game == "nemron" and self.defence_roll is not None:
            if self.defence_roll < 0:
                raise CommandError("The defence roll cannot be negative")
            net = nemron.damage_after_defence(amount, self.defence_roll)
            lines.append(f"attack {amount} − defence {self.defence_roll} = {net} damage (NEM-07)")
            if net <= 0:
                lines.append(f"{c.name} takes no damage")
                return lines
            amount = net
        if game == "somnihil" and self.triumph:
            amount = somnihil.attack_damage(amount, somnihil.TRIUMPH)
            lines.append(f"Triumph: damage doubled to {amount}")
        kind = health_kind(c)
        if not (game == "aspects" and kind != "hp"):
            amount, absorbed = _absorb(c, amount)
            lines += absorbed
        if kind == "hp":
            lines += self._hp(fight, c, amount)
        else:
            sheet = fight.sheet(c)
            assert sheet is not None
            sheet, more = self._game(fight, c, sheet, amount, game)
            fight.put_sheet(c, sheet)
            lines += more
        return lines

    def _shadows_attack(self, fight: Fight, c: er.Combatant) -> tuple[int, list[str]]:
        """SOH-13 defence and SOH-14..16 damage of a played attack card against ``c``."""
        if self.defence_cards < 0 or self.attack_skill < 0:
            raise CommandError("Skill and defence cards cannot be negative")
        card = parse_card(self.attack_card)
        sheet = fight.sheet(c)
        attributes = dict(sheet.get("attributes", {})) if sheet else {"quickness": c.quickness}
        base = shadows.defence(attributes, self.kind, cover=self.cover)
        guard = replace(base, card_total=self.defence_cards, total=base.total + self.defence_cards)
        parts = [f"{guard.attribute} {guard.base}", f"cards {guard.card_total}"]
        if guard.cover:
            parts.append(f"cover/movement {guard.cover}")
        lines = [f"{c.name}'s defence {guard.total} = " + " + ".join(parts)]
        deck_id, deck = load_deck(fight.tx, "minor")
        result = shadows.resolve_attack(
            fight.tx.rng,
            deck,
            card,
            self.attack_skill,
            guard.total,
            self.kind,
            damage_code=self.weapon.strip() or None,
            defence_face=self.defence_face,
        )
        if result.modifier or result.critical or result.fumble:
            save_deck(fight.tx, deck_id, deck)
        lines += list(result.log)
        return result.damage, lines

    def _hp(self, fight: Fight, c: er.Combatant, amount: int) -> list[str]:
        before = int(c.stats.get("hp", 0))
        top = int(c.stats.get("hp_max", before))
        if game_scaled := (fight.tx.ruleset.id == "shadows" and self.modifier != "normal"):
            amount = shadows.scale_damage(amount, self.modifier)
        after = max(0, before - amount)
        c.stats["hp"] = after
        note = f" ({self.modifier})" if game_scaled else ""
        lines = [f"{c.name} takes {before - after} damage{note}: {before} → {after}/{top} HP"]
        if after == 0 and before > 0:
            lines.append(f"{c.name} drops")
            for ally in fight.enc.combatants:
                if ally.id != c.id and ally.side == c.side:
                    lines += fight.offer_morale(ally, f"{c.name} dropped")
        elif before * 2 > top >= after * 2 and after > 0:
            lines += fight.offer_morale(c, "lost half its HP")
        return lines

    def _game(
        self, fight: Fight, c: er.Combatant, sheet: Doc, amount: int, game: str
    ) -> tuple[Doc, list[str]]:
        tx = fight.tx
        if game == "somnihil":
            outcome = somnihil.apply_damage(
                sheet, amount, tx.rng, disadvantage=1 if has_anomaly(c) else 0
            )
            if outcome.cheat_death is not None:
                log_roll(tx, c.name, outcome.cheat_death)
            lines = list(outcome.log)
            if outcome.fate_choice_needed:
                lines.append("Choose the fate with F: Seditious Spirit, Shill or the Void")
            return sheet, lines
        if game == "resolution":
            return sheet, resolution.damage(sheet, amount)
        if game == "nemron":
            if self.limb.strip().casefold() == "aoe":
                return sheet, list(nemron.apply_aoe_damage(sheet, amount, tx.rng).log)
            limb = self.limb.strip() or None
            return sheet, list(nemron.apply_damage(sheet, amount, tx.rng, limb).log)
        if game == "shadows":
            if self.pool == "hit":
                out = shadows.apply_hit(
                    sheet, amount, ("health", "life"), self.modifier, self.firearm
                )
            else:
                out = shadows.apply_damage(sheet, amount, self.pool, self.modifier, self.firearm)
            return out.character, list(out.log)
        if game == "aspects":
            today = tx.now()[:10]
            res = aspects.resolve_attack(sheet, amount, self.defence, today, self.kind)
            lines = list(res.log)
            if res.choice_needed and res.entry is not None:
                fight.doc.setdefault("pending", {})[c.id] = {
                    "overlap": res.overlap,
                    "entry": res.entry,
                }
                lines.append("Darkest Self or Taken Out? Press F to choose")
            return sheet, lines
        raise CommandError(f"No damage rules for {game!r}")


@dataclass(frozen=True)
class Heal(EncounterCommand):
    """Heal by each game: HP/vitality/pools up to the max; a Nemron limb (the most hurt one by
    default); the aspects game removes that many minor injuries, newest first."""

    combatant_id: str = ""
    amount: str = "0"
    limb: str = ""
    pool: str = "health"

    LABEL = "Heal"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        amount = parse_amount(self.amount, fight.tx, c.name)
        game = fight.tx.ruleset.id
        if health_kind(c) == "hp":
            before, top = int(c.stats.get("hp", 0)), int(c.stats.get("hp_max", 0))
            c.stats["hp"] = min(top, before + amount)
            lines = [f"{c.name} heals {c.stats['hp'] - before}: {hp_line(c.stats)}"]
        else:
            sheet = fight.sheet(c)
            assert sheet is not None
            lines = self._game(sheet, amount, game)
            fight.put_sheet(c, sheet)
        return lines

    def _game(self, sheet: Doc, amount: int, game: str) -> list[str]:
        name = sheet.get("name", "?")
        if game == "resolution":
            return resolution.heal(sheet, amount)
        if game == "nemron":
            limbs = nemron.limbs_of(sheet)
            limb = self.limb.strip() or min(limbs, key=lambda k: limbs[k]["hp"] - limbs[k]["max"])
            line = nemron.heal_limb(sheet, limb, amount)
            if sheet.get("status") == "downed" and all(
                limbs[m]["hp"] > 0 for m in nemron.MAJOR_LIMBS
            ):
                sheet["status"] = "alive"
            return [line]
        if game == "aspects":
            injuries = sheet.setdefault("lists", {}).setdefault("injuries", [])
            gone = [injuries.pop() for _ in range(min(amount, len(injuries)))]
            return [
                f"{name} recovers from {len(gone)} minor injur{'y' if len(gone) == 1 else 'ies'}"
            ]
        key = {"somnihil": "vitality", "shadows": self.pool}.get(game, "hp")
        res = sheet.get("resources", {}).get(key)
        if res is None:
            raise CommandError(f"{name} has no {key}")
        before = int(res["current"])
        res["current"] = min(int(res["max"]), before + amount)
        return [f"{name} heals {res['current'] - before} {key}: {res['current']}/{res['max']}"]


@dataclass(frozen=True)
class TempHp(EncounterCommand):
    """Temporary HP: absorbs damage first; a new value replaces a lower one."""

    combatant_id: str = ""
    amount: int = 0

    LABEL = "Temporary HP"

    def change(self, fight: Fight) -> list[str]:
        if self.amount < 0:
            raise CommandError("Temporary HP cannot be negative")
        c = fight.combatant(self.combatant_id)
        if self.amount == 0:
            c.stats.pop("temp_hp", None)
            return [f"{c.name} loses temporary HP"]
        c.stats["temp_hp"] = max(self.amount, int(c.stats.get("temp_hp", 0) or 0))
        return [f"{c.name} has {c.stats['temp_hp']} temporary HP"]


@dataclass(frozen=True)
class ChooseFate(EncounterCommand):
    """SOM-09: a perished Cipher becomes a Seditious Spirit, a Shill, or passes into the Void.
    ASP-06: at the consequence limit, enter the Darkest Self or be Taken Out."""

    combatant_id: str = ""
    fate: str = ""

    @property
    def label(self) -> str:
        return f"Fate: {self.fate}"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        sheet = fight.sheet(c)
        if sheet is None:
            raise CommandError(f"{c.name} has no fate to choose")
        game = fight.tx.ruleset.id
        if game == "somnihil":
            lines = somnihil.choose_fate(sheet, self.fate)
        elif game == "aspects":
            pending = fight.doc.get("pending", {}).pop(c.id, None)
            if pending is None:
                raise CommandError(f"{c.name} has no Darkest Self choice waiting")
            outcome = aspects.ConfrontationOutcome(
                pending["overlap"], aspects.CHOICE, pending["entry"], True, ()
            )
            if self.fate.casefold().startswith("dark"):
                lines = aspects.enter_darkest_self(sheet, outcome)
            else:
                lines = aspects.take_out(sheet, outcome)
        else:
            raise CommandError("This game has no fate choice")
        fight.put_sheet(c, sheet)
        return lines


@dataclass(frozen=True)
class SetDistance(EncounterCommand):
    """SOM-11: the distance band between the party and this combatant."""

    combatant_id: str = ""
    band: str = ""

    LABEL = "Distance"

    def change(self, fight: Fight) -> list[str]:
        if self.band not in somnihil.DISTANCE_BANDS:
            raise CommandError(f"Distance is one of {', '.join(somnihil.DISTANCE_BANDS)}")
        c = fight.combatant(self.combatant_id)
        c.stats["distance"] = self.band
        return [f"{c.name} is {self.band}"]


@dataclass(frozen=True)
class MoraleCheck(EncounterCommand):
    """NPC-08: 2d6 + Will on the morale table, for an HD NPC (the due ones are offered)."""

    combatant_id: str = ""

    LABEL = "Morale check"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        if c.side != "npc":
            raise CommandError("Only NPCs check morale")
        doc = _npc_doc(fight, c)
        will = int(doc.get("will", 0)) if doc else 0
        result = npc.morale_check(fight.tx.rng, will)
        line = log_roll(fight.tx, c.name, result)
        fight.doc["morale_due"] = [d for d in fight.due() if d.get("id") != c.id]
        return [line]


def distance_cycle(band: str | None) -> str:
    """SOM-11: the next band, farther; wraps from Too Far back to In Reach."""
    bands = somnihil.DISTANCE_BANDS
    if band not in bands:
        return bands[0]
    return bands[(bands.index(band) + 1) % len(bands)]

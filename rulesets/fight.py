"""How a fight runs in a game: the tracker's machinery and the questions it asks a game.

The combat tracker is the same for every game (:mod:`rulesets.encounter`: turn order, rounds,
effects); what differs is declared by each game as a :class:`FightRules` (``rulesets/<id>/fight.py``):
what a foe tracks (:class:`FoeSheet`), how initiative is rolled, what the damage and heal forms
ask and how their answers land on a PC's party sheet, a foe sheet or plain HD HP, how many AP a
combatant gets in the AP-rounds model, what a row shows beyond the generic, and what happens
after any change (Nemron's ranked conditions decay on ticks).

Every encounter command is an :class:`EncounterCommand`: it loads the encounter document into a
:class:`Fight`, changes it through the pure rules and stores it whole, so the saved document
always holds the full state and closing the app mid-fight resumes on the same turn. Keys of the
document the turn model does not know (``morale_due``, ``pending``) are kept by merging.

Where a combatant's health lives (:func:`health_kind`):

- ``"pc"``: a PC (``side == "pc"``, ``ref`` = party doc id): the party document itself, so the
  party sheet and the tracker show one record; damage runs the game's :attr:`FightRules.hurt`;
- ``"foe"``: a foe with ``stats["sheet"]``: the game's foe sheet (:class:`FoeSheet`), never a
  player character's sheet (a Somnihil foe does not roll Cheat Death);
- ``"hp"``: an HD NPC (``stats`` = ``{"hp", "hp_max"}``), in any game: plain HP, and the
  NPC-08 morale check is offered when an ally drops, when it has lost half its HP, or when
  enemy reinforcements arrive.

Pure: no Textual, no app import; commands write through a :class:`rulesets.table.Tx` and raise
:class:`rulesets.base.RuleError` to refuse.

Reading: temporary HP (``stats["temp_hp"]``) absorbs numeric damage first, except where a game's
damage is not points (the aspects game's overlap: :attr:`FightRules.damage_is_points`).
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, ClassVar, Literal, cast

from rulesets import dice, npc
from rulesets import encounter as er
from rulesets.base import Character, CheckResult, RuleError, accepts, hp_change
from rulesets.clock import rounds_passed
from rulesets.table import Context, Field, Tx
from rulesets.turn_orders import TurnOrder, turn_order
from rulesets.values import frozen, record

Doc = dict[str, Any]
HealthKind = Literal["pc", "foe", "hp"]
AtFightEnd = Literal["ends", "stays"]
AT_FIGHT_END: tuple[AtFightEnd, ...] = ("ends", "stays")

TICK_WORDS: dict[str, str] = {"start": "turn_start", "end": "turn_end", "round": "round"}
MAX_AMOUNT = 10_000
MAX_NUMBER = 1_000_000
"""Bound of every other number a tracker command takes (initiative, HP, AP, turns, ranks…)."""
DEFAULT_QUICKNESS = 6
"""The Quickness of a combatant whose sheet has none (an HD statblock), in the AP-rounds model."""


# --------------------------------------------------------------------------- helpers


def parse_amount(text: str, tx: Tx, who: str) -> int:
    """A whole number, or a dice expression rolled into the log; never negative."""
    text = str(text).strip()
    if not text:
        raise RuleError("Type an amount or a dice expression")
    if re.fullmatch(r"[+-]?[0-9]+", text):
        if text.startswith("-"):
            raise RuleError("The amount cannot be negative")
        if len(text) > 9 or int(text) > MAX_AMOUNT:
            raise RuleError(f"The amount is at most {MAX_AMOUNT:,}")
        return int(text)
    result = dice.roll(text, tx.rng)
    if result.total > MAX_AMOUNT:
        raise RuleError(f"{text} came to {result.total:,}; the amount is at most {MAX_AMOUNT:,}")
    tx.log_roll(
        who,
        CheckResult(
            expression=result.expression, total=result.total, dice=result.dice, detail=result.text
        ),
    )
    return max(0, result.total)


def ref_id(combatant: er.Combatant) -> int | None:
    try:
        return int(str(combatant.ref))
    except (TypeError, ValueError):
        return None


def health_kind(combatant: er.Combatant) -> HealthKind:
    """Where the combatant's health lives: ``"pc"``, ``"foe"`` or ``"hp"`` (module docstring)."""
    if combatant.side == "pc" and ref_id(combatant) is not None:
        return "pc"
    if isinstance(combatant.stats.get("sheet"), dict):
        return "foe"
    return "hp"


def hp_line(stats: Mapping[str, Any]) -> str:
    """An HD NPC's health: ``"5/7 HP"``."""
    return f"{stats.get('hp', 0)}/{stats.get('hp_max', stats.get('hp', 0))} HP"


def has_effect(c: er.Combatant, name: str) -> bool:
    return any(e.name.casefold() == name.casefold() for e in c.conditions)


def sheet_quickness(sheet: Mapping[str, Any] | None, fallback: int = 0) -> int:
    """The ``quickness`` attribute of a sheet (0 or missing: ``fallback``)."""
    if not sheet:
        return fallback
    try:
        return int(sheet.get("attributes", {}).get("quickness", fallback) or fallback)
    except (TypeError, ValueError, AttributeError):
        return fallback


class Answers:
    """A form's answers as a command carries them, read defensively: a command may be built by
    hand (tests, a script) or by a fuzzer, so every value is checked where it is read."""

    def __init__(self, values: Mapping[str, Any] | None) -> None:
        self.values: Mapping[str, Any] = values if isinstance(values, Mapping) else {}

    def text(self, key: str, default: str = "") -> str:
        value = self.values.get(key)
        return default if value is None or value == "" else str(value).strip()

    def number(self, key: str, default: int | None = 0) -> int | None:
        value = self.values.get(key)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            return int(value)
        try:
            number = int(str(value).strip())
        except ValueError:
            raise RuleError(f"{key.replace('_', ' ')}: a whole number, not {value!r:.40}") from None
        if abs(number) > MAX_NUMBER:
            raise RuleError(f"{key.replace('_', ' ')} is out of range (at most {MAX_NUMBER:,})")
        return number

    def whole(self, key: str, default: int = 0) -> int:
        value = self.number(key, default)
        return default if value is None else value

    def flag(self, key: str) -> bool:
        value = self.values.get(key)
        if isinstance(value, str):
            return value.strip().casefold() in ("yes", "y", "true", "1")
        return bool(value)

    def choice(self, key: str, choices: Sequence[str], default: str) -> str:
        value = self.text(key, default)
        for option in choices:
            if option.casefold() == value.casefold():
                return option
        raise RuleError(f"{key.replace('_', ' ')} is one of {', '.join(choices)}")


# --------------------------------------------------------------------------- the fight


@record
class Fight:
    """What an encounter command works on: the document, the model, and writes to do."""

    tx: Tx
    doc_id: int
    doc: Doc
    enc: er.Encounter

    @property
    def rules(self) -> FightRules:
        return self.tx.game.fight

    @property
    def order(self) -> TurnOrder:
        """The encounter's turn order, as its game knows it."""
        return turn_order(self.enc.model, self.tx.game)

    def save(self) -> None:
        """Store the encounter; the last thing a command does (the document is handed over:
        it shares nested values with this fight, which must not change them afterwards)."""
        moved = self.doc.get("current") != self.enc.current and not self.order.uses_ap
        if moved or self.doc.get("round") != self.enc.round:
            # An attack rolled on a turn that has passed does not land on a later one (T). In
            # AP rounds the actor changes with every AP spent (the attack's own): the round.
            self.doc.pop("strike", None)
        if self.doc.get("morale_due"):
            # A foe that dropped later in the same change (an area) is out: it checks no morale.
            out = {c.id for c in self.enc.combatants if c.defeated}
            self.doc["morale_due"] = [d for d in self.due() if d.get("id") not in out]
        merged = {**self.doc, **self.enc.to_dict()}
        self.tx.put("encounters", self.doc_id, merged, handed_over=True)
        keep = getattr(self.tx, "keep", None)  # a table that can keep it (the app's)
        if keep is not None:
            keep("encounters", self.doc_id, self.enc)

    def combatant(self, cid: str) -> er.Combatant:
        return self.enc.get(cid)

    def sheet(self, c: er.Combatant) -> Doc | None:
        """A private copy of where the combatant's health lives (None: plain HD HP)."""
        kind = health_kind(c)
        if kind == "pc":
            ref = ref_id(c)
            assert ref is not None
            found = self.tx.find("party", ref)
            if found is None:
                raise RuleError(f"{c.name} is no longer in the party")
            return found
        if kind == "foe":
            return cast(Doc, copy.deepcopy(c.stats["sheet"]))
        return None

    def put_sheet(self, c: er.Combatant, sheet: Doc) -> None:
        if health_kind(c) == "pc":
            ref = ref_id(c)
            assert ref is not None
            self.tx.put("party", ref, sheet)
        else:
            c.stats["sheet"] = sheet

    def npc_doc(self, c: er.Combatant) -> Doc | None:
        """The library document of an NPC combatant, if it still exists."""
        ref = ref_id(c)
        if c.side != "npc" or ref is None:
            return None
        return self.tx.find("npcs", ref)

    def due(self) -> list[dict[str, str]]:
        due: list[dict[str, str]] = self.doc.setdefault("morale_due", [])
        return due

    def checks_morale(self, c: er.Combatant) -> bool:
        """NPC-08: whether a combatant checks morale: an HD combatant with plain HP, or one with
        a statblock whatever its game made of it (limbs, a stress track, a vitality pool), a
        foe or an ally fighting on the party's side; a PC never."""
        kind = health_kind(c)
        if not self.rules.morale:
            return False
        if kind == "hp":
            return True
        if kind != "foe":
            return False
        hd = c.stats.get("hd")
        return (isinstance(hd, int) and not isinstance(hd, bool)) or self.npc_doc(c) is not None

    def offer_morale(self, c: er.Combatant, why: str) -> list[str]:
        """NPC-08: note that this NPC should check morale (shown in the tracker, rolled by s)."""
        if not self.checks_morale(c) or c.defeated or is_out(self.rules, c, self.sheet(c)):
            return []
        if any(d.get("id") == c.id for d in self.due()):
            return []
        self.due().append({"id": c.id, "why": why})
        return [f"Morale check for {c.name} ({why})"]

    def reinforced(self, side: str) -> list[str]:
        """NPC-08: reinforcements joined ``side`` mid-fight; the other side's HD combatants
        check morale."""
        if not self.enc.started:
            return []
        lines: list[str] = []
        for c in self.enc.combatants:
            if c.side != side:
                lines += self.offer_morale(c, "enemy reinforcements")
        return lines

    def pending(self) -> dict[str, Any]:
        """Choices waiting on a combatant (by id), kept beside the encounter until made."""
        waiting: dict[str, Any] = self.doc.setdefault("pending", {})
        return waiting

    def ap_max(self, c: er.Combatant) -> int:
        """AP per round in the AP-rounds model from the combatant's Quickness."""
        return self.rules.ap_per_round(c.quickness or DEFAULT_QUICKNESS)


def load(tx: Tx, doc_id: int) -> Fight:
    kept = _kept(tx, doc_id)
    if kept is not None:
        return kept
    doc = tx.find("encounters", doc_id)
    if doc is None:
        raise RuleError("That encounter no longer exists")
    try:
        enc = er.Encounter.from_dict(doc)
    except RuleError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise RuleError(f"The encounter cannot be read: {exc}") from None
    return Fight(tx, doc_id, doc, enc)


_CONTAINERS = (dict, list)


def _kept(tx: Tx, doc_id: int) -> Fight | None:
    """The encounter as the last change saved it (``Transaction.keep``), as :func:`load` would
    read it, or None (a table that keeps nothing, or something changed it since).

    Taken back only if it still writes the stored document exactly, and parted from it first:
    the stored document shares its nested values with what it was made from (its combatants'
    sheets, the turn records), so those are copied; the document's own fields are copied as
    :meth:`Transaction.find` copies a document."""
    take = getattr(tx, "take_kept", None)
    found = take("encounters", doc_id) if take is not None else None
    if found is None:
        return None
    stored, enc = found
    if not isinstance(enc, er.Encounter):
        return None
    written = enc.to_dict()
    if any(stored.get(key) != value for key, value in written.items()):
        return None  # changed after it was saved: read the document
    doc = copy.deepcopy({key: value for key, value in stored.items() if key != "combatants"})
    doc["combatants"] = written["combatants"]
    enc.rewind = er.records(doc.get("rewind"))
    enc.touched = None
    for c, data in zip(enc.combatants, doc["combatants"], strict=True):
        for value in c.stats.values():
            if isinstance(value, _CONTAINERS):
                c.stats = copy.deepcopy(c.stats)
                data["stats"] = dict(c.stats)  # as a read shares them: the fight's own
                break
    return Fight(tx, doc_id, doc, enc)


def check_numbers(command: object) -> None:
    """Refuse a command whose whole-number fields are past :data:`MAX_NUMBER`."""
    for spec in fields(command):  # type: ignore[arg-type]
        value = getattr(command, spec.name)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            what = spec.name.replace("_", " ")
            raise RuleError(f"The {what} is out of range (at most {MAX_NUMBER:,})")


def _countdowns(enc: er.Encounter) -> dict[int, int | None]:
    return {id(e): e.remaining for c in enc.combatants for e in c.conditions}


@frozen
class EncounterCommand:
    """Base: load the encounter, :meth:`change` it, save it; rules errors are refusals."""

    encounter_id: int
    LABEL: ClassVar[str] = ""
    """The change's name in the log and in undo; commands with a varying label override
    :attr:`label` instead."""

    @property
    def label(self) -> str:
        return self.LABEL or type(self).__name__

    def run(self, tx: Tx) -> list[str]:
        check_numbers(self)
        fight = load(tx, self.encounter_id)
        ticked = fight.rules.ticked
        before = _countdowns(fight.enc) if ticked is not None else {}
        reached = _timed_round(fight) if fight.enc.started else 0
        out = {c.id for c in fight.enc.combatants if c.defeated}
        try:
            lines = self.change(fight)
            lines += back_in(fight) + _time_passed(fight, reached) + _left_fight(fight, out)
            if ticked is not None:
                counted = [
                    (c, e)
                    for c in fight.enc.combatants
                    for e in c.conditions
                    if id(e) in before and before[id(e)] != e.remaining
                ]
                if counted:
                    lines += ticked(counted)
        except RuleError:
            raise
        except ValueError as exc:  # a rules helper's plain ValueError is a refusal too
            raise RuleError(str(exc)) from None
        fight.save()
        return lines

    def change(self, fight: Fight) -> list[str]:
        raise NotImplementedError


TIMED_ROUND = "timed_round"
"""Encounter document key: the highest round of this fight whose time the clock has passed."""


def _timed_round(fight: Fight) -> int:
    """The round the clock has reached in this fight: going back a round takes its effects'
    ticks back, not its time, so this stays when ``ticked_round`` steps back."""
    kept = fight.doc.get(TIMED_ROUND)
    kept = kept if isinstance(kept, int) and not isinstance(kept, bool) else 0
    return max(kept, fight.enc.ticked_round)


def _left_fight(fight: Fight, out: set[str]) -> list[str]:
    """The game's :attr:`FightRules.left_fight` for each combatant the change took out."""
    leaves = fight.rules.left_fight
    if leaves is None:
        return []
    lines: list[str] = []
    for c in fight.enc.combatants:
        if c.defeated and c.id not in out:
            lines += leaves(fight.tx, c)
    return lines


def _time_passed(fight: Fight, reached: int) -> list[str]:
    """The campaign clock moves on by the rounds the fight went on to (rounds it never had:
    stepping back and forward again passes the time once)."""
    if not fight.enc.started:
        fight.doc.pop(TIMED_ROUND, None)
        return []
    now = fight.enc.ticked_round
    if now <= reached:
        return []
    fight.doc[TIMED_ROUND] = now
    return rounds_passed(fight.tx, now - reached) if reached >= 1 else []


@frozen
class CombatantCommand(EncounterCommand):
    """An encounter command about one combatant (``combatant_id``)."""

    combatant_id: str = ""


# --------------------------------------------------------------------------- what a game says


@frozen
class Hit:
    """One damage or heal being applied: the fight, the target and the form's answers."""

    fight: Fight
    combatant: er.Combatant
    kind: HealthKind
    """Where the target's health lives: ``"pc"`` (its party sheet), ``"foe"`` (its foe
    sheet), ``"hp"`` (plain HD HP)."""
    answers: Answers
    """The damage or heal form's answers (``tableside_api.Answers``), read defensively:
    ``answers.text(key)``, ``.number(key)``, ``.whole(key)``, ``.flag(key)``, ``.choice(key,
    choices, default)``; ``answers.values`` is the mapping as given."""

    @property
    def tx(self) -> Tx:
        return self.fight.tx

    @property
    def rng(self) -> random.Random:
        return self.fight.tx.rng


SheetChange = Callable[[Hit, Doc, int], tuple[Doc, list[str]]]
"""Apply an amount to a sheet (a PC's or a foe's): the sheet to store and the log lines."""


def _plain_amount(hit: Hit, amount: str) -> tuple[int | None, list[str]]:
    return parse_amount(amount, hit.tx, hit.combatant.name), []


def _unchanged_hp(hit: Hit, amount: int) -> tuple[int, str]:
    return amount, ""


def _roll_d20(rng: random.Random, sheet: Doc | None, npc: Doc | None) -> CheckResult:
    die = rng.randint(1, 20)
    return CheckResult("initiative 1d20", die, (die,))


def standard_ap(quickness: int) -> int:
    """The AP-rounds model's AP per round where a game sets none: 5 + ceil(Quickness / 2)."""
    return 5 + -(-int(quickness) // 2)


def amount_form(kind: HealthKind) -> tuple[Field, ...]:
    return (Field("amount", "Damage (number or dice)", "", "amount"),)


def heal_amount_form(kind: HealthKind) -> tuple[Field, ...]:
    return (Field("amount", "Heal (number or dice)", "", "amount"),)


def _no_tags(c: er.Combatant) -> list[str]:
    return [e.label() for e in c.conditions]


def _no_note(enc: er.Encounter, c: er.Combatant) -> str:
    return ""


def _no_notes(doc: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    return []


def _cannot(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    raise RuleError(f"{hit.combatant.name}'s sheet takes no damage in this game")


def hp_out(stats: Mapping[str, Any]) -> bool:
    try:
        return int(stats.get("hp", 0)) <= 0
    except (TypeError, ValueError):
        return False


@frozen
class FoeSheet:
    """What a foe tracks in a game, and how it is made, hurt, healed and shown.

    ``hurt``/``heal`` None: the game's foes are HD foes, plain HP with morale
    (``make`` then returns ``{"hp", "hp_max"}`` stats, not a sheet).
    """

    health_label: str = "HP"
    """What the quick-add form asks for the foe's health."""
    health_default: int = 8
    fields: tuple[Field, ...] = (
        Field("initiative", "Initiative (blank: roll later)", "", "optint"),
    )
    """Quick add's questions beyond name, count and health."""
    make: Callable[[str, int, Answers], Doc] = lambda name, health, answers: {
        "hp": health,
        "hp_max": health,
    }
    """``make(name, health, answers)``: the new combatant's ``stats`` (a foe sheet goes under
    ``"sheet"``)."""
    health: Callable[[Doc], str] = lambda sheet: "?"
    """One short line of a foe sheet's health for the tracker's row."""
    hurt: SheetChange = _cannot
    heal: SheetChange = _cannot
    out: Callable[[Doc], bool] = lambda sheet: False
    """True when the foe is out of the fight (0 vitality, taken out, downed …)."""
    share: Callable[[Doc], tuple[int, int] | None] = lambda sheet: None
    """(now, most) of a foe sheet's health, for NPC-08's "lost half its HP" morale check; None
    where the sheet has no such measure (a stress track)."""


HD_FOES = FoeSheet()
"""Foes with plain HD HP and morale (the NPC rules' own foes)."""


@frozen
class FightRules:
    """The combat tracker's questions to a game; every hook has the generic answer as default."""

    foe: FoeSheet = HD_FOES
    initiative: Callable[[random.Random, Doc | None, Doc | None], CheckResult] = _roll_d20
    """``initiative(rng, sheet, npc_doc)``: a combatant's initiative roll from its PC or foe
    sheet (None for an HD NPC) and, for a library NPC, its library document."""
    ap_per_round: Callable[[int], int] = standard_ap
    """AP per round from Quickness (the AP-rounds model)."""
    quickness: Callable[[Doc | None], int] = sheet_quickness
    """A combatant's Quickness from its PC or foe sheet (None: it has none), 0 where the sheet
    says none: the turn orders that read one (``uses_quickness``) then use the tracker's
    default. Default: the sheet's ``quickness`` attribute."""
    damage_form: Callable[[HealthKind], tuple[Field, ...]] = amount_form
    """What the damage form asks, by where the target's health lives."""
    heal_form: Callable[[HealthKind], tuple[Field, ...]] = heal_amount_form
    damage_amount: Callable[[Hit, str], tuple[int | None, list[str]]] = _plain_amount
    """The damage dealt from the typed amount and the answers (a defence roll, a doubled
    Triumph, an attack card): the amount (None: nothing lands) and its log lines."""
    damage_is_points: bool = True
    """False where damage to a sheet is not points temporary HP could absorb."""
    hp_damage: Callable[[Hit, int], tuple[int, str]] = _unchanged_hp
    """Damage to plain HD HP after temporary HP (a resistance): the amount and a note."""
    hurt: SheetChange = _cannot
    """Damage to a PC's party sheet."""
    heal: SheetChange = _cannot
    """Healing on a PC's party sheet."""
    out: Callable[[Character], bool] = lambda sheet: False
    """True when a PC is out of the fight (perished, downed, taken out …)."""
    keeps_turn: Callable[[Character], bool] = lambda sheet: False
    """True when a PC who is :attr:`out` still takes its turns (dying, rolling to hold on):
    it is then not marked defeated."""
    tags: Callable[..., list[str]] = _no_tags
    """The row's conditions column: effect labels and anything else the game marks;
    ``tags(combatant, sheet)`` with its PC or foe sheet (None: plain HD HP), or
    ``tags(combatant)`` as games written for the game API 1.1 declare it."""
    turn_note: Callable[..., str] = _no_note
    """Extra words in the row's turn column once the fight has started: ``turn_note(enc,
    combatant, sheet)``, or ``turn_note(enc, combatant)`` (game API 1.1)."""
    detail: Callable[[er.Combatant, Doc | None], str] = lambda c, sheet: ""
    """``detail(combatant, sheet)``: a line about the selected combatant beyond its row (a
    Nemron character's limbs); ``sheet`` is its PC or foe sheet (None: plain HD HP)."""
    notes: Callable[[Mapping[str, Any], Mapping[str, str]], list[str]] = _no_notes
    """``notes(encounter_doc, names_by_id)``: lines for the tracker's status line."""
    ticked: Callable[[list[tuple[er.Combatant, er.Effect]]], list[str]] | None = None
    """Called after any change whose turn changes counted effects down (Nemron's ranks decay)."""
    ranked_conditions: bool = False
    """The condition form asks a rank (ranked conditions lose a rank per tick)."""
    roll_edge: Callable[[er.Combatant], tuple[str, str]] = lambda c: ("", "")
    """("advantage" or "disadvantage", why in a few words) for a combatant's own d20 rolls in
    the fight (its statblock's attack and save from the tracker); ("", "") for none."""
    fight_start: Callable[[Tx, int], list[str]] | None = None
    """What the game does as a fight starts, once round 1 has begun: ``fight_start(tx,
    encounter_id)`` with the campaign's transaction, the encounter saved as started; what it
    writes to it stands. Returns the log lines (Shadows deals the combat hands, SOH-11, so a
    foe can play a card at once)."""
    fight_end: Callable[[Tx, int], list[str]] | None = None
    """What the game does as a fight ends (``e`` ends the encounter): ``fight_end(tx,
    encounter_id)``, the encounter already saved as ended; what it writes stands. Returns
    the log lines (Shadows' combat hands go to the discards, the aspects game's scene aspects
    end)."""
    morale: bool = True
    """NPC-08 morale checks for statblock foes (offered when an ally drops or a foe is
    halved); False: the game has no morale, and the tracker offers none."""
    scene_start: Callable[[list[Character]], list[str]] | None = None
    """What a fight's start does to the PCs in it, where the game starts a scene with it (a
    fate point for those who have none); changes the sheets in place, returns the log lines."""
    at_fight_end: Callable[[er.Combatant, er.Effect], AtFightEnd] = lambda c, e: "ends"
    """What an effect on ``c`` does when the fight ends: ``"ends"`` (the default: a fight's
    conditions and countdowns end with it, and the GM is told which) or ``"stays"`` (it outlives
    the fight: a lasting injury, a curse)."""
    left_fight: Callable[[Tx, er.Combatant], list[str]] | None = None
    """What the game does when a combatant has just gone out of the fight (defeated, fled),
    by whatever change took it out: ``left_fight(tx, combatant)``; returns the log lines
    (Shadows: its hand goes to the discards)."""


def _own_sheet(c: er.Combatant, sheet: Doc | None) -> Doc | None:
    found = c.stats.get("sheet") if sheet is None else sheet
    return found if isinstance(found, dict) else None


def tags_of(rules: FightRules, c: er.Combatant, sheet: Doc | None) -> list[str]:
    """The row's conditions by the game's :attr:`FightRules.tags`, told the combatant's sheet
    (``sheet``: a PC's party sheet; a foe's is its own) where it takes one."""
    if accepts(rules.tags, 2):
        return list(rules.tags(c, _own_sheet(c, sheet)))
    return list(rules.tags(c))


def turn_note_of(rules: FightRules, enc: er.Encounter, c: er.Combatant, sheet: Doc | None) -> str:
    """The game's :attr:`FightRules.turn_note`, told the sheet where it takes one."""
    if accepts(rules.turn_note, 3):
        return rules.turn_note(enc, c, _own_sheet(c, sheet))
    return rules.turn_note(enc, c)


def is_out(rules: FightRules, c: er.Combatant, sheet: Doc | None) -> bool:
    """Whether a combatant is out of the fight, by where its health lives."""
    kind = health_kind(c)
    try:
        if kind == "hp":
            return hp_out(c.stats)
        if sheet is None:
            return False
        return rules.foe.out(sheet) if kind == "foe" else rules.out(sheet)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


KEPT_IN = "kept_in"
"""``stats`` key: the GM put an out combatant back in by hand; it is not marked again."""
OUT_BY_SHEET = "out_by_sheet"
"""``stats`` key: marked defeated because its sheet said it was out (not by the GM's hand):
it comes back in by itself when its sheet no longer says so, whatever changed the sheet."""
FLED = "fled"
"""``stats`` key: the foe fled (NPC-08's "Will is broken, they flee"): out of the fight as
the defeated are (skipped, counted for the fight's end), said as fled."""


def after_morale(fight: Fight, c: er.Combatant, result: CheckResult) -> list[str]:
    """NPC-08: what a morale roll does in a running fight: its check is no longer due, and on
    "Will is broken, they flee" the foe is out of the fight as fled (``X`` puts it back,
    ``u`` undoes). Reading: a foe that flees "immediately" leaves the fight at once: it takes
    no more turns, and the fight is won once every foe is down or fled."""
    fight.doc["morale_due"] = [d for d in fight.due() if d.get("id") != c.id]
    if result.band != npc.FLEE or not fight.enc.started or c.defeated:
        return []
    c.stats[FLED] = True
    c.stats.pop(KEPT_IN, None)
    return [f"{c.name} flees: out of the fight", *er.set_defeated(fight.enc, c.id, True)[1:]]


def counts_out(rules: FightRules, c: er.Combatant, sheet: Doc | None) -> bool:
    """Out of the fight and not one of those the game lets keep their turn (a dying PC)."""
    if not is_out(rules, c, sheet):
        return False
    if health_kind(c) == "pc" and sheet is not None:
        try:
            return not rules.keeps_turn(sheet)
        except (KeyError, TypeError, ValueError, AttributeError):
            return True
    return True


def settle_defeated(fight: Fight, c: er.Combatant, was_out: bool, sheet: Doc | None) -> list[str]:
    """After a change to ``c``'s health: it is marked defeated when the change took it out,
    and back in when a change brought a defeated combatant back from out."""
    now_out = counts_out(fight.rules, c, sheet)
    if now_out and not was_out and not c.defeated:
        c.stats.pop(KEPT_IN, None)
        c.stats[OUT_BY_SHEET] = True
        return er.set_defeated(fight.enc, c.id, True)
    if was_out and not now_out and c.defeated:
        c.stats.pop(OUT_BY_SHEET, None)
        return er.set_defeated(fight.enc, c.id, False)
    return []


def back_in(fight: Fight) -> list[str]:
    """A PC marked defeated by its sheet whose sheet no longer says it is out (a game's own
    command brought it back: a fate, a healing power, the party sheet) is back in the fight,
    whether or not that command cleared the mark itself. Only the few defeated PCs are read."""
    lines: list[str] = []
    for c in fight.enc.combatants:
        if not (c.defeated and c.stats.get(OUT_BY_SHEET) and health_kind(c) == "pc"):
            continue
        ref = ref_id(c)
        sheet = fight.tx.find("party", ref) if ref is not None else None
        if sheet is not None and not counts_out(fight.rules, c, sheet):
            c.stats.pop(OUT_BY_SHEET, None)
            lines += er.set_defeated(fight.enc, c.id, False)
    return lines


def _absorb(c: er.Combatant, amount: int) -> tuple[int, list[str]]:
    temp = int(c.stats.get("temp_hp", 0) or 0)
    if temp <= 0 or amount <= 0:
        return amount, []
    used = min(temp, amount)
    c.stats["temp_hp"] = temp - used
    if c.stats["temp_hp"] == 0:
        del c.stats["temp_hp"]
    return amount - used, [f"{c.name}'s temporary HP absorbs {used}"]


def _hp_damage(fight: Fight, hit: Hit, amount: int) -> list[str]:
    """Plain HD HP down; NPC-08 morale offers when it drops an ally or halves it."""
    c = hit.combatant
    amount, note = fight.rules.hp_damage(hit, amount)
    before = int(c.stats.get("hp", 0))
    top = int(c.stats.get("hp_max", before))
    after = max(0, before - amount)
    c.stats["hp"] = after
    lines = [hp_change(c.name, before, after, top, note)]
    if after == 0 and before > 0:
        lines.append(f"{c.name} drops")
    return lines + _morale_after(fight, c, (before, top), (after, top), after == 0 < before)


def _morale_after(
    fight: Fight,
    c: er.Combatant,
    before: tuple[int, int] | None,
    after: tuple[int, int] | None,
    dropped: bool,
) -> list[str]:
    """NPC-08 after a hit: the side's other HD combatants check when it drops; it checks itself
    when the hit took it from above half its health to half or under."""
    if dropped:
        lines: list[str] = []
        for ally in fight.enc.combatants:
            if ally.id != c.id and ally.side == c.side:
                lines += fight.offer_morale(ally, f"{c.name} dropped")
        return lines
    if before is None or after is None:
        return []
    (was, top), (now, _) = before, after
    if was * 2 > top >= now * 2 and now > 0:
        return fight.offer_morale(c, "lost half its HP")
    return []


def deal_damage(
    fight: Fight, combatant_id: str, amount: str, answers: Mapping[str, Any]
) -> list[str]:
    """The one damage path: the game's damage form's answers (``amount`` a number or dice, or
    blank where the game resolves an attack) land on the combatant by where its health lives,
    after temporary HP; a combatant the damage takes out is marked defeated. A game's own
    command that ends in damage (a card played as an attack) calls this too."""
    c = fight.combatant(combatant_id)
    rules = fight.rules
    kind = health_kind(c)
    was_out = counts_out(rules, c, fight.sheet(c))
    hit = Hit(fight, c, kind, Answers(answers))
    dealt, lines = rules.damage_amount(hit, str(amount))
    if dealt is None:
        return lines
    if kind == "hp" or rules.damage_is_points:
        dealt, absorbed = _absorb(c, dealt)
        lines += absorbed
    if kind == "hp":
        return lines + _hp_damage(fight, hit, dealt) + settle_defeated(fight, c, was_out, None)
    sheet = fight.sheet(c)  # again: the damage form's answers may have changed it
    assert sheet is not None
    hurt = rules.foe.hurt if kind == "foe" else rules.hurt
    before = _share(rules, sheet) if kind == "foe" else None
    sheet, more = hurt(hit, sheet, dealt)
    fight.put_sheet(c, sheet)
    lines += more
    settled = settle_defeated(fight, c, was_out, sheet)
    if kind == "foe":
        dropped = not was_out and counts_out(rules, c, sheet)
        lines += _morale_after(fight, c, before, _share(rules, sheet), dropped)
    return lines + settled


def _share(rules: FightRules, sheet: Doc) -> tuple[int, int] | None:
    try:
        return rules.foe.share(sheet)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def foe_health(rules: FightRules, sheet: Doc) -> str:
    try:
        return rules.foe.health(sheet)
    except (KeyError, TypeError, ValueError, AttributeError):
        return "?"


__all__ = [
    "AT_FIGHT_END",
    "DEFAULT_QUICKNESS",
    "HD_FOES",
    "MAX_AMOUNT",
    "MAX_NUMBER",
    "TICK_WORDS",
    "Answers",
    "CombatantCommand",
    "EncounterCommand",
    "Fight",
    "FightRules",
    "FoeSheet",
    "Hit",
    "foe_health",
    "has_effect",
    "health_kind",
    "counts_out",
    "deal_damage",
    "hp_line",
    "is_out",
    "settle_defeated",
    "back_in",
    "tags_of",
    "turn_note_of",
    "load",
    "parse_amount",
    "ref_id",
]


# --------------------------------------------------------------------------- game actions


def selected(ctx: Context) -> tuple[int, str]:
    """The running encounter and the selected combatant's id, for a combat action's command."""
    if ctx.encounter_id is None:
        raise RuleError("No encounter yet: ctrl+n makes one")
    if ctx.combatant is None:
        raise RuleError("Select a combatant first (j/k)")
    return ctx.encounter_id, str(ctx.combatant.get("id", ""))


def combatants(ctx: Context) -> list[Mapping[str, Any]]:
    """The running encounter's combatant documents (empty without one)."""
    if ctx.encounter is None:
        return []
    found = ctx.encounter.get("combatants", [])
    return found if isinstance(found, list) else []


def combatant_name(ctx: Context, cid: str | None) -> str:
    """A combatant's name in the running encounter (``"?"`` when gone)."""
    for c in combatants(ctx):
        if str(c.get("id")) == cid:
            return str(c.get("name", "?"))
    return "?"


def waiting_choice(ctx: Context) -> str | None:
    """The combatant a pending choice waits on: the selected one if it has one, else the first."""
    pending = (ctx.encounter or {}).get("pending") or {}
    if not isinstance(pending, Mapping) or not pending:
        return None
    cid = str((ctx.combatant or {}).get("id", ""))
    return cid if cid in pending else str(next(iter(pending)))

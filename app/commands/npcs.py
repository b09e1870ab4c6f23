"""NPC library changes and the rolls a statblock makes (NPC-01..NPC-10).

An NPC document keeps its inputs (name, concepts, Brawl/Wit/Will or a quick-build HD) and a
copy of the derived statblock; :func:`npc_block` rebuilds the statblock from the inputs with
``rulesets.npc`` so the rules are never recomputed here, and a document edited by hand can
never disagree with its rolls. Rolls go in the roll log through ``tx.log_roll``.

Document layout (``npcs`` table)::

    {"name", "concepts": [..], "brawl", "wit", "will", "statblock": {...to_json()},
     "powers": [..], "notes", optional "quick_hd": n, optional "source": {...},
     optional "effort_left": "1d6"}

A quick build (NPC-03) stores ``quick_hd`` and its E (stats) value as each attribute.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Any, Literal

from app.state import CommandError, Transaction
from rulesets import encounter as enc_rules
from rulesets import foes
from rulesets import npc as npc_rules
from rulesets.base import CheckResult, RuleError
from rulesets.fight import (
    DEFAULT_QUICKNESS,
    CombatantCommand,
    Fight,
    after_morale,
    foe_health,
    health_kind,
    hp_line,
    load,
)
from rulesets.npc import ATTRIBUTE_RANGE
from rulesets.table import Tx
from rulesets.text import MAX_NOTES, MAX_TEXT, too_long
from rulesets.turn_orders import turn_order
from rulesets.values import frozen

HpMode = Literal["rolled", "fixed"]
HP_MODES: tuple[str, ...] = ("rolled", "fixed")
MAX_GROUP = 50
"""The most copies one key adds to an encounter (a GM typing 300 by mistake gets a message)."""
MAX_NAME = 80
MAX_TARGET = 100
"""The highest AC or DC a roll is made against: real ones stay under 40; more is a typo."""


def beyond_table(brawl: int, wit: int, will: int) -> str:
    """A warning naming the attributes outside the text's -3..+8 table ("" when none)."""
    outside = [
        f"{key.capitalize()} {value:+d}"
        for key, value in zip(npc_rules.ATTRIBUTES, (brawl, wit, will), strict=True)
        if value not in ATTRIBUTE_RANGE
    ]
    if not outside:
        return ""
    return (
        f"{', '.join(outside)} beyond the text's table "
        f"({ATTRIBUTE_RANGE.start:+d}..{ATTRIBUTE_RANGE.stop - 1:+d}): kept as is"
    )


def npc_block(doc: dict[str, Any]) -> npc_rules.NPC:
    """The live statblock of a library document, rebuilt by the rules."""
    return npc_rules.library_block(doc)


def npc_document(
    name: str,
    concepts: Sequence[str] = (),
    brawl: int = 0,
    wit: int = 0,
    will: int = 0,
    *,
    quick_hd: int | None = None,
    powers: Sequence[str] = (),
    notes: str = "",
    source: dict[str, Any] | None = None,
    attribute_range: range | None = ATTRIBUTE_RANGE,
) -> dict[str, Any]:
    """NPC-01/03: a library document, validated by the rules.

    Args:
        attribute_range: the Brawl/Wit/Will accepted (None: any the rules build).

    Raises:
        CommandError: an empty name, too many concepts, an attribute outside
            ``attribute_range`` or an HD outside 0..20 (the rules' own message).
    """
    clean_name = name.strip()
    if not clean_name:
        raise CommandError("An NPC needs a name")
    if len(clean_name) > MAX_NAME:
        raise CommandError(f"A name is at most {MAX_NAME} characters")
    themes = [c.strip() for c in concepts if c.strip()]
    kept_powers = [p.strip() for p in powers if p.strip()]
    for label, text in (
        ("Concepts", ", ".join(themes)),
        ("Powers", "; ".join(kept_powers)),
        ("Notes", notes),
    ):
        if (problem := too_long(label, text, MAX_NOTES if label == "Notes" else MAX_TEXT)):
            raise CommandError(problem)
    # The builder validates through this helper on every keystroke, outside Campaign.apply,
    # so it turns rules refusals into CommandError itself.
    try:
        block: npc_rules.NPC
        if quick_hd is not None:
            block = npc_rules.quick_build(quick_hd)
            brawl = wit = will = block.stats
        else:
            for key, value in zip(npc_rules.ATTRIBUTES, (brawl, wit, will), strict=True):
                if attribute_range is not None and value not in attribute_range:
                    raise CommandError(
                        f"{key.capitalize()} must be between {attribute_range.start:+d} and "
                        f"{attribute_range.stop - 1:+d}, not {value:+d}"
                    )
            block = npc_rules.build(brawl, wit, will, name=clean_name, concepts=themes)
    except npc_rules.NPCError as exc:
        raise CommandError(str(exc)) from None
    doc: dict[str, Any] = {
        "name": clean_name,
        "concepts": themes,
        "brawl": brawl,
        "wit": wit,
        "will": will,
        "statblock": block.to_json(),
        "powers": kept_powers,
        "notes": notes,
    }
    if quick_hd is not None:
        doc["quick_hd"] = quick_hd
    if source:
        doc["source"] = source
    return doc


def _npc(tx: Transaction, npc_id: int) -> dict[str, Any]:
    try:
        return tx.get("npcs", npc_id)
    except CommandError:
        raise CommandError("That NPC is no longer in the library") from None


@frozen
class SaveNpc:
    """Save the builder into the library: a new NPC (``npc_id`` None) or an edit."""

    doc: dict[str, Any]
    npc_id: int | None = None

    @property
    def label(self) -> str:
        return f"{'Edit' if self.npc_id else 'Save'} NPC {self.doc.get('name', '')}"

    def run(self, tx: Transaction) -> list[str]:
        doc = dict(self.doc)
        if not str(doc.get("name", "")).strip():
            raise CommandError("An NPC needs a name")
        if self.npc_id is None:
            tx.insert("npcs", doc)
            return [f"NPC {doc['name']} saved to the library"]
        before = _npc(tx, self.npc_id)
        for kept in ("source", "effort_left"):
            if kept in before and kept not in doc:
                doc[kept] = before[kept]
        if before.get("statblock", {}).get("effort") != doc["statblock"].get("effort"):
            doc.pop("effort_left", None)
        tx.put("npcs", self.npc_id, doc)
        return [f"NPC {doc['name']} updated"]


@frozen
class DuplicateNpc:
    """A copy of a library NPC, named "<name> (copy)", ready to be edited."""

    npc_id: int

    @property
    def label(self) -> str:
        return "Duplicate NPC"

    def run(self, tx: Transaction) -> list[str]:
        doc = _npc(tx, self.npc_id)
        doc["name"] = f"{doc.get('name', 'NPC')} (copy)"[:MAX_NAME]
        doc.pop("effort_left", None)
        new_id = tx.insert("npcs", doc)
        return [f"NPC {doc['name']} added (#{new_id})"]


@frozen
class DeleteNpc:
    """Remove an NPC from the library (combatants already in an encounter stay)."""

    npc_id: int

    @property
    def label(self) -> str:
        return "Delete NPC"

    def run(self, tx: Transaction) -> list[str]:
        doc = _npc(tx, self.npc_id)
        tx.remove("npcs", self.npc_id)
        return [f"NPC {doc.get('name', '')} deleted from the library"]


def conversion_document(conversion: npc_rules.Conversion) -> dict[str, Any]:
    """NPC-09: the library document of a converted monster (source, name and CR kept)."""
    block = conversion.statblock
    doc = npc_document(
        conversion.source_name,
        conversion.concepts,
        block.brawl,
        block.wit,
        block.will,
        quick_hd=conversion.quick_hd,
        powers=conversion.powers,
        notes="; ".join([conversion.report(), *conversion.notes]),
        source={
            "system": conversion.source_system,
            "name": conversion.source_name,
            "cr": conversion.cr_text,
            "hd_target": str(conversion.hd_target),
            "hd_off": str(conversion.hd_off),
            "acceptable": conversion.acceptable,
            "ac": conversion.source_ac,
            "hp": conversion.source_hp,
            "hit_dice": conversion.source_hit_dice,
        },
        attribute_range=None,  # a CR 30 monster's +10 is what the conversion says; keep it
    )
    return doc


def import_key(doc: dict[str, Any]) -> tuple[str, str] | None:
    """What makes two imported NPCs the same monster: the name and the format it came from
    (a GM's own NPC, with no source, is never overwritten by an import)."""
    source = doc.get("source")
    if not isinstance(source, dict) or not source.get("system"):
        return None
    return str(doc.get("name", "")).strip().casefold(), str(source["system"])


KEPT_ON_UPDATE = ("effort_left",)
"""What the table did to a library NPC that a fresh import must not undo."""


@frozen
class ImportNpcs:
    """NPC-09: add converted monsters to the library in one undoable step.

    A monster already in the library under the same name from the same format is updated,
    not added again; one that would not change is left alone. All inserts and all updates
    are one batch each (one TinyDB call), so 8,000 monsters do not cost 8,000 table copies.
    """

    conversions: tuple[npc_rules.Conversion, ...]
    kind: str = "5e"
    outcome: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    """Filled by :meth:`run`: how many were added, updated and left alone (for the CLI)."""

    @property
    def label(self) -> str:
        return f"Import {len(self.conversions)} NPC(s) from {self.kind}"

    def run(self, tx: Transaction) -> list[str]:
        if not self.conversions:
            raise CommandError("Nothing to import")
        existing: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        for doc_id, doc in tx.campaign.rows("npcs"):
            key = import_key(doc)
            if key is not None:
                existing.setdefault(key, (doc_id, doc))
        added: dict[tuple[str, str], dict[str, Any]] = {}
        updated: dict[int, dict[str, Any]] = {}
        unchanged = 0
        for conversion in self.conversions:
            doc = conversion_document(conversion)
            key = import_key(doc)
            assert key is not None
            if key not in existing:
                added[key] = doc  # a name twice in one file: the later one wins
                continue
            doc_id, before = existing[key]
            for kept in KEPT_ON_UPDATE:
                if kept in before:
                    doc[kept] = before[kept]
            if before.get("statblock", {}).get("effort") != doc["statblock"].get("effort"):
                doc.pop("effort_left", None)
            if doc == before:
                unchanged += 1
            else:
                updated[doc_id] = doc
        tx.insert_many("npcs", list(added.values()))
        tx.put_many("npcs", updated)
        self.outcome.update(added=len(added), updated=len(updated), unchanged=unchanged)
        names = ", ".join(c.source_name for c in self.conversions[:5])
        more = f" and {len(self.conversions) - 5} more" if len(self.conversions) > 5 else ""
        return [
            f"Imported {len(self.conversions)} NPC(s) from {self.kind}: {names}{more} "
            f"({import_summary(len(added), len(updated), unchanged)})"
        ]


def import_summary(added: int, updated: int, unchanged: int) -> str:
    return f"{added} added, {updated} updated, {unchanged} left alone"


@frozen
class AddNpcsToEncounter:
    """GEN-04/NPC-04: add ``count`` copies of a library NPC to the current encounter.

    Three goblins become "Goblin 1".."Goblin 3" (numbers continue after those present), each
    with its own HP: rolled (HD x hit die, one roll each, in the roll log) or the fixed value.
    With no encounter yet, one is created and made current.
    """

    npc_id: int
    count: int = 1
    hp_mode: HpMode = "rolled"

    @property
    def label(self) -> str:
        return f"Add {self.count} NPC(s) to the encounter"

    def run(self, tx: Transaction) -> list[str]:
        if self.hp_mode not in HP_MODES:
            raise CommandError(f"HP is 'rolled' or 'fixed', not {self.hp_mode!r}")
        if not 1 <= self.count <= MAX_GROUP:
            raise CommandError(f"Add between 1 and {MAX_GROUP} at a time, not {self.count}")
        doc = _npc(tx, self.npc_id)
        block = npc_block(doc)
        name = str(doc.get("name", "NPC"))
        encounter_id, stored, fight = self._encounter(tx)
        rules, foes = tx.game.fight, tx.game.foes
        # The game's foe of this statblock (foes.make); where it has no HP to roll (a stress
        # track), none is rolled.
        rolls = [
            npc_rules.roll_hp(block, tx.rng)
            if self.hp_mode == "rolled" and foes.rolls_hp
            else None
            for _ in range(self.count)
        ]
        queue = iter([block.hp if r is None else r.total for r in rolls])
        new: list[enc_rules.Combatant] = []

        def factory(who: str) -> enc_rules.Combatant:
            stats = foes.make(who, block, next(queue))
            made = enc_rules.Combatant(name=who, side="npc", ref=str(self.npc_id), stats=stats)
            if turn_order(fight.model, tx.game).uses_ap:
                # An HD statblock has no Quickness: the tracker's default. Joining a running
                # round, they act in it (as a quick-added combatant does), not sit it out spent;
                # before a fight, nobody has spent any. One Quickness serves both its AP and
                # its defence.
                made.quickness = rules.quickness(stats.get("sheet")) or DEFAULT_QUICKNESS
                made.ap_max = rules.ap_per_round(made.quickness)
                made.ap = made.ap_max
            new.append(made)
            return made

        added = enc_rules.add_group(fight, name, self.count, factory)
        # The tracker keeps its own keys beside the encounter (morale checks due, pending
        # Darkest Self offers): a replace must carry them over.
        tx.put("encounters", encounter_id, {**stored, **fight.to_dict()})
        # "X joins the encounter" lines are said once by the summary; keep any turn lines.
        turn_lines = [line for line in added if not line.endswith("joins the encounter")]
        if fight.started:
            # NPC-08: foes' reinforcements: the party side's HD allies check morale.
            joined = load(tx, encounter_id)
            turn_lines += joined.reinforced("npc")
            joined.save()
        lines = [
            tx.log_roll(combatant.name, rolled)
            for combatant, rolled in zip(new, rolls, strict=False)
            if rolled is not None
        ]
        summary = ", ".join(
            f"{c.name} "
            + (foe_health(rules, c.stats["sheet"]) if health_kind(c) == "foe" else hp_line(c.stats))
            for c in new
        )
        return [*lines, f"Added to {fight.name}: {summary}", *turn_lines]

    def _encounter(self, tx: Transaction) -> tuple[int, dict[str, Any], enc_rules.Encounter]:
        rows = tx.all("encounters")
        meta = tx.meta()
        wanted = meta.get("current_encounter")
        for doc_id, data in rows:
            if doc_id == wanted:
                return doc_id, data, enc_rules.Encounter.from_dict(data)
        if rows:
            return rows[0][0], rows[0][1], enc_rules.Encounter.from_dict(rows[0][1])
        fight = enc_rules.Encounter(id="e1", name="Encounter", model=tx.game.turn_model)
        doc_id = tx.insert("encounters", fight.to_dict())
        meta["current_encounter"] = doc_id
        tx.put("meta", 1, meta)
        return doc_id, fight.to_dict(), fight


RollKind = Literal["attack", "defence", "save", "skill", "morale", "effort", "hp"]


def roll_statblock(
    tx: Tx,
    block: npc_rules.NPC,
    who: str,
    kind: RollKind,
    attribute: str = "brawl",
    target: int | None = None,
    system: str = "2d6",
    edge: str = "",
) -> list[str]:
    """NPC-02/04/07/08: one roll of a statblock (not Effort), into the roll log as ``who``;
    ``edge`` (advantage or disadvantage) applies to its d20 rolls, attack and save."""
    if target is not None and not 0 <= target <= MAX_TARGET:
        raise CommandError(f"An AC or DC is between 0 and {MAX_TARGET}, not {target}")
    rng = tx.rng
    if kind == "attack":
        hit = npc_rules.attack(rng, block, attribute, target, edge=edge)
        # The entry keeps what the attack deals: T on it deals that, never the to-hit total.
        dealt = hit.shock if hit.band == npc_rules.MISS else hit.damage
        return [tx.log_roll(who, hit, extra={"damage": dealt})]
    if kind == "save":
        result: CheckResult = npc_rules.saving_throw(rng, block, attribute, edge=edge)
    elif kind == "skill":
        dc = target if target is not None else (8 if system == "2d6" else 15)
        result = npc_rules.skill_check(rng, block, attribute, dc, system)
    elif kind == "morale":
        result = npc_rules.morale_check(rng, block.attribute("will"))
    elif kind == "hp":
        result = npc_rules.roll_hp(block, rng)
    else:
        raise CommandError(f"Unknown roll {kind!r}")
    return [tx.log_roll(who, result)]


def spend_effort(
    tx: Tx, pool: dict[str, Any], block: npc_rules.NPC, who: str, again: str = "f"
) -> list[str]:
    """NPC-05: one use of the Effort in ``pool`` (``pool["effort_left"]``, absent: full), which
    is a library NPC's document or one combatant's stats; a 1 or 2 on the usage die spends it.
    ``again``: the key that gives full Effort back where the GM rolled."""
    if block.effort == "0":
        raise CommandError(f"{who} has no Effort (Will {block.attribute('will'):+d})")
    now = str(pool.get("effort_left", block.effort))
    if now == "0":
        raise CommandError(f"{who} has no Effort left ({again} refreshes it)")
    use = npc_rules.effort_use(rng=tx.rng, effort_now=now)
    pool["effort_left"] = use.remaining
    if use.roll is None:
        return [f"{who} spends Effort {now}: none left"]
    verdict = "spent, none left" if use.exhausted else f"still {use.remaining}"
    check = CheckResult(
        expression=f"{now} Effort",
        total=use.roll,
        dice=(use.roll,),
        band="spent" if use.exhausted else "kept",
        detail=verdict,
    )
    return [tx.log_roll(who, check)]


@frozen
class RollNpc:
    """NPC-02/04/05/07/08: a roll from a library statblock, into the roll log.

    ``kind``: attack (d20 + Atk mod, damage), save (d20 + attribute vs Save), skill
    (2d6 + attribute, or d20 + 2 x attribute with ``system="d20"``, against ``target``),
    morale (2d6 + Will), effort (the usage die; a 1 or 2 spends it: remembered on the NPC
    as ``effort_left``), hp (HD x hit die). ``target`` is the target's AC for an attack and the
    DC for a skill check. A combatant in a fight rolls with :class:`RollStatblock` instead.
    """

    npc_id: int
    kind: RollKind
    attribute: str = "brawl"
    target: int | None = None
    system: str = "2d6"

    @property
    def label(self) -> str:
        return f"NPC {self.kind} roll"

    def run(self, tx: Transaction) -> list[str]:
        doc = _npc(tx, self.npc_id)
        block = npc_block(doc)
        who = str(doc.get("name", "NPC"))
        if self.kind == "effort":
            lines = spend_effort(tx, doc, block, who)
            tx.put("npcs", self.npc_id, doc)
            return lines
        return roll_statblock(tx, block, who, self.kind, self.attribute, self.target, self.system)


def instance_block(c: enc_rules.Combatant, library: dict[str, Any] | None) -> npc_rules.NPC | None:
    """The statblock a combatant rolls with (:func:`rulesets.npc.statblock_of`)."""
    return npc_rules.statblock_of(c.stats, library)


@frozen
class RollStatblock(CombatantCommand):
    """NPC-02/05/07/08 from the tracker: one combatant's statblock roll (attack, save, skill,
    morale, Effort), logged under its name (``Goblin 2``). Its Effort is its own
    (``stats["effort_left"]``), never the library NPC's, so two Goblins of one library NPC
    spend theirs apart; its morale roll settles a morale check due for it."""

    kind: RollKind = "attack"
    attribute: str = "brawl"
    target: int | None = None
    system: str = "2d6"

    @property
    def label(self) -> str:
        return f"Statblock {self.kind} roll"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        foe = foes.statted(fight, c)
        if foe is None:
            raise RuleError(
                f"{c.name} has no statblock (a library NPC has one, or a foe quick-added with an HD)"
            )
        if self.kind == "effort":
            return spend_effort(fight.tx, c.stats, foe.block, c.name, again="F")
        if self.kind == "attack":
            # The game's attack, at the default target (A in the tracker names its own).
            return foes.FoeAttack(self.encounter_id, c.id, attribute=self.attribute).change(fight)
        rules = fight.tx.game.foes
        kind = self.kind
        if kind == "save" and "save" not in rules.rolls and "defence" in rules.rolls:
            kind = "defence"  # V: the game's own answer to an attack (a Nemron defence pool)
        if kind not in rules.rolls:
            raise RuleError(f"{c.name} has no {kind} roll in {fight.tx.game.name}")
        edge, why = fight.rules.roll_edge(c)
        result = rules.roll(foe, kind, self.attribute, fight.tx.rng, edge)
        lines = [fight.tx.log_roll(c.name, result)]
        if edge and kind in ("attack", "save"):
            lines.append(f"{c.name} rolls with {edge} ({why})")
        if kind == "morale":
            lines += after_morale(fight, c, result)
        return lines


@frozen
class RefreshEffort:
    """NPC-05: give a library NPC its full Effort back (after a rest)."""

    npc_id: int

    @property
    def label(self) -> str:
        return "Refresh NPC Effort"

    def run(self, tx: Transaction) -> list[str]:
        doc = _npc(tx, self.npc_id)
        if "effort_left" not in doc:
            return []
        doc.pop("effort_left")
        tx.put("npcs", self.npc_id, doc)
        return [f"{doc.get('name', '')} has full Effort ({npc_block(doc).effort})"]


@frozen
class RefreshInstanceEffort(CombatantCommand):
    """NPC-05: one combatant's full Effort back (the tracker's F)."""

    LABEL = "Full Effort"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        block = instance_block(c, fight.npc_doc(c))
        if block is None or "effort_left" not in c.stats:
            raise RuleError(f"{c.name}'s Effort is already full")
        del c.stats["effort_left"]
        return [f"{c.name} has full Effort ({block.effort})"]

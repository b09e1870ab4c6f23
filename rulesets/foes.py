"""How an HD statblock becomes a game's foe, and how that foe acts.

The NPC builder makes one thing, the HD statblock of the Resolution rules' NPC section
(Brawl, Wit, Will, HD and the NPC-02 tables; quick builds by HD, NPC-03), and the library keeps
it: that is the product's quick NPC generation. Each game declares, as the :class:`FoeRules`
part of its :class:`rulesets.game.Game`, what that statblock is in its own terms:

- :attr:`FoeRules.make`: the stats of the combatant it becomes (plain HD HP, a vitality or
  stress track, limbs, Health/Life/Æssence with a Quickness …), for a library NPC joining a
  fight, a foe quick-added with an HD, or an imported statblock alike;
- :attr:`FoeRules.shows` and :attr:`FoeRules.preview`: the foe as the game sees it, in the
  tracker's pane and in the NPC panel's preview (nothing that has no meaning in the game);
- :attr:`FoeRules.rolls`, :attr:`FoeRules.roll`: the one-key rolls of the pane (the game's own
  rolls: a d20 save, a Nemron defence pool …);
- :attr:`FoeRules.attack`: one press of ``A``: every attack the foe makes this turn against a
  named target, rolled by the game's mechanic, as a :class:`Strike` that ``T`` (or enter)
  lands on the target through the one damage path (:func:`rulesets.fight.deal_damage`).

The defaults are the statblock's own rules (the Resolution and Somnihil reading: d20 + Atk mod
against the target's AC, the Atk Dmg dice, Shock on a miss), so a game that declares nothing
fights with HD foes.

Pure: no Textual, no app import.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, Literal

from rulesets import encounter as er
from rulesets import npc
from rulesets.base import CheckResult, RuleError
from rulesets.fight import CombatantCommand, EncounterCommand, Fight, deal_damage
from rulesets.npc import NPC, QuickBuild
from rulesets.table import Reader
from rulesets.values import frozen

Doc = dict[str, Any]
RollKind = Literal["attack", "defence", "save", "skill", "morale", "effort"]
ROLL_KINDS: tuple[RollKind, ...] = ("attack", "defence", "save", "skill", "morale", "effort")
ATTRIBUTES: tuple[str, ...] = npc.ATTRIBUTES
LANDED_WITH_ATTACK = "exchange"
"""A roll log entry's mark: rolled in an attack that landed what it dealt (``T`` refuses it)."""
STRIKE_KEY = "strike"
"""Encounter-document key of the attack waiting to land (``T``)."""


@frozen
class Foe:
    """A combatant with a statblock, as its game's foe hooks see it."""

    combatant: er.Combatant
    block: NPC
    sheet: Doc | None = None
    """Its foe sheet (a game's own: limbs, a stress track …); None: plain HD HP."""
    concepts: tuple[str, ...] = ()
    read: Reader | None = None
    """The campaign, to read what the game keeps elsewhere (a foe's hand in the decks)."""

    @property
    def name(self) -> str:
        return self.combatant.name

    @property
    def stats(self) -> dict[str, Any]:
        return self.combatant.stats


@frozen
class Swing:
    """One press of ``A``: who attacks whom, with what, and the fight it happens in."""

    fight: Fight
    attacker: Foe
    target: er.Combatant
    target_sheet: Doc | None
    """Where the target's health lives: its party sheet, its foe sheet, or None (HD HP)."""
    target_block: NPC | None
    """The target's own statblock, if it has one (its AC, its defence pool …)."""
    attribute: str = "brawl"
    edge: str = ""
    why: str = ""
    """Why the attacker rolls with an edge (inside the Anomaly …)."""
    lands: bool = False
    """The attack lands as it is rolled (``A``'s exchange): ``T`` must not deal it again."""

    @property
    def rng(self) -> random.Random:
        return self.fight.tx.rng

    def log(self, result: CheckResult, damage: int | None = None) -> str:
        """Into the roll log under the attacker's name; its line. ``damage``: what the attack
        deals (kept on the entry, so ``T`` on the log's last roll deals it, not the to-hit)."""
        extra: Doc = {"damage": damage} if damage is not None else {}
        if self.lands:
            extra[LANDED_WITH_ATTACK] = True
        return self.fight.tx.log_roll(self.attacker.name, result, extra=extra or None)


@frozen
class Strike:
    """A foe's attack, rolled: what lands on its target when the GM presses ``T``.

    ``amount`` and ``answers`` are the target's damage form's (the game's), so landing is the
    same path as ``t``: temporary HP, the game's sheet, defeat and morale.
    """

    said: str
    """One line for the tracker: ``"19 vs AC 13: hit, 5 damage"``."""
    hits: tuple[str, ...] = ()
    """The damage of each attack that lands, as the damage form's amount takes it: each lands
    on its own (its own location die, its own temporary HP); none: nothing lands."""
    answers: Mapping[str, Any] = field(default_factory=dict)
    ask: str = ""
    """The one field of the target's damage form the defender may answer before it lands
    (a defence roll, the defender's total, defence cards); blank: nothing to ask."""
    lines: tuple[str, ...] = ()
    brief: str = ""
    """What the attack came to in a few words for the line that asks (default: the hits)."""
    hint: str = ""
    """What helps the defender answer (the cards in its hand)."""

    @property
    def total(self) -> str:
        """What lands, in one word for the tracker's line: ``"5"``, ``"3 + 4"``."""
        return " + ".join(self.hits)

    def to_doc(self, attacker_id: str, target_id: str) -> Doc:
        return {
            "attacker": attacker_id,
            "target": target_id,
            "said": self.said,
            "hits": list(self.hits),
            "answers": dict(self.answers),
            "ask": self.ask,
            "brief": self.brief or self.total,
            "hint": self.hint,
        }


# --------------------------------------------------------------------------- HD defaults


def hd_stats(name: str, block: NPC, hp: int) -> Doc:
    """An HD foe: plain HP (NPC-04, rolled or fixed by whoever adds it) with morale."""
    return {"hp": hp, "hp_max": hp}


def atk_mod(block: NPC, attribute: str) -> int:
    return block.atk_mod if isinstance(block, QuickBuild) else block.atk_mod.get(attribute, 0)


def hd_roll_labels(foe: Foe, attribute: str) -> dict[RollKind, str]:
    block = foe.block
    value = block.attribute(attribute)
    return {
        "attack": f"attack {atk_mod(block, attribute):+d}"
        + (f" ×{block.attacks}" if block.attacks > 1 else ""),
        "save": f"save {value:+d} vs {block.save}+",
        "skill": f"skill 2d6{value:+d}",
        "morale": f"morale 2d6{block.attribute('will'):+d}",
        "effort": "Effort",
    }


def hd_shows(foe: Foe) -> list[str]:
    """The statblock as the NPC rules write it (the pane draws it whole): nothing to add."""
    return []


def hd_preview(block: NPC) -> list[str]:
    return [
        f"As a foe here: {block.hp} HP (or {block.hp_roll}), d20 + its attack bonus vs AC, "
        f"morale 2d6{block.attribute('will'):+d}"
    ]


def target_ac(swing: Swing) -> int | None:
    """The target's AC where it is known: its statblock's, or its sheet's ``ac`` attribute."""
    if swing.target_block is not None:
        return swing.target_block.ac
    attributes = (swing.target_sheet or {}).get("attributes")
    value = attributes.get("ac") if isinstance(attributes, Mapping) else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def d20_attack(swing: Swing) -> Strike:
    """NPC-02: each of the statblock's attacks (# Atks) rolls d20 + Atk mod against the target's
    AC where it is known; the hits' damage (Atk Dmg) is what lands, and Brawl's Shock on a miss
    (against an AC at or under its limit). Where the AC is not known (a PC whose sheet keeps
    none), every attack's damage is rolled and the line says so: the GM lands it on a hit.

    Reading: a PC in these games keeps no AC on its sheet (Somnihil has none; Resolution's
    sheet gives one), so against an unknown AC the attack's damage waits on the GM's word.
    """
    block, name = swing.attacker.block, swing.attacker.name
    ac = target_ac(swing)
    hits: list[str] = []
    parts: list[str] = []
    logged: list[str] = []
    for _ in range(max(1, block.attacks)):
        result = npc.attack(swing.rng, block, swing.attribute, ac, edge=swing.edge)
        dealt = result.damage if ac is None or result.band == npc.HIT else result.shock
        logged.append(swing.log(result, damage=dealt))
        if ac is None or result.band == npc.HIT:
            hits.append(str(result.damage))
            verdict = "to hit" if ac is None else "hits"
            parts.append(f"{result.total} {verdict}, {result.damage} damage")
        else:
            if result.shock:
                hits.append(str(result.shock))
            parts.append(f"{result.total} misses" + (f", shock {result.shock}" if result.shock else ""))
    versus = f" vs AC {ac}" if ac is not None else ""
    said = f"{name} attacks {swing.target.name}{versus}: " + "; ".join(parts)
    if ac is None and hits:
        said += " (its AC is not on its sheet: the hits are the GM's call)"
    return Strike(said=said, hits=tuple(hits), lines=tuple(logged))


def generic_roll(foe: Foe, kind: RollKind, attribute: str, rng: random.Random, edge: str) -> CheckResult:
    """NPC-05/07/08: save (d20 + attribute vs Save), skill (2d6 + attribute vs 8), morale
    (2d6 + Will); the statblock's own rolls, in every game that keeps them."""
    block = foe.block
    if kind == "save":
        return npc.saving_throw(rng, block, attribute, edge=edge)
    if kind == "skill":
        return npc.skill_check(rng, block, attribute, 8)
    if kind == "morale":
        return npc.morale_check(rng, block.attribute("will"))
    raise RuleError(f"{foe.name} has no {kind} roll in this game")


@frozen
class FoeRules:
    """How a game turns an HD statblock into its foe and how that foe acts (module docstring).

    Every hook has the HD statblock's own answer as its default."""

    make: Callable[[str, NPC, int], Doc] = hd_stats
    """``make(name, statblock, hp)``: the combatant's ``stats`` (a foe sheet under ``"sheet"``);
    ``hp`` is the statblock's HP for this one (rolled or fixed, NPC-04)."""
    rolls_hp: bool = True
    """A new foe's HP is rolled (HD × hit die) or fixed as the GM chose; False where the game's
    foe has no HP to roll (a stress track)."""
    shows: Callable[[Foe], list[str]] = hd_shows
    """Lines for the tracker's pane: the foe as the game sees it (its health is shown above)."""
    draws_statblock: bool = True
    """The pane draws the NPC rules' statblock (AC, Save, Shock …) below those lines; False where
    none of it means anything in the game."""
    preview: Callable[[NPC], list[str]] = hd_preview
    """Lines for the NPC panel: what this statblock becomes in the game."""
    rolls: tuple[RollKind, ...] = ("attack", "save", "skill", "morale", "effort")
    """The pane's one-key rolls that mean something in the game."""
    roll_labels: Callable[[Foe, str], dict[RollKind, str]] = hd_roll_labels
    """``roll_labels(foe, attribute)``: what each roll is, for the pane (``"attack +3 ×2"``),
    over the statblock's own (its morale, its Effort)."""
    roll: Callable[[Foe, RollKind, str, random.Random, str], CheckResult] = generic_roll
    """``roll(foe, kind, attribute, rng, edge)``: a roll other than the attack and Effort."""
    attack: Callable[[Swing], Strike] = d20_attack
    """One press of ``A``: every attack the foe makes on the target (module docstring)."""
    roll_with: bool = True
    """``B`` steps what the attack, save and skill roll with (Brawl, Wit, Will)."""


HD_FOE_RULES = FoeRules()
"""The NPC rules' own foes (Resolution, Somnihil, and any game that declares none)."""


__all__ = [
    "ATTRIBUTES",
    "Foe",
    "FoeAttack",
    "FoeRules",
    "LandStrike",
    "HD_FOE_RULES",
    "ROLL_KINDS",
    "RollKind",
    "STRIKE_KEY",
    "Strike",
    "Swing",
    "atk_mod",
    "d20_attack",
    "default_target",
    "generic_roll",
    "hd_stats",
    "statted",
    "target_ac",
]


# --------------------------------------------------------------------------- in the fight


def has_statblock(c: er.Combatant) -> bool:
    """Whether a combatant fights with a statblock: a library NPC's or a quick build's."""
    hd = c.stats.get("hd")
    if isinstance(hd, int) and not isinstance(hd, bool):
        return True
    return c.side == "npc" and str(c.ref or "").isdigit()


def statted(fight: Fight, c: er.Combatant) -> Foe | None:
    """The combatant as a foe with a statblock (None: it has none)."""
    library = fight.npc_doc(c)
    try:
        block = npc.statblock_of(c.stats, library)
    except RuleError as exc:  # a hand-edited library NPC or HD: named, never a traceback
        raise RuleError(f"{c.name}'s statblock cannot be built: {exc}") from None
    if block is None:
        return None
    concepts = tuple(str(x) for x in (library or {}).get("concepts", ()) if isinstance(x, str))
    sheet = c.stats.get("sheet")
    return Foe(c, block, sheet if isinstance(sheet, dict) else None, concepts)


def default_target(
    enc: er.Encounter, attacker: er.Combatant, selected_id: str | None = None
) -> er.Combatant | None:
    """Whom an attack goes to unless the GM says otherwise: the one selected, else the one
    acting, if on the other side and still in the fight; else the attacker's last target; else
    the next one on the other side after it in the order."""
    others = [
        c for c in enc.combatants
        if c.id != attacker.id and not c.defeated and c.side != attacker.side
    ]  # fmt: skip
    if not others:
        return None
    by_id = {c.id: c for c in others}
    for wanted in (selected_id, enc.current, attacker.stats.get("last_target")):
        if isinstance(wanted, str) and wanted in by_id:
            return by_id[wanted]
    order = [c.id for c in enc.combatants]
    start = order.index(attacker.id)
    for cid in order[start + 1 :] + order[:start]:
        if cid in by_id:
            return by_id[cid]
    return others[0]


def turn_roller(encounter: Mapping[str, Any], players_roll: bool) -> str | None:
    """The party ref of who rolls first on this turn: the acting PC; on a foe's turn the GM
    (None), or, where the players roll every die, the PC the foe attacks (its
    :func:`default_target`)."""
    if not encounter.get("current"):
        return None
    enc = er.Encounter.from_dict(dict(encounter))
    acting = er.current_combatant(enc)
    if acting is None:
        return None
    if acting.side == "pc":
        return str(acting.ref) if acting.ref is not None else None
    if not players_roll:
        return None
    target = default_target(enc, acting)
    if target is None or target.side != "pc" or target.ref is None:
        return None
    return str(target.ref)


@frozen
class FoeAttack(CombatantCommand):
    """``A``: the combatant attacks ``target_id`` (blank: :func:`default_target`) by its game's
    mechanic (:attr:`FoeRules.attack`); the strike waits in the encounter until ``T`` lands it.
    """

    target_id: str = ""
    attribute: str = "brawl"
    lands: bool = False
    """Landed at once by the exchange (``A``), not left waiting for ``T``."""

    LABEL = "Attack"

    def change(self, fight: Fight) -> list[str]:
        attacker = fight.combatant(self.combatant_id)
        foe = statted(fight, attacker)
        if foe is None:
            raise RuleError(
                f"{attacker.name} has no statblock (a library NPC has one, or a foe quick-added "
                "with an HD)"
            )
        if self.target_id:
            target = fight.combatant(self.target_id)
        else:
            found = default_target(fight.enc, attacker)
            if found is None:
                raise RuleError(f"{attacker.name} has no one to attack")
            target = found
        if target.id == attacker.id:
            raise RuleError(f"{attacker.name} cannot attack itself: pick a target")
        if target.defeated:
            raise RuleError(f"{target.name} is out of the fight")
        if self.attribute.casefold() not in ATTRIBUTES:
            raise RuleError(f"An attack rolls with {', '.join(ATTRIBUTES)}")
        edge, why = fight.rules.roll_edge(attacker)
        other = statted(fight, target)
        swing = Swing(
            fight, foe, target, fight.sheet(target), other.block if other else None,
            self.attribute.casefold(), edge, why, self.lands,
        )  # fmt: skip
        try:
            strike = fight.tx.game.foes.attack(swing)
        except RuleError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            # A hand-edited or imported foe the game cannot read: said, never a traceback.
            raise RuleError(f"{attacker.name} cannot attack: its sheet has {exc!r}") from None
        attacker.stats["last_target"] = target.id
        fight.doc[STRIKE_KEY] = strike.to_doc(attacker.id, target.id)
        landing = (
            "nothing lands" if not strike.hits
            else f"on {target.name}" if self.lands
            else f"T lands it on {target.name}"
        )  # fmt: skip
        lines = [*strike.lines, f"{strike.said} · {landing}"]
        if edge:
            lines.append(f"{attacker.name} rolls with {edge} ({why})")
        return lines


@frozen
class LandStrike(EncounterCommand):
    """``T`` after ``A``: the waiting strike lands on its target through the one damage path,
    with the defender's answer (``answer``: a defence roll, a total, defence cards) where the
    game asks one, and ``answers`` to override any of the damage form's (the whole form)."""

    answer: str = ""
    answers: Mapping[str, Any] = field(default_factory=dict)

    LABEL = "Land the attack"

    def change(self, fight: Fight) -> list[str]:
        waiting = fight.doc.get(STRIKE_KEY)
        if not isinstance(waiting, Mapping):
            raise RuleError("No attack waits to land (A rolls the selected foe's attack)")
        target_id = str(self.answers.get("target_id") or waiting.get("target", ""))
        target = fight.combatant(target_id)
        # A hit is an amount; a blank one lands by the form's answers (an attack card).
        hits = [str(h) for h in waiting.get("hits") or ()]
        if "amount" in self.answers:  # the whole form: the GM's own amount, one hit
            hits = [str(self.answers["amount"])] if str(self.answers["amount"]).strip() else []
        answers = {**dict(waiting.get("answers") or {}), **dict(self.answers)}
        answers.pop("amount", None)
        answers.pop("target_id", None)
        ask = str(waiting.get("ask") or "")
        if ask and self.answer.strip():
            answers[ask] = self.answer.strip()
        fight.doc.pop(STRIKE_KEY, None)
        if not hits:
            return [f"Nothing lands on {target.name}"]
        lines: list[str] = []
        for amount in hits:
            if target.defeated and lines:
                break  # the first hit took it out: the rest fall on nothing
            lines += deal_damage(fight, target.id, amount, answers)
        return lines

"""Nemron in the combat tracker: limbs, the initiative pool, defence rolls, ranked conditions and
the action / reaction / movement of a turn (NEM-05..09, NEM-11, NEM-12).

Reading: HD NPCs without a sheet roll initiative with Wit as Agility and Awareness and Will as
Sense, because HD NPCs have no Nemron attributes.
Reading: a quick-added foe has every limb at the HP typed and rank 0 (d4) in the initiative
attributes, because a foe needs no more of a character sheet to be hit and to act.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rulesets import encounter as er
from rulesets.base import CheckResult
from rulesets.fight import (
    Answers,
    CombatantCommand,
    Fight,
    FightRules,
    FoeSheet,
    HealthKind,
    Hit,
    amount_form,
    heal_amount_form,
    parse_amount,
    selected,
)
from rulesets.foes import statted
from rulesets.nemron import rules as nemron
from rulesets.nemron.foes import defence_roll
from rulesets.table import Action, Context, Field
from rulesets.values import frozen

Doc = dict[str, Any]


def initiative(rng: random.Random, sheet: Doc | None, npc: Doc | None) -> CheckResult:
    """NEM-05: Agility › Awareness › Sense, keep the highest."""
    if sheet is None:
        wit = max(0, min(4, int(npc.get("wit", 0)))) if npc else 0
        will = max(0, min(4, int(npc.get("will", 0)))) if npc else 0
        sheet = {"attributes": {"agility": wit, "awareness": wit, "sense": will}}
    pool = nemron.initiative_pool(sheet)
    faces = [rng.randint(1, s) for s in pool]
    text = "+".join(f"d{s}" for s in pool)
    return CheckResult(f"initiative {text} keep highest", max(faces), tuple(faces))


# --------------------------------------------------------------------------- foes


def make_foe(name: str, health: int, answers: Answers) -> Doc:
    return {
        "sheet": {
            "name": name,
            "attributes": dict.fromkeys(nemron.INITIATIVE_ATTRIBUTES, 0),
            "tracks": {"limbs": {limb: {"hp": health, "max": health} for limb in nemron.LIMBS}},
            "status": "alive",
        }
    }


def out(sheet: Doc) -> bool:
    return bool(sheet.get("status", "alive") != "alive")


# --------------------------------------------------------------------------- damage


DIE_FACES = tuple(str(face) for face in nemron.LOCATION_DIE)
"""NEM-08: a limb named by the location die's number (1 right arm … 6 head)."""
LIMB_CHOICES = (*DIE_FACES, *nemron.LIMBS, "aoe")


def damage_form(kind: HealthKind) -> tuple[Field, ...]:
    limb = (
        Field(
            "limb",
            "Limb (1-6 or name; blank: location die; aoe)",
            "",
            "choice",
            choices=LIMB_CHOICES,
            required=False,
        ),
    )
    said = "blank: the foe rolls its defence; 0: none" if kind == "foe" else "blank: none"
    defence = Field("defence_roll", f"Defence roll ({said})", "", "optint")
    return (*amount_form(kind), *(() if kind == "hp" else limb), defence)


def heal_form(kind: HealthKind) -> tuple[Field, ...]:
    if kind == "hp":
        return heal_amount_form(kind)
    limb = Field(
        "limb",
        "Limb (1-6 or name; blank: most hurt)",
        "",
        "choice",
        choices=(*DIE_FACES, *nemron.LIMBS),
        required=False,
    )
    return (*heal_amount_form(kind), limb)


AFTER_DEFENCE = "after_defence"
"""An answer the exchange lands with: the amount is already what its defence left."""


def damage_amount(hit: Hit, amount: str) -> tuple[int | None, list[str]]:
    """NEM-07: an active defence roll reduces the attack roll (never below 0)."""
    attack = parse_amount(amount, hit.tx, hit.combatant.name)
    if hit.answers.flag(AFTER_DEFENCE):
        # The exchange has already taken its defence off and said so: its amount is the
        # damage, and an "attack N − defence 0" line would contradict the rolls just read.
        return attack, []
    defence = hit.answers.number("defence_roll", None)
    rolled: list[str] = []
    if defence is None and hit.kind == "foe":
        # A foe with a statblock answers with its active defence (rulesets.nemron.foes), while
        # it has its reaction: defending spends it, one a turn (NEM-06).
        foe = statted(hit.fight, hit.combatant)
        spent = foe is not None and hit.combatant.economy.get("reaction", False)
        if spent:
            rolled.append(f"{hit.combatant.name} has no reaction left: no defence (NEM-06)")
        elif foe is not None:
            hit.combatant.economy["reaction"] = True
            result = defence_roll(hit.rng, foe.sheet, foe.block)
            hit.tx.log_roll(hit.combatant.name, result)
            defence = result.total
            rolled.append(f"{hit.combatant.name} defends: {result.expression} = {result.total}")
    if defence is None:
        return attack, rolled
    if defence < 0:
        raise nemron.RuleError("The defence roll cannot be negative")
    net = nemron.damage_after_defence(attack, defence)
    lines = [*rolled, f"attack {attack} − defence {defence} = {net} damage (NEM-07)"]
    if net <= 0:
        return None, [*lines, f"{hit.combatant.name} takes no damage"]
    return net, lines


def hurt(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    """NEM-08 on a named limb or the location die; NEM-09 "aoe": one die per point."""
    limb = hit.answers.text("limb")
    if limb.casefold() == "aoe":
        return sheet, list(nemron.apply_aoe_damage(sheet, amount, hit.rng).log)
    return sheet, list(nemron.apply_damage(sheet, amount, hit.rng, limb or None).log)


def heal(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    """NEM-11: heal one limb (the most hurt by default); both major limbs up: no longer downed
    (:func:`rulesets.nemron.rules.heal_limb`)."""
    limbs = nemron.limbs_of(sheet)
    limb = hit.answers.text("limb") or min(limbs, key=lambda k: limbs[k]["hp"] - limbs[k]["max"])
    return sheet, [nemron.heal_limb(sheet, limb, amount)]


def _share(sheet: Doc) -> tuple[int, int]:
    """The limbs' HP together, and their most (one pass: a danger estimate asks it often)."""
    left = top = 0
    for limb in nemron.limbs_of(sheet).values():
        left += int(limb["hp"])
        top += int(limb["max"])
    return left, top


FOE = FoeSheet(
    health_label="HP per limb",
    health_default=5,
    make=make_foe,
    health=nemron.health_summary,
    hurt=hurt,
    heal=heal,
    out=out,
    share=_share,
)
"""Reading: a foe has "lost half its HP" (NPC-08) when its limbs together have."""


# --------------------------------------------------------------------------- the row


BONUS_REACTION = "bonus_reaction"
"""Economy key: the 2-Energy bonus reaction was bought this turn (NEM-10, once a round)."""


def turn_note(enc: er.Encounter, c: er.Combatant) -> str:
    """NEM-06: what of the turn is used (``used AR``: action and reaction; ``+bonus R``: the
    2-Energy bonus reaction too)."""
    if not er.turn_order_of(enc).uses_initiative:
        return ""
    used = [k[0].upper() for k in er.ECONOMY_KINDS if c.economy.get(k)]
    if c.economy.get(BONUS_REACTION):  # NEM-10: the 2-Energy bonus reaction, bought and used
        used.append("+bonus R" if used else "bonus R")  # "+" only after what else is used
    return "used " + "".join(used) if used else ""


def ticked(counted: list[tuple[er.Combatant, er.Effect]]) -> list[str]:
    """NEM-12: a ranked condition loses a rank each time its tick fires, on whatever turn
    change fired it (next turn, the first turn, a removal, a delay …)."""
    for _, effect in counted:
        if effect.rank is not None:
            after = nemron.decay({"name": effect.name, "rank": effect.rank})
            effect.rank = after["rank"] if after else 0
    return []


def limbs_line(c: er.Combatant, sheet: Doc | None) -> str:
    """Every limb of the selected character or foe by its location die's number (NEM-08), so
    the damage form's 1-6 reads off the line: ``1 right arm 10/10 · … · 6 head 0/8 (0)``."""
    if not sheet:
        return ""
    limbs = nemron.limbs_of(sheet)
    parts = []
    for face, limb in nemron.LOCATION_DIE.items():
        if limb in limbs:
            hp, top = int(limbs[limb]["hp"]), int(limbs[limb]["max"])
            shown = f"{face} {nemron.limb_label(limb)} {hp}/{top}"
            parts.append(shown + (" (0)" if hp == 0 else ""))
    return f"{c.name}: " + " · ".join(parts)


FIGHT = FightRules(
    foe=FOE,
    initiative=initiative,
    damage_form=damage_form,
    heal_form=heal_form,
    damage_amount=damage_amount,
    hurt=hurt,
    heal=heal,
    out=out,
    keeps_turn=lambda sheet: sheet.get("status") == "downed",
    detail=limbs_line,
    turn_note=turn_note,
    ticked=ticked,
    ranked_conditions=True,
)


# --------------------------------------------------------------------------- actions


@frozen
class ToggleEconomy(CombatantCommand):
    """NEM-06: mark the action, reaction or movement used this turn (or give it back)."""

    kind: str = "action"

    @property
    def label(self) -> str:
        return f"Use {self.kind}"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        return er.use_economy(fight.enc, c.id, self.kind, not c.economy.get(self.kind, False))


def _economy(kind: str) -> Action:
    def make(ctx: Context, values: Mapping[str, Any]) -> ToggleEconomy:
        eid, cid = selected(ctx)
        return ToggleEconomy(eid, cid, kind)

    return Action(
        id=f"{kind}_used",
        panel="combat",
        key={"action": "v", "reaction": "r", "movement": "m"}[kind],
        label=f"{kind.capitalize()} used",
        description=f"The selected's {kind} used this turn (or given back)",
        make=make,
        needs="combatant",
        show=False,
    )


ACTIONS: tuple[Action, ...] = tuple(_economy(kind) for kind in er.ECONOMY_KINDS)

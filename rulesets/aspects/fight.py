"""The 2d6 aspects game in the combat tracker: overlaps against stress caps (ASP-05/06).

Damage to a character or a foe is a confrontation: the attack total against the defence total;
the overlap is a minor injury up to the stress cap, a consequence above it, and at the
consequence limit the character enters their Darkest Self or is Taken Out (the GM's choice, f).

Reading: a foe is a stress track: a stress cap per conflict (the typed cap, or the text's
default 3 for a library NPC, whose HD statblock has none), no consequence slots ("NPCs often
0") and no Darkest Self, so an overlap above its cap takes it out at once; Darkest Self is a
player character's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.aspects import rules as aspects
from rulesets.fight import (
    CombatantCommand,
    Fight,
    FightRules,
    FoeSheet,
    HealthKind,
    Hit,
    amount_form,
    combatant_name,
    heal_amount_form,
    waiting_choice,
)
from rulesets.table import Action, Context, Field

Doc = dict[str, Any]
CHOICES = ("Darkest Self", "Taken Out")


# --------------------------------------------------------------------------- foes


def foe_sheet(name: str, cap: int) -> Doc:
    return {
        "name": name,
        "attributes": {
            "physical_stress_cap": cap,
            "mental_stress_cap": cap,
            "consequence_slots": 0,
        },
        "lists": {"injuries": [], "consequences": []},
        "status": aspects.ALIVE,
    }


def foe_health(sheet: Doc) -> str:
    caps = sheet.get("attributes", {})
    physical = caps.get("physical_stress_cap", aspects.DEFAULT_STRESS_CAP)
    mental = caps.get("mental_stress_cap", aspects.DEFAULT_STRESS_CAP)
    cap = str(physical) if physical == mental else f"{physical}/{mental}"
    line = f"stress cap {cap} · {len(sheet.get('lists', {}).get('injuries', []))} inj"
    status = sheet.get("status", aspects.ALIVE)
    return line if status == aspects.ALIVE else f"{line} ({status})"


def out(sheet: Doc) -> bool:
    return sheet.get("status") == aspects.TAKEN_OUT


# --------------------------------------------------------------------------- damage


def damage_form(kind: HealthKind) -> tuple[Field, ...]:
    if kind == "hp":
        return amount_form(kind)
    return (
        Field("amount", "Attack total", "", "amount"),
        Field("defence", "Defence total", "0", "int", minimum=-99),
        Field("kind", "Conflict", "physical", "choice", choices=aspects.CONFLICTS),
    )


def heal_form(kind: HealthKind) -> tuple[Field, ...]:
    if kind == "hp":
        return heal_amount_form(kind)
    return (Field("amount", "Minor injuries healed", "", "amount"),)


def _confront(hit: Hit, sheet: Doc, attack: int) -> aspects.ConfrontationOutcome:
    kind = hit.answers.choice("kind", aspects.CONFLICTS, "physical")
    return aspects.resolve_attack(
        sheet, attack, hit.answers.whole("defence"), hit.tx.now()[:10], kind
    )


def hurt_character(hit: Hit, sheet: Doc, attack: int) -> tuple[Doc, list[str]]:
    """ASP-05/06: at the consequence limit the choice waits in the encounter until made (f)."""
    res = _confront(hit, sheet, attack)
    lines = list(res.log)
    if res.choice_needed and res.entry is not None:
        hit.fight.pending()[hit.combatant.id] = {"overlap": res.overlap, "entry": res.entry}
        lines.append("Darkest Self or Taken Out? Press f to choose")
    return sheet, lines


def hurt_foe(hit: Hit, sheet: Doc, attack: int) -> tuple[Doc, list[str]]:
    res = _confront(hit, sheet, attack)
    lines = [line for line in res.log if "Darkest Self" not in line]
    if res.choice_needed:
        lines += aspects.take_out(sheet, res)
    return sheet, lines


def heal(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    """The newest minor injuries first, that many."""
    injuries = sheet.setdefault("lists", {}).setdefault("injuries", [])
    gone = [injuries.pop() for _ in range(min(amount, len(injuries)))]
    name = sheet.get("name", "?")
    return sheet, [
        f"{name} recovers from {len(gone)} minor injur{'y' if len(gone) == 1 else 'ies'}"
    ]


def notes(doc: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    pending = doc.get("pending") or {}
    if not isinstance(pending, Mapping) or not pending:
        return []
    return [f"Darkest Self or Taken Out (f): {', '.join(names.get(k, '?') for k in pending)}"]


FOE = FoeSheet(
    health_label="Stress cap",
    health_default=aspects.DEFAULT_STRESS_CAP,
    make=lambda name, cap, answers: {"sheet": foe_sheet(name, cap)},
    from_library=lambda name, hp, npc: {"sheet": foe_sheet(name, aspects.DEFAULT_STRESS_CAP)},
    health=foe_health,
    hurt=hurt_foe,
    heal=heal,
    out=out,
)

FIGHT = FightRules(
    foe=FOE,
    damage_form=damage_form,
    heal_form=heal_form,
    damage_is_points=False,
    hurt=hurt_character,
    heal=heal,
    out=out,
    notes=notes,
)


# --------------------------------------------------------------------------- the choice


@dataclass(frozen=True)
class ChooseDarkestSelf(CombatantCommand):
    """ASP-06: at the consequence limit, enter the Darkest Self or be Taken Out."""

    choice: str = ""

    @property
    def label(self) -> str:
        return f"Fate: {self.choice}"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        waiting = fight.doc.get("pending", {}).get(c.id)
        sheet = fight.sheet(c)
        if waiting is None or sheet is None:
            raise aspects.RuleError(f"{c.name} has no Darkest Self choice waiting")
        fight.pending().pop(c.id, None)
        outcome = aspects.ConfrontationOutcome(
            waiting["overlap"], aspects.CHOICE, waiting["entry"], True, ()
        )
        if self.choice.casefold().startswith("dark"):
            lines = aspects.enter_darkest_self(sheet, outcome)
        else:
            lines = aspects.take_out(sheet, outcome)
        fight.put_sheet(c, sheet)
        return lines


def _make(ctx: Context, values: Mapping[str, Any]) -> ChooseDarkestSelf:
    target = waiting_choice(ctx)
    if ctx.encounter_id is None or target is None:
        raise aspects.RuleError("Nobody is waiting on a Darkest Self choice")
    return ChooseDarkestSelf(ctx.encounter_id, target, str(values["choice"]))


def _title(ctx: Context) -> str:
    return f"{combatant_name(ctx, waiting_choice(ctx))}: Darkest Self or Taken Out"


ACTIONS: tuple[Action, ...] = (
    Action(
        id="darkest_self",
        panel="combat",
        key="f",
        label="Darkest Self or Taken Out",
        description="Darkest Self or Taken Out, for the character at the consequence limit",
        make=_make,
        needs="encounter",
        form=lambda ctx: (Field("choice", "Choose", CHOICES[0], "choice", choices=CHOICES),),
        title=_title,
        available=lambda ctx: waiting_choice(ctx) is not None,
    ),
)

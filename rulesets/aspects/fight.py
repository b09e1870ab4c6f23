"""The 2d6 aspects game in the combat tracker: overlaps against stress caps (ASP-05/06).

Damage to a character or a foe is a confrontation: the attack total against the defence total;
the overlap is a minor injury up to the stress cap, a consequence above it, and at the
consequence limit the character enters their Darkest Self or is Taken Out (the GM's choice, f).

The defender names an injury or consequence (the damage form's last field, or r afterwards;
H lets a consequence heal into a negative aspect). Advantages created in the fight (A), their
free invokes (F) and compels (C) are :mod:`rulesets.aspects.advantage`'s commands.

Reading: a quick-added foe without an HD is a nameless NPC: no stress cap unless one is
typed (the text: they "generally omit" caps, and the first hit is a consequence and Taken
Out), no consequence slots ("NPCs often 0") and no Darkest Self (a player character's). A foe with a statblock (a
library NPC, a quick add with an HD) has skills, caps and slots from it
(:mod:`rulesets.aspects.foes`).
Reading: a blank defence total is rolled for the defender (2d6 + its defence skill), so a
foe answers a PC's attack, and a PC a foe's, without the GM working it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulesets.aspects import advantage
from rulesets.aspects import rules as aspects
from rulesets.aspects.checks import free_invoke_form, has_free_invoke, make_free_invoke
from rulesets.aspects.foes import defence_roll
from rulesets.clock import campaign_date
from rulesets.fight import (
    CombatantCommand,
    Fight,
    FightRules,
    FoeSheet,
    HealthKind,
    Hit,
    amount_form,
    combatant_name,
    combatants,
    heal_amount_form,
    selected,
    waiting_choice,
)
from rulesets.table import Action, Context, Field
from rulesets.values import frozen

Doc = dict[str, Any]
CHOICES = ("Darkest Self", "Taken Out")
NAMELESS_CAP = 0
"""A nameless foe's stress cap: none. The text: nameless NPCs "generally omit" stress caps;
"when they get hit the first time it will cause a Consequence and being Taken Out"."""


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
        Field("defence", "Defence total (blank: the defender rolls 2d6 + its skill)", "",
              "optint", minimum=-99),  # fmt: skip
        Field("kind", "Conflict", "physical", "choice", choices=aspects.CONFLICTS),
        Field("name", "The injury in the defender's words (blank: named later, r)", required=False),
    )


def heal_form(kind: HealthKind) -> tuple[Field, ...]:
    if kind == "hp":
        return heal_amount_form(kind)
    return (Field("amount", "Minor injuries healed", "", "amount"),)


def _confront(
    hit: Hit, sheet: Doc, attack: int
) -> tuple[aspects.ConfrontationOutcome, list[str]]:
    """ASP-05: the confrontation, with the defender's total as typed or, blank, rolled for it
    (2d6 + its defence skill, into the roll log under its name)."""
    kind = hit.answers.choice("kind", aspects.CONFLICTS, "physical")
    defence = hit.answers.number("defence", None)
    said: list[str] = []
    if defence is None:
        result, how = defence_roll(hit.rng, sheet, kind)
        hit.tx.log_roll(hit.combatant.name, replace(result, detail=how))
        defence = result.total
        said.append(f"{hit.combatant.name} defends: {how}")
    outcome = aspects.resolve_attack(
        sheet,
        attack,
        defence,
        campaign_date(hit.tx),
        kind,
        hit.answers.text("name"),
    )
    return outcome, said


def hurt_character(hit: Hit, sheet: Doc, attack: int) -> tuple[Doc, list[str]]:
    """ASP-05/06: at the consequence limit the choice waits in the encounter until made (f)."""
    res, lines = _confront(hit, sheet, attack)
    lines += res.log
    if res.choice_needed and res.entry is not None:
        hit.fight.pending()[hit.combatant.id] = {"overlap": res.overlap, "entry": res.entry}
        lines.append("Darkest Self or Taken Out? Press f to choose")
    elif res.result == aspects.CONSEQUENCE and not hit.answers.text("name"):
        lines.append("the defender names it: r")
    return sheet, lines


def hurt_foe(hit: Hit, sheet: Doc, attack: int) -> tuple[Doc, list[str]]:
    res, lines = _confront(hit, sheet, attack)
    lines += [line for line in res.log if "Darkest Self" not in line]
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


def _aspect_text(entry: Any, holder: str) -> str:
    """``"Cornered (free invoke: Rowan Pike)"``."""
    name = str(entry.get("name", "?")) if isinstance(entry, Mapping) else str(entry)
    free = aspects.free_invoker(entry, holder)
    return f"{name} (free invoke: {free})" if free else name


def notes(doc: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    lines = []
    scene = doc.get(advantage.SCENE_KEY)
    if isinstance(scene, list) and scene:
        shown = ", ".join(_aspect_text(e, aspects.SCENE) for e in scene)
        lines.append(f"Scene: {shown}")
    pending = doc.get("pending") or {}
    if isinstance(pending, Mapping) and pending:
        who = ", ".join(names.get(k, "?") for k in pending)
        lines.append(f"Darkest Self or Taken Out (f): {who}")
    return lines


def detail(c: Any, sheet: Doc | None) -> str:
    """The selected's aspects (a created advantage with whose free invoke it is) and
    consequences, on the line under the tracker."""
    if not sheet:
        return ""
    lists = sheet.get("lists") or {}
    parts = [str(a) for a in lists.get("aspects") or []]
    parts += [_aspect_text(e, c.name) for e in lists.get("temporary_aspects") or []]
    held = aspects.consequence_names(sheet)
    line = f"Aspects: {', '.join(parts)}" if parts else ""
    if held:
        line += (" · " if line else "") + f"Consequences (r names): {', '.join(held)}"
    return line


FOE = FoeSheet(
    health_label="Stress cap",
    health_default=NAMELESS_CAP,
    make=lambda name, cap, answers: {"sheet": foe_sheet(name, cap)},
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
    detail=detail,
    scene_start=aspects.scene_fates,
)
"""Reading: a fight is a scene (ASP-02), so starting one gives each PC in it with no fate point
one. A Taken Out is left to the GM (the party sheet's "new scene" ends it): a PC taken out
before the fight starts may be out of it."""


# --------------------------------------------------------------------------- the choice


@frozen
class ChooseDarkestSelf(CombatantCommand):
    """ASP-06: at the consequence limit, enter the Darkest Self or be Taken Out."""

    choice: str = ""
    name: str = ""
    """The consequence in the defender's words (blank: as the hit named it)."""

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
        entry = dict(waiting["entry"])
        if self.name.strip():
            if self.name.strip().casefold() in (
                n.casefold() for n in aspects.consequence_names(sheet)
            ):
                raise aspects.RuleError(f"{c.name} already has the consequence {self.name!r}")
            entry["name"] = self.name.strip()
        outcome = aspects.ConfrontationOutcome(waiting["overlap"], aspects.CHOICE, entry, True, ())
        if self.choice.casefold().startswith("dark"):
            lines = aspects.enter_darkest_self(sheet, outcome)
        else:
            lines = aspects.take_out(sheet, outcome)
        fight.put_sheet(c, sheet)
        return lines


def _party_member(ctx: Context, c: Mapping[str, Any] | None) -> Doc | None:
    """The party sheet of a combatant who is a PC (None: a foe, an ally, nobody)."""
    if c is None or c.get("side") != "pc" or not str(c.get("ref", "")).isdigit():
        return None
    return ctx.read.doc("party", int(str(c["ref"])))


def _choosing(ctx: Context) -> str | None:
    """The PC a Darkest Self choice waits on; never offered with a foe selected (a foe has no
    Darkest Self: it is taken out)."""
    target = waiting_choice(ctx)
    if ctx.combatant is not None and _party_member(ctx, ctx.combatant) is None:
        return None
    return target


def _make(ctx: Context, values: Mapping[str, Any]) -> ChooseDarkestSelf:
    target = _choosing(ctx)
    if ctx.encounter_id is None or target is None:
        raise aspects.RuleError("Nobody is waiting on a Darkest Self choice")
    return ChooseDarkestSelf(
        ctx.encounter_id, target, str(values["choice"]), str(values.get("name") or "")
    )


def _title(ctx: Context) -> str:
    return f"{combatant_name(ctx, _choosing(ctx))}: Darkest Self or Taken Out"


def _choice_form(ctx: Context) -> tuple[Field, ...]:
    waiting = ((ctx.encounter or {}).get("pending") or {}).get(_choosing(ctx) or "") or {}
    named = str((waiting.get("entry") or {}).get("name", ""))
    return (
        Field("choice", "Choose", CHOICES[0], "choice", choices=CHOICES),
        Field("name", "The consequence in the defender's words", named),
    )


# --------------------------------------------------------------------------- consequences


def _sheet_of(ctx: Context) -> Doc | None:
    """The selected combatant's sheet: a PC's party sheet or a foe's own."""
    c = ctx.combatant
    if c is None:
        return None
    pc = _party_member(ctx, c)
    if pc is not None:
        return pc
    sheet = (c.get("stats") or {}).get("sheet")
    return sheet if isinstance(sheet, dict) else None


def _held(ctx: Context) -> tuple[str, ...]:
    return tuple(aspects.consequence_names(_sheet_of(ctx)))


@frozen
class ConsequenceChange(CombatantCommand):
    """ASP-05/07 on the selected combatant's sheet: name (or rename) a consequence, or let it
    heal into a negative aspect (then it no longer holds a consequence slot)."""

    consequence: str = ""
    text: str = ""
    heals: bool = False

    @property
    def label(self) -> str:
        return "Consequence heals" if self.heals else "Name a consequence"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        sheet = fight.sheet(c)
        if sheet is None or not isinstance(sheet.get("lists"), dict):
            # No consequences on this sheet (plain HP, another game's foe sheet).
            raise aspects.RuleError(f"{c.name} holds no consequences")
        if self.heals:
            lines = aspects.downgrade_consequence(
                sheet, self.consequence, self.text, campaign_date(fight.tx)
            )
        else:
            lines = aspects.rename_consequence(sheet, self.consequence, self.text)
        fight.put_sheet(c, sheet)
        return lines


def _consequence_form(heals: bool) -> Any:
    def form(ctx: Context) -> tuple[Field, ...]:
        held = _held(ctx)
        newest = held[-1] if held else ""
        which = Field("consequence", "Consequence", newest, "choice", choices=held)
        if heals:
            return (which, Field("text", "Heals into the negative aspect", required=False))
        return (which, Field("text", "In the defender's words", newest))

    return form


def _consequence(heals: bool) -> Any:
    def make(ctx: Context, values: Mapping[str, Any]) -> ConsequenceChange:
        eid, cid = selected(ctx)
        return ConsequenceChange(
            eid, cid, str(values["consequence"]), str(values.get("text") or ""), heals
        )

    return make


# --------------------------------------------------------------------------- advantages, compels


def _name(ctx: Context) -> str:
    return str((ctx.combatant or {}).get("name", "?"))


def _acting(ctx: Context) -> str:
    """Whose turn it is (who creates the advantage by default), else the selected."""
    current = (ctx.encounter or {}).get("current")
    return combatant_name(ctx, str(current)) if current else _name(ctx)


def _advantage_form(ctx: Context) -> tuple[Field, ...]:
    names = tuple(str(c.get("name", "?")) for c in combatants(ctx))
    return (
        Field("aspect", "Aspect created"),
        Field("on", "On", _name(ctx), "choice", choices=(_name(ctx), aspects.SCENE)),
        Field(
            "by", "Created by (the free invoke is theirs)", _acting(ctx), "choice", choices=names
        ),
    )


def _advantage(ctx: Context, values: Mapping[str, Any]) -> advantage.CreateAdvantage:
    eid, _ = selected(ctx)
    return advantage.CreateAdvantage(
        eid, str(values.get("on") or _name(ctx)), str(values.get("aspect", "")), str(values["by"])
    )


def _compel(ctx: Context, values: Mapping[str, Any]) -> Any:
    c = ctx.combatant
    if _party_member(ctx, c) is None or c is None:
        raise aspects.RuleError("A compel is for a player character: it earns a fate point")
    return advantage.compel(int(str(c["ref"])), str(values.get("aspect", "")))


ACTIONS: tuple[Action, ...] = (
    Action(
        id="darkest_self",
        panel="combat",
        key="f",
        label="Darkest Self or Taken Out",
        description="Darkest Self or Taken Out, for the character at the consequence limit",
        make=_make,
        needs="encounter",
        form=_choice_form,
        title=_title,
        available=lambda ctx: _choosing(ctx) is not None,
    ),
    Action(
        id="name_consequence",
        panel="combat",
        key="r",
        label="Name a consequence",
        description="Name or rename a consequence of the selected, in the defender's words",
        make=_consequence(False),
        needs="combatant",
        form=_consequence_form(False),
        title=lambda ctx: f"{_name(ctx)}'s consequence",
        available=lambda ctx: bool(_held(ctx)),
    ),
    Action(
        id="consequence_heals",
        panel="combat",
        key="H",
        label="Consequence heals",
        description="A consequence of the selected heals into a negative aspect (frees its slot)",
        make=_consequence(True),
        needs="combatant",
        show=False,
        form=_consequence_form(True),
        title=lambda ctx: f"{_name(ctx)}'s consequence heals",
        available=lambda ctx: bool(_held(ctx)),
    ),
    Action(
        id="advantage",
        panel="combat",
        key="D",
        label="Create an advantage",
        description="Create an advantage on the selected or the scene: one free invoke",
        make=_advantage,
        needs="combatant",
        form=_advantage_form,
        title=lambda ctx: "Create an advantage",
    ),
    Action(
        id="free_invoke",
        panel="combat",
        key="U",
        label="Free invoke",
        description="The selected uses a free invoke on the last roll: +2, −2 or a reroll",
        make=lambda ctx, v: make_free_invoke(ctx, _name(ctx), v),
        needs="combatant",
        show=False,
        form=lambda ctx: free_invoke_form(ctx, _name(ctx)),
        title=lambda ctx: f"{_name(ctx)}'s free invoke on the last roll",
        available=lambda ctx: ctx.combatant is not None and has_free_invoke(ctx, _name(ctx)),
    ),
    Action(
        id="compel",
        panel="combat",
        key="C",
        label="Compel",
        description="Compel the selected character: an aspect causes a problem, +1 fate point",
        make=_compel,
        needs="combatant",
        form=lambda ctx: (
            Field(
                "aspect",
                "The aspect compelled",
                next(iter(advantage.aspects_of(_party_member(ctx, ctx.combatant))), ""),
                suggestions=advantage.aspects_of(_party_member(ctx, ctx.combatant)),
            ),
        ),
        title=lambda ctx: f"Compel {_name(ctx)}",
        available=lambda ctx: _party_member(ctx, ctx.combatant) is not None,
    ),
)

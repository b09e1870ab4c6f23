"""Somnihil in the combat tracker: its foes, damage and healing, and its combat actions.

A Cipher's damage runs SOM-07/08 on the party sheet (Cheat Death at 0 vitality, with
disadvantage under an Anomaly, SOM-05), a Triumph doubles it (SOM-03), and a perished Cipher's
fate is chosen in the tracker (SOM-09). Distance bands (SOM-11) are marked per combatant.

Reading: a foe is not a Cipher: it tracks vitality only and is out of the fight at 0, without
Cheat Death, AP or a fate, because SOM-08/09 are written for Ciphers.

An Anomaly (SOM-05) is a place: everyone the GM marks inside it (A toggles the selected in or
out) carries an "Anomaly" effect, each counting down on the turns of the one who made it, so
they all collapse together and everyone leaves it at once. Inside, every roll has disadvantage:
Cheat Death, a spell cast from the tracker, and the tray's check (preselected for the roller).
Reading: nobody inside an Anomaly is left for it to hinder, so it ends when the last one leaves.
Reading: SOM-05's "amount of turns the Anomaly will be in existence" goes on whoever is down:
once its maker is out of the fight (its turns skipped) it counts down once each round, and it
ends with the fight (the tracker's default for what belongs to a fight).
Reading: the distance bands (SOM-11) are a line from the party, not a wheel: z steps one
farther and Z one closer, each stopping at the end (Too Far, In Reach); a combatant with no band
yet is In Reach after either step, the band the GM starts counting from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rulesets import encounter as er
from rulesets.fight import (
    Answers,
    CombatantCommand,
    Fight,
    FightRules,
    FoeSheet,
    HealthKind,
    Hit,
    amount_form,
    combatant_name,
    combatants,
    has_effect,
    parse_amount,
    selected,
)
from rulesets.foes import FoeRules
from rulesets.somnihil import rules as somnihil
from rulesets.table import Action, Context, Field, Reader
from rulesets.values import frozen

Doc = dict[str, Any]
ANOMALY = "Anomaly"


# --------------------------------------------------------------------------- foes


def make_foe(name: str, health: int, answers: Answers) -> Doc:
    return {
        "sheet": {
            "name": name,
            "resources": {"vitality": {"current": health, "max": health}},
            "status": "alive",
        }
    }


def _vitality(sheet: Doc) -> dict[str, int]:
    vit: dict[str, int] = sheet["resources"]["vitality"]
    return vit


def foe_health(sheet: Doc) -> str:
    vit = _vitality(sheet)
    return f"{vit['current']}/{vit['max']} vit" + (" (out)" if vit["current"] <= 0 else "")


def hurt_foe(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    vit = _vitality(sheet)
    before = int(vit["current"])
    vit["current"] = max(0, before - amount)
    name = sheet.get("name", hit.combatant.name)
    lines = [
        f"{name} takes {before - vit['current']} damage ({vit['current']}/{vit['max']} vitality)"
    ]
    if vit["current"] == 0 and before > 0:
        lines.append(f"{name} is out of the fight")
    return sheet, lines


def heal_vitality(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    vit = _vitality(sheet)
    before = int(vit["current"])
    vit["current"] = min(int(vit["max"]), before + amount)
    name = sheet.get("name", "?")
    return sheet, [
        f"{name} heals {vit['current'] - before} vitality: {vit['current']}/{vit['max']}"
    ]


FOES = FoeRules(
    make=lambda name, block, hp: make_foe(name, hp, Answers({})),
    preview=lambda block: [
        f"As a foe here: {block.hp} vitality (or {block.hp_roll}), d20 + its attack bonus vs AC "
        "(with disadvantage inside the Anomaly)"
    ],
)
"""Reading: a foe with a statblock keeps it (d20 + Atk mod against AC, its Save, Effort and
morale: the NPC rules' foe, with the Anomaly's disadvantage, SOM-05) and its HP is its
vitality, because Somnihil writes a foe's health as vitality and gives no formula for an NPC's."""


FOE = FoeSheet(
    health_label="Vitality",
    health_default=somnihil.VITALITY_MAX,
    make=make_foe,
    health=foe_health,
    hurt=hurt_foe,
    heal=heal_vitality,
    out=lambda sheet: int(_vitality(sheet)["current"]) <= 0,
    share=lambda sheet: (int(_vitality(sheet)["current"]), int(_vitality(sheet)["max"])),
)


# --------------------------------------------------------------------------- damage


def damage_form(kind: HealthKind) -> tuple[Field, ...]:
    """SOM-03: a Cipher's Triumph doubles the damage on any target (a foe, a library NPC, a
    Cipher); SOM-08: a Cipher's player may type the Cheat Death d20 rolled at the table."""
    triumph = Field("triumph", "Triumph: double the damage", "no", "choice", choices=("no", "yes"))
    if kind != "pc":
        return (*amount_form(kind), triumph)
    typed = Field(
        "cheat_death",
        "Cheat Death d20 if the player rolled (blank: the app rolls)",
        "",
        "optint",
        minimum=1,
        maximum=20,
    )
    return (*amount_form(kind), triumph, typed)


def damage_amount(hit: Hit, amount: str) -> tuple[int | None, list[str]]:
    dealt = parse_amount(amount, hit.tx, hit.combatant.name)
    if hit.answers.flag("triumph"):
        dealt = somnihil.attack_damage(dealt, somnihil.TRIUMPH)
        return dealt, [f"Triumph: damage doubled to {dealt}"]
    return dealt, []


def hurt_cipher(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    """SOM-07/08: a Cipher's damage; Cheat Death with disadvantage under an Anomaly (SOM-05)."""
    outcome = somnihil.apply_damage(
        sheet,
        amount,
        hit.rng,
        disadvantage=1 if has_effect(hit.combatant, ANOMALY) else 0,
        typed=hit.answers.number("cheat_death", None),
    )
    if outcome.cheat_death is not None:
        hit.tx.log_roll(hit.combatant.name, outcome.cheat_death)
    lines = list(outcome.log)
    if outcome.fate_choice_needed:
        lines.append("Choose the fate with f: Seditious Spirit, Shill or the Void")
    return sheet, lines


def tags(c: er.Combatant) -> list[str]:
    """SOM-11's distance band first; an Anomaly's disadvantage named (SOM-05)."""
    shown = [f"[{c.stats['distance']}]"] if "distance" in c.stats else []
    for e in c.conditions:
        shown.append(e.label() + (" (disadv.)" if e.name.casefold() == ANOMALY.casefold() else ""))
    return shown


def inside_anomaly(c: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The Anomaly effect a combatant document carries (it is inside), or None."""
    for e in c.get("conditions") or []:
        if isinstance(e, Mapping) and str(e.get("name", "")).casefold() == ANOMALY.casefold():
            return e
    return None


def _inside(c: er.Combatant) -> bool:
    """SOM-05: everyone inside the Anomaly rolls with disadvantage, a foe's statblock too."""
    return any(e.name.casefold() == ANOMALY.casefold() for e in c.conditions)


def anomaly_note(doc: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """SOM-05: the Anomaly's count and who is inside, on the tracker's status line."""
    inside = [(c, e) for c in doc.get("combatants") or [] if (e := inside_anomaly(c)) is not None]
    if not inside:
        return []
    left = inside[0][1].get("remaining")
    count = f"{left} turn{'s' if left != 1 else ''} left, " if left is not None else ""
    who = ", ".join(str(c.get("name", "?")) for c, _ in inside)
    # Short words: the status line has two rows at 80 columns, and the names come last.
    return [f"Anomaly ({count}disadvantage): {who}"]


FIGHT = FightRules(
    foe=FOE,
    damage_form=damage_form,
    damage_amount=damage_amount,
    hurt=hurt_cipher,
    heal=heal_vitality,
    out=lambda sheet: sheet.get("status") not in (somnihil.ALIVE, somnihil.SPIRIT),
    tags=tags,
    notes=anomaly_note,
    roll_edge=lambda c: ("disadvantage", "inside the Anomaly") if _inside(c) else ("", ""),
)


# --------------------------------------------------------------------------- commands


@frozen
class AddAnomaly(CombatantCommand):
    """SOM-05: an Anomaly lasting 2/4/6/8 turns by the spell's AP cost; disadvantage while it
    lasts (Cheat Death included)."""

    ap_cost: int = 1

    LABEL = "Add Anomaly"

    def change(self, fight: Fight) -> list[str]:
        effect = er.Effect(
            name=ANOMALY,
            remaining=somnihil.anomaly_duration(self.ap_cost),
            tick="turn_end",
            note="disadvantage while it lasts (SOM-05)",
        )
        return er.add_effect(fight.enc, self.combatant_id, effect)


@frozen
class CastSpell(CombatantCommand):
    """SOM-04/05: a Cipher casts from the tracker in any turn model: the AP comes off its sheet,
    a rolled spell is rolled (with disadvantage inside an Anomaly), a natural 1 recovers 1 AP,
    and a Catastrophe creates an Anomaly on the caster, timed by the spell's AP cost."""

    spell: str = ""
    ap_cost: int = 1
    rolled: bool = False

    @property
    def label(self) -> str:
        return f"Cast {self.spell}"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        sheet = fight.sheet(c) if c.side == "pc" else None
        if sheet is None or "lists" not in sheet:
            raise somnihil.RuleError(f"{c.name} is not a Cipher who casts spells")
        cast = somnihil.cast_spell(
            sheet,
            self.spell,
            self.ap_cost,
            fight.tx.rng,
            rolled=self.rolled,
            disadvantage=1 if has_effect(c, ANOMALY) else 0,
        )
        if cast.check is not None:
            fight.tx.log_roll(c.name, cast.check)
        fight.put_sheet(c, sheet)
        lines = list(cast.log)
        if cast.anomaly is not None:
            lines += AddAnomaly(self.encounter_id, c.id, self.ap_cost).change(fight)
        return lines


@frozen
class ToggleInAnomaly(CombatantCommand):
    """SOM-05: the selected steps into the Anomaly (its count so far, on the same clock) or out
    of it."""

    LABEL = "In/out of the Anomaly"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        if has_effect(c, ANOMALY):
            er.remove_effect(fight.enc, c.id, ANOMALY)
            return [f"{c.name} leaves the Anomaly"]
        place = next(
            (e for x in fight.enc.combatants for e in x.conditions if e.name == ANOMALY), None
        )
        if place is None:
            raise somnihil.RuleError(
                "No Anomaly in this fight: a Catastrophe on a spell makes one (or alt+a)"
            )
        inside = er.Effect(ANOMALY, place.remaining, place.tick, place.owner, note=place.note)
        er.add_effect(fight.enc, c.id, inside)
        left = f" ({place.remaining} turns left)" if place.remaining is not None else ""
        return [f"{c.name} is inside the Anomaly{left}: rolls with disadvantage"]


def distance_step(band: str | None, closer: bool) -> str:
    """SOM-11: the band one step closer or farther (Z / z), never past In Reach or Too Far
    (a combatant with no band yet: In Reach, see the module's Reading)."""
    bands = somnihil.DISTANCE_BANDS
    if band not in bands:
        return bands[0]
    step = somnihil.move_closer(band) if closer else somnihil.move_farther(band)
    if step == band:
        raise somnihil.RuleError(
            f"Already {band}: {'z moves it farther' if closer else 'Z brings it closer'}"
        )
    return step


@frozen
class SetDistance(CombatantCommand):
    """SOM-11: the distance band between the party and this combatant."""

    band: str = ""

    LABEL = "Distance"

    def change(self, fight: Fight) -> list[str]:
        if self.band not in somnihil.DISTANCE_BANDS:
            raise somnihil.RuleError(f"Distance is one of {', '.join(somnihil.DISTANCE_BANDS)}")
        c = fight.combatant(self.combatant_id)
        c.stats["distance"] = self.band
        return [f"{c.name} is {self.band}"]


@frozen
class ChooseFate(CombatantCommand):
    """SOM-09: a perished Cipher becomes a Seditious Spirit, a Shill, or passes into the Void."""

    fate: str = ""

    @property
    def label(self) -> str:
        return f"Fate: {self.fate}"

    def change(self, fight: Fight) -> list[str]:
        c = fight.combatant(self.combatant_id)
        sheet = fight.sheet(c) if c.side == "pc" else None
        if sheet is None:
            raise somnihil.RuleError(f"{c.name} has no fate to choose")
        lines = somnihil.choose_fate(sheet, self.fate)
        fight.put_sheet(c, sheet)
        return lines


# --------------------------------------------------------------------------- actions


def _perished(read: Reader, c: Mapping[str, Any]) -> bool:
    if c.get("side") != "pc":
        return False
    try:
        pc = read.doc("party", int(str(c.get("ref"))))
    except (TypeError, ValueError):
        return False
    return pc is not None and pc.get("status") == somnihil.PERISHED


def _fate_target(ctx: Context) -> str:
    if ctx.combatant is not None and _perished(ctx.read, ctx.combatant):
        return str(ctx.combatant.get("id", ""))
    for c in combatants(ctx):
        if _perished(ctx.read, c):
            return str(c.get("id", ""))
    raise somnihil.RuleError("Nobody in this fight has perished")


def _anomaly(ctx: Context, values: Mapping[str, Any]) -> AddAnomaly:
    eid, cid = selected(ctx)
    return AddAnomaly(eid, cid, int(values["cost"]))


def _toggle_anomaly(ctx: Context, values: Mapping[str, Any]) -> ToggleInAnomaly:
    return ToggleInAnomaly(*selected(ctx))


def _fate(ctx: Context, values: Mapping[str, Any]) -> ChooseFate:
    if ctx.encounter_id is None:
        raise somnihil.RuleError("No encounter yet: ctrl+n makes one")
    return ChooseFate(ctx.encounter_id, _fate_target(ctx), str(values["fate"]))


def _distance(closer: bool) -> Callable[[Context, Mapping[str, Any]], SetDistance]:
    def make(ctx: Context, values: Mapping[str, Any]) -> SetDistance:
        eid, cid = selected(ctx)
        assert ctx.combatant is not None
        band = (ctx.combatant.get("stats") or {}).get("distance")
        return SetDistance(eid, cid, distance_step(band, closer))

    return make


def _caster_sheet(ctx: Context) -> Mapping[str, Any] | None:
    c = ctx.combatant
    if c is None or c.get("side") != "pc":
        return None
    try:
        return ctx.read.doc("party", int(str(c.get("ref"))))
    except (TypeError, ValueError):
        return None


def _spells(ctx: Context) -> tuple[str, ...]:
    sheet = _caster_sheet(ctx) or {}
    known = (sheet.get("lists") or {}).get("spells") or []
    return tuple(str(s.get("name")) for s in known if isinstance(s, Mapping) and s.get("name"))


def _cast(ctx: Context, values: Mapping[str, Any]) -> CastSpell:
    eid, cid = selected(ctx)
    return CastSpell(
        eid, cid, str(values["spell"]), int(values["cost"]), str(values["rolled"]) == "yes"
    )


def _cast_form(ctx: Context) -> tuple[Field, ...]:
    spells = _spells(ctx)
    if not spells:
        # Offered for every Cipher so that the key says why, instead of doing nothing.
        name = (ctx.combatant or {}).get("name", "?")
        raise somnihil.RuleError(f"{name} knows no spells: learn one on the party sheet (4, n on Spells)")
    return (
        Field("spell", "Spell", spells[0] if spells else "", "choice", choices=spells),
        Field("cost", "AP cost", "1", "int", minimum=1),
        Field("rolled", "The spell calls for a roll", "yes", "choice", choices=("yes", "no")),
    )


def _fate_title(ctx: Context) -> str:
    return f"Fate of {combatant_name(ctx, _fate_target(ctx))}"


ACTIONS: tuple[Action, ...] = (
    Action(
        id="cast",
        panel="combat",
        key="y",
        label="Cast a spell",
        description="The selected Cipher casts: AP spent, rolled, an Anomaly on a Catastrophe",
        make=_cast,
        needs="combatant",
        show=False,
        form=_cast_form,
        title=lambda ctx: f"{(ctx.combatant or {}).get('name', '?')} casts",
        available=lambda ctx: _caster_sheet(ctx) is not None,
    ),
    Action(
        id="anomaly",
        panel="combat",
        key="alt+a",
        label="Anomaly by AP cost",
        description="Anomaly on the selected, lasting by the spell's AP cost",
        make=_anomaly,
        needs="combatant",
        show=False,
        form=lambda ctx: (
            Field("cost", "The spell's AP cost (2/4/6/8 turns)", "1", "int", minimum=1),
        ),
        title=lambda ctx: f"Anomaly near {(ctx.combatant or {}).get('name', '?')}",
    ),
    Action(
        id="in_anomaly",
        panel="combat",
        key="O",
        label="In/out of the Anomaly",
        description="The selected steps into the Anomaly (disadvantage) or out of it",
        make=_toggle_anomaly,
        needs="combatant",
        available=lambda ctx: any(inside_anomaly(c) is not None for c in combatants(ctx)),
    ),
    Action(
        id="distance",
        panel="combat",
        key="z",
        label="Distance band farther",
        description="Distance band of the selected, one farther (stops at Too Far)",
        make=_distance(closer=False),
        needs="combatant",
        show=False,
    ),
    Action(
        id="distance_closer",
        panel="combat",
        key="Z",
        label="Distance band closer",
        description="Distance band of the selected, one closer (a move)",
        make=_distance(closer=True),
        needs="combatant",
        show=False,
    ),
    Action(
        id="fate",
        panel="combat",
        key="f",
        label="Fate of a perished Cipher",
        description="Choose the fate of a perished Cipher",
        make=_fate,
        needs="encounter",
        form=lambda ctx: (
            Field(
                "fate",
                "Choose",
                next(iter(somnihil.FATES.values())),
                "choice",
                choices=tuple(somnihil.FATES.values()),
            ),
        ),
        title=_fate_title,
        available=lambda ctx: any(_perished(ctx.read, c) for c in combatants(ctx)),
    ),
)

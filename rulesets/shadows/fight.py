"""Shadows of Humanity in the combat tracker: AP rounds, attack cards, pools (SOH-09..17).

A damage entry is either a plain amount or a played attack card: the defence is the target's
attribute for the attack type + cover + the defence cards (SOH-13), the damage the margin on a
suit match or 1 (SOH-14), + the weapon's drawn modifier (SOH-15) and a critical chain (SOH-16);
Health, Life and Æssence take it with firearm and resistance rules (SOH-17).

Reading: a foe tracks Health and Life (no Æssence, AP or Major Arcana), with Quickness for its
AP and its defence and the sheet's default Intuition and Discipline against spiritual and mana
attacks, because a foe is hit and acts but never draws a Major Arcana.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulesets.decks import load_deck, save_deck
from rulesets.fight import Answers, FightRules, FoeSheet, HealthKind, Hit, parse_amount
from rulesets.shadows import rules as shadows
from rulesets.table import Action, Field
from rulesets.tarot import SUITS, Card, minor_card

Doc = dict[str, Any]
FOE_POOLS = ("health", "life")
MODIFIERS = ("normal", "vulnerable", "resistant", "immune")
DEFAULTS = {a.key: a.default for a in shadows.SHEET.attributes}


def parse_card(text: str) -> Card:
    """SOH-14: a Minor Arcana attack card typed as ``"9 Swords"``, ``"Queen of Cups"``."""
    words = [w for w in str(text).split() if w.casefold() != "of"]
    if len(words) != 2:
        raise shadows.RuleError(
            "Type the attack card as rank and suit, e.g. 9 Swords or Queen of Cups"
        )
    return minor_card(words[0], words[1])


# --------------------------------------------------------------------------- foes


def make_foe(name: str, health: int, answers: Answers) -> Doc:
    quickness = max(1, min(16, answers.whole("quickness") or 6))
    return {
        "sheet": {
            "name": name,
            "attributes": {
                "quickness": quickness,
                "intuition": DEFAULTS["intuition"],
                "discipline": DEFAULTS["discipline"],
            },
            "resources": {pool: {"current": health, "max": health} for pool in FOE_POOLS},
            "status": "alive",
        }
    }


def foe_health(sheet: Doc) -> str:
    res = sheet.get("resources", {})
    line = " · ".join(
        f"{short} {res.get(key, {}).get('current', 0)}/{res.get(key, {}).get('max', 0)}"
        for key, short in (("health", "H"), ("life", "L"))
    )
    status = sheet.get("status", "alive")
    return line if status == "alive" else f"{line} ({status})"


def out(sheet: Doc) -> bool:
    return sheet.get("status", "alive") != "alive"


# --------------------------------------------------------------------------- damage


def _damage_fields(pools: tuple[str, ...] | None) -> tuple[Field, ...]:
    fields = (
        Field("amount", "Damage (number or dice; blank: attack card)", "", "amount",
              required=False),
        Field("card", "Attack card (e.g. 9 Swords)", "", "text", required=False),
        Field("skill", "Attack skill", "0", "int"),
        Field("type", "Attack type", "physical", "choice", choices=tuple(shadows.ATTACK_SUITS)),
        Field("cover", "Cover/movement", "0", "choice",
              choices=tuple(str(n) for n in shadows.COVER_BONUSES)),
        Field("cards", "Defence cards total (Coins doubled)", "0", "int"),
        Field("face", "Face card in defence", "no", "choice", choices=("no", "yes")),
        Field("weapon", "Weapon modifier (blank: none)", "", "choice",
              choices=tuple(shadows.DAMAGE_MODIFIERS), required=False),
        Field("modifier", "Resistance", "normal", "choice", choices=MODIFIERS),
    )  # fmt: skip
    # SOH-06/16: the attacker's weapon's fumble value and critical suit (last, so the
    # questions above keep their places).
    weapon = (
        Field("fumble", "Weapon's fumble value (an Ace checks it)", "0", "int"),
        Field("critical", "Weapon's critical suit (blank: none)", "", "choice",
              choices=SUITS, required=False),
    )  # fmt: skip
    if pools is None:
        return (*fields, *weapon)
    return (
        *fields,
        Field("pool", "Pool", "hit", "choice", choices=("hit", *pools)),
        Field("firearm", "Firearm (Life ÷5)", "no", "choice", choices=("no", "yes")),
        *weapon,
    )


def damage_form(kind: HealthKind) -> tuple[Field, ...]:
    return _damage_fields({"hp": None, "foe": FOE_POOLS}.get(kind, shadows.POOLS))


def heal_form(kind: HealthKind) -> tuple[Field, ...]:
    amount = Field("amount", "Heal (number or dice)", "", "amount")
    if kind == "hp":
        return (amount,)
    pools = FOE_POOLS if kind == "foe" else shadows.POOLS
    return (amount, Field("pool", "Pool", "health", "choice", choices=pools))


def damage_amount(hit: Hit, amount: str) -> tuple[int | None, list[str]]:
    card = hit.answers.text("card")
    if amount.strip():
        return parse_amount(amount, hit.tx, hit.combatant.name), []
    if not card:
        raise shadows.RuleError("Type an amount or an attack card")
    dealt, lines = attack(hit, parse_card(card))
    return (dealt if dealt > 0 else None), lines


def attack(hit: Hit, card: Card) -> tuple[int, list[str]]:
    """SOH-13 defence and SOH-14..16 damage of a played attack card against the target."""
    answers, c = hit.answers, hit.combatant
    cards, skill = answers.whole("cards"), answers.whole("skill")
    if cards < 0 or skill < 0:
        raise shadows.RuleError("Skill and defence cards cannot be negative")
    kind = answers.choice("type", tuple(shadows.ATTACK_SUITS), "physical")
    sheet = hit.fight.sheet(c)
    attributes = dict(sheet.get("attributes", {})) if sheet else {"quickness": c.quickness}
    base = shadows.defence(attributes, kind, cover=answers.whole("cover"))
    guard = replace(base, card_total=cards, total=base.total + cards)
    parts = [f"{guard.attribute} {guard.base}", f"cards {guard.card_total}"]
    if guard.cover:
        parts.append(f"cover/movement {guard.cover}")
    lines = [f"{c.name}'s defence {guard.total} = " + " + ".join(parts)]
    deck_id, deck = load_deck(hit.tx, "minor")
    result = shadows.resolve_attack(
        hit.rng,
        deck,
        card,
        skill,
        guard.total,
        kind,
        damage_code=answers.text("weapon") or None,
        critical_suit=answers.text("critical") or None,
        fumble_value=answers.whole("fumble"),
        defence_face=answers.flag("face"),
    )
    if result.modifier or result.critical or result.fumble:
        save_deck(hit.tx, deck_id, deck)
    lines += list(result.log)
    return result.damage, lines


def hp_damage(hit: Hit, amount: int) -> tuple[int, str]:
    """SOH-17 on an HD foe's HP: vulnerable doubles, resistant halves, immune is 0."""
    modifier = hit.answers.choice("modifier", MODIFIERS, "normal")
    if modifier == "normal":
        return amount, ""
    return shadows.scale_damage(amount, modifier), modifier


def hurt(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    answers = hit.answers
    modifier = answers.choice("modifier", MODIFIERS, "normal")
    firearm = answers.flag("firearm")
    pool = answers.text("pool", "health")
    if pool == "hit":
        done = shadows.apply_hit(sheet, amount, FOE_POOLS, modifier, firearm)
    else:
        done = shadows.apply_damage(sheet, amount, pool, modifier, firearm)
    return done.character, list(done.log)


def heal(hit: Hit, sheet: Doc, amount: int) -> tuple[Doc, list[str]]:
    key = hit.answers.text("pool", "health")
    name = sheet.get("name", "?")
    res = sheet.get("resources", {}).get(key)
    if res is None:
        raise shadows.RuleError(f"{name} has no {key}")
    before = int(res["current"])
    res["current"] = min(int(res["max"]), before + amount)
    return sheet, [f"{name} heals {res['current'] - before} {key}: {res['current']}/{res['max']}"]


FOE = FoeSheet(
    health_label="Health and Life",
    health_default=20,
    fields=(Field("quickness", "Quickness (AP = 5 + ceil(Q/2))", "6", "int"),),
    make=make_foe,
    health=foe_health,
    hurt=hurt,
    heal=heal,
    out=out,
)

FIGHT = FightRules(
    foe=FOE,
    ap_per_round=shadows.ap_per_round,
    damage_form=damage_form,
    heal_form=heal_form,
    damage_amount=damage_amount,
    hp_damage=hp_damage,
    hurt=hurt,
    heal=heal,
    out=out,
)
ACTIONS: tuple[Action, ...] = ()

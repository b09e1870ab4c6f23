"""Shadows of Humanity in the combat tracker: AP rounds, attack cards, pools (SOH-09..17).

A damage entry is either a plain amount or a played attack card: the defence is the target's
attribute for the attack type + cover + the defence cards (SOH-13), the damage the margin on a
suit match or 1 (SOH-14), + the weapon's drawn modifier (SOH-15) and a critical chain (SOH-16);
Health, Life and Æssence take it with firearm and resistance rules (SOH-17).

Reading: a foe tracks Health, Life and Æssence (no Major Arcana), with Quickness for its AP and
its defence and Intuition and Discipline against spiritual and mana attacks; one built from an
HD statblock takes them from it, is dealt a hand and plays cards (:mod:`rulesets.shadows.foes`),
because "each character/protagonist and/or NPC/Antagonist uses these cards as attacks".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace
from typing import Any

from rulesets import encounter as er
from rulesets.base import RuleError as BaseRuleError
from rulesets.decks import load_deck, save_deck
from rulesets.fight import (
    Answers,
    EncounterCommand,
    Fight,
    FightRules,
    FoeSheet,
    HealthKind,
    Hit,
    combatants,
    deal_damage,
    parse_amount,
    selected,
)
from rulesets.shadows import rules as shadows
from rulesets.shadows.cards import DealHands, SetFocus, held_card, parse_card
from rulesets.shadows.exchange import attack_card
from rulesets.shadows.foes import FOE_PREFIX, FOE_WEAPON, best_defence, holder_of
from rulesets.shadows.tarot import SUITS, Card, find_deck
from rulesets.table import Action, Context, Field, Tx
from rulesets.values import frozen

Doc = dict[str, Any]
FOE_POOLS = shadows.POOLS
"""A foe has Health, Life and Æssence, as a PC has."""
MODIFIERS = ("normal", "vulnerable", "resistant", "immune")
DEFAULTS = {a.key: a.default for a in shadows.SHEET.attributes}


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
        for key, short in (("health", "H"), ("life", "L"), ("aessence", "Æ"))
        if key in res  # a foe saved before it had Æssence has two pools
    )
    status = sheet.get("status", "alive")
    return line if status == "alive" else f"{line} ({status})"


def out(sheet: Doc) -> bool:
    return bool(sheet.get("status", "alive") != "alive")


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
        Field("defence_cards", "Defence cards (from the defender's hand, e.g. 3 Coins, 7 Cups;"
              " blank: a foe plays its best, a PC none)", "", required=False),
        Field("cards", "Other defence cards total (Coins doubled)", "0", "int"),
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


def defence_cards(hit: Hit, attacker_ap: int) -> tuple[list[Card], list[str]]:
    """SOH-13: the cards the defender plays from its own hand: as the form names them, or, left
    blank, a foe's best (Coins doubled) as far as the attacker's AP and its own allow
    (:mod:`rulesets.shadows.foes`) and a PC's none. At most the attacker's AP; each costs the
    defender 1 AP in a running AP round; they leave the hand for the discards."""
    c = hit.combatant
    holder = holder_of(c)
    typed = hit.answers.text("defence_cards")
    if holder is None or typed.casefold() in ("none", "-", "0"):
        return [], []
    deck_id, deck = load_deck(hit.tx, "minor")
    enc = hit.fight.enc
    running = er.turn_order_of(enc).uses_ap and enc.started
    if typed:
        chosen = [held_card(deck, holder, c.name, part) for part in typed.split(",") if part.strip()]
    elif c.side != "pc":
        chosen = best_defence(deck.hand(holder), min(attacker_ap, c.ap if running else attacker_ap))
    else:
        chosen = []
    if not chosen:
        return [], []
    if len(chosen) > attacker_ap:
        raise shadows.RuleError(
            f"{c.name} may play at most {attacker_ap} defence card(s): the AP the attacker spent"
        )
    lines = [f"{c.name} defends with {', '.join(card.label for card in chosen)}"]
    if running:
        lines += er.spend_ap(enc, c.id, len(chosen), "defence cards")
    deck.play(holder, chosen)
    save_deck(hit.tx, deck_id, deck)
    return chosen, lines


def attack(hit: Hit, card: Card) -> tuple[int, list[str]]:
    """SOH-13 defence and SOH-14..16 damage of a played attack card against the target."""
    answers, c = hit.answers, hit.combatant
    cards, skill = answers.whole("cards"), answers.whole("skill")
    if cards < 0 or skill < 0:
        raise shadows.RuleError("Skill and defence cards cannot be negative")
    kind = answers.choice("type", tuple(shadows.ATTACK_SUITS), "physical")
    attacker_ap = max(1, answers.whole("ap", 1))
    played, lines = defence_cards(hit, attacker_ap)
    sheet = hit.fight.sheet(c)
    attributes = dict(sheet.get("attributes", {})) if sheet else {"quickness": c.quickness}
    base = shadows.defence(
        attributes, kind, played, attacker_ap=attacker_ap, cover=answers.whole("cover")
    )
    guard = replace(base, card_total=base.card_total + cards, total=base.total + cards)
    parts = [f"{guard.attribute} {guard.base}"]
    parts += [f"{pc.label} {pc.value * (2 if pc.suit == 'Coins' else 1)}" for pc in played]
    if cards:
        parts.append(f"cards {cards}")
    if guard.cover:
        parts.append(f"cover/movement {guard.cover}")
    lines.append(f"{c.name}'s defence {guard.total} = " + " + ".join(parts))
    if card.value == 1 and not 1 <= answers.whole("fumble") <= 14:
        # SOH-06: an Ace is checked against the weapon's fumble value; 0 would never fumble.
        raise shadows.RuleError("An Ace checks the weapon's fumble value: type it (1-14)")
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
        modifier=shadows.OFF_FOCUS_PENALTY if answers.flag("off_focus") else 0,
        defence_face=answers.flag("face") or any(pc.is_face for pc in played),
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
        done = shadows.apply_hit(sheet, amount, ("health", "life"), modifier, firearm)
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
    share=lambda sheet: (
        int(sheet["resources"]["health"]["current"]),
        int(sheet["resources"]["health"]["max"]),
    ),
)

# --------------------------------------------------------------------------- a card from a hand

WEAPON_KEYS = ("fumble", "critical", "weapon")
"""The damage form's questions about the attacker's weapon, remembered on its sheet."""


def weapon_of(sheet: Mapping[str, Any] | None) -> dict[str, str]:
    """The attacker's weapon as last used (``sheet["weapon"]``): the answers it prefills."""
    saved = sheet.get("weapon") if isinstance(sheet, Mapping) else None
    if not isinstance(saved, Mapping):
        return {}
    return {k: str(saved[k]) for k in WEAPON_KEYS if saved.get(k) not in (None, "")}


def attack_defaults(c: Mapping[str, Any], sheet: Mapping[str, Any] | None) -> dict[str, str]:
    """The attack skill and type the attacker's last attack used, as the exchange (A) has them:
    a PC's remembered attack (``sheet["attack"]``), else skill 0 and its focus's attack type; a
    foe's statblock skill with Brawl, a physical attack."""
    if sheet is None:
        return {}
    if c.get("side") == "pc":
        found = sheet.get("attack")
        memory: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        by_focus = {focus: kind for kind, focus in shadows.ATTACK_FOCUS.items()}
        kind = str(memory.get("type") or by_focus.get(shadows.focus_of(sheet), "physical"))
        return {"skill": str(memory.get("skill", 0)), "type": kind}
    skill = (sheet.get("skill") or {}).get("brawl", 0)
    return {"skill": str(skill), "type": "physical"}


def _weapon_answers(answers: Answers) -> dict[str, Any]:
    """SOH-06/15/16: the weapon's fumble value (1-14), critical suit and damage modifier."""
    fumble = answers.number("fumble", None)
    if fumble is None or not 1 <= fumble <= 14:
        raise shadows.RuleError("The weapon's fumble value is a card value from 1 to 14")
    critical = answers.text("critical")
    if critical and critical not in SUITS:
        raise shadows.RuleError(f"The critical suit is one of {', '.join(SUITS)}")
    code = answers.text("weapon")
    if code and code not in shadows.DAMAGE_MODIFIERS:
        raise shadows.RuleError(
            f"The damage modifier is one of {', '.join(shadows.DAMAGE_MODIFIERS)}"
        )
    return {"fumble": fumble, "critical": critical, "weapon": code}


@frozen
class PlayAttackCard(EncounterCommand):
    """SOH-10..16: the attacker plays a card from its hand as an attack on the target.

    One change: the AP the attack costs are spent, the card goes from the hand to the discards,
    and the attack is the damage form's attack card (the same path as ``t`` with a card): the
    attacker's weapon (fumble value, critical suit, damage modifier, remembered on its sheet
    for the next attack) and its focus (−3 to an attack of another focus) against the target's
    defence.
    """

    attacker_id: str = ""
    target_id: str = ""
    card: str = ""
    """The card as typed (``"9 Swords"``) or its key (``"minor:9:Swords"``)."""
    ap: int = 1
    answers: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return "Attack with a card"

    def change(self, fight: Fight) -> list[str]:
        attacker = fight.combatant(self.attacker_id)
        target = fight.combatant(self.target_id)
        if target.id == attacker.id:
            raise shadows.RuleError(f"{attacker.name} cannot attack itself: pick a target")
        if target.defeated:
            raise shadows.RuleError(f"{target.name} is out of the fight")
        holder = _holder(attacker)
        answers = Answers(self.answers)
        weapon = _weapon_answers(answers)
        kind = answers.choice("type", tuple(shadows.ATTACK_SUITS), "physical")
        sheet = fight.sheet(attacker)
        deck_id, deck = load_deck(fight.tx, "minor")
        card = held_card(deck, holder, attacker.name, self.card)
        deck.play(holder, [card])
        save_deck(fight.tx, deck_id, deck)
        focus = shadows.focus_of(sheet)
        off = shadows.off_focus_penalty(focus, shadows.ATTACK_FOCUS[kind]) != 0
        lines = [f"{attacker.name} plays {card.label} against {target.name}"]
        if off:
            lines.append(f"{attacker.name}'s focus is {focus}: {shadows.OFF_FOCUS_PENALTY} to a "
                         f"{kind} attack")  # fmt: skip
        if sheet is not None:
            # The weapon and, for a PC, the attack (skill, type) are remembered for the next.
            memory = {"skill": answers.whole("skill"), "type": kind}
            mine = {"attack": memory} if attacker.side == "pc" else {}
            fight.put_sheet(attacker, {**sheet, "weapon": weapon, **mine})
        played = {**self.answers, **weapon, "card": card.label, "off_focus": off, "ap": self.ap}
        lines += deal_damage(fight, target.id, "", played)
        # The AP last: the attack has landed, so the turn its spend hands on never goes to
        # one the attack has just taken out (a log line naming a dead foe's turn).
        return lines + er.spend_ap(fight.enc, attacker.id, self.ap, "an attack")


def _holder(c: er.Combatant) -> str:
    """Whose hand a combatant plays from: a PC's party id, a foe's ``foe:<id>``."""
    holder = holder_of(c)
    if holder is None:
        raise shadows.RuleError(
            f"{c.name} is dealt no hand: type the card the GM draws for it with t"
        )
    return holder


# --------------------------------------------------------------------------- the tracker's keys


def _attacker(ctx: Context) -> Mapping[str, Any] | None:
    """The selected combatant if it plays from a hand: a PC, or a foe with a sheet."""
    c = ctx.combatant
    if c is None:
        return None
    if c.get("side") == "pc" and str(c.get("ref", "")).isdigit():
        return c
    stats = c.get("stats")
    return c if isinstance(stats, Mapping) and isinstance(stats.get("sheet"), dict) else None


def _holder_key(c: Mapping[str, Any]) -> str:
    if c.get("side") == "pc" and str(c.get("ref", "")).isdigit():
        return str(c["ref"])
    return FOE_PREFIX + str(c.get("id", ""))


def _sheet_of(ctx: Context, c: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if c.get("side") == "pc" and str(c.get("ref", "")).isdigit():
        return ctx.read.doc("party", int(str(c["ref"])))
    stats = c.get("stats")
    sheet = stats.get("sheet") if isinstance(stats, Mapping) else None
    return sheet if isinstance(sheet, Mapping) else None


def _hand(ctx: Context, holder: str) -> list[Card]:
    try:
        return find_deck(ctx.read.rows("decks"), "minor")[1].hand(holder)
    except (ValueError, KeyError, TypeError):
        return []


def _targets(ctx: Context) -> list[Mapping[str, Any]]:
    """Who the selected attacker may attack: everyone else still in the fight, foes first."""
    me = ctx.combatant or {}
    others = [c for c in combatants(ctx) if c.get("id") != me.get("id") and not c.get("defeated")]
    return sorted(others, key=lambda c: c.get("side") == me.get("side"))


def _attack_form(ctx: Context) -> tuple[Field, ...]:
    attacker = _attacker(ctx)
    if attacker is None:
        raise shadows.RuleError("Select the attacker first (j/k): a PC, or a foe with a hand")
    cards = _hand(ctx, _holder_key(attacker))
    hand = [c.label for c in cards]
    sheet = _sheet_of(ctx, attacker)
    weapon = weapon_of(sheet)
    names = tuple(dict.fromkeys(str(c.get("name", "?")) for c in _targets(ctx)))
    remembered = attack_defaults(attacker, sheet)
    first = _first_card(attacker, sheet, cards, remembered.get("type", "physical"))
    asked = {
        f.key: replace(f, default=remembered.get(f.key, f.default))
        for f in _damage_fields(shadows.POOLS)
    }
    return (
        Field("card", "Card from the hand", first, suggestions=tuple(hand)),
        Field("target", "Target", names[0] if names else "", "choice", choices=names),
        Field("ap", "AP spent on the attack", "1", "int", minimum=1, maximum=13),
        replace(asked["fumble"], label="Weapon's fumble value (1-14)",
                default=weapon.get("fumble", str(FOE_WEAPON["fumble"])), minimum=1, maximum=14),
        replace(asked["critical"], default=weapon.get("critical", "")),
        replace(asked["weapon"], default=weapon.get("weapon", "")),
        *(f for key, f in asked.items() if key not in ("amount", "card", *WEAPON_KEYS)),
    )  # fmt: skip


def _first_card(
    attacker: Mapping[str, Any], sheet: Mapping[str, Any] | None, hand: list[Card], kind: str
) -> str:
    """The card the exchange (A) would play: the one named for the attack, else the best of
    the attack's suit; the hand's first when the named one is gone."""
    memory = (sheet or {}).get("attack") if attacker.get("side") == "pc" else None
    named = str(memory.get("card") or "") if isinstance(memory, Mapping) else ""
    try:
        card = attack_card(str(attacker.get("name", "?")), hand, kind, named)
    except BaseRuleError:
        card = hand[0] if hand else None
    return card.label if card is not None else ""


def _attack_title(ctx: Context) -> str:
    attacker = _attacker(ctx) or {}
    holder = _holder_key(attacker) if attacker else ""
    sheet = _sheet_of(ctx, attacker) if attacker else None
    hand = ", ".join(c.label for c in _hand(ctx, holder)) or "no cards (deal hands in the tray)"
    return (
        f"{attacker.get('name', '?')} attacks with a card ({shadows.focus_of(sheet)} focus) · "
        f"hand: {hand}"
    )


def _attack(ctx: Context, values: Mapping[str, Any]) -> PlayAttackCard:
    encounter_id, attacker_id = selected(ctx)
    name = str(values.get("target", ""))
    target = next((c for c in _targets(ctx) if str(c.get("name")) == name), None)
    if target is None:
        raise shadows.RuleError(f"No one called {name[:40]!r} is in the fight to attack")
    rest = {k: v for k, v in values.items() if k not in ("card", "target", "ap")}
    return PlayAttackCard(
        encounter_id, attacker_id, str(target["id"]), str(values.get("card", "")),
        int(values.get("ap") or 1), rest,
    )  # fmt: skip


def _pc(ctx: Context) -> Mapping[str, Any] | None:
    c = ctx.combatant
    return c if c is not None and c.get("side") == "pc" and str(c.get("ref", "")).isdigit() else None


def _set_focus(ctx: Context, values: Mapping[str, Any]) -> SetFocus:
    pc = _pc(ctx)
    if pc is None:
        raise shadows.RuleError("Focus is a PC's: select one first (j/k)")
    return SetFocus(int(str(pc["ref"])))


def _ap_round_running(ctx: Context) -> bool:
    enc = ctx.encounter or {}
    return (
        _attacker(ctx) is not None and enc.get("model") == "ap_rounds" and bool(enc.get("started"))
    )


def detail(c: er.Combatant, sheet: Mapping[str, Any] | None) -> str:
    """A PC's focus for the round and the weapon it last attacked with."""
    if c.side != "pc" or sheet is None:
        return ""
    weapon = weapon_of(sheet)
    parts = [f"Focus: {shadows.focus_of(sheet)}"]
    if weapon:
        parts.append(
            "weapon: fumble " + weapon.get("fumble", "?")
            + (f", critical {weapon['critical']}" if weapon.get("critical") else "")
            + (f", {weapon['weapon']}" if weapon.get("weapon") else "")
        )  # fmt: skip
    return " · ".join(parts)


def _deal_at_start(tx: Tx, encounter_id: int) -> list[str]:
    """SOH-11 as the fight starts: every PC and foe in it is dealt its combat hand by its focus
    (before: a foe's A was refused until the GM dealt with h in the tray). Hands the GM dealt
    before the start are the players' already, and kept; h in the tray deals again."""
    _, state = load_deck(tx, "minor")
    if any(state.hand_counts().values()):
        return []
    return DealHands(encounter_id).run(tx)


def _to_discards(tx: Tx, holders: list[tuple[str, str]]) -> list[str]:
    """The hands of ``holders`` ((holder, name) pairs) go to the discards; who had cards."""
    doc_id, state = load_deck(tx, "minor")
    gone = [(name, state.play(holder, state.hand(holder))) for holder, name in holders]
    gone = [(name, cards) for name, cards in gone if cards]
    if not gone:
        return []
    save_deck(tx, doc_id, state)
    return [", ".join(f"{name}'s {len(cards)}" for name, cards in gone)]


def _hand_out(tx: Tx, c: er.Combatant) -> list[str]:
    """One out of the fight (dead, incapacitated, fled) plays no more cards: its hand goes to
    the discards. Reading: the text deals hands to those who act; it is silent on a fallen
    one's, so they go where played cards go."""
    holder = holder_of(c)
    said = _to_discards(tx, [(holder, c.name)]) if holder is not None else []
    return [f"To the discards: {said[0]} cards (out of the fight)"] if said else []


def _hands_back(tx: Tx, encounter_id: int) -> list[str]:
    """SOH-11 at the fight's end: the combat hands of everyone in it go to the discards.
    Reading: the hands are dealt for the fight (the text is silent on their end), so none is
    left out after it; the next fight deals again."""
    doc = tx.find("encounters", encounter_id) or {}
    holders = []
    for data in doc.get("combatants") or []:
        c = er.Combatant.from_dict(data)
        if (holder := holder_of(c)) is not None:
            holders.append((holder, c.name))
    said = _to_discards(tx, holders)
    return [f"Combat hands to the discards: {said[0]} cards"] if said else []


FIGHT = FightRules(
    foe=FOE,
    fight_start=_deal_at_start,
    fight_end=_hands_back,
    left_fight=_hand_out,
    ap_per_round=shadows.ap_per_round,
    damage_form=damage_form,
    heal_form=heal_form,
    damage_amount=damage_amount,
    hp_damage=hp_damage,
    hurt=hurt,
    heal=heal,
    out=out,
    detail=detail,
)
ACTIONS: tuple[Action, ...] = (
    Action(
        "attack_card", "combat", "P", "Play a card", _attack, needs="combatant",
        form=_attack_form, title=_attack_title, available=_ap_round_running,
        description="The selected PC or foe plays a card from its hand as an attack (spends AP)",
    ),
    Action(
        "focus", "combat", "f", "Focus", _set_focus, needs="combatant",
        available=lambda ctx: _pc(ctx) is not None,
        description="Change the selected PC's focus for the round (physical, mental, spiritual)",
    ),
)  # fmt: skip

"""Shadows of Humanity's exchange: a card from the hand against a defence of Quickness and cards
(SOH-06, SOH-10, SOH-11, SOH-13..17).

The attacker plays a card from its hand (a foe its highest of the attack's suit; a PC the one
the GM names, else the same); the defender answers with cards from its own hand, each for 1 AP,
at most as many as the AP the attacker spent (SOH-13): typed (``4 Cups, 6 Swords``), ``none``,
or blank (a foe plays its best, a PC none). A card the hand does not hold, or more cards than
the attacker's AP, is refused and nothing is played. The damage is the margin on a suit match
(else 1), the weapon's drawn modifier and a critical chain (SOH-14..16); it lands on Health and
Life together (SOH-17, "a hit"), whichever key lands it.

Reading: the order of the draw pile is hidden from the GM, so the odds count every order of the
cards left in it as equally likely (the weapon's modifier, an Ace's fumble check and a critical
chain draw from its top).
Reading: a PC's attack skill and type are those its sheet remembers (``sheet["attack"]``:
``skill``, ``type``), else 0 and the attack type of its focus (a spiritual focus attacks with
spiritual magic), so an attack is never off focus unless the GM says so.
Reading: the card is the player's choice (SOH-14): the one the GM names for the next attack
(``sheet["attack"]["card"]``, forgotten once played), else the highest of the attack's suit;
the tracker's ``P`` offers the same card first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rulesets import encounter as er
from rulesets.base import RuleError
from rulesets.decks import load_deck
from rulesets.exchange import (
    Blow,
    Dist,
    ExchangeRules,
    Plan,
    Rolled,
    Setup,
    Side,
    not_alive,
    percent,
)
from rulesets.fight import Fight
from rulesets.shadows import foes, tarot
from rulesets.shadows import rules as shadows
from rulesets.shadows.cards import parse_card
from rulesets.shadows.tarot import Card
from rulesets.table import Field

Doc = dict[str, Any]
FOCUS_ATTACK = {focus: kind for kind, focus in shadows.ATTACK_FOCUS.items()}
FACE = 11
"""The lowest face card's value (Page)."""


def _cards(found: Any) -> list[Card]:
    return [Card.from_dict(c) for c in found or () if isinstance(c, Mapping)]


def extra(fight: Fight, c: er.Combatant) -> dict[str, Any]:
    """The combatant's hand, the draw pile's values, and its AP in a running AP round."""
    holder = foes.holder_of(c)
    _, deck = load_deck(fight.tx, "minor")
    enc = fight.enc
    running = er.turn_order_of(enc).uses_ap and enc.started
    return {
        "hand": [card.to_dict() for card in deck.hand(holder)] if holder else [],
        "pile": [card.value for card in deck.draw_pile],
        "ap": c.ap if running else None,
    }


def attack_of(setup: Setup) -> tuple[Card, int, str, dict[str, Any], bool]:
    """The attack card, the attack skill, the attack type, the weapon, and off focus."""
    side = setup.attacker
    hand = _cards(side.extra.get("hand"))
    weapon = {**foes.FOE_WEAPON, **((side.sheet or {}).get("weapon") or {})}
    if side.block is not None and not side.is_pc:
        kind = foes.ATTACK_TYPE.get(setup.attribute, "physical")
        skill = foes.skill_of(side.sheet, side.block, setup.attribute)
    else:
        memory = side.remembered("attack")
        focus = shadows.focus_of(side.sheet)
        kind = str(memory.get("type") or FOCUS_ATTACK.get(focus, "physical"))
        if kind not in shadows.ATTACK_SUITS:
            kind = "physical"
        found = memory.get("skill", 0)
        skill = found if isinstance(found, int) and not isinstance(found, bool) else 0
    card = attack_card(side.name, hand, kind, str(side.remembered("attack").get("card") or ""))
    if card is None:
        raise RuleError(f"{side.name} holds no cards: deal combat hands first (h in the tray)")
    off = (
        side.is_pc
        and shadows.off_focus_penalty(shadows.focus_of(side.sheet), shadows.ATTACK_FOCUS[kind]) != 0
    )
    return card, skill, kind, weapon, off


def attack_card(who: str, hand: Sequence[Card], kind: str, named: str = "") -> Card | None:
    """SOH-14: the card named for the attack if the hand holds it (refused if not), else the
    highest of the attack's suit (:func:`foes.best_attack_card`)."""
    if not named.strip():
        return foes.best_attack_card(list(hand), kind)
    wanted = parse_card(named)
    held = next((c for c in hand if c.key == wanted.key), None)
    if held is None:
        listed = ", ".join(c.label for c in hand) or "no cards"
        raise RuleError(
            f"{who} does not hold {wanted.label} to attack with (ctrl+e names another); "
            f"the hand is {listed}"
        )
    return held


def defence_cards(setup: Setup) -> list[Card]:
    """SOH-13: the defender's cards, as typed or by default; refused past the attacker's AP."""
    side = setup.target
    hand = _cards(side.extra.get("hand"))
    typed = setup.defence.strip()
    if typed.casefold() in ("none", "-", "0"):
        return []
    if not typed:
        if side.is_pc:
            return []
        ap = side.extra.get("ap")
        return foes.best_defence(hand, min(1, ap) if isinstance(ap, int) else 1)
    chosen: list[Card] = []
    for part in typed.split(","):
        if not part.strip():
            continue
        wanted = parse_card(part)
        held = [c for c in hand if c.key == wanted.key and c not in chosen]
        if not held:
            listed = ", ".join(c.label for c in hand) or "no cards"
            raise RuleError(f"{side.name} does not hold {wanted.label}; the hand is {listed}")
        chosen.append(held[0])
    if len(chosen) > 1:
        raise RuleError(
            f"{side.name} may play at most 1 defence card: the AP the attacker spent (SOH-13)"
        )
    ap = side.extra.get("ap")
    if isinstance(ap, int) and len(chosen) > ap:
        raise RuleError(f"{side.name} has {ap} AP left for defence cards")
    return chosen


def _guard(setup: Setup, kind: str, cards: Sequence[Card]) -> shadows.Defence:
    sheet = setup.target.sheet
    attributes = dict((sheet or {}).get("attributes") or {})
    if not attributes:
        attributes = {"quickness": setup.target.combatant.quickness}
    return shadows.defence(attributes, kind, cards, attacker_ap=1)


def _counts(pile: Sequence[int]) -> tuple[int, ...]:
    return tuple(sum(1 for v in pile if v == value) for value in range(1, 15))


def _draws(
    counts: tuple[int, ...], n: int
) -> list[tuple[tuple[int, ...], Fraction, tuple[int, ...]]]:
    """Every ordered draw of ``n`` cards from the pile's counts: values, chance, counts left."""
    if n == 0:
        return [((), Fraction(1), counts)]
    total = sum(counts)
    if total == 0:
        return [((), Fraction(1), counts)]
    found = []
    for index, count in enumerate(counts):
        if not count:
            continue
        left = counts[:index] + (count - 1,) + counts[index + 1 :]
        for rest, p, after in _draws(left, n - 1):
            found.append(((index + 1, *rest), Fraction(count, total) * p, after))
    return found


@lru_cache(maxsize=4096)
def chain(counts: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """SOH-16: the critical chain's bonus from the pile's counts: draw, and again while the
    last card is a face card; every value added."""
    total = sum(counts)
    if total == 0:
        return ((0, Fraction(1)),)
    found: Dist = {}
    for index, count in enumerate(counts):
        if not count:
            continue
        value, p = index + 1, Fraction(count, total)
        if value < FACE:
            found[value] = found.get(value, Fraction(0)) + p
            continue
        left = counts[:index] + (count - 1,) + counts[index + 1 :]
        for more, q in chain(left):
            found[value + more] = found.get(value + more, Fraction(0)) + p * q
    return tuple(sorted(found.items()))


def plan(setup: Setup) -> Plan:
    card, skill, kind, weapon, off = attack_of(setup)
    played = defence_cards(setup)
    guard = _guard(setup, kind, played)
    value = shadows.attack_value(card, skill, shadows.OFF_FOCUS_PENALTY if off else 0)
    margin = value - guard.total
    counts = _counts(
        [v for v in setup.target.extra.get("pile", ()) if isinstance(v, int)]
        or [v for v in setup.attacker.extra.get("pile", ()) if isinstance(v, int)]
    )
    fumble_at = int(weapon.get("fumble") or 0)
    code = str(weapon.get("weapon") or "")
    damage: Dist = {}
    for fumbled, p, after in _fumbles(counts, card.value == 1, fumble_at):
        if fumbled or margin <= 0:
            damage[0] = damage.get(0, Fraction(0)) + p
            continue
        _, base = shadows.base_damage(card, margin, kind)
        for values, q, left in _draws(after, shadows.DAMAGE_MODIFIERS[code][0] if code else 0):
            mod = shadows.modifier_value(code, list(values)) if code and values else 0
            crits = chain(left) if card.is_face and not guard.has_face else ((0, Fraction(1)),)
            for bonus, r in crits:
                amount = base + mod + bonus
                damage[amount] = damage.get(amount, Fraction(0)) + p * q * r
    hit = 1 - damage.get(0, Fraction(0))
    said = ", ".join(c.label for c in played) or "no cards"
    ap = setup.target.extra.get("ap")
    # What the defender may answer with, where the GM types it (the GM's eyes only).
    held = ", ".join(c.label for c in _cards(setup.target.extra.get("hand"))) or "none"
    steps = [
        f"{setup.attacker.name} plays {card.label}: {card.value} + skill {skill}"
        + (f" {shadows.OFF_FOCUS_PENALTY} off focus" if off else "")
        + f" = {value} ({kind})",
        f"{setup.target.name}'s defence {guard.total} = {guard.attribute} {guard.base}"
        + f" + {said}"
        + (f" (AP {ap} left for defence cards, 1 each)" if isinstance(ap, int) else "")
        + f"; its hand: {held}",
        f"damage lands {percent(hit)} on Health and Life",
    ]
    blow = Blow(f"{card.label} {value} vs {guard.total}", hit, dict(sorted(damage.items())))
    return Plan((blow,), tuple(steps))


def _fumbles(
    counts: tuple[int, ...], ace: bool, fumble_at: int
) -> list[tuple[bool, Fraction, tuple[int, ...]]]:
    if not ace:
        return [(False, Fraction(1), counts)]
    return [(values[0] <= fumble_at if values else False, p, left)
            for values, p, left in _draws(counts, 1)]  # fmt: skip


def roll(setup: Setup, rng: random.Random) -> Rolled:
    """The cards chosen (refusals here, before anything is played); the draws are made as the
    damage lands (:func:`spend` and the game's damage path)."""
    card, skill, kind, weapon, off = attack_of(setup)
    played = defence_cards(setup)
    answers = {
        "card": card.label,
        "skill": skill,
        "type": kind,
        "ap": 1,
        **{k: v for k, v in weapon.items() if k in ("fumble", "critical", "weapon")},
        "off_focus": off,
        "defence_cards": ", ".join(c.label for c in played) or "none",
        "pool": "hit",
    }
    steps = (f"{setup.attacker.name} plays {card.label} ({kind}, skill {skill})",)
    return Rolled(steps, (), answers=answers, spent={"card": card.to_dict()}, by_answers=True)


def spend(fight: Fight, setup: Setup, rolled: Rolled) -> list[str]:
    """The attack card leaves the hand (1 AP in a running AP round); a PC's sheet forgets the
    card it named for this attack."""
    c = fight.combatant(setup.attacker.combatant.id)
    holder = foes.holder_of(c)
    if holder is None:
        raise RuleError(f"{c.name} holds no cards")
    memory = setup.attacker.remembered("attack")
    if setup.attacker.is_pc and memory.pop("card", None) is not None and holder.isdigit():
        sheet = fight.tx.find("party", int(holder))
        if sheet is not None:
            fight.tx.put("party", int(holder), {**sheet, "attack": memory})
    return foes.spend_attack(fight, c, holder, Card.from_dict(rolled.spent["card"]))


def costs(setup: Setup) -> tuple[dict[str, int], dict[str, int]]:
    """SOH-13/14: the attack card leaves the attacker's hand; each defence card the
    defender's."""
    attack_of(setup)  # refuses an empty hand, as plan does
    return {"cards": 1}, {"cards": len(defence_cards(setup))}


def dealt(setup: Setup, rng: random.Random) -> Setup:
    """SOH-11/13: the exchange in a later round: the cards played leave the hands and the hands
    are dealt again each round, so each side holds a fresh hand of its size from the Minor
    Arcana, and the defender answers as a foe does (:func:`foes.best_defence`, one card for the
    one AP of the attack)."""
    cards = list(tarot.full_deck("minor"))
    rng.shuffle(cards)
    mine = max(1, len(setup.attacker.extra.get("hand") or ()))
    theirs = len(setup.target.extra.get("hand") or ())
    attack_hand, defence_hand = cards[:mine], cards[mine : mine + theirs]
    attacker = replace(
        setup.attacker,
        extra={**setup.attacker.extra, "hand": [c.to_dict() for c in attack_hand]},
    )
    target = replace(
        setup.target,
        extra={**setup.target.extra, "hand": [c.to_dict() for c in defence_hand]},
    )
    played = foes.best_defence(defence_hand, 1)
    return replace(
        setup, attacker=attacker, target=target,
        defence=", ".join(c.label for c in played) or "none",
    )  # fmt: skip


def room(side: Side, health: Doc) -> int:
    """SOH-17: a hit lands on Health and Life alike, and either at 0 is out (incapacitated,
    dead), so the smaller of the two is how far it is from out."""
    pools = health.get("resources") or {}
    left = [
        int((pools.get(k) or {}).get("current", 0)) for k in ("health", "life") if k in pools
    ]
    return min(left) if left else 0


def hurt(setup: Setup, health: Doc, amount: int, face: int) -> Doc:
    return dict(shadows.apply_hit(health, amount, ("health", "life"), "normal", False).character)


EXCHANGE = ExchangeRules(
    plan=plan,
    roll=roll,
    hurt=hurt,
    out=not_alive,
    spend=spend,
    costs=costs,
    defence_help="cards from its hand, as 4 Cups, 9 Swords · none · blank: a foe its best",
    extra=extra,
    dealt=dealt,
    room=room,
    attack_fields=(
        Field("card", "Card to play (blank: the best of the attack's suit)", "", required=False),
        Field("skill", "Attack skill", "0", "int", minimum=0, maximum=40),
        Field("type", "Attack type (blank: the focus's)", "", "choice",
              choices=tuple(shadows.ATTACK_SUITS), required=False),
    ),
)  # fmt: skip

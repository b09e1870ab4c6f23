"""Shadows of Humanity's foes: an HD statblock as an antagonist who fights with cards.

"Each character/protagonist and/or NPC/Antagonist uses these cards as attacks within a combat
round": a foe is dealt a combat hand like a PC (SOH-11, seen by the GM only, SOH-12), attacks by
playing a card from it with its attack skill (SOH-14..16, fumbles SOH-06), and defends with its
Quickness plus cards from its hand, each for 1 AP (SOH-13), as a PC does.

Reading: Quickness is 6 + 2 × Wit, within 1..16 (an HD foe had the tracker's 6), so its AP per
round (SOH-10) and its defence grow with Wit.
Reading: Body and Physical are 3 + Brawl and 2 + Brawl, Mind and Mental 3 + Wit and 2 + Wit,
Spirit and Emotional 3 + Will and 2 + Will (at least 0), Intuition and Discipline 5 + Will, so
an average foe's hand is 5 cards (a PC's 7) and four PCs and three foes fit the 56-card deck.
Reading: Health, Life and Æssence are each twice the statblock's HP (a PC's are 20), so a goblin
takes about two hits.
Reading: its attack skill is the statblock's Atk mod for the attribute it attacks with (Brawl:
a physical attack; Will: spiritual magic); its weapon has fumble value 1, no critical suit and
no damage modifier unless the GM says otherwise in the whole form.
Reading: a foe attacks with its highest card of the attack's suit, else its highest card; it
defends with the cards that add most (Coins doubled), as many as the attacker's AP and its own
AP allow, unless the GM names them.
"""

from __future__ import annotations

from typing import Any

from rulesets import encounter as er
from rulesets.decks import load_deck, save_deck
from rulesets.fight import Fight
from rulesets.foes import Foe, FoeRules, RollKind, Strike, Swing, atk_mod
from rulesets.npc import NPC
from rulesets.shadows import rules as shadows
from rulesets.shadows.tarot import Card, find_deck

Doc = dict[str, Any]
FOE_PREFIX = "foe:"
"""A foe's hand is held under ``"foe:<combatant id>"`` (a PC's under its party id)."""
ATTACK_TYPE = {"brawl": "physical", "wit": "physical", "will": "spiritual"}
FOE_WEAPON = {"fumble": 1, "critical": "", "weapon": ""}


def holder_of(c: er.Combatant) -> str | None:
    """Whose hand a combatant plays from: a PC's party id, a foe's ``foe:<id>``; None: none."""
    if c.side == "pc" and str(c.ref or "").isdigit():
        return str(c.ref)
    if isinstance(c.stats.get("sheet"), dict):
        return FOE_PREFIX + c.id
    return None


def make(name: str, block: NPC, hp: int) -> Doc:
    brawl, wit, will = (block.attribute(a) for a in ("brawl", "wit", "will"))
    pool = max(1, 2 * hp)
    return {
        "sheet": {
            "name": name,
            "attributes": {
                "quickness": max(1, min(16, 6 + 2 * wit)),
                "body": max(0, 3 + brawl),
                "physical": max(0, 2 + brawl),
                "mind": max(0, 3 + wit),
                "mental": max(0, 2 + wit),
                "spirit": max(0, 3 + will),
                "emotional": max(0, 2 + will),
                "intuition": max(0, 5 + will),
                "discipline": max(0, 5 + will),
            },
            "skill": {a: atk_mod(block, a) for a in ("brawl", "wit", "will")},
            "resources": {k: {"current": pool, "max": pool} for k in shadows.POOLS},
            "weapon": dict(FOE_WEAPON),
            "status": "alive",
        }
    }


def skill_of(sheet: Doc | None, block: NPC, attribute: str) -> int:
    found = ((sheet or {}).get("skill") or {}).get(attribute)
    if isinstance(found, int) and not isinstance(found, bool):
        return found
    return atk_mod(block, attribute)


def best_attack_card(hand: list[Card], kind: str) -> Card | None:
    """Reading (module docstring): the highest card of the attack's suit, else the highest."""
    if not hand:
        return None
    suit = shadows.ATTACK_SUITS.get(kind)
    matching = [c for c in hand if c.suit == suit]
    return max(matching or hand, key=lambda c: c.value)


def best_defence(hand: list[Card], most: int) -> list[Card]:
    """Reading: the cards that add most to a defence (Coins doubled), at most ``most``."""
    ranked = sorted(hand, key=lambda c: c.value * (2 if c.suit == "Coins" else 1), reverse=True)
    return ranked[: max(0, most)]


def attack(swing: Swing) -> Strike:
    """SOH-10/14: the foe plays a card from its hand (1 AP in a running AP round); the target's
    defence cards answer it when it lands."""
    foe, fight = swing.attacker, swing.fight
    holder = holder_of(foe.combatant)
    kind = ATTACK_TYPE.get(swing.attribute, "physical")
    _, deck = load_deck(fight.tx, "minor")
    card = best_attack_card(deck.hand(holder), kind) if holder else None
    if holder is None or card is None:
        raise shadows.RuleError(
            f"{foe.name} holds no cards: deal combat hands first (h in the tray)"
        )
    skill = skill_of(foe.sheet, foe.block, swing.attribute)
    weapon = {**FOE_WEAPON, **((foe.sheet or {}).get("weapon") or {})}
    # The card is played now (to the discards) and the AP spent: the attack is made, whether
    # or not the GM lands it at once.
    spent = spend_attack(fight, foe.combatant, holder, card)
    # A hit takes Health and Life (SOH-17), whichever key lands it.
    answers = {"card": card.label, "skill": skill, "type": kind, "ap": 1, "pool": "hit", **weapon}
    said = (
        f"{foe.name} plays {card.label} at {swing.target.name} ({kind}, skill {skill}): "
        f"{card.value + skill} against its defence"
    )
    guard = holder_of(swing.target)
    held = ", ".join(c.label.replace(" of ", " ") for c in deck.hand(guard)) if guard else ""
    return Strike(
        said=said, hits=("",), answers=answers, ask="defence_cards", lines=tuple(spent),
        brief=f"{card.label}, {card.value + skill}",
        hint=f"hand: {held}" if held else "no cards in hand",
    )  # fmt: skip


def spend_attack(fight: Fight, c: er.Combatant, holder: str, card: Card) -> list[str]:
    """The attack card leaves the hand for the discards; 1 AP is spent in a running AP round."""
    deck_id, deck = load_deck(fight.tx, "minor")
    deck.play(holder, [card])
    save_deck(fight.tx, deck_id, deck)
    enc = fight.enc
    if er.turn_order_of(enc).uses_ap and enc.started:
        return er.spend_ap(enc, c.id, 1, "an attack")
    return []


def shows(foe: Foe) -> list[str]:
    sheet = foe.sheet or {}
    attributes = sheet.get("attributes") or {}
    quickness = int(attributes.get("quickness", 6) or 6)
    skills = sheet.get("skill") or {}
    lines = [
        f"Quickness {quickness} (AP {shadows.ap_per_round(quickness)}/round, defence "
        f"{quickness}) · Intuition {attributes.get('intuition', '?')} · Discipline "
        f"{attributes.get('discipline', '?')}",
        "Attack skill: "
        + ", ".join(f"{a.capitalize()} {skills.get(a, '?')}" for a in ("brawl", "wit", "will")),
        f"HD {foe.block.hd} · weapon fumble {(sheet.get('weapon') or {}).get('fumble', 1)}",
    ]
    holder = holder_of(foe.combatant)
    if foe.read is not None and holder is not None:
        try:
            hand = find_deck(foe.read.rows("decks"), "minor")[1].hand(holder)
        except (ValueError, KeyError, TypeError):
            hand = []
        lines.append("Hand (GM only): " + (", ".join(c.label for c in hand) or "none dealt"))
    return lines


def preview(block: NPC) -> list[str]:
    sheet = make("", block, block.hp)["sheet"]
    a = sheet["attributes"]
    pool = sheet["resources"]["health"]["max"]
    return [
        f"As a foe here: Quickness {a['quickness']} (AP {shadows.ap_per_round(a['quickness'])}),"
        f" Health/Life/Æssence {pool}, a hand of {shadows.hand_size(a, 'physical')} cards, "
        f"attack skill {sheet['skill']['brawl']}: plays cards to attack and defend"
    ]


def roll_labels(foe: Foe, attribute: str) -> dict[RollKind, str]:
    kind = ATTACK_TYPE.get(attribute, "physical")
    return {
        "attack": f"attack: plays a card ({kind}, skill "
        f"{skill_of(foe.sheet, foe.block, attribute)})",
    }


FOES = FoeRules(
    make=make,
    shows=shows,
    draws_statblock=False,
    preview=preview,
    rolls=("attack", "morale", "effort"),
    roll_labels=roll_labels,
    attack=attack,
)

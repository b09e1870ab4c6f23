"""Shadows in the players' view: Health, Life and Æssence; AP left per combatant; the hands.

Reading: a foe's label follows the worse of Health and Life, because Health at 0 puts a
character down and Life at 0 kills it (see :mod:`rulesets.shadows.rules`).
"""

from __future__ import annotations

from rulesets.base import Character, SheetSpec
from rulesets.decks import DeckError
from rulesets.players import BANDS, Band, Hand, PlayerViewRules, Rows, band_of, own_pools, pool
from rulesets.shadows.tarot import Card, find_deck


def band(sheet: SheetSpec, character: Character) -> Band:
    worst: Band = "healthy"
    for key in ("health", "life"):
        found = pool(character, key)
        if found is not None:
            worst = max(worst, band_of(*found), key=BANDS.index)
    return worst


def _minor(card: Card) -> str:
    return f"{card.label} ({card.value})" + (" face" if card.is_face else "")


def _major(card: Card) -> str:
    try:
        return f"{card.label} — {card.meaning()}"
    except (DeckError, KeyError):
        return card.label


def hands(decks: Rows, holder: str, character: Character) -> tuple[Hand, ...]:
    """The PC's combat hand of Minor Arcana, then the Major Arcana it holds."""
    _, minor = find_deck(list(decks), "minor")
    held, unread = [], []
    for at, raw in enumerate(character.get("lists", {}).get("major_arcana", []), start=1):
        try:
            if not isinstance(raw, dict):
                raise TypeError(raw)
            held.append(_major(Card.from_dict(raw)))
        except (DeckError, KeyError, TypeError, ValueError):
            shown = str(raw) if len(str(raw)) <= 30 else str(raw)[:29] + "…"
            unread.append(f"#{at} ({shown})")  # a hand-edited entry: say so, go on
    problem = ""
    if unread:
        problem = (
            f"Not a card in the save's major_arcana: {', '.join(unread)}. "
            "Ask the GM to fix it on the party sheet."
        )
    return (
        Hand("Hand (Minor Arcana)", tuple(_minor(c) for c in minor.hand(holder))),
        Hand("Major Arcana held", tuple(held), problem),
    )


POOLS = ("health", "life", "aessence")


def own(sheet: SheetSpec, character: Character) -> tuple[Hand, ...]:
    """Health, Life and Æssence; AP is the fight's, beside the PC in the order."""
    return own_pools(sheet, character, POOLS)


PLAYERS = PlayerViewRules(
    labels={"healthy": "unharmed", "hurt": "hurt", "bloodied": "bloodied", "down": "incapacitated"},
    band=band,
    pc_pools=POOLS,
    ap_per_combatant=True,
    hands=hands,
    own=own,
)

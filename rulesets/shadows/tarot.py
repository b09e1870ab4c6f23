"""Shadows of Humanity's tarot (SOH-01): the Minor and the Major Arcana, declared as the game's
two decks (:class:`rulesets.decks.DeckSpec`, ``minor`` and ``major``).

The table state of each deck is the generic :class:`rulesets.decks.DeckState`; this module says
what the cards are, how they read, and keeps the Major Arcana a PC holds out of the deck.

A Major Arcana card a PC holds (listed on its sheet under :data:`HELD`, SOH-04) is out of the
Major deck: every read of that deck with the party (``load_deck``, :func:`find_deck` with the
party) puts it in that PC's hand first, so it is neither counted to draw nor drawn again, and a
card a PC no longer lists goes back to the discards. The sheet is the record; the deck follows
it (:func:`hold_listed`, the Major deck's ``hold`` hook).

Reading: a Major Arcana card's orientation (upright or reversed) is fixed when the deck is
shuffled, because a real tarot card is reversed by how it lies in the shuffled pile; the Minor
Arcana are never reversed, since no rule reads their orientation.
Reading: the text's Tower entry repeats the Devil's meanings word for word; the Tower is given
its customary meanings (upright: sudden change, upheaval, chaos, revelation, awakening;
reversed: personal transformation, fear of change, averting disaster) because a copy-paste slip
is the only sensible explanation and two identical cards would make the draw meaningless.
Reading: the Major Arcana are numbered 0 (The Fool) to 21 (The World) as their ``value``,
the customary Rider-Waite order, since the text lists them in that order without numbers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

from rulesets import decks
from rulesets.decks import CardText, DeckError, DeckSpec, DeckState, Rows
from rulesets.values import frozen

DeckKind = Literal["minor", "major"]

SUITS: tuple[str, ...] = ("Cups", "Coins", "Swords", "Wands")
"""The four Minor Arcana suits (Cups/Chalice, Coins/Pentacles, Swords, Wands/Staves)."""
MINOR_RANKS: tuple[str, ...] = (
    "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Page", "Knight", "Queen", "King",
)  # fmt: skip
"""Ranks in value order: Ace = 1 … 10, Page 11, Knight 12, Queen 13, King 14."""
FACE_RANKS: tuple[str, ...] = ("Page", "Knight", "Queen", "King")
SUIT_COLOURS: Mapping[str, str] = {
    "Cups": "cyan",
    "Coins": "yellow",
    "Swords": "white",
    "Wands": "red",
}
"""How each suit's cards are coloured in a list (a Major Arcana card: the list's default)."""


@frozen
class Arcanum:
    """One Major Arcana card's name, number and meanings as the rules text lists them."""

    name: str
    number: int
    upright: str
    reversed: str


MAJOR_ARCANA: tuple[Arcanum, ...] = (
    Arcanum("The Fool", 0, "Beginnings, innocence, spontaneity, a free spirit",
            "Naivety, foolishness, recklessness, risk-taking"),
    Arcanum("The Magician", 1, "Power, skill, concentration, action, resourcefulness",
            "Manipulation, poor planning, latent talents"),
    Arcanum("The High Priestess", 2, "Intuition, Higher powers, mystery, subconscious mind",
            "Hidden agendas, need to listen to inner voice"),
    Arcanum("The Empress", 3, "Fertility, femininity, beauty, nature, abundance",
            "Creative block, dependence on others"),
    Arcanum("The Emperor", 4, "Authority, father-figure, structure, solid foundation",
            "Domination, excessive control, rigidity, inflexibility"),
    Arcanum("The Hierophant", 5, "Religion, group identification, conformity, tradition, beliefs",
            "Restriction, challenging the status quo"),
    Arcanum("The Lovers", 6, "Love, union, relationships, values alignment, choices",
            "Disharmony, imbalance, misalignment of values"),
    Arcanum("The Chariot", 7, "Control, will power, victory, assertion, determination",
            "Lack of control and direction, aggression"),
    Arcanum("Strength", 8, "Strength, courage, patience, control, compassion",
            "Weakness, self-doubt, lack of self-discipline"),
    Arcanum("The Hermit", 9, "Soul-searching, introspection, being alone, inner guidance",
            "Isolation, loneliness, withdrawal"),
    Arcanum("Wheel of Fortune", 10, "Good luck, karma, life cycles, destiny, a turning point",
            "Bad luck, negative external forces, out of control"),
    Arcanum("Justice", 11, "Justice, fairness, truth, cause and effect, law",
            "Unfairness, lack of accountability, dishonesty"),
    Arcanum("The Hanged Man", 12, "Suspension, restriction, letting go, sacrifice",
            "Martyrdom, indecision, delay"),
    Arcanum("Death", 13, "Endings, beginnings, change, transformation, transition",
            "Resistance to change, unable to move on"),
    Arcanum("Temperance", 14, "Balance, moderation, patience, purpose, meaning",
            "Imbalance, excess, lack of long-term vision"),
    Arcanum("The Devil", 15, "Bondage, addiction, sexuality, materialism",
            "Detachment, breaking free, power reclaimed"),
    Arcanum("The Tower", 16, "Sudden change, upheaval, chaos, revelation, awakening",
            "Personal transformation, fear of change, averting disaster"),
    Arcanum("The Star", 17, "Hope, spirituality, renewal, inspiration, serenity",
            "Lack of faith, despair, discouragement"),
    Arcanum("The Moon", 18, "Illusion, fear, anxiety, insecurity, subconscious",
            "Release of fear, unhappiness, confusion"),
    Arcanum("The Sun", 19, "Fun, warmth, success, positivity, vitality",
            "Temporary depression, lack of success"),
    Arcanum("Judgement", 20, "Judgement, rebirth, inner calling, absolution",
            "Self-doubt, refusal of self-examination"),
    Arcanum("The World", 21, "Completion, integration, accomplishment, travel",
            "Lack of completion, lack of closure"),
)  # fmt: skip
"""The 22 Major Arcana with the text's meanings (the Tower corrected, see the docstring)."""
TOWER_TEXT_ERRATUM = (
    "The rules text gives the Tower the Devil's meanings (Bondage, addiction, ...); "
    "Tableside uses the Tower's customary meanings instead."
)
_ARCANA_BY_NAME: dict[str, Arcanum] = {a.name.lower(): a for a in MAJOR_ARCANA}
_ARCANA_BY_NAME.update({a.name.lower().removeprefix("the "): a for a in MAJOR_ARCANA})


@frozen
class Card(decks.Card):
    """One tarot card: a deck's card with what Shadows reads of it (a face card, a meaning).
    ``reversed`` only matters for the Major Arcana."""

    @property
    def is_face(self) -> bool:
        """Page, Knight, Queen or King of the Minor Arcana."""
        return self.deck == "minor" and self.rank in FACE_RANKS

    def meaning(self, reversed_meaning: bool | None = None) -> str:
        """A Major Arcana card's meaning, in its own orientation unless one is chosen."""
        if self.deck != "major":
            raise DeckError(f"{self.name} is a Minor Arcana card and has no Major meaning")
        arcanum = _ARCANA_BY_NAME[self.rank.lower()]
        flip = self.reversed if reversed_meaning is None else reversed_meaning
        return arcanum.reversed if flip else arcanum.upright

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Card:
        """Rebuild a card, checking rank and suit; ``value`` and ``name`` are derived."""
        deck = data.get("deck")
        rank = str(data.get("rank", ""))
        if deck == "minor":
            return minor_card(rank, str(data.get("suit")))
        if deck == "major":
            return major_card(rank, bool(data.get("reversed", False)))
        raise DeckError(f"unknown deck {deck!r}; a card is from the 'minor' or 'major' deck")


def minor_card(rank: str, suit: str) -> Card:
    """A Minor Arcana card by rank (``"Ace"``, ``"2"`` … ``"King"``) and suit."""
    rank_key = {r.lower(): r for r in MINOR_RANKS}.get(rank.strip().lower())
    if rank_key is None and rank.strip() == "1":
        rank_key = "Ace"
    suit_key = {s.lower(): s for s in SUITS}.get(suit.strip().lower())
    if rank_key is None:
        raise DeckError(f"unknown Minor Arcana rank {rank!r}; use one of {', '.join(MINOR_RANKS)}")
    if suit_key is None:
        raise DeckError(f"unknown suit {suit!r}; use one of {', '.join(SUITS)}")
    return Card("minor", rank_key, MINOR_RANKS.index(rank_key) + 1, suit_key)


def major_card(name: str, reversed_: bool = False) -> Card:
    """A Major Arcana card by name (``"The Tower"`` or ``"Tower"``)."""
    arcanum = _ARCANA_BY_NAME.get(name.strip().lower())
    if arcanum is None:
        raise DeckError(f"unknown Major Arcana card {name!r}")
    return Card("major", arcanum.name, arcanum.number, None, reversed_)


def as_card(card: decks.Card | Mapping[str, Any]) -> Card:
    """Accept a tarot :class:`Card`, another deck's card of the same name, or its JSON dict."""
    if isinstance(card, Card):
        return card
    return Card.from_dict(card.to_dict() if isinstance(card, decks.Card) else card)


# --- how a card reads ---------------------------------------------------------------------------


def _read_minor(card: Card) -> CardText:
    marks = ("face",) if card.is_face else ()
    return CardText(
        card.label, f"({card.value})", marks, colour=SUIT_COLOURS.get(card.suit or "", "")
    )


def _read_major(card: Card) -> CardText:
    return CardText(card.label, meaning=card.meaning())


# --- SOH-04: the Major Arcana a PC holds are out of the deck --------------------------------------

HELD = "major_arcana"
"""The sheet list of the Major Arcana a PC holds."""


def held_by(party: Rows) -> dict[str, list[Card]]:
    """Each PC's held Major Arcana by party id (text); a card listed twice counts once."""
    listed: dict[str, list[Card]] = {}
    claimed: set[str] = set()
    for pid, pc in party:
        lists = pc.get("lists") if isinstance(pc, dict) else None
        entries = lists.get(HELD) if isinstance(lists, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            try:
                card = as_card(entry)
            except (DeckError, ValueError, KeyError, TypeError, AttributeError):
                continue  # a hand-edited entry that is no card holds nothing
            if card.deck == "major" and card.key not in claimed:
                claimed.add(card.key)
                listed.setdefault(str(pid), []).append(card)
    return listed


def hold_listed(state: DeckState[Card], party: Rows) -> None:
    """SOH-04: the Major Arcana the party's sheets list go to their holders' hands; a card in a
    PC's hand that its sheet no longer lists goes back to the discards."""
    if state.deck != "major":
        return
    listed = held_by(party)
    pcs = {str(pid) for pid, _ in party}
    for holder in [h for h in state.hands if h in pcs or h.isdigit()]:
        keep = {c.key for c in listed.get(holder, [])}
        for card in state.hand(holder):
            if card.key not in keep:
                state.discard.append(state.remove_from_hand(holder, card))
    for holder, cards in listed.items():
        have = {c.key for c in state.hand(holder)}
        for card in cards:
            if card.key not in have:
                state.take_out(card.key)
                state.give(holder, [card])


# --- the two decks, as Shadows declares them ------------------------------------------------------


def full_deck(deck: DeckKind) -> list[Card]:
    """Every card of one deck, in a fixed order, all upright (SOH-01)."""
    if deck == "minor":
        return [minor_card(rank, suit) for suit in SUITS for rank in MINOR_RANKS]
    if deck == "major":
        return [major_card(a.name) for a in MAJOR_ARCANA]
    raise DeckError(f"unknown deck {deck!r}")


TarotDeck = DeckState[Card]
"""A tarot deck on the table: the Minor or the Major Arcana as they lie."""

MINOR = DeckSpec("minor", "Minor Arcana", tuple(full_deck("minor")), read=_read_minor)
"""The Minor Arcana (SOH-01): 56 cards, never reversed; the combat hands are dealt from it."""
MAJOR = DeckSpec(
    "major", "Major Arcana", tuple(full_deck("major")), read=_read_major, reversible=True,
    hand="", hold=hold_listed,
)  # fmt: skip
"""The Major Arcana (SOH-01/04): 22 cards that fall either way; a held one is listed on its
PC's sheet (not shown as a hand in the tray) and stays out of the deck."""
DECKS: tuple[DeckSpec[Card], ...] = (MINOR, MAJOR)
_SPECS = {spec.id: spec for spec in DECKS}


def spec_of(deck: str) -> DeckSpec[Card]:
    """The Minor or Major Arcana by id."""
    found = _SPECS.get(deck)
    if found is None:
        raise DeckError(f"unknown deck {deck!r:.40}; use minor or major")
    return found


def new_deck(deck: DeckKind, rng: random.Random) -> DeckState[Card]:
    """A full deck of that kind, shuffled."""
    return DeckState.new(spec_of(deck), rng)


def deck_from_dict(data: Mapping[str, Any]) -> DeckState[Card]:
    """A deck as saved (``DeckState.to_dict``), of whichever kind it says it is."""
    return DeckState.from_dict(data, spec_of(str(data.get("deck"))))


def find_deck(rows: Rows, kind: str, party: Rows = ()) -> tuple[int | None, DeckState[Card]]:
    """Read the Minor or Major Arcana from the "decks" rows (no write); a fresh unshuffled one
    if none yet. The Major Arcana the party's PCs hold are out of it (:func:`hold_listed`)."""
    return decks.read_deck(rows, spec_of(kind), party)

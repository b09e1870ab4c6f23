"""Tarot decks for Shadows of Humanity (SOH-01): the Minor and the Major Arcana as JSON-safe state.

A :class:`DeckState` is one deck on the table: the draw pile (index 0 is the top card), the
discard pile and the hands held per character id. Every card of the deck is in exactly one of
those places between calls, so ``to_dict``/``from_dict`` round-trip the exact table state,
deck order included (GEN-07). Draws are without replacement; when the draw pile runs out the
discards are reshuffled into it and the draw reports an event saying so.

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rulesets.base import RuleError

DeckKind = Literal["minor", "major"]

SUITS: tuple[str, ...] = ("Cups", "Coins", "Swords", "Wands")
"""The four Minor Arcana suits (Cups/Chalice, Coins/Pentacles, Swords, Wands/Staves)."""
MINOR_RANKS: tuple[str, ...] = (
    "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Page", "Knight", "Queen", "King",
)  # fmt: skip
"""Ranks in value order: Ace = 1 … 10, Page 11, Knight 12, Queen 13, King 14."""
FACE_RANKS: tuple[str, ...] = ("Page", "Knight", "Queen", "King")


@dataclass(frozen=True)
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

GM = "gm"
"""The viewer id of the game master, who sees every hand (SOH-12)."""


class DeckError(RuleError):
    """A deck operation the table cannot do (a card not in the hand, no card left to draw ...)."""


@dataclass(frozen=True)
class Card:
    """One tarot card. ``reversed`` only matters for the Major Arcana."""

    deck: DeckKind
    rank: str
    value: int
    suit: str | None = None
    reversed: bool = False

    @property
    def name(self) -> str:
        """``"Queen of Cups"``, ``"7 of Swords"`` or ``"The Tower"``."""
        return f"{self.rank} of {self.suit}" if self.deck == "minor" else self.rank

    @property
    def label(self) -> str:
        """The name with the orientation of a Major Arcana card, for the log."""
        return f"{self.name} (reversed)" if self.reversed else self.name

    @property
    def key(self) -> str:
        """Identity within its deck regardless of orientation: ``"minor:Queen:Cups"``."""
        return f"minor:{self.rank}:{self.suit}" if self.deck == "minor" else f"major:{self.rank}"

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

    def oriented(self, reversed_: bool) -> Card:
        """The same card lying the other way (Minor Arcana stay upright)."""
        return Card(self.deck, self.rank, self.value, self.suit, reversed_ and self.deck == "major")

    def to_dict(self) -> dict[str, Any]:
        """The card as JSON (SOH-01 layout)."""
        return {
            "deck": self.deck,
            "rank": self.rank,
            "value": self.value,
            "suit": self.suit,
            "reversed": self.reversed,
            "name": self.name,
        }

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


def full_deck(deck: DeckKind) -> list[Card]:
    """Every card of one deck, in a fixed order, all upright (SOH-01)."""
    if deck == "minor":
        return [minor_card(rank, suit) for suit in SUITS for rank in MINOR_RANKS]
    if deck == "major":
        return [major_card(a.name) for a in MAJOR_ARCANA]
    raise DeckError(f"unknown deck {deck!r}")


def as_card(card: Card | Mapping[str, Any]) -> Card:
    """Accept a :class:`Card` or its JSON dict."""
    return card if isinstance(card, Card) else Card.from_dict(card)


@dataclass(frozen=True)
class DrawResult:
    """Cards drawn and anything worth a log line (a reshuffle)."""

    cards: tuple[Card, ...]
    events: tuple[str, ...] = ()


@dataclass
class DeckState:
    """One deck on the table (SOH-01): draw pile (top first), discards, hands by character id.

    Mutable on purpose: the app loads it with :meth:`from_dict`, acts, and saves
    :meth:`to_dict` (which is also its undo snapshot).
    """

    deck: DeckKind
    draw_pile: list[Card]
    discard: list[Card] = field(default_factory=list)
    hands: dict[str, list[Card]] = field(default_factory=dict)

    # -- construction and persistence -------------------------------------------------------

    @classmethod
    def new(cls, deck: DeckKind, rng: random.Random) -> DeckState:
        """A full deck, shuffled."""
        state = cls(deck, full_deck(deck))
        state.shuffle(rng)
        return state

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe state, exact order included."""
        return {
            "deck": self.deck,
            "draw_pile": [c.to_dict() for c in self.draw_pile],
            "discard": [c.to_dict() for c in self.discard],
            "hands": {who: [c.to_dict() for c in cards] for who, cards in self.hands.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeckState:
        """Rebuild from :meth:`to_dict`; refuses a deck with a card missing or doubled."""
        deck = data.get("deck")
        if deck not in ("minor", "major"):
            raise DeckError(f"unknown deck {deck!r}")
        state = cls(
            deck,
            [Card.from_dict(c) for c in data.get("draw_pile", [])],
            [Card.from_dict(c) for c in data.get("discard", [])],
            {str(w): [Card.from_dict(c) for c in cs] for w, cs in data.get("hands", {}).items()},
        )
        state.validate()
        return state

    def all_cards(self) -> list[Card]:
        """Every card wherever it lies: draw pile, discards, hands."""
        cards = list(self.draw_pile) + list(self.discard)
        for hand in self.hands.values():
            cards.extend(hand)
        return cards

    def validate(self) -> None:
        """Raise :class:`DeckError` unless every card of the deck is present exactly once."""
        keys = [c.key for c in self.all_cards()]
        if any(c.deck != self.deck for c in self.all_cards()):
            raise DeckError(f"a card of another deck is in the {self.title}")
        expected = sorted(c.key for c in full_deck(self.deck))
        if sorted(keys) != expected:
            doubled = sorted({k for k in keys if keys.count(k) > 1})
            missing = sorted(set(expected) - set(keys))
            raise DeckError(f"{self.title} is not whole: doubled {doubled}, missing {missing}")

    @property
    def title(self) -> str:
        return "Minor Arcana" if self.deck == "minor" else "Major Arcana"

    # -- shuffling --------------------------------------------------------------------------

    def shuffle(self, rng: random.Random) -> None:
        """Shuffle the draw pile (Major Arcana also fall upright or reversed)."""
        rng.shuffle(self.draw_pile)
        if self.deck == "major":
            self.draw_pile = [c.oriented(rng.random() < 0.5) for c in self.draw_pile]

    def reshuffle_discards(self, rng: random.Random) -> str:
        """Put the discards into the draw pile and shuffle it; returns the event."""
        count = len(self.discard)
        self.draw_pile.extend(self.discard)
        self.discard = []
        self.shuffle(rng)
        return f"{self.title}: {count} discards reshuffled into the draw pile"

    def recall_hands(self) -> str:
        """Every hand goes to the discard pile; returns the event."""
        count = sum(len(h) for h in self.hands.values())
        for hand in self.hands.values():
            self.discard.extend(hand)
        self.hands = {}
        return f"{self.title}: {count} cards recalled from hands"

    def gather_and_shuffle(self, rng: random.Random) -> str:
        """Hands and discards back into the draw pile, shuffled (the GM's fresh shuffle)."""
        self.recall_hands()
        self.draw_pile.extend(self.discard)
        self.discard = []
        self.shuffle(rng)
        return f"{self.title}: all {len(self.draw_pile)} cards gathered and shuffled"

    # -- drawing ----------------------------------------------------------------------------

    @property
    def available(self) -> int:
        """Cards that can still be drawn (draw pile plus discards to reshuffle)."""
        return len(self.draw_pile) + len(self.discard)

    def take(self, rng: random.Random, n: int = 1) -> DrawResult:
        """Remove ``n`` cards from the top, reshuffling discards if the pile runs out.

        The cards are placed nowhere: the caller must :meth:`put_discard` them or give them to
        a hand. Prefer :meth:`draw`, which places them.
        """
        if n < 0:
            raise DeckError("cannot draw a negative number of cards")
        if n > self.available:
            raise DeckError(
                f"{self.title}: cannot draw {n}; only {self.available} cards are not in hands"
            )
        cards: list[Card] = []
        events: list[str] = []
        for _ in range(n):
            if not self.draw_pile:
                events.append(self.reshuffle_discards(rng))
            cards.append(self.draw_pile.pop(0))
        return DrawResult(tuple(cards), tuple(events))

    def draw(self, rng: random.Random, n: int = 1, to: str | None = None) -> DrawResult:
        """Draw ``n`` cards into ``to``'s hand, or face up onto the discards if ``to`` is None."""
        result = self.take(rng, n)
        if to is None:
            self.put_discard(result.cards)
        else:
            self.hands.setdefault(to, []).extend(result.cards)
        return result

    def put_discard(self, cards: Iterable[Card]) -> None:
        """Place cards taken with :meth:`take` on the discard pile."""
        self.discard.extend(cards)

    def give(self, holder: str, cards: Iterable[Card]) -> None:
        """Place cards taken with :meth:`take` in a hand."""
        self.hands.setdefault(holder, []).extend(cards)

    # -- hands ------------------------------------------------------------------------------

    def hand(self, holder: str) -> list[Card]:
        """The cards ``holder`` holds (a copy)."""
        return list(self.hands.get(holder, []))

    def remove_from_hand(self, holder: str, card: Card | Mapping[str, Any]) -> Card:
        """Take one card out of a hand (matched by identity, not orientation)."""
        wanted = as_card(card)
        hand = self.hands.get(holder, [])
        for i, held in enumerate(hand):
            if held.key == wanted.key:
                del hand[i]
                if not hand:
                    del self.hands[holder]
                return held
        raise DeckError(f"{holder} does not hold {wanted.name}")

    def play(self, holder: str, cards: Sequence[Card | Mapping[str, Any]]) -> tuple[Card, ...]:
        """Play cards from a hand onto the discard pile; all or none."""
        wanted = [as_card(c).key for c in cards]
        held = [c.key for c in self.hands.get(holder, [])]
        for key in set(wanted):
            if wanted.count(key) > held.count(key):
                raise DeckError(f"{holder} does not hold {key.split(':', 1)[1]}")
        played = tuple(self.remove_from_hand(holder, c) for c in cards)
        self.put_discard(played)
        return played

    def hand_counts(self) -> dict[str, int]:
        """How many cards each holder holds."""
        return {who: len(cards) for who, cards in self.hands.items()}


@dataclass(frozen=True)
class HandView:
    """What one viewer may see of one hand (SOH-12): always the count, cards only if allowed."""

    holder: str
    count: int
    cards: tuple[Card, ...] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "holder": self.holder,
            "count": self.count,
            "cards": None if self.cards is None else [c.to_dict() for c in self.cards],
        }


def hand_summary(state: DeckState, viewer: str) -> dict[str, HandView]:
    """SOH-12: each hand as ``viewer`` may see it: GM and holder see cards, others a count."""
    return {
        holder: HandView(
            holder,
            len(cards),
            tuple(cards) if viewer in (GM, holder) else None,
        )
        for holder, cards in state.hands.items()
    }

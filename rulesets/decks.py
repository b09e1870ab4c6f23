"""Decks of cards a game declares, and the table's state of each: draw pile, discards, hands.

A game names its decks in its declaration (``Game.decks``). A :class:`DeckSpec` says the deck's
id and name, every card in a fixed order, how a card reads in a list (:class:`CardText`: its
name, a short note, what it means), whether cards fall reversed when shuffled, what a holder's
cards of it are called in the tray (its hand), and the game's hook for cards kept outside the
deck (Shadows' held Major Arcana, SOH-04). The app shows, draws and checks any declared deck
the same way and never knows which game's cards they are; the rules act on a
:class:`DeckState`, the same for every deck.

Each deck on the table is one document of the campaign's ``decks`` table:
``{"kind": <deck id>, **DeckState.to_dict()}``, created by the first command that needs it
(shuffled with the transaction's rng). A command loads the state (:func:`load_deck`), lets the
rules act on it and puts it back (:func:`save_deck`), so deck order, discards and hands are part
of the campaign and of undo. A document of that table whose kind is no deck of the game (a
running contest) is the game's own.

Between calls every card of a deck is in exactly one place (the draw pile, index 0 its top;
the discards; one hand), so ``to_dict``/``from_dict`` round-trip the exact table state, deck
order included (GEN-07). Draws are without replacement; when the draw pile runs out the discards
are reshuffled into it and the draw reports an event saying so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rulesets.base import RuleError
from rulesets.players import Hand
from rulesets.table import Tx
from rulesets.values import frozen

if TYPE_CHECKING:
    from rulesets.game import Game

Rows = Sequence[tuple[int, dict[str, Any]]]

GM = "gm"
"""The viewer id of the game master, who sees every hand (SOH-12)."""


class DeckError(RuleError):
    """A deck operation the table cannot do (a card not in the hand, no card left to draw ...)."""


@frozen
class Card:
    """One card of a deck: ``rank`` and ``suit`` name it, ``value`` is what it counts in the
    game, ``reversed`` how it lies (only in a deck whose cards reverse). A game may subclass it
    to add what its rules read of a card (a tarot card's meaning)."""

    deck: str
    rank: str
    value: int
    suit: str | None = None
    reversed: bool = False

    @property
    def name(self) -> str:
        """``"Queen of Hearts"``, ``"7 of Swords"``, or the rank alone for a suitless card
        (``"The Tower"``, ``"Joker"``)."""
        return f"{self.rank} of {self.suit}" if self.suit else self.rank

    @property
    def label(self) -> str:
        """The name with the orientation of a reversed card, for the log."""
        return f"{self.name} (reversed)" if self.reversed else self.name

    @property
    def key(self) -> str:
        """Identity regardless of orientation, unique across a game's decks:
        ``"minor:Queen:Cups"``, ``"major:The Tower"``."""
        return f"{self.deck}:{self.rank}:{self.suit}" if self.suit else f"{self.deck}:{self.rank}"

    def to_dict(self) -> dict[str, Any]:
        """The card as JSON, as the ``decks`` table and ``tableside draw --json`` give it."""
        return {
            "deck": self.deck,
            "rank": self.rank,
            "value": self.value,
            "suit": self.suit,
            "reversed": self.reversed,
            "name": self.name,
        }


@frozen
class CardText:
    """How a card reads in a list: ``Queen of Cups (13) face``, ``The Tower — Sudden change``.

    ``name`` with its orientation; ``short`` what a glance needs beside it (its value);
    ``marks`` words that set it apart (a face card); ``meaning`` what it means, if the game
    reads one; ``colour`` a colour name for the name (its suit's), blank for the default.
    """

    name: str
    short: str = ""
    marks: tuple[str, ...] = ()
    meaning: str = ""
    colour: str = ""

    @property
    def drawn(self) -> str:
        """The name and, if the game reads one, the meaning: a card drawn face up in the log."""
        return f"{self.name} — {self.meaning}" if self.meaning else self.name


C = TypeVar("C", bound=Card)
"""The card type of a deck (a game's own subclass of :class:`Card`, or Card itself)."""


def plain_text(card: Card) -> CardText:
    """The default reading: the card's name and its value (``Queen of Hearts (12)``)."""
    return CardText(card.label, f"({card.value})")


@dataclass(frozen=True, eq=False)
class DeckSpec(Generic[C]):
    """One deck a game plays with, as the game declares it (``Game.decks``).

    ``id`` is the deck's name in the save (the ``decks`` document's ``kind``) and on the
    command line (``tableside draw --deck ID``); ``cards`` every card, upright, in the order a
    fresh unshuffled deck lies in. Refused at import: no cards, a card of another deck, a card
    twice.
    """

    id: str
    name: str
    cards: tuple[C, ...]
    read: Callable[[C], CardText] = plain_text
    """How a card reads in a list and in the log."""
    reversible: bool = False
    """Cards fall upright or reversed when the deck is shuffled (a tarot's)."""
    hand: str = "Hand"
    """What a holder's cards of this deck are called where the tray shows them; blank: the
    tray shows no hands of this deck (the game lists them elsewhere, as on the sheet)."""
    hold: Callable[[DeckState[C], Rows], None] | None = None
    """The game's hook on every read of the deck with the party's rows: it moves the cards the
    sheets say are held into their holders' hands (out of the deck), and back (SOH-04)."""

    def __post_init__(self) -> None:
        if not self.id or not self.cards:
            raise ValueError(f"deck {self.id!r}: a deck needs an id and at least one card")
        keys = [c.key for c in self.cards]
        stray = [c.name for c in self.cards if c.deck != self.id]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if stray or twice:
            raise ValueError(f"deck {self.id!r}: cards of another deck {stray}, twice {twice}")

    @cached_property
    def _by_name(self) -> dict[tuple[str, str | None], C]:
        return {(c.rank, c.suit): c for c in self.cards}

    def card(self, data: Card | Mapping[str, Any]) -> C:
        """A card of this deck from its stored form (``Card.to_dict``) or a card; the deck's own
        card, its orientation kept where the deck reverses. DeckError if it is not one."""
        if isinstance(data, Card):
            data = data.to_dict()
        if not isinstance(data, Mapping):
            raise DeckError(f"a card of the {self.name} is an object, not {data!r:.40}")
        if data.get("deck") != self.id:
            raise DeckError(
                f"a card of another deck ({data.get('deck')!r:.40}) is in the {self.name}"
            )
        suit = data.get("suit")
        found = self._by_name.get((str(data.get("rank")), suit if isinstance(suit, str) else None))
        if found is None:
            raise DeckError(
                f"the {self.name} has no card {data.get('name', data.get('rank'))!r:.40}"
            )
        return replace(found, reversed=True) if self.reversible and data.get("reversed") else found


def deck_spec(game: Game, deck_id: str) -> DeckSpec[Any]:
    """The game's deck of that id; "" is its first. DeckError names the decks it has."""
    for spec in game.decks:
        if deck_id in (spec.id, ""):
            return spec
    if not game.decks:
        raise DeckError(f"{game.name} plays with no deck of cards")
    ids = ", ".join(spec.id for spec in game.decks)
    raise DeckError(f"{game.name} has no deck {deck_id!r:.40}; its decks: {ids}")


@frozen
class DrawResult(Generic[C]):
    """Cards drawn and anything worth a log line (a reshuffle)."""

    cards: tuple[C, ...]
    events: tuple[str, ...] = ()


@dataclass
class DeckState(Generic[C]):
    """One deck on the table: draw pile (top first), discards, hands by holder id.

    Mutable on purpose: the app loads it with :meth:`from_dict`, acts, and saves
    :meth:`to_dict` (which is also its undo snapshot).
    """

    spec: DeckSpec[C]
    draw_pile: list[C]
    discard: list[C] = field(default_factory=list)
    hands: dict[str, list[C]] = field(default_factory=dict)

    # -- construction and persistence -------------------------------------------------------

    @classmethod
    def new(cls, spec: DeckSpec[C], rng: random.Random) -> DeckState[C]:
        """A full deck, shuffled."""
        state = cls(spec, list(spec.cards))
        state.shuffle(rng)
        return state

    @property
    def deck(self) -> str:
        """The deck's id."""
        return self.spec.id

    @property
    def title(self) -> str:
        return self.spec.name

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe state, exact order included."""
        return {
            "deck": self.deck,
            "draw_pile": [c.to_dict() for c in self.draw_pile],
            "discard": [c.to_dict() for c in self.discard],
            "hands": {who: [c.to_dict() for c in cards] for who, cards in self.hands.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], spec: DeckSpec[C]) -> DeckState[C]:
        """Rebuild from :meth:`to_dict`; refuses another deck, a card missing or doubled."""
        deck = data.get("deck")
        if deck != spec.id:
            raise DeckError(f"unknown deck {deck!r:.40}; this is the {spec.name} ({spec.id})")
        hands = data.get("hands", {})
        if not isinstance(hands, Mapping):
            raise DeckError(f"the {spec.name}'s hands are an object of holders, not {hands!r:.40}")
        state = cls(
            spec,
            [spec.card(c) for c in _listed(data, "draw_pile", spec)],
            [spec.card(c) for c in _listed(data, "discard", spec)],
            {str(w): [spec.card(c) for c in _listed(hands, w, spec)] for w in hands},
        )
        state.validate()
        return state

    def all_cards(self) -> list[C]:
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
        expected = sorted(c.key for c in self.spec.cards)
        if sorted(keys) != expected:
            doubled = sorted({k for k in keys if keys.count(k) > 1})
            missing = sorted(set(expected) - set(keys))
            raise DeckError(f"{self.title} is not whole: doubled {doubled}, missing {missing}")

    # -- shuffling --------------------------------------------------------------------------

    def shuffle(self, rng: random.Random) -> None:
        """Shuffle the draw pile (in a deck that reverses, each card also falls either way)."""
        rng.shuffle(self.draw_pile)
        if self.spec.reversible:
            self.draw_pile = [replace(c, reversed=rng.random() < 0.5) for c in self.draw_pile]

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
        return f"{self.title}: {count} card{'' if count == 1 else 's'} recalled from hands"

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

    def take(self, rng: random.Random, n: int = 1) -> DrawResult[C]:
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
        cards: list[C] = []
        events: list[str] = []
        for _ in range(n):
            if not self.draw_pile:
                events.append(self.reshuffle_discards(rng))
            cards.append(self.draw_pile.pop(0))
        return DrawResult(tuple(cards), tuple(events))

    def draw(self, rng: random.Random, n: int = 1, to: str | None = None) -> DrawResult[C]:
        """Draw ``n`` cards into ``to``'s hand, or face up onto the discards if ``to`` is None."""
        result = self.take(rng, n)
        if to is None:
            self.put_discard(result.cards)
        else:
            self.hands.setdefault(to, []).extend(result.cards)
        return result

    def deal(self, rng: random.Random, sizes: Mapping[str, int]) -> DrawResult[C]:
        """Deal round-robin from the top, ``sizes[holder]`` cards each, reshuffling the
        discards when the pile runs out; a deal the deck cannot cover stops when no card is
        left, and says who is short."""
        cards: list[C] = []
        events: list[str] = []
        dealt = dict.fromkeys(sizes, 0)
        turn = 0
        while self.available and any(size > turn for size in sizes.values()):
            for holder, size in sizes.items():
                if turn < size and self.available:
                    drawn = self.draw(rng, 1, to=holder)
                    cards += drawn.cards
                    events += drawn.events
                    dealt[holder] += 1
            turn += 1
        for holder, size in sizes.items():
            if dealt[holder] < size:
                events.append(f"{self.title} ran out: {holder} is short of {size - dealt[holder]}")
        return DrawResult(tuple(cards), tuple(events))

    def put_discard(self, cards: Iterable[C]) -> None:
        """Place cards taken with :meth:`take` on the discard pile."""
        self.discard.extend(cards)

    def give(self, holder: str, cards: Iterable[C]) -> None:
        """Place cards taken with :meth:`take` in a hand."""
        self.hands.setdefault(holder, []).extend(cards)

    # -- hands ------------------------------------------------------------------------------

    def hand(self, holder: str) -> list[C]:
        """The cards ``holder`` holds (a copy)."""
        return list(self.hands.get(holder, []))

    def remove_from_hand(self, holder: str, card: Card | Mapping[str, Any]) -> C:
        """Take one card out of a hand (matched by identity, not orientation)."""
        wanted = self.spec.card(card)
        hand = self.hands.get(holder, [])
        for i, held in enumerate(hand):
            if held.key == wanted.key:
                del hand[i]
                if not hand:
                    del self.hands[holder]
                return held
        raise DeckError(f"{holder} does not hold {wanted.name}")

    def play(self, holder: str, cards: Sequence[Card | Mapping[str, Any]]) -> tuple[C, ...]:
        """Play cards from a hand onto the discard pile; all or none."""
        wanted = [self.spec.card(c).key for c in cards]
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

    def take_out(self, key: str) -> C | None:
        """Take the card of that key from wherever it lies (to give to a holder); None if it
        is nowhere."""
        for pile in (self.draw_pile, self.discard, *self.hands.values()):
            for i, card in enumerate(pile):
                if card.key == key:
                    del pile[i]
                    self.hands = {h: cards for h, cards in self.hands.items() if cards}
                    return card
        return None


def _listed(data: Mapping[str, Any], key: str, spec: DeckSpec[Any]) -> list[Any]:
    found = data.get(key, [])
    if not isinstance(found, list):
        raise DeckError(f"the {spec.name}'s {key} is a list of cards, not {found!r:.40}")
    return found


@frozen
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


def hand_summary(state: DeckState[Any], viewer: str) -> dict[str, HandView]:
    """SOH-12: each hand as ``viewer`` may see it: GM and holder see cards, others a count."""
    return {
        holder: HandView(
            holder,
            len(cards),
            tuple(cards) if viewer in (GM, holder) else None,
        )
        for holder, cards in state.hands.items()
    }


# --- the decks in the campaign ---------------------------------------------------------------


def read_deck(
    rows: Rows, spec: DeckSpec[C], party: Rows | None = None
) -> tuple[int | None, DeckState[C]]:
    """Read a deck from the ``decks`` rows (no write); a fresh unshuffled one if none yet. With
    the party's rows, the game's hook keeps the cards the sheets hold out of it (``hold``)."""
    found: tuple[int | None, DeckState[C]] = (None, DeckState(spec, list(spec.cards)))
    for doc_id, doc in rows:
        if doc.get("kind") == spec.id:
            found = doc_id, DeckState.from_dict(doc, spec)
            break
    if party is not None and spec.hold is not None:
        spec.hold(found[1], party)
    return found


def deck_hands(rows: Rows, specs: Sequence[DeckSpec[Any]], holder: str) -> tuple[Hand, ...]:
    """A holder's hand of each deck whose hands the tray shows, read from the ``decks`` rows:
    what the players' page shows a PC of a game that declares decks and no hands of its own
    (:attr:`rulesets.players.PlayerViewRules.hands`). A deck the save damaged is a hand with
    the problem in words, never an error."""
    hands: list[Hand] = []
    for spec in specs:
        if not spec.hand:
            continue
        title = f"{spec.hand} ({spec.name})"
        try:
            _, state = read_deck(rows, spec)
            cards = tuple(_card_line(spec.read(card)) for card in state.hand(holder))
        except (DeckError, ValueError, TypeError, KeyError, AttributeError):
            hands.append(Hand(title, (), f"The save's {spec.name} could not be read; ask the GM."))
            continue
        hands.append(Hand(title, cards))
    return tuple(hands)


def _card_line(text: CardText) -> str:
    line = f"{text.name} {text.short}".strip()
    return f"{line} — {text.meaning}" if text.meaning else line


def load_deck(tx: Tx, deck: str) -> tuple[int | None, DeckState[Any]]:
    """The campaign's deck of that id ("" its game's first), or a new shuffled one (saved by
    :func:`save_deck`); DeckError for a deck the game does not have or a damaged one."""
    spec = deck_spec(tx.game, deck)
    doc_id, state = _stored(tx.all("decks"), spec)
    if state is None:
        state = DeckState.new(spec, tx.rng)
    if spec.hold is not None:
        spec.hold(state, tx.all("party"))
    return doc_id, state


def _stored(rows: Rows, spec: DeckSpec[C]) -> tuple[int | None, DeckState[C] | None]:
    for doc_id, doc in rows:
        if doc.get("kind") == spec.id:
            try:
                return doc_id, DeckState.from_dict(doc, spec)
            except (DeckError, ValueError, TypeError, AttributeError) as exc:
                raise DeckError(f"the saved {spec.id} deck is damaged: {exc}") from None
    return None, None


def save_deck(tx: Tx, doc_id: int | None, state: DeckState[Any]) -> None:
    state.validate()
    doc = {"kind": state.deck, **state.to_dict()}
    if doc_id is None:
        tx.insert("decks", doc)
    else:
        tx.put("decks", doc_id, doc)


def _holder_name(tx: Tx, holder: str) -> str:
    doc = tx.find("party", int(holder)) if holder.isdigit() else None
    return str(doc.get("name", holder)) if doc is not None else holder


# --- commands any game with decks can offer ---------------------------------------------------


@frozen
class DrawCards:
    """Draw cards face up onto the discards (a reshuffle, if needed, is logged; SOH-01).

    ``deck`` is the game's deck id; blank: its first deck.
    """

    deck: str = ""
    count: int = 1

    @property
    def label(self) -> str:
        return f"Draw {self.count} {self.deck or 'card(s)'}"

    def run(self, tx: Tx) -> list[str]:
        spec = deck_spec(tx.game, self.deck)
        if not 1 <= self.count <= len(spec.cards):
            raise DeckError(f"draw between 1 and {len(spec.cards)} cards")
        doc_id, state = load_deck(tx, spec.id)
        result = state.draw(tx.rng, self.count)
        save_deck(tx, doc_id, state)
        lines = list(result.events)
        lines.append(f"{state.title} drawn: " + "; ".join(spec.read(c).drawn for c in result.cards))
        return lines


@frozen
class DealCards:
    """Deal ``count`` cards to each holder (every PC of the party when none are named), to
    their hands; ``recall``: the hands go to the discards first (a new round's cards)."""

    deck: str = ""
    count: int = 1
    holders: tuple[str, ...] = ()
    recall: bool = False

    @property
    def label(self) -> str:
        return f"Deal {self.count} {self.deck or 'card(s)'}"

    def run(self, tx: Tx) -> list[str]:
        spec = deck_spec(tx.game, self.deck)
        if not 1 <= self.count <= len(spec.cards):
            raise DeckError(f"deal between 1 and {len(spec.cards)} cards each")
        holders = self.holders or tuple(str(pid) for pid, _ in tx.all("party"))
        if not holders:
            raise DeckError("nobody to deal to: add a PC first")
        doc_id, state = load_deck(tx, spec.id)
        lines = [state.recall_hands()] if self.recall and state.hands else []
        result = state.deal(tx.rng, dict.fromkeys(holders, self.count))
        save_deck(tx, doc_id, state)
        dealt = "; ".join(
            f"{_holder_name(tx, h)} " + ", ".join(spec.read(c).name for c in state.hand(h))
            for h in holders
        )
        return [*lines, *result.events, f"{state.title} dealt: {dealt}"]


@frozen
class PlayCard:
    """A holder plays one card of their hand (by its key) face up onto the discards."""

    holder: str
    card: str
    deck: str = ""

    @property
    def label(self) -> str:
        return "Play card"

    def run(self, tx: Tx) -> list[str]:
        spec = deck_spec(tx.game, self.deck)
        doc_id, state = load_deck(tx, spec.id)
        held = next((c for c in state.hand(self.holder) if c.key == self.card), None)
        if held is None:
            raise DeckError(f"{_holder_name(tx, self.holder)} does not hold {self.card!r:.40}")
        state.play(self.holder, [held])
        save_deck(tx, doc_id, state)
        return [f"{_holder_name(tx, self.holder)} plays {spec.read(held).drawn}"]

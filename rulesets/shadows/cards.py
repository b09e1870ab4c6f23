"""Shadows' cards on the table: skill draws, hands, counters, contests, damage and criticals.

Each command loads the campaign's deck (:mod:`rulesets.decks`), lets the rules in
:mod:`rulesets.shadows.rules` act on it and puts it back, so deck order, discards and hands are
part of the campaign and of undo. Draws happen in ``run`` with ``tx.rng``.

Hands are keyed by party doc id as text (``"2"``); the tray shows only one at a time.
"""

from __future__ import annotations

from typing import Any, Literal

from rulesets import encounter as er
from rulesets.base import CheckResult, RuleError
from rulesets.decks import DeckError, load_deck, save_deck
from rulesets.shadows import rules as shadows
from rulesets.shadows.foes import FOE_PREFIX
from rulesets.shadows.tarot import MINOR_RANKS, SUITS, Card, DeckKind, minor_card
from rulesets.shadows.tarot import TarotDeck as DeckState  # every deck here is of tarot cards
from rulesets.table import Tx
from rulesets.values import frozen


def _names(cards: tuple[Card, ...] | list[Card]) -> str:
    return ", ".join(c.label for c in cards)


def _holder_name(tx: Tx, holder: str) -> str:
    if holder.isdigit():
        doc = tx.find("party", int(holder))
        if doc is not None:
            return str(doc.get("name", holder))
    return holder


@frozen
class SkillDraw:
    """SOH-02..06: a single or middle-of-three draw + skill + attribute against a difficulty.

    A King (or three face cards) adds a card; a Queen grants a Major Arcana to the character,
    listed on their party sheet; a fumble fails and draws the Major Arcana omen.
    """

    who: int | None = None
    mode: Literal["single", "three"] = "single"
    bonus: int = 0
    difficulty: str = "Normal"
    assistance: int = 0
    focus_penalty: int = 0
    """−3 for an action off the character's focus (SOH-11)."""

    @property
    def label(self) -> str:
        return f"{self.mode.capitalize()} draw vs {self.difficulty}"

    def run(self, tx: Tx) -> list[str]:
        minor_id, minor = load_deck(tx, "minor")
        major_id, major = load_deck(tx, "major")
        doc = tx.get("party", self.who) if self.who is not None else None
        name = str(doc.get("name", "?")) if doc is not None else "GM"
        drawn = shadows.skill_draw(
            tx.rng,
            minor,
            skill=self.bonus,
            level=self.difficulty,
            mode=self.mode,
            assistance=self.assistance,
            modifier=self.focus_penalty,
            major=major,
            character_id=str(self.who) if self.who is not None else None,
        )
        save_deck(tx, minor_id, minor)
        save_deck(tx, major_id, major)
        if drawn.granted is not None and doc is not None and self.who is not None:
            tx.put("party", self.who, shadows.grant_major_arcana(doc, drawn.granted))
        return [tx.log_roll(name, drawn.as_check())]


@frozen
class OpposedDraw:
    """SOH-08: both sides draw a card + bonus; a tie draws again and adds."""

    bonus_a: int = 0
    bonus_b: int = 0
    side_a: str = "A"
    side_b: str = "B"

    @property
    def label(self) -> str:
        return "Opposed draw"

    def run(self, tx: Tx) -> list[str]:
        if self.bonus_b < 0 or self.bonus_a < shadows.OFF_FOCUS_PENALTY:
            raise RuleError("a bonus cannot be negative (−3 off focus at most)")
        doc_id, state = load_deck(tx, "minor")
        result = shadows.opposed_draw(tx.rng, state, self.bonus_a, self.bonus_b)
        save_deck(tx, doc_id, state)
        winner = self.side_a if result.winner == "a" else self.side_b
        check = CheckResult(
            expression=f"opposed {self.side_a} {self.bonus_a:+d} vs {self.side_b} +{self.bonus_b}",
            total=max(result.total_a, result.total_b),
            dice=tuple(c.value for c in result.cards_a + result.cards_b),
            band=f"{winner} wins",
            detail="; ".join(result.log_lines() + list(result.events)),
        )
        # The roll is the first side's (a character's draw in the tray), else the GM's.
        return [tx.log_roll(self.side_a if self.side_a.strip() not in ("", "A") else "GM", check)]


@frozen
class DealHands:
    """SOH-11: gather and shuffle the Minor Arcana, deal each PC still in the fight cards by
    its own focus (Body + ½ Physical, Mind + ½ Mental or Spirit + ½ Emotional), and each foe of
    the running encounter with a sheet by its own (:mod:`rulesets.shadows.foes`).

    A PC who is incapacitated or dead, or whose combatant in the running encounter
    (``encounter_id``) is defeated, is dealt nothing."""

    encounter_id: int | None = None
    default_size: int = 5
    """Cards for a sheet without Shadows' attributes (cards are used in every game)."""

    @property
    def label(self) -> str:
        return "Deal combat hands"

    def run(self, tx: Tx) -> list[str]:
        doc_id, state = load_deck(tx, "minor")
        out = _defeated_pcs(tx, self.encounter_id)
        sizes: dict[str, int] = {}
        left_out: list[str] = []
        for pid, pc in tx.all("party"):
            if not shadows.dealt_in(pc) or str(pid) in out:
                left_out.append(str(pc.get("name", pid)))
                continue
            sizes[str(pid)] = _hand_size(pc, shadows.focus_of(pc), self.default_size)
        names = {}
        for holder, name, sheet in _foes_in(tx, self.encounter_id):
            # "Each character/protagonist and/or NPC/Antagonist uses these cards": a foe is
            # dealt by its own sheet, after the PCs (a short deck shorts the foes first).
            sizes[holder] = _hand_size(sheet, shadows.focus_of(sheet), self.default_size)
            names[holder] = name
        deal = shadows.deal_combat_hands(tx.rng, state, sizes)
        save_deck(tx, doc_id, state)
        dealt = ", ".join(
            f"{names[h]} {n}" if h in names else f"{_holder_name(tx, h)} {n} ({_focus(tx, h)})"
            for h, n in deal.dealt.items()
        )
        lines = [*deal.events, f"Dealt: {dealt or 'nobody'}"]
        if left_out:
            lines.append(f"Out of the fight, dealt nothing: {', '.join(left_out)}")
        return lines


def _foes_in(tx: Tx, encounter_id: int | None) -> list[tuple[str, str, dict[str, Any]]]:
    """(hand holder, name, sheet) of each foe still in that encounter with a sheet of its own
    (a PC's hand is its party id's; an HD foe with plain HP is dealt none)."""
    doc = tx.find("encounters", encounter_id) if encounter_id is not None else None
    found = doc.get("combatants", []) if doc is not None else []
    foes = []
    for c in found:
        if not isinstance(c, dict) or c.get("defeated") or c.get("side") == "pc" and c.get("ref"):
            continue
        sheet = (c.get("stats") or {}).get("sheet")
        if isinstance(sheet, dict) and shadows.dealt_in(sheet):
            foes.append((FOE_PREFIX + str(c.get("id", "")), str(c.get("name", "?")), sheet))
    return foes


def _focus(tx: Tx, holder: str) -> str:
    return shadows.focus_of(tx.find("party", int(holder)) if holder.isdigit() else None)



def _defeated_pcs(tx: Tx, encounter_id: int | None) -> set[str]:
    """Party ids (text) of the PCs marked defeated in that encounter."""
    doc = tx.find("encounters", encounter_id) if encounter_id is not None else None
    found = doc.get("combatants", []) if doc is not None else []
    return {
        str(c.get("ref"))
        for c in found if isinstance(c, dict) and c.get("side") == "pc" and c.get("defeated")
    }  # fmt: skip


def _hand_size(pc: dict[str, Any], focus: str, default: int) -> int:
    """SOH-11: Body + ½ Physical (by focus); a sheet of another game gets ``default``."""
    attributes = pc.get("attributes", {})
    whole, _ = shadows.FOCUS_ATTRIBUTES.get(focus, ("", ""))
    if whole and whole not in attributes:
        return default
    return shadows.hand_size(attributes, focus)


@frozen
class SetFocus:
    """SOH-11: a character states its focus for the round (None: the next one in turn)."""

    pc_id: int
    focus: str | None = None

    @property
    def label(self) -> str:
        return "Focus"

    def run(self, tx: Tx) -> list[str]:
        pc = tx.get("party", self.pc_id)
        focus = self.focus if self.focus is not None else shadows.next_focus(shadows.focus_of(pc))
        if focus not in shadows.FOCUSES:
            raise RuleError(f"focus is one of {', '.join(shadows.FOCUSES)}, not {focus!r:.20}")
        pc["focus"] = focus
        tx.put("party", self.pc_id, pc)
        return [f"{pc.get('name', '?')} focuses on {focus}: {_focus_rule(focus)}"]


def _focus_rule(focus: str) -> str:
    whole, half = shadows.FOCUS_ATTRIBUTES[focus]
    return f"{whole.capitalize()} + ½ {half.capitalize()} cards, {shadows.OFF_FOCUS_PENALTY} off it"


@frozen
class PlayCards:
    """SOH-12: play cards from a hand onto the discards (an action or a defence)."""

    holder: str
    cards: tuple[str, ...]
    """Card keys (``Card.key``) as held."""
    purpose: str = "action"

    @property
    def label(self) -> str:
        return f"Play {len(self.cards)} card(s)"

    def run(self, tx: Tx) -> list[str]:
        doc_id, state = load_deck(tx, "minor")
        wanted = [_held(state, self.holder, key) for key in self.cards]
        played = state.play(self.holder, wanted)
        save_deck(tx, doc_id, state)
        total = sum(c.value for c in played)
        who = _holder_name(tx, self.holder)
        return [f"{who} plays {_names(played)} as {self.purpose} ({total})"]


def _held(state: DeckState, holder: str, key: str) -> Card:
    for card in state.hand(holder):
        if card.key == key:
            return card
    raise DeckError(f"{holder} does not hold {key.split(':', 1)[-1]}")


def held_card(state: DeckState, holder: str, who: str, typed: str) -> Card:
    """SOH-12: the card of ``holder``'s hand the GM names, by its key (as the tray's hand
    lists it) or as typed (``"9 Swords"``, ``"Queen of Cups"``); a refusal naming the hand
    if it is not there."""
    hand = state.hand(holder)
    for card in hand:
        if card.key == typed or card.label.casefold() == typed.strip().casefold():
            return card
    wanted = parse_card(typed)
    for card in hand:
        if card.key == wanted.key:
            return card
    held = ", ".join(c.label for c in hand) or "no cards (deal hands first)"
    raise RuleError(f"{who} does not hold {wanted.label}; the hand is {held}")


def parse_card(text: str) -> Card:
    """SOH-14: a Minor Arcana card typed as ``"9 Swords"``, ``"Queen of Cups"``."""
    words = [w for w in str(text).split() if w.casefold() != "of"]
    if len(words) != 2:
        raise RuleError("Type the card as rank and suit, e.g. 9 Swords or Queen of Cups")
    return minor_card(words[0], words[1])


@frozen
class RedrawCards:
    """SOH-11: forgo the first AP to discard up to three cards and be dealt as many.

    ``cards`` are card keys (as the tray's hand lists them) or typed (``"9 Swords"``). When
    ``encounter_id`` names a running AP-rounds encounter the holder fights in, the redraw must
    come before it spends any AP that round, once a round, and costs that first AP there (one
    undoable step); outside an AP round it costs nothing.
    """

    holder: str
    cards: tuple[str, ...]
    encounter_id: int | None = None

    @property
    def label(self) -> str:
        return f"Redraw {len(self.cards)}"

    def run(self, tx: Tx) -> list[str]:
        if not self.cards:
            raise RuleError("Name the cards to redraw (up to three)")
        doc_id, state = load_deck(tx, "minor")
        fight = self._fight(tx)
        who = fight[2].name if fight is not None else _holder_name(tx, self.holder)
        wanted: list[Card] = []
        for typed in self.cards:
            card = held_card(state, self.holder, who, typed)
            if card in wanted:
                raise RuleError(f"{card.label} is named twice")
            wanted.append(card)
        if len(wanted) > shadows.REDRAW_MAX:
            raise RuleError(f"A redraw is up to {shadows.REDRAW_MAX} cards, not {len(wanted)}")
        ap_lines: list[str] = []
        if fight is not None:
            doc, enc, mine = fight
            shadows.check_redraw(
                mine.name, mine.ap, mine.ap_max, mine.stats.get(REDRAWN) == enc.round
            )
            mine.stats[REDRAWN] = enc.round
            ap_lines = er.spend_ap(enc, mine.id, 1, "a redraw (its first AP)")
            tx.put("encounters", int(str(self.encounter_id)), {**doc, **enc.to_dict()})
        redraw = shadows.redraw_hand(tx.rng, state, self.holder, wanted)
        save_deck(tx, doc_id, state)
        n = len(redraw.drawn)
        return [*redraw.events, f"{who} redraws {n} card{'s' if n != 1 else ''}", *ap_lines]

    def _fight(self, tx: Tx) -> tuple[dict[str, Any], er.Encounter, er.Combatant] | None:
        """The running AP round the holder fights in (its document, itself, the holder's
        combatant), where SOH-11's first AP is paid; None: no such round."""
        doc = tx.find("encounters", self.encounter_id) if self.encounter_id is not None else None
        if doc is None:
            return None
        enc = er.Encounter.from_dict(doc)
        if not er.turn_order_of(enc).uses_ap or not enc.started:
            return None
        mine = next((c for c in enc.combatants if _holds(c, self.holder)), None)
        return (doc, enc, mine) if mine is not None else None


REDRAWN = "redrawn_round"
"""A combatant's stats key: the round it last redrew its hand in (SOH-11: once a round)."""


def _holds(c: er.Combatant, holder: str) -> bool:
    """Whether the combatant plays from ``holder``'s hand (a PC's party id, a foe's own)."""
    if c.side == "pc" and c.ref is not None and str(c.ref) == holder:
        return True
    return holder == FOE_PREFIX + c.id


@frozen
class DamageModifier:
    """SOH-15: draw a weapon's damage modifier (D1, D2, L2, H2, L3, H3, M3)."""

    code: str = "D1"

    @property
    def label(self) -> str:
        return f"Damage modifier {self.code}"

    def run(self, tx: Tx) -> list[str]:
        doc_id, state = load_deck(tx, "minor")
        drawn = shadows.draw_damage_modifier(tx.rng, state, self.code)
        save_deck(tx, doc_id, state)
        check = CheckResult(
            expression=f"damage modifier {drawn.code}",
            total=drawn.value,
            dice=tuple(c.value for c in drawn.cards),
            detail="; ".join([_names(drawn.cards), *drawn.events]),
        )
        return [tx.log_roll("GM", check)]


@frozen
class CriticalChain:
    """SOH-16: a face attack card beat a non-face defence: draw the critical chain."""

    critical_suit: str | None = None

    @property
    def label(self) -> str:
        return "Critical chain"

    def run(self, tx: Tx) -> list[str]:
        doc_id, state = load_deck(tx, "minor")
        crit = shadows.critical_chain(tx.rng, state, self.critical_suit)
        save_deck(tx, doc_id, state)
        majors = f"; Major Critical {_names(crit.major_cards)}" if crit.major_cards else ""
        check = CheckResult(
            expression="critical chain",
            total=crit.bonus,
            dice=tuple(c.value for c in crit.cards),
            band=f"{crit.level} critical",
            detail="; ".join([_names(crit.cards) + majors, *crit.events]),
        )
        return [tx.log_roll("GM", check)]


@frozen
class CombatFumble:
    """SOH-06: an Ace played to attack: draw against the weapon's fumble value."""

    fumble_value: int = 1
    who: str = "GM"
    """Whose attack it was, for the roll log."""

    @property
    def label(self) -> str:
        return "Combat fumble draw"

    def run(self, tx: Tx) -> list[str]:
        if not 1 <= self.fumble_value <= 14:
            raise RuleError("a weapon's fumble value is a card value from 1 to 14")
        doc_id, state = load_deck(tx, "minor")
        fumble = shadows.combat_fumble(tx.rng, state, self.fumble_value)
        save_deck(tx, doc_id, state)
        check = CheckResult(
            expression=f"fumble draw vs {self.fumble_value}",
            total=fumble.card.value,
            dice=(fumble.card.value,),
            band="Fumble" if fumble.fumbled else "No fumble",
            detail=fumble.card.label,
        )
        return [tx.log_roll(self.who, check)]


@frozen
class Shuffle:
    """Gather hands and discards into the deck and shuffle it."""

    deck: DeckKind = "minor"

    @property
    def label(self) -> str:
        return f"Shuffle {self.deck}"

    def run(self, tx: Tx) -> list[str]:
        doc_id, state = load_deck(tx, self.deck)
        line = state.gather_and_shuffle(tx.rng)
        save_deck(tx, doc_id, state)
        return [line]


@frozen
class ReshuffleDiscards:
    """Put the discards back into the draw pile and shuffle it."""

    deck: DeckKind = "minor"

    @property
    def label(self) -> str:
        return f"Reshuffle {self.deck} discards"

    def run(self, tx: Tx) -> list[str]:
        doc_id, state = load_deck(tx, self.deck)
        line = state.reshuffle_discards(tx.rng)
        save_deck(tx, doc_id, state)
        return [line]


@frozen
class RecallHands:
    """Every hand of the Minor Arcana goes to the discards."""

    deck: DeckKind = "minor"

    @property
    def label(self) -> str:
        return "Recall hands"

    def run(self, tx: Tx) -> list[str]:
        doc_id, state = load_deck(tx, self.deck)
        line = state.recall_hands()
        save_deck(tx, doc_id, state)
        return [line]


# --- SOH-09 counter actions ------------------------------------------------------------------


@frozen
class CounterAction:
    """SOH-09: the counterer draws (or plays from their hand) one Minor card against the
    target's card; an appropriate suit and a higher card subtract the difference from the
    target's total.

    The counter costs 1 AP. When ``encounter_id`` names an AP-rounds encounter that is running
    and the counterer is in it, that AP is spent there (same undoable step); otherwise the cost
    is only noted in the log, for the GM to take off by hand.

    Reading: a counter played from a hand uses that card (a combat Active Dodge in the text is a
    counter, and combat cards come from hands); outside combat the card is drawn from the deck.
    """

    who: int | None
    target_value: int
    target_total: int
    suits: tuple[str, ...] = SUITS
    """The suits the GM judges appropriate to counter this action."""
    played: str | None = None
    """A card key from ``who``'s hand to play instead of drawing."""
    encounter_id: int | None = None

    @property
    def label(self) -> str:
        return "Counter action"

    def run(self, tx: Tx) -> list[str]:
        if not 1 <= self.target_value <= 14:
            raise RuleError("the target's card value is 1 (Ace) to 14 (King)")
        if self.target_total < 0:
            raise RuleError("the target's total cannot be negative")
        unknown = [s for s in self.suits if s not in SUITS]
        if unknown or not self.suits:
            raise RuleError(f"name the appropriate suits among {', '.join(SUITS)}")
        doc = tx.get("party", self.who) if self.who is not None else None
        name = str(doc.get("name", "?")) if doc is not None else "GM"
        doc_id, state = load_deck(tx, "minor")
        if self.played is not None:
            if self.who is None:
                raise RuleError("the GM has no hand to play a counter card from")
            card = state.play(str(self.who), [_held(state, str(self.who), self.played)])[0]
            how = "plays"
        else:
            card = state.draw(tx.rng, 1).cards[0]
            how = "draws"
        save_deck(tx, doc_id, state)
        rank = MINOR_RANKS[self.target_value - 1]
        target = Card("minor", rank, self.target_value)
        result = shadows.counter_action(card, target, self.target_total, self.suits)
        ap_lines = self._spend_ap(tx, name)
        if result.success:
            band = f"Countered −{result.reduction}"
            outcome = (
                f"{card.name} beats {rank}: {self.target_total} − {result.reduction} = "
                f"{result.new_target_total}"
            )
        else:
            band = "Counter fails"
            why = "wrong suit" if not result.suit_appropriate else "not higher"
            outcome = f"{card.name} vs {rank}: {why}, total stays {self.target_total}"
        check = CheckResult(
            expression=f"counter vs {rank} (total {self.target_total})",
            total=result.new_target_total,
            dice=(card.value,),
            band=band,
            detail="; ".join([f"{how} {outcome}", *ap_lines]),
            natural=card.value,
        )
        return [tx.log_roll(name, check)]

    def _spend_ap(self, tx: Tx, name: str) -> list[str]:
        """The 1 AP cost: spent in the running AP-rounds encounter, else only noted."""
        note = [f"1 AP: no AP round running, take it off {name} by hand"]
        if self.encounter_id is None or self.who is None:
            return note
        try:
            doc = tx.get("encounters", self.encounter_id)
            enc = er.Encounter.from_dict(doc)
        except (RuleError, ValueError, KeyError, TypeError):
            return note
        if not er.turn_order_of(enc).uses_ap or not enc.started:
            return note
        mine = [c for c in enc.combatants if _holds(c, str(self.who))]
        if not mine:
            return note
        lines = er.counter_action(enc, mine[0].id)
        tx.put("encounters", self.encounter_id, {**doc, **enc.to_dict()})
        return lines


# --- SOH-08 multi-draw contests --------------------------------------------------------------

CONTEST = "contest"
"""The "kind" of the decks-table doc that holds the running contest (one at a time)."""


def find_contest(rows: list[tuple[int, dict[str, Any]]]) -> tuple[int, dict[str, Any]] | None:
    """The running (or last decided) contest doc in the "decks" rows, if any."""
    for doc_id, doc in rows:
        if doc.get("kind") == CONTEST:
            return doc_id, doc
    return None


def contest_status(doc: dict[str, Any]) -> str:
    """What the table may see of a contest: the names, the score and the draws, never the
    margin (SOH-08: best if neither side knows it)."""
    contest = shadows.Contest.from_dict(doc)
    a, b = str(doc.get("side_a", "A")), str(doc.get("side_b", "B"))
    score = f"{a} {contest.score_a} – {contest.score_b} {b}"
    draws = len(contest.history)
    if contest.winner is not None:
        return f"{score} after {draws} draw(s): {a if contest.winner == 'a' else b} wins"
    if contest.finished:
        return f"{score} after {draws} draw(s): level at the end"
    return f"{score} after {draws} draw(s); scored on {contest.scoring}"


@frozen
class StartContest:
    """SOH-08: start a multi-draw contest to a margin only the GM knows.

    Saved as a doc of kind ``"contest"`` in the decks table (so it survives restarts and undo);
    starting another replaces it. The margin never goes into the log.
    """

    margin: int
    side_a: str = "A"
    side_b: str = "B"
    bonus_a: int = 0
    bonus_b: int = 0
    scoring: Literal["draws", "points"] = "draws"

    @property
    def label(self) -> str:
        return "Start contest"

    def run(self, tx: Tx) -> list[str]:
        if self.margin < 1:
            raise RuleError("the winning margin is a whole number of at least 1")
        if self.bonus_a < 0 or self.bonus_b < 0:
            raise RuleError("a bonus cannot be negative")
        if not self.side_a.strip() or not self.side_b.strip():
            raise RuleError("each side of a contest needs a name")
        contest = shadows.Contest(margin=self.margin, scoring=self.scoring)
        doc = {
            "kind": CONTEST,
            **contest.to_dict(),
            "side_a": self.side_a,
            "side_b": self.side_b,
            "bonus_a": self.bonus_a,
            "bonus_b": self.bonus_b,
        }
        found = find_contest(tx.all("decks"))
        if found is None:
            tx.insert("decks", doc)
        else:
            tx.put("decks", found[0], doc)
        return [
            f"Contest: {self.side_a} +{self.bonus_a} vs {self.side_b} +{self.bonus_b}, "
            f"scored on {self.scoring}, to a margin the GM keeps hidden"
        ]


@frozen
class ContestDraw:
    """SOH-08: one more opposed draw of the running contest, scored; the winner is declared
    when the hidden margin is reached."""

    @property
    def label(self) -> str:
        return "Contest draw"

    def run(self, tx: Tx) -> list[str]:
        found = find_contest(tx.all("decks"))
        if found is None:
            raise RuleError("no contest is running: start one first")
        contest_id, doc = found
        try:
            contest = shadows.Contest.from_dict(doc)
        except (shadows.RuleError, ValueError, TypeError) as exc:
            raise RuleError(f"the saved contest is damaged: {exc}") from None
        if contest.finished:
            raise RuleError("the contest is already decided: start a new one")
        deck_id, state = load_deck(tx, "minor")
        bonus_a, bonus_b = int(doc.get("bonus_a", 0)), int(doc.get("bonus_b", 0))
        contest, drawn = contest.draw(tx.rng, state, bonus_a, bonus_b)
        save_deck(tx, deck_id, state)
        new_doc = {**doc, **contest.to_dict()}
        tx.put("decks", contest_id, new_doc)
        a, b = str(doc.get("side_a", "A")), str(doc.get("side_b", "B"))
        winner = a if drawn.winner == "a" else b
        check = CheckResult(
            expression=f"contest draw {len(contest.history)}: {a} +{bonus_a} vs {b} +{bonus_b}",
            total=max(drawn.total_a, drawn.total_b),
            dice=tuple(c.value for c in drawn.cards_a + drawn.cards_b),
            band=f"{winner} takes the draw",
            detail="; ".join([*drawn.log_lines(), *drawn.events, contest_status(new_doc)]),
        )
        return [tx.log_roll("GM", check)]


@frozen
class EndContest:
    """Put the contest away (decided or abandoned)."""

    @property
    def label(self) -> str:
        return "End contest"

    def run(self, tx: Tx) -> list[str]:
        found = find_contest(tx.all("decks"))
        if found is None:
            raise RuleError("no contest to end")
        tx.remove("decks", found[0])
        return [f"Contest ended: {contest_status(found[1])}"]

"""A game with a deck that is no tarot, defined here and nowhere else (issue 25: decks are a game's).

"Showdown" deals each PC a card from a standard 52-card deck for card initiative (Ace high).
The test registers it, opens a new campaign of it and plays its cards by keys: a card drawn face
up, the initiative cards dealt, one hand shown and a card played from it; then ``tableside draw
--save`` draws from the same deck, the save validates, reopens and the tray shows the deck as
it was left. Nothing outside this file knows the game or its cards: the shell shows, draws and
checks whatever deck the declaration names.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual.widgets import OptionList, Static

from app import schema
from app.cli import main
from app.commands.party import AddPC
from app.launch import open_campaign
from app.player_view import hands_of, has_hands
from app.store import CorruptSave, read_campaign
from app.tui import TablesideApp
from rulesets import registry
from rulesets.base import CheckResult, ResourceSpec, Ruleset, SheetSpec
from rulesets.checks import CardTable, CheckRules
from rulesets.decks import Card, CardText, DealCards, DeckSpec, DrawCards, PlayCard
from rulesets.game import API_VERSION, DemoPC, Game
from rulesets.table import Action
from tests.apphelpers import SIZE

GAME_ID = "showdown"
DECK = "cards"
SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")


def _reads(card: Card) -> CardText:
    """``Queen of Hearts (12)``, hearts and diamonds in red."""
    red = card.suit in ("Hearts", "Diamonds")
    return CardText(card.label, f"({card.value})", colour="red" if red else "white")


STANDARD = DeckSpec(
    DECK,
    "Playing cards",
    tuple(Card(DECK, rank, value, suit) for suit in SUITS for value, rank in enumerate(RANKS, 2)),
    read=_reads,
    hand="Initiative card",
)


def _no_check(rng: random.Random | None = None, **options: Any) -> CheckResult:
    return CheckResult("no check", 0, ())


SHOWDOWN = Game(
    ruleset=Ruleset(
        id=GAME_ID,
        name="Showdown",
        turn_model="initiative",
        sheet=SheetSpec(resources=(ResourceSpec("grit", "Grit", 6),)),
        check=_no_check,
    ),
    demo_party=(DemoPC("Robin"),),
    decks=(STANDARD,),
    api_version=API_VERSION,
    checks=CheckRules(
        cards=CardTable(
            play=lambda holder, key: PlayCard(holder, key, DECK),
            empty="No initiative cards dealt (d deals)",
        )
    ),
    actions=(
        Action("draw", "tray", "n", "Draw card", lambda ctx, v: DrawCards(DECK, 1)),
        Action(
            "deal", "tray", "d", "Deal initiative",
            lambda ctx, v: DealCards(DECK, 1, recall=True),
        ),
    ),  # fmt: skip
    summary="card initiative from a standard 52-card deck",
)


@pytest.fixture
def showdown() -> Iterator[Game]:
    withdraw = registry.register(SHOWDOWN)
    yield SHOWDOWN
    withdraw()


def _saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


def _deck(data: dict[str, Any]) -> dict[str, Any]:
    found: list[dict[str, Any]] = [doc for doc in data["decks"].values() if doc["kind"] == DECK]
    assert len(found) == 1
    return found[0]


def _text(app: TablesideApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_a_standard_deck_is_whole_and_reads_as_its_game_says() -> None:
    assert len(STANDARD.cards) == 52 and len({c.key for c in STANDARD.cards}) == 52
    queen = STANDARD.card({"deck": DECK, "rank": "Queen", "suit": "Hearts", "reversed": True})
    assert (queen.name, queen.value, queen.reversed) == ("Queen of Hearts", 12, False)
    assert STANDARD.read(queen) == CardText("Queen of Hearts", "(12)", colour="red")
    with pytest.raises(ValueError, match="twice"):
        DeckSpec("x", "Twice", (Card("x", "Ace", 1, "Spades"),) * 2)


async def test_a_game_with_a_standard_deck_plays_its_cards_by_keys(
    tmp_path: Path, showdown: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "showdown.json"
    campaign = open_campaign(path, ruleset=GAME_ID, seed=7)
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        await pilot.press("a", *"Marian", "enter")
        await pilot.pause()
        robin, marian = (str(pid) for pid in _saved(app)["party"])

        # The tray shows the game's own deck, whole and not yet shuffled into the save.
        await pilot.press("2")
        await pilot.pause()
        status = _text(app, "#deck-status")
        assert "Playing cards: 52 to draw, 0 discarded" in status
        assert "No initiative cards dealt (d deals)" in status
        assert "Arcana" not in status

        # n: a card face up, from the top of the shuffled deck, logged by its game's reading.
        await pilot.press("n")
        await pilot.pause()
        deck = _deck(_saved(app))
        assert (len(deck["draw_pile"]), len(deck["discard"])) == (51, 1)
        drawn = deck["discard"][0]["name"]
        assert f"51 to draw, 1 discarded (top: {drawn})" in _text(app, "#deck-status")
        log = [e.get("text", "") for e in _saved(app)["log"].values()]
        assert f"Playing cards drawn: {drawn}" in log

        # d: each PC is dealt its initiative card; the hands are counted, not shown.
        await pilot.press("d")
        await pilot.pause()
        deck = _deck(_saved(app))
        assert {h: len(cards) for h, cards in deck["hands"].items()} == {robin: 1, marian: 1}
        assert "Hands: Robin 1 · Marian 1" in _text(app, "#deck-status")

        # p picks Robin, s shows Robin's hand: the card as the game reads it.
        await pilot.press("p", "s")
        await pilot.pause()
        hand = app.screen.query_one("#hand-cards", OptionList)
        held = deck["hands"][robin][0]
        assert hand.option_count == 1
        assert str(hand.get_option_at_index(0).prompt) == f"{held['name']} ({held['value']})"
        assert str(hand.border_title).startswith("Initiative card: Robin")
        assert "▶ Robin 1" in _text(app, "#deck-status")

        # enter plays it: out of the hand, on top of the discards.
        await pilot.press("enter")
        await pilot.pause()
        deck = _deck(_saved(app))
        assert robin not in deck["hands"] and deck["discard"][-1]["name"] == held["name"]
        assert hand.option_count == 0
    campaign.store.close()

    # The command line draws from the same deck, by the game's deck id.
    assert main(["draw", "--save", str(path), "--deck", DECK, "--count", "2", "--json"]) == 0
    cards = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [c["deck"] for c in cards] == [DECK, DECK]
    assert set(cards[0]) == {"deck", "rank", "value", "suit", "reversed", "name"}
    assert main(["draw", "--save", str(path), "--deck", "minor"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Showdown has no deck 'minor'; its decks: cards" in err

    # The save validates as it is and reopens with the deck as it was left.
    data = schema.validate(read_campaign(path))
    deck = _deck(data)
    assert [c["name"] for c in deck["discard"][-2:]] == [c["name"] for c in cards]
    assert (len(deck["draw_pile"]), len(deck["discard"])) == (47, 4)
    campaign = open_campaign(path)
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        status = _text(app, "#deck-status")
        assert "Playing cards: 47 to draw, 4 discarded" in status
        assert f"top: {cards[-1]['name']}" in status and "Marian 1" in status
    campaign.store.close()

    # A hand-edited save with a card twice in that deck is refused, naming the document.
    deck["draw_pile"][0] = deck["discard"][0]
    path.write_bytes(orjson.dumps(data))
    with pytest.raises(CorruptSave, match=r"decks\[1\]: cannot be read as a deck .*doubled"):
        read_campaign(path)


def test_a_save_less_draw_shuffles_the_named_games_deck(
    showdown: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["draw", "--game", GAME_ID, "--count", "52", "--seed", "4", "--json"]
    assert main(argv) == 0
    cards = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(c["name"] for c in cards) == sorted(c.name for c in STANDARD.cards)
    assert main(["draw", "--game", GAME_ID, "--count", "53"]) == 2
    assert "between 1 and 52 (the Playing cards)" in capsys.readouterr().err


def test_each_player_sees_their_own_cards_of_a_game_that_declares_only_a_deck(
    tmp_path: Path, showdown: Game
) -> None:
    """A game with a deck and no players' hook of its own: the players' page offers hands and
    shows each PC its cards as the game reads them (before: no hands, as for a game without
    cards). A game without cards offers none, though its hook is a guarded wrapper."""
    campaign = open_campaign(tmp_path / "showdown.json", ruleset=GAME_ID, seed=7)
    campaign.apply(AddPC("Robin"))
    campaign.apply(AddPC("Marian"))
    campaign.apply(DealCards(DECK, 2, recall=True))
    campaign.store.flush()
    data = read_campaign(campaign.store.path)
    campaign.store.close()
    game = registry.game(GAME_ID)
    assert has_hands(game) and not has_hands(registry.game("somnihil"))
    held = _deck(data)["hands"]["1"]
    (hand,) = hands_of(data, game, 1)
    assert hand.title == "Initiative card (Playing cards)" and hand.problem == ""
    assert hand.cards == tuple(f"{c['name']} ({c['value']})" for c in held) and len(held) == 2
    assert hands_of(data, game, 2)[0].cards != hand.cards

    # A deck the save damaged is the hand's problem in words, not an error.
    next(iter(data["decks"].values()))["hands"] = {"1": "not a list"}
    (broken,) = hands_of(data, game, 1)
    assert broken.cards == () and "Playing cards could not be read" in broken.problem

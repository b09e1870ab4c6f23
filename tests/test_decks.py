"""The deck interface (:mod:`rulesets.decks`): any game's deck, its table state, and the shell
that knows only the interface (decks are a game's).

The generic state is exercised here on a small deck that is no tarot; Shadows' own decks are
tested with its rules (``tests/rulesets/test_shadows.py``, SOH-01/04/12).
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rulesets import registry
from rulesets.decks import (
    Card,
    CardText,
    DeckError,
    DeckSpec,
    DeckState,
    deck_spec,
    plain_text,
    read_deck,
)

ROOT = Path(__file__).resolve().parents[1]
SHELL = ("app", "screens", "widgets")

RUNES = DeckSpec(
    "runes",
    "Rune stones",
    tuple(Card("runes", name, value) for value, name in enumerate(("Fehu", "Uruz", "Ansuz"), 1)),
    reversible=True,
)


def test_a_fresh_deck_is_whole_and_shuffled_by_the_injected_rng() -> None:
    one, two = DeckState.new(RUNES, random.Random(3)), DeckState.new(RUNES, random.Random(3))
    assert one == two and sorted(c.name for c in one.draw_pile) == ["Ansuz", "Fehu", "Uruz"]
    assert one.deck == "runes" and one.title == "Rune stones"
    # A reversible deck's stones fall either way when shuffled; the key ignores the way.
    seen = {
        c.reversed
        for seed in range(20)
        for c in DeckState.new(RUNES, random.Random(seed)).draw_pile
    }
    assert seen == {True, False}
    assert {c.key for c in one.draw_pile} == {"runes:Fehu", "runes:Uruz", "runes:Ansuz"}


def test_draw_deal_play_and_recall_keep_every_card_in_one_place() -> None:
    rng = random.Random(1)
    state = DeckState.new(RUNES, rng)
    face_up = state.draw(rng, 1)
    assert state.discard == list(face_up.cards) and len(state.draw_pile) == 2
    dealt = state.deal(rng, {"ann": 1, "bob": 2})
    # Round-robin: ann, bob, then bob again from the discards reshuffled, and the deal says so.
    assert state.hand_counts() == {"ann": 1, "bob": 2} and state.available == 0
    assert any("reshuffled" in event for event in dealt.events)
    short = state.deal(rng, {"cid": 1})
    assert short.cards == () and short.events == ("Rune stones ran out: cid is short of 1",)
    played = state.play("bob", [state.hand("bob")[0].to_dict()])
    assert state.discard == list(played) and state.hand_counts() == {"ann": 1, "bob": 1}
    with pytest.raises(DeckError, match="ann does not hold"):
        state.play("ann", state.hand("bob"))
    state.recall_hands()
    assert state.hands == {} and len(state.discard) == 3
    state.gather_and_shuffle(rng)
    assert len(state.draw_pile) == 3 and state.discard == []
    state.validate()


def test_the_stored_form_round_trips_and_a_broken_one_is_refused() -> None:
    rng = random.Random(5)
    state = DeckState.new(RUNES, rng)
    state.draw(rng, 1, to="ann")
    data = state.to_dict()
    assert DeckState.from_dict(data, RUNES) == state
    doubled = {**data, "discard": [data["draw_pile"][0]]}
    with pytest.raises(DeckError, match="not whole: doubled"):
        DeckState.from_dict(doubled, RUNES)
    stranger = {
        **data,
        "draw_pile": [{"deck": "runes", "rank": "Thurisaz"}, *data["draw_pile"][1:]],
    }
    with pytest.raises(DeckError, match="the Rune stones has no card 'Thurisaz'"):
        DeckState.from_dict(stranger, RUNES)
    with pytest.raises(DeckError, match="unknown deck 'minor'"):
        DeckState.from_dict({**data, "deck": "minor"}, RUNES)
    with pytest.raises(DeckError, match="a list of cards"):
        DeckState.from_dict({**data, "discard": "Fehu"}, RUNES)


def test_a_spec_with_a_card_of_another_deck_or_none_is_refused_at_import() -> None:
    with pytest.raises(ValueError, match="cards of another deck"):
        DeckSpec("a", "A", (Card("b", "X", 1),))
    with pytest.raises(ValueError, match="at least one card"):
        DeckSpec("a", "A", ())


def test_the_games_hook_keeps_held_cards_out_of_the_deck_on_every_read_with_the_party() -> None:
    def hold(state: DeckState[Card], party: Any) -> None:
        for pid, pc in party:
            for name in pc.get("stones", ()):
                card = state.take_out(f"runes:{name}")
                if card is not None:
                    state.give(str(pid), [card])

    held = DeckSpec("runes", "Rune stones", RUNES.cards, hold=hold)
    party = [(1, {"name": "Ann", "stones": ["Uruz"]})]
    _, state = read_deck([], held, party)
    assert state.hand("1")[0].name == "Uruz" and state.available == 2
    assert read_deck([], held)[1].hands == {}  # without the party the hook is not asked


def test_a_card_reads_as_its_deck_says() -> None:
    card = RUNES.cards[0]
    assert plain_text(card) == CardText("Fehu", "(1)")
    assert CardText("The Tower", meaning="Upheaval").drawn == "The Tower — Upheaval"


def test_a_game_is_asked_for_its_decks_by_id() -> None:
    shadows, somnihil = registry.game("shadows"), registry.game("somnihil")
    assert [d.id for d in shadows.decks] == ["minor", "major"]
    assert deck_spec(shadows, "") is shadows.decks[0]
    with pytest.raises(DeckError, match="no deck 'runes'; its decks: minor, major"):
        deck_spec(shadows, "runes")
    with pytest.raises(DeckError, match="Somnihil plays with no deck of cards"):
        deck_spec(somnihil, "minor")


# --- the shell knows the interface only -------------------------------------------------------

TAROT_WORDS = re.compile(r"[\"'](minor|major)[\"']|\b(arcana|tarot)\b", re.IGNORECASE)


def _imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


def test_the_shell_imports_no_tarot_and_names_no_deck_of_a_game() -> None:
    """app/, screens/ and widgets/ reach cards only through :mod:`rulesets.decks` and the open
    game's ``Game.decks``: no tarot module imported, no deck id or tarot word in their text."""
    sources = sorted(p for pkg in SHELL for p in (ROOT / pkg).rglob("*.py"))
    assert len(sources) > 40
    imports = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sources
        for name in _imported(path)
        if "tarot" in name.split(".")
    ]
    words = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sources
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TAROT_WORDS.search(line)
    ]
    assert imports == [] and words == []


def test_the_tarot_is_in_the_shadows_package_alone() -> None:
    found = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("tarot.py"))
    assert found == ["rulesets/shadows/tarot.py"]


def test_a_deck_left_in_another_games_save_by_an_older_version_still_opens(
    tmp_path: Path,
) -> None:
    """Before decks were a game's, ``draw --save`` put a tarot deck in any game's save; such a
    save opens (the document is no deck of its game, so it is left as it is)."""
    import orjson

    from app.demo import write_demo
    from app.store import read_campaign

    path = write_demo("somnihil", tmp_path / "old.json", seed=1)
    data = orjson.loads(path.read_bytes())
    stale = {"kind": "minor", "deck": "minor", "draw_pile": [], "discard": [], "hands": {}}
    data["decks"] = {"1": stale}
    path.write_bytes(orjson.dumps(data))
    assert read_campaign(path)["decks"]["1"] == stale

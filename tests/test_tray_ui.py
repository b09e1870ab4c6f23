"""The tray by keys: each game's check, odds before rolling, cards dealt and played, reopen."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList

from app.state import Transaction
from app.store import read_campaign
from screens.form import FormScreen
from screens.tray_prompt import TrayPrompt
from tests.apphelpers import SIZE, demo_app, footer_words, screen_text
from tests.games import BUILT_IN
from widgets.odds_chart import OddsChart


def saved(app: Any) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


def last_roll(data: dict[str, Any]) -> dict[str, Any]:
    rolls: list[dict[str, Any]] = [e for e in data["log"].values() if e.get("kind") == "roll"]
    return rolls[-1]


@pytest.mark.parametrize(
    ("game", "keys", "expression", "band_names"),
    [
        ("somnihil", ["a"], "2d20kh1", {"Triumph", "Catastrophe"}),
        ("resolution", ["plus", "right_square_bracket"], "2d6+1 vs DC 10", {"success"}),
        ("nemron", ["b", "plus"], "lesser boon", {"success"}),
        ("aspects", ["right_square_bracket", "right_square_bracket"], "2d6+2", {"Total Success"}),
        ("shadows", ["t", "right_square_bracket"], "three draw +1 vs Normal", {"Critical Failure"}),
    ],
)
async def test_gen02_gen03_check_by_keys_shows_odds_then_logs(
    tmp_path: Path, game: str, keys: list[str], expression: str, band_names: set[str]
) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", *keys)
        chart = app.screen.query_one(OddsChart)
        assert band_names <= set(chart.bands)
        assert sum(chart.bands.values()) == 1
        await pilot.press("c")
        await pilot.pause()
        entry = last_roll(saved(app))
        assert expression in entry["expression"]
        assert entry["who"] != "GM" and entry["band"]
    app.campaign.store.close()


async def test_som04_natural_one_from_the_tray_restores_ap(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p")
        for _ in range(60):
            await pilot.press("c")
            if last_roll(saved(app))["total"] == 1:
                break
        await pilot.pause()
        data = saved(app)
        assert last_roll(data)["total"] == 1, "seeded rolls reach a natural 1 within 60 rolls"
        assert "recover 1 AP" in last_roll(data)["detail"]
    app.campaign.store.close()


async def test_dice_line_still_rolls_and_does_not_take_focus(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        assert not isinstance(app.focused, Input)
        await pilot.press("i", *"4d6kh3", "enter", "escape")
        await pilot.pause()
        assert last_roll(saved(app))["expression"] == "4d6kh3"
    app.campaign.store.close()


async def test_rr03_grip_check_key(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "g")
        await pilot.pause()
        assert "under Grip" in last_roll(saved(app))["expression"]
    app.campaign.store.close()


async def test_soh11_soh12_deal_show_hand_play_card_and_reopen_same_deck(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "h", "p", "s")
        await pilot.pause()
        hand = app.screen.query_one("#hand-cards", OptionList)
        count = hand.option_count
        assert count > 0
        first = hand.get_option_at_index(0).id
        await pilot.press("enter")
        await pilot.pause()
        data = saved(app)
        minor = next(d for d in data["decks"].values() if d["kind"] == "minor")
        assert first == "minor:{rank}:{suit}".format(**minor["discard"][-1])
        assert len(minor["hands"]["1"]) == count - 1
        # other hands are counts only
        status = str(app.screen.query_one("#deck-status").render())
        assert "Felix Marrow (physical) 3" in status  # the holder's focus beside the count
        draw_pile = [c["name"] for c in minor["draw_pile"]]
        await pilot.press("ctrl+q")
    app.campaign.store.close()
    again = demo_app(tmp_path, "shadows")
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("2", "n")
        await pilot.pause()
        data = saved(again)
        minor = next(d for d in data["decks"].values() if d["kind"] == "minor")
        assert minor["discard"][-1]["name"] == draw_pile[0]
    again.campaign.store.close()


async def test_soh11_each_characters_focus_by_key_deals_its_hand(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "f", "p", "f", "f", "h")  # Agnes mental, Felix spiritual
        await pilot.pause()
        focus = {pid: pc.get("focus") for pid, pc in app.campaign.rows("party")}
        assert focus == {1: "mental", 2: "spiritual", 3: None, 4: None}
        status = str(app.screen.query_one("#deck-status").render())
        for shown in ("Agnes Thorne (mental) 3", "Felix Marrow (spiritual) 3",
                      "Ines Calder (physical) 3", "Bram Okafor (physical) 6"):  # fmt: skip
            assert shown in status
        await pilot.press("s")
        await pilot.pause()
        hand = app.screen.query_one("#hand-cards", OptionList)
        assert str(hand.border_title).startswith("Hand: Felix Marrow (spiritual) · ")
    app.campaign.store.close()


def test_tray_dice_mode_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(
        demo_app(tmp_path, "somnihil"), press=["2", "p", "a", "c"], terminal_size=SIZE
    )


def test_tray_cards_mode_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(
        demo_app(tmp_path, "shadows"), press=["2", "h", "p", "s"], terminal_size=SIZE
    )


# --- counter, assistance, contests, focus, fumble, prompts, footer -----------------------------


def _minor(data: dict[str, Any]) -> dict[str, Any]:
    return next(d for d in data["decks"].values() if d["kind"] == "minor")


def _setup_text(app: Any) -> str:
    return str(app.screen.query_one("#check-setup").render())


async def test_soh09_counter_by_key_spends_ap_in_running_ap_round(tmp_path: Path) -> None:
    from app.commands import combat

    app = demo_app(tmp_path, "shadows")
    enc_id = app.campaign.rows("encounters")[0][0]

    def ap_left() -> int:
        enc = saved(app)["encounters"][str(enc_id)]
        return int(next(c["ap"]["current"] for c in enc["combatants"] if c["ref"] == "1"))

    async with app.run_test(size=SIZE) as pilot:
        app.campaign.apply(combat.StartEncounter(enc_id))
        before = ap_left()
        await pilot.press("2", "p", "c", "e")
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, FormScreen)
        drawn = last_roll(saved(app))
        # the form starts from the draw just made: its card value and total
        assert app.screen.query_one("#field-value", Input).value == str(drawn["dice"][0])
        assert app.screen.query_one("#field-total", Input).value == str(drawn["total"])
        await pilot.press("tab", "tab", *"swords", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        entry = last_roll(saved(app))
        assert entry["expression"].startswith("counter vs")
        assert entry["who"] == "Agnes Thorne"
        assert entry["band"] in ("Counter fails",) or entry["band"].startswith("Countered −")
        assert ap_left() == before - 1
    app.campaign.store.close()


async def test_soh09_counter_prompt_refuses_bad_input_and_escape_cancels(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "e", "9", "tab", "x", "enter")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "total: type a whole number" in str(app.screen.query_one("#form-error").render())
        await pilot.press("backspace", *"31", "tab", *"stars", "enter")
        await pilot.pause()
        # Refused by the game: the form stays open with what was typed and why.
        assert isinstance(app.screen, FormScreen)
        assert "'stars' is not a suit" in str(app.screen.query_one("#form-error").render())
        assert app.screen.query_one("#field-suits", Input).value == "stars"
        assert not [e for e in saved(app)["log"].values() if e.get("kind") == "roll"]
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        await pilot.press("e", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert not [e for e in saved(app)["log"].values() if e.get("kind") == "roll"]
    app.campaign.store.close()


async def test_soh07_assistance_shown_in_setup_and_odds_then_used_once(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        chart = app.screen.query_one(OddsChart)
        plain = dict(chart.bands)
        await pilot.press("a", *"12 9", "enter")
        await pilot.pause()
        assert "+8 assist" in _setup_text(app)
        assert "½ of 12 = 6 + ¼ of 9 = 2" in _setup_text(app)
        assert "+8 with assistance" in str(chart.border_title)
        assert chart.bands["Success"] > plain["Success"]
        await pilot.press("c")
        await pilot.pause()
        entry = last_roll(saved(app))
        assert entry["expression"] == "single draw +8 vs Normal"
        assert entry["total"] == sum(entry["dice"]) + 8
        assert "no assistance" in _setup_text(app)
        await pilot.press("a", *"1 2 3", "enter")
        await pilot.pause()
        assert isinstance(app.screen, TrayPrompt)  # three helpers refused in the prompt
        await pilot.press("escape", "a", *"10", "enter", "o", "enter")
        await pilot.pause()
        entry = last_roll(saved(app))
        assert entry["expression"].startswith("opposed GM +5 vs")  # the help counted once
        assert "no assistance" in _setup_text(app)
    app.campaign.store.close()


async def test_soh08_contest_by_keys_hides_margin_and_survives_restart(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "O")
        await pilot.pause()
        assert app.screen.query_one(Input).password  # the margin is not shown as typed
        await pilot.press("7", "enter", "w", "w")
        await pilot.pause()
        status = str(app.screen.query_one("#deck-status").render())
        assert "Contest: Agnes Thorne" in status and "after 2 draw(s)" in status
        assert "7" not in status.split("Contest:")[1]
        doc = next(d for d in saved(app)["decks"].values() if d["kind"] == "contest")
        assert doc["margin"] == 7 and len(doc["history"]) == 2
        await pilot.press("ctrl+q")
    app.campaign.store.close()
    again = demo_app(tmp_path, "shadows")
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("2", "w")
        await pilot.pause()
        doc = next(d for d in saved(again)["decks"].values() if d["kind"] == "contest")
        assert len(doc["history"]) == 3
        await pilot.press("W")
        await pilot.pause()
        assert not [d for d in saved(again)["decks"].values() if d["kind"] == "contest"]
    again.campaign.store.close()


async def test_soh11_an_action_off_the_rollers_focus_is_minus_3(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "f")  # Agnes states a mental focus
        await pilot.pause()
        assert "Uses: the roller's own focus" in _setup_text(app)
        await pilot.press("v")  # the action uses a physical attribute
        await pilot.pause()
        setup = _setup_text(app)
        assert "Uses: physical (Body, Physical): -3 if off the roller's focus" in setup
        assert "single card +0 -3 off mental focus vs Normal" in setup
        await pilot.press("c")
        await pilot.pause()
        entry = last_roll(saved(app))
        assert entry["expression"] == "single draw -3 vs Normal"
        assert entry["total"] == sum(entry["dice"]) - 3
        # The focus was that action's: the next is the roller's own again, no penalty.
        assert "single card +0 vs Normal" in _setup_text(app)
    app.campaign.store.close()


async def test_soh06_fumble_draw_by_key_with_weapon_value(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "F", "0", "enter")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "at least 1" in str(app.screen.query_one("#form-error").render())
        await pilot.press("backspace", "3", "enter")
        await pilot.pause()
        entry = last_roll(saved(app))
        assert entry["expression"] == "fumble draw vs 3"
        assert entry["band"] == ("Fumble" if entry["total"] <= 3 else "No fumble")
    app.campaign.store.close()


async def test_rr04_delirium_prompt_refuses_empty_then_saves_and_escape_cancels(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "l")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)  # the GM rolls no delirium
        await pilot.press("p", "l", "enter")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "type something" in str(app.screen.query_one("#form-error").render())
        await pilot.press(*"fear of mirrors", "enter")
        await pilot.pause()
        deliria = saved(app)["party"]["1"]["lists"]["deliria"]
        assert "fear of mirrors" in deliria
        await pilot.press("l", *"not this", "escape")
        await pilot.pause()
        assert saved(app)["party"]["1"]["lists"]["deliria"] == deliria
    app.campaign.store.close()


async def test_asp03_invoke_prompt_needs_a_roll_refuses_empty_then_adds_two(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "v")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)  # nothing rolled yet
        await pilot.press("c")
        await pilot.pause()
        before = last_roll(saved(app))["total"]
        await pilot.press("v")
        await pilot.pause()
        # Refused at once, before any question: Rowan has no fate point.
        assert not isinstance(app.screen, FormScreen)
        assert last_roll(saved(app))["total"] == before
        app.campaign.apply(GiveFate(1))
        await pilot.press("v", *"[red]On fire", "enter")
        await pilot.pause()
        entry = last_roll(saved(app))
        assert entry["total"] == before + 2
        assert "[red]On fire" in entry["detail"]
        assert saved(app)["party"]["1"]["resources"]["fate_points"]["current"] == 0
    app.campaign.store.close()


@dataclass(frozen=True)
class GiveFate:
    """Test helper: one fate point to a PC (the demo's start with none)."""

    who: int

    @property
    def label(self) -> str:
        return "Give fate"

    def run(self, tx: Transaction) -> list[str]:
        doc = tx.get("party", self.who)
        doc["resources"]["fate_points"]["current"] = 1
        tx.put("party", self.who, doc)
        return ["fate point given"]


async def test_footer_keeps_the_common_card_keys_and_help_lists_the_rest(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        shown = footer_words(app)
        assert {"Roll check", "Draw card", "Deal hands", "Counter"} <= shown
        assert not shown & {"Recall hands", "Shuffle", "Next D-code", "Contest draw"}
        await pilot.press("question_mark")
        await pilot.pause()
        described = {d for _, d in app.screen.help_rows}  # type: ignore[attr-defined]
        assert {"Recall hands", "Assistance", "New contest", "Fumble draw"} <= described
    app.campaign.store.close()


# --- each game's tray teaches its own keys, once each -------------------------------------------


def _foreign_tray_labels(game_id: str) -> set[str]:
    """What other games' trays offer that this game's does not (actions, inputs, cards)."""
    from rulesets import registry

    def labels(gid: str) -> set[str]:
        game = registry.game(gid)
        found = {a.label for a in game.actions_for("tray")}
        check = game.checks.main
        for spec in check.inputs if check is not None else ():
            found |= {spec.label, f"{spec.label} +", f"{spec.label} −"}
        if game.checks.cards is not None:
            found.add("Show hand")
        return found

    own = labels(game_id)
    return {label for other in BUILT_IN if other != game_id for label in labels(other)} - own


@pytest.mark.parametrize("game", BUILT_IN)
async def test_help_and_palette_list_only_this_games_tray_keys_once_each(
    tmp_path: Path, game: str
) -> None:
    from screens.help import HelpScreen

    app = demo_app(tmp_path, game)
    foreign = _foreign_tray_labels(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p")
        await pilot.pause()
        palette = [c.title for c in app.get_system_commands(app.screen)]
        assert len(palette) == len(set(palette)), sorted(p for p in palette if palette.count(p) > 1)
        assert not foreign & set(palette)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = [(k, d) for k, d in app.screen.help_rows if k and d]
        keys = [key for k, _ in rows for key in k.split(", ")]
        assert sorted({k for k in keys if keys.count(k) > 1}) == []
        described = {d for _, d in rows}
        assert not foreign & described, foreign & described
        assert "Roll check" in described
        assert ("Show hand" in described) == (game == "shadows")
    app.campaign.store.close()


async def test_somnihil_has_no_cards_mode(tmp_path: Path) -> None:
    from screens.help import HelpScreen

    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "m", "s", "n", "h")
        await pilot.pause()
        assert not app.screen.query("#cards-area")
        assert "d20 check" in str(app.screen.query_one("#tray-mode").render())
        assert not [d for d in saved(app).get("decks", {}).values()]
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        described = {d for _, d in app.screen.help_rows}
        assert not described & {"Dice/cards", "Draw card", "Deal hands", "Show hand", "Counter"}
    app.campaign.store.close()


@pytest.mark.parametrize(
    ("game", "answers", "expression"),
    [
        # DC 11 lies between the stepped DCs: typed, not only stepped
        ("resolution", {"dc": "11", "mod": "-2"}, "vs DC 11"),
        ("nemron", {"pool": "d10,d8", "dc": "9"}, "d10"),
        ("aspects", {"skill": "3", "opposing": "2"}, "2d6+3-2"),
        ("somnihil", {"edge": "dis"}, "2d20kl1"),
        ("shadows", {"bonus": "17", "difficulty": "hard"}, "single draw +17 vs Hard"),
    ],
)
async def test_every_input_can_be_typed_with_equals_then_rolled(
    tmp_path: Path, game: str, answers: dict[str, str], expression: str
) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "equals_sign")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        for key, value in answers.items():
            form.query_one(f"#field-{key}", Input).value = value
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        chart = app.screen.query_one(OddsChart)
        assert chart.bands and sum(chart.bands.values()) == 1
        await pilot.press("c")
        await pilot.pause()
        assert expression in last_roll(saved(app))["expression"]
    app.campaign.store.close()


async def test_a_typed_value_out_of_bounds_is_refused_in_the_form(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "equals_sign")
        await pilot.pause()
        app.screen.query_one("#field-dc", Input).value = "99"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "at most 30" in str(app.screen.query_one("#form-error").render())
        await pilot.press("escape")
        await pilot.pause()
        assert "2d6+0 vs DC 8" in _setup_text(app)
    app.campaign.store.close()


@pytest.mark.parametrize("game", BUILT_IN)
async def test_next_check_in_a_game_with_one_check_says_so(tmp_path: Path, game: str) -> None:
    """X steps through a game's checks; where there is only one it says so, once, and changes
    nothing (the Footer does not offer it there)."""
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        only = app.campaign.game.checks.checks
        assert len(only) == 1
        assert "Next check" not in footer_words(app)
        before = saved(app)
        await pilot.press("X")
        await pilot.pause()
        name = app.campaign.game.name
        said = f"{name} has one check only ({only[0].name}): there is no next check"
        shown = "\n".join(screen_text(app))
        assert shown.count(said) == 1, shown
        assert saved(app) == before
    app.campaign.store.close()
    short = demo_app(tmp_path, game)  # 80x24 hides the event line: a toast says it
    async with short.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "X")
        await pilot.pause()
        assert [n.message for n in short.notices].count(said) == 1
    short.campaign.store.close()


async def test_actions_that_would_be_refused_are_not_offered(tmp_path: Path) -> None:
    """A Grip check is a character's; fate is spent on a character's roll: offered only then."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        shown = footer_words(app)
        assert "Grip check" not in shown and "Roll check" in shown
        await pilot.press("p")
        await pilot.pause()
        assert "Grip check" in footer_words(app)
    app.campaign.store.close()
    other = demo_app(tmp_path, "aspects")
    async with other.run_test(size=SIZE) as pilot:
        await pilot.press("2", "c")  # the GM's roll: no fate point to spend on it
        await pilot.pause()
        assert "Fate reroll" not in footer_words(other)
        await pilot.press("p", "c")
        await pilot.pause()
        assert "Fate reroll" in footer_words(other)
    other.campaign.store.close()


@pytest.mark.parametrize("game", BUILT_IN)
def test_no_two_tray_keys_collide_even_those_not_offered_now(game: str) -> None:
    """Inputs, the game's tray actions, the tray's and the app's keys: each key once."""
    from textual.binding import Binding

    from app.tui import TablesideApp
    from rulesets import registry
    from screens.tray import TrayScreen

    found = registry.game(game)
    check = found.checks.main
    assert check is not None
    keys = [*check.keys(), *(a.key for a in found.actions_for("tray"))]
    for binding in [*TrayScreen.BINDINGS, *TablesideApp.BINDINGS]:
        assert isinstance(binding, Binding)
        keys += binding.key.split(",")
    assert sorted({k for k in keys if keys.count(k) > 1}) == []

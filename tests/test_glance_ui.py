"""Readable at a glance. Events on a line (no success toasts), keys that move, asks
before a rest mid-fight, the NPC builder keeps unsaved edits. Pilot tests, keys only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import DataTable, Input, Static

from app.commands import combat as cmd
from app.commands import party as pcmd
from app.queries import current_encounter
from app.tui import TablesideApp
from screens.combat import CombatScreen
from screens.log_line import LogLineScreen
from screens.npc_confirm import NpcConfirm
from screens.npc_roll import NpcRollScreen
from screens.party import PartyScreen
from screens.party_prompt import PartyConfirm
from tests.apphelpers import SIZE, demo_app, screen_text
from tests.games import BUILT_IN
from widgets.npc_library import NpcLibrary
from widgets.roll_log import format_entry

NARROW = (80, 24)
BOTH_SIZES = pytest.mark.parametrize("size", [NARROW, SIZE], ids=["80x24", "120x36"])


def toasts(app: TablesideApp) -> list[str]:
    return [str(n.message) for n in app.notices]


def event_line(app: TablesideApp, selector: str = "#event-line") -> str:
    return str(app.screen.query_one(selector, Static).render()).replace("\n", " ")


async def test_undo_says_what_it_undid_on_the_event_line_not_a_toast(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r", "n", "n", "u", "u")
        await pilot.pause()
        assert toasts(app) == []
        assert "Undid:" in event_line(app, "#combat-last")
        await pilot.press("4", "u")
        await pilot.pause()
        assert toasts(app) == []
        assert "Undid:" in event_line(app)
    app.campaign.store.close()


async def test_undo_keeps_the_cursor_on_the_row_that_changed(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        await pilot.press("j", "j", "j")
        target = screen.table.selected_id
        await pilot.press("t", "2", "enter")
        await pilot.pause()
        assert screen.table.selected_id == target
        await pilot.press("u")
        await pilot.pause()
        assert screen.table.selected_id == target
    app.campaign.store.close()


async def test_party_tracker_change_then_undo_keeps_the_pc(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "j", "j")
        screen = app.screen
        assert isinstance(screen, PartyScreen)
        picked = screen.selected_id
        assert picked is not None and picked != app.campaign.rows("party")[0][0]
        await pilot.press("tab", "down", "minus", "u")
        await pilot.pause()
        assert screen.selected_id == picked
    app.campaign.store.close()


async def test_j_and_k_move_the_party_list_and_the_npc_library(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        party = app.screen.query_one("#party-table", DataTable)
        await pilot.press("j", "j")
        assert party.cursor_row == 2
        await pilot.press("k")
        assert party.cursor_row == 1
        await pilot.press("3")
        await pilot.pause()
        library = app.screen.focused
        assert library is not None
        before = getattr(library, "cursor_row", None)
        await pilot.press("j")
        assert getattr(library, "cursor_row", None) == (before or 0) + 1
        await pilot.press("k")
        assert getattr(library, "cursor_row", None) == before
    app.campaign.store.close()


async def test_rest_mid_fight_is_refused_with_the_texts_words(tmp_path: Path) -> None:
    """Somnihil rests "without conflict" and "in a safe place": nothing to confirm, the rest
    is refused and the GM is told why (the game's rule, not a question)."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "R", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, PartyConfirm)  # no fight: it just rests
        await pilot.press("1", "i", "alt+r", "4")
        await pilot.pause()
        version = app.campaign.version
        await pilot.press("R", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, PartyConfirm)
        assert app.campaign.version == version  # nobody rested
        assert any("No rest while the fight (Ambush at the Mill) runs" in m for m in toasts(app))
    app.campaign.store.close()
    found = current_encounter(app.campaign)
    assert found is not None and found[1]["started"]


async def test_n_in_the_builder_asks_before_dropping_unsaved_edits(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "n", *"Grue", "escape")
        await pilot.pause()
        name = app.screen.query_one("#npc-name", Input)
        assert name.value == "Grue"
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NpcConfirm)
        await pilot.press("n")  # no: the edit stays
        await pilot.pause()
        assert name.value == "Grue"
        await pilot.press("n", "y")
        await pilot.pause()
        assert name.value == ""
    app.campaign.store.close()


async def test_npc_roll_footer_shows_the_effort_refresh_key_at_80_columns(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("3", "r")
        await pilot.pause()
        assert isinstance(app.screen, NpcRollScreen)
        shown = "\n".join(screen_text(app))
        assert " f Full Effort " in shown, shown
    app.campaign.store.close()


async def test_enter_on_the_roll_log_shows_every_entry_whole(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("2", "c")
        await pilot.pause()
        last = app.campaign.log_entries()[-1]
        clipped = str(format_entry(last))
        whole = str(format_entry(last, full=True))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LogLineScreen)
        shown = " ".join(line.strip(" │") for line in screen_text(app))
        tail = whole.split()[-3:]
        assert " ".join(tail) in " ".join(shown.split()), (clipped, shown)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LogLineScreen)
    app.campaign.store.close()


def _line_of(app: TablesideApp, name: str) -> str:
    """The tracker's rendered row for one combatant: the first screen row naming it, and the
    lines a long cell wraps onto under it (their name cell blank)."""
    lines = screen_text(app)[2:]
    start = next(k for k, line in enumerate(lines) if f" {name} " in line)
    name_at = lines[start].index(f" {name} ")
    row = [lines[start]]
    for line in lines[start + 1 :]:
        if line[: name_at + 1].strip() or not line.split("▏")[0].strip():
            break
        row.append(line)
    return " ".join(row)


@BOTH_SIZES
async def test_a_defeated_row_reads_defeated_whatever_its_health_says(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # The Turn column gave way to a wide Health ("(Cheat Death)") and a long condition, and
    # "defeated" went with it: only the selected row's detail line still said so.
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=size) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        found = current_encounter(app.campaign)
        assert found is not None
        eid, doc = found
        pc = next(c for c in doc["combatants"] if c["side"] == "pc")
        foe = next(c for c in doc["combatants"] if c["side"] == "npc" and c["id"] != doc["current"])
        app.campaign.apply(cmd.Damage(eid, pc["id"], "10", {}))
        app.campaign.apply(cmd.AddEffect(eid, pc["id"], "Anomaly of the drowned bell", 4))
        app.campaign.apply(cmd.ToggleDefeated(eid, foe["id"]))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        screen.table.select_id(pc["id"])
        await pilot.pause()
        assert {"(Cheat", "Death)"} <= set(_line_of(app, pc["name"]).split())  # may wrap
        assert "defeated" in _line_of(app, foe["name"]), "\n".join(screen_text(app))
    app.campaign.store.close()


@pytest.mark.parametrize("game", BUILT_IN)
async def test_a_dead_pc_and_a_defeated_foe_read_apart(tmp_path: Path, game: str) -> None:
    # Both were "dim strike" with the word only in the Turn column: a PC's death (its game's
    # word: dead, perished, taken out) and a foe's defeat now differ in word and in style,
    # in the tracker and on the party sheet.
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        found = current_encounter(app.campaign)
        assert found is not None
        eid, doc = found
        pc = next(c for c in doc["combatants"] if c["side"] == "pc")
        foe = next(c for c in doc["combatants"] if c["side"] == "npc")
        ref = int(pc["ref"])
        sheet = dict(app.campaign.doc("party", ref) or {})
        out = next(
            s
            for s in app.campaign.ruleset.sheet.statuses[1:]
            if app.campaign.game.fight.out({**sheet, "status": s})
        )
        app.campaign.apply(pcmd.ChangePC(ref, "status", (out,), str(sheet["name"])))
        app.campaign.apply(cmd.ToggleDefeated(eid, foe["id"]))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        rows = {cid: screen.table.get_row_at(i) for i, cid in enumerate(screen.table.ids)}
        dead, beaten = rows[pc["id"]], rows[foe["id"]]
        dead_text = " ".join(str(cell) for cell in dead)
        beaten_text = " ".join(str(cell) for cell in beaten)
        assert out in dead_text and "defeated" not in dead_text
        assert "defeated" in beaten_text and out not in beaten_text
        assert str(dead[3].style) != str(beaten[3].style)
        assert "red" in str(dead[4].style) and "dim" in str(beaten[4].style)
        await pilot.press("4")
        await pilot.pause()
        party = app.screen.query_one("#party-table", DataTable)
        status = party.get_row(str(ref))[-1]
        assert isinstance(status, Text) and str(status) == out and "red" in str(status.style)
        await pilot.resize_terminal(*NARROW)
        await pilot.pause()
        await pilot.pause()
        # At 80 columns the status moves under the name rather than break a word or run past
        # the edge ("(perishe" / "d)", "perished│").
        words = {word for line in screen_text(app) for word in line.replace("│", " ").split()}
        for row in _rows_in_view(party):
            for cell in party.get_row_at(row):
                assert all(w in words for w in str(cell).split()), (str(cell), words)
    app.campaign.store.close()


@pytest.mark.parametrize("keys", [(), ("h", "8", "escape")], ids=["built", "quick HD 8"])
async def test_the_builders_statblock_is_whole_at_80x24(
    tmp_path: Path, keys: tuple[str, ...]
) -> None:
    # The preview listed one pair a line in the 28 columns the builder has at 80×24, and its
    # bottom (Atk mod, Morale, the powers) fell out of view.
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("3", *keys)
        await pilot.pause()
        shown = screen_text(app)
        both = "\n".join(shown)
        for word in ("Atk mod", "Morale", "Powers (", "╰"):
            assert both.count(word) == 2, (word, both)  # the library's NPC and the builder's
        if keys:
            assert "4 unnamed" in both or both.count("(unnamed)") >= 4
    app.campaign.store.close()


@BOTH_SIZES
async def test_the_builders_hints_and_the_librarys_concepts_are_never_cut(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # "h: 0-20 for a", "up to three,", "Builder: new NPC  (ctrl+s" and "sneaky, cowa" were
    # cut at the edge of their field or column, with no ellipsis to say so.
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=size) as pilot:
        await pilot.press("3")
        await pilot.pause()
        shown = screen_text(app)
        both = "\n".join(shown)
        builder = app.screen.query_one("#npc-builder")
        for field in builder.query(Input):
            assert field.placeholder and field.placeholder in both, field.placeholder
        title = str(app.screen.query_one("#npc-builder-title", Static).render())
        assert " ".join(title.split()) in " ".join(both.split()), title
        library = app.screen.query_one(NpcLibrary)
        assert library.concepts_shown or size == NARROW  # at 80 columns it may give way whole
        for _, doc in app.campaign.rows("npcs") if library.concepts_shown else []:
            line = next(line for line in shown if f" {doc['name']} " in line)
            concepts = doc["concepts"]
            whole = ", ".join(concepts)
            assert f" {whole} " in line or any(
                f" {', '.join(concepts[:n])} +{len(concepts) - n} " in line
                for n in range(1, len(concepts))
            ), line
            if size == SIZE:
                assert f" {whole} " in line
    app.campaign.store.close()


def _rows_in_view(table: DataTable[object]) -> list[int]:
    """The rows drawn whole in the table's window (the others scroll, they are not cut)."""
    top, window = round(table.scroll_y), table.scrollable_content_region.height
    window -= 1 if table.show_header else 0
    shown, y = [], 0
    for index, row in enumerate(table.ordered_rows):
        if y >= top and y + row.height <= top + window:
            shown.append(index)
        y += row.height
    return shown


@BOTH_SIZES
@pytest.mark.parametrize("game", BUILT_IN)
async def test_every_word_of_the_party_sheet_is_on_screen_whole(
    tmp_path: Path, game: str, size: tuple[int, int]
) -> None:
    # "Protocols: Decay, Spatia", "8/8 HP · Grip 15" and a Status column out of view: cells
    # ran past the right edge with no ellipsis. Each word of each cell is now on screen whole.
    app = demo_app(tmp_path, game)
    async with app.run_test(size=size) as pilot:
        await pilot.press("4")
        await pilot.pause()
        words = {word for line in screen_text(app) for word in line.replace("│", " ").split()}
        screen = app.screen
        assert isinstance(screen, PartyScreen)
        for table_id in ("#party-table", "#party-fields"):
            table = screen.query_one(table_id, DataTable)
            for row in _rows_in_view(table):
                for cell in table.get_row_at(row):
                    missing = [w for w in str(cell).split() if w not in words]
                    assert not missing, (table_id, str(cell), missing)
    app.campaign.store.close()


@BOTH_SIZES
async def test_the_inline_damage_prompt_is_on_screen_whole(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # Shadows' damage form has six more fields; naming them all ran the line out of its two
    # rows ("(tab: Attack card, … Face card in defence," and no "enter · escape").
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=size) as pilot:
        await pilot.press("t")
        await pilot.pause()
        said = " ".join(event_line(app, "#combat-amount").split())
        assert said.startswith("Damage ") and said.endswith("enter · escape)"), said
        shown = " ".join(" ".join(line.strip(" ▕▏") for line in screen_text(app)).split())
        assert said in shown, said
    app.campaign.store.close()


@BOTH_SIZES
@pytest.mark.parametrize("game", BUILT_IN)
async def test_the_tray_shows_the_whole_check_its_odds_and_five_log_lines(
    tmp_path: Path, game: str, size: tuple[int, int]
) -> None:
    # Under 30 rows the tray's top was capped at ten rows: Resolution's notes, Nemron's DC
    # and summary, and the Last: line fell out of it; Shadows' roll log lost its bottom.
    app = demo_app(tmp_path, game)
    async with app.run_test(size=size) as pilot:
        await pilot.press("2", "c")
        await pilot.pause()
        shown = screen_text(app)
        words = {word for line in shown for word in line.replace("│", " ").split()}
        last = app.screen.query_one("#last-result", Static)
        if not last.display:  # it gives way where it does not fit: the log's newest line says it
            newest = str(format_entry(app.campaign.log_entries()[-1]))
            start = " ".join(newest.split()[:4])
            assert any(" ".join(line.strip("│ ").split()).startswith(start) for line in shown)
        for selector in ("#tray-mode", "#check-setup", "#last-result")[: 3 if last.display else 2]:
            text = str(app.screen.query_one(selector, Static).render())
            missing = [w for w in text.split() if w not in words]
            assert not missing, (selector, text, missing)
        assert any("Odds" in line for line in shown)
        top = next(i for i, line in enumerate(shown) if "Roll log" in line)
        bottom = next(i for i in range(len(shown) - 1, top, -1) if shown[i].startswith("╰"))
        assert bottom - top - 1 >= 5, "\n".join(shown)
    app.campaign.store.close()


THIRD = 2
"""The third row (rows count from 0): undo must leave the cursor there, not on the first."""


@pytest.mark.parametrize("change", [("t", "1", "enter"), ("X",)], ids=["damage", "defeated"])
async def test_undo_in_the_tracker_keeps_the_third_row(
    tmp_path: Path, change: tuple[str, ...]
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r", "home", *["j"] * THIRD)
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        assert screen.table.cursor_row == THIRD
        version = app.campaign.version
        await pilot.press(*change)
        await pilot.pause()
        assert app.campaign.version > version
        await pilot.press("u")
        await pilot.pause()
        assert screen.table.cursor_row == THIRD
    app.campaign.store.close()


def _party_rows(app: TablesideApp) -> int:
    return app.screen.query_one("#party-table", DataTable).cursor_row


def _library_rows(app: TablesideApp) -> int:
    return app.screen.query_one(NpcLibrary).cursor_row


@pytest.mark.parametrize(
    ("panel", "change", "cursor"),
    [
        ("4", ("tab", "down", "down", "minus"), _party_rows),
        ("4", ("delete", "y"), _party_rows),
        ("3", ("e", "end", "!", "ctrl+s"), _library_rows),
        ("3", ("x", "y"), _library_rows),
    ],
    ids=["party resource", "party remove", "npc edit", "npc delete"],
)
async def test_undo_in_the_party_list_and_the_npc_library_keeps_the_third_row(
    tmp_path: Path, panel: str, change: tuple[str, ...], cursor: Callable[[TablesideApp], int]
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(panel, *["j"] * THIRD)
        assert cursor(app) == THIRD
        version = app.campaign.version
        await pilot.press(*change)
        await pilot.pause()
        assert app.campaign.version > version
        await pilot.press("escape", "u")
        await pilot.pause()
        assert cursor(app) == THIRD
    app.campaign.store.close()


async def test_a_shown_hand_at_80x24_keeps_every_hands_count_and_two_cards(tmp_path: Path) -> None:
    """Shadows at 80x24 with a hand shown: the box showed one card of five and the "Hands:" line
    ran off the edge. The decks share a line, the counts use plain names (the shown hand's title
    names its holder and focus), so every count is on screen and two cards show whole."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "h", "p", "s")
        await pilot.pause()
        lines = screen_text(app)
        text = "\n".join(lines)
        hands = next(line for line in lines if line.lstrip().startswith("Hands:"))
        for name in ("Agnes", "Felix", "Ines", "Bram"):  # first names: the counts fit
            assert name in hands, hands
        # The goblins are dealt hands too, counted as "foes" on a short screen.
        assert "foes 5/5/5" in hands
        assert "Minor Arcana: 24 to draw" in text and "Major Arcana: 21 to draw" in text
        top = next(k for k, line in enumerate(lines) if "Hand: Agnes Thorne (physical)" in line)
        bottom = next(k for k in range(top + 1, len(lines)) if lines[k].startswith("╰"))
        cards = lines[top + 1 : bottom]
        assert len(cards) >= 2 and all(" of " in card for card in cards), text
    app.campaign.store.close()

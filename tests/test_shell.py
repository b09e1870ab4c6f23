"""Pilot tests of the shell: panels, quick roll, undo, help, palette, markup safety, resume."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from app.store import StoreError, read_campaign
from app.textual_compat import on_each_frame
from screens.combat import CombatScreen
from screens.help import HelpScreen
from screens.npcs import NpcScreen
from screens.party import PartyScreen
from screens.quick_roll import QuickRollScreen
from screens.tray import TrayScreen
from tests.apphelpers import SIZE, demo_app, open_demo, screen_text


async def test_digits_switch_panels_and_escape_leaves_a_field(tmp_path: Path) -> None:
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, CombatScreen)
        for key, screen in (
            ("2", TrayScreen),
            ("3", NpcScreen),
            ("4", PartyScreen),
            ("1", CombatScreen),
        ):
            await pilot.press(key)
            assert isinstance(app.screen, screen)
        await pilot.press("2")
        app.screen.query_one("#dice-input", Input).focus()
        await pilot.press("3")  # typed into the field, not a panel switch
        assert isinstance(app.screen, TrayScreen)
        assert app.screen.query_one("#dice-input", Input).value == "3"
        await pilot.press("escape", "3")
        assert isinstance(app.screen, NpcScreen)
    app.campaign.store.close()


async def test_quick_roll_logs_and_undo_removes_it(tmp_path: Path) -> None:
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, QuickRollScreen)
        await pilot.press(*"2d6+3", "enter")
        rolls = [e for e in app.campaign.log_entries() if e["kind"] == "roll"]
        assert rolls[-1]["expression"] == "2d6+3"
        assert 5 <= rolls[-1]["total"] <= 15
        await pilot.press(*"2d", "enter")  # bad: a message, no roll, no crash
        assert "column" in str(app.screen.query_one("#quick-roll-error").render())
        assert len([e for e in app.campaign.log_entries() if e["kind"] == "roll"]) == 1
        await pilot.press("escape", "u")
        assert [e for e in app.campaign.log_entries() if e["kind"] == "roll"] == []
        assert app.campaign.log_entries()[-1]["text"] == "Undid: Roll 2d6+3"
        await pilot.press("ctrl+y")
        assert [e["expression"] for e in app.campaign.log_entries() if e["kind"] == "roll"] == [
            "2d6+3"
        ]
    app.campaign.store.flush()
    saved = read_campaign(app.campaign.store.path)
    assert [e.get("expression") for e in saved["log"].values() if e["kind"] == "roll"] == ["2d6+3"]
    app.campaign.store.close()


async def test_help_lists_the_panel_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.help_rows)
        assert "Combat keys" in rows
        assert rows["u, ctrl+z"] == "Undo" and rows["d"] == "Quick roll"
        await pilot.press("escape")
        assert isinstance(app.screen, CombatScreen)
    app.campaign.store.close()


async def test_palette_offers_panels_and_panel_actions(tmp_path: Path) -> None:
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE):
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {
            "Panel: Combat",
            "Panel: Tray",
            "Panel: NPCs",
            "Panel: Party",
            "Quick roll",
            "Undo",
        } <= set(titles)
    app.campaign.store.close()


@pytest.mark.parametrize("name", ["[bold red]Boss[/]", "[/]", "\x1b[31mred\x1b[0m", "[link=x]y"])
async def test_markup_in_names_is_shown_literally(tmp_path: Path, name: str) -> None:
    campaign = open_demo(tmp_path)
    campaign.store.db.table("party").insert(campaign.ruleset.make_character(name))
    campaign.store.commit()
    from app.tui import TablesideApp

    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        table = app.screen.query_one("#party-table", DataTable)
        cells = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        shown = name.replace("\x1b", "\u241b")
        assert shown in cells
    campaign.store.close()


async def test_quit_and_reopen_finds_everything_as_left(tmp_path: Path) -> None:
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", *"1d20", "enter", "escape", "ctrl+q")
    app.campaign.store.close()
    again = open_demo(tmp_path)
    try:
        assert [e["expression"] for e in again.log_entries() if e["kind"] == "roll"] == ["1d20"]
    finally:
        again.store.close()


async def test_save_changed_by_another_program_stops_saving_with_a_message(tmp_path: Path) -> None:
    from screens.store_error import StoreErrorScreen

    app = demo_app(tmp_path)
    path = app.campaign.store.path
    async with app.run_test(size=SIZE) as pilot:
        theirs = path.read_bytes().replace(b"Demo", b"Edited")
        path.write_bytes(theirs)
        os.utime(path, ns=(1, 1))
        await pilot.press("d", *"1d6", "enter")
        for _ in range(50):
            await pilot.pause(0.05)
            if isinstance(app.screen, StoreErrorScreen):
                break
        assert isinstance(app.screen, StoreErrorScreen)
        assert "changed by another program" in app.screen.message
        assert path.read_bytes() == theirs
    with contextlib.suppress(StoreError):
        app.campaign.store.close()
    assert path.read_bytes() == theirs


async def test_a_dialog_keeps_the_panel_in_sight_behind_it(tmp_path: Path) -> None:
    """The quick roll (any dialog) dims the tracker behind it instead of hiding it: the GM
    rolling for a goblin still reads the fight (app/tui.tcss gave every screen, dialogs too,
    an opaque background)."""
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        behind = [line for line in screen_text(app) if "Goblin 1" in line]
        assert behind, screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, QuickRollScreen)
        shown = "\n".join(screen_text(app))
        assert "Roll (e.g." in shown
        assert "Vesna Kade" in shown and "Ambush at the Mill" in shown, shown
    app.campaign.store.close()


async def test_the_panels_stylesheets_are_read_once_the_first_frame_is_up(tmp_path: Path) -> None:
    """A panel's first visit reads no stylesheet: Textual read a screen's CSS_PATH when it first
    showed, then parsed all the app's CSS again and restyled every panel behind it.
    The panels, dialogs and forms all find their styles already in the app's stylesheet."""
    from app.first_frame import panel_stylesheets

    app = demo_app(tmp_path)
    wanted = panel_stylesheets()
    assert {path.name for path in wanted} >= {"tray.tcss", "npcs.tcss", "party.tcss", "form.tcss"}
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if all(app.stylesheet.has_source(str(path), "") for path in wanted):
                break
        assert all(app.stylesheet.has_source(str(path), "") for path in wanted)
        files = {path for path, class_var in app.stylesheet.source if not class_var}
        for key, panel in (("2", TrayScreen), ("3", NpcScreen), ("4", PartyScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, panel)
            assert {str(path) for path in app.screen.css_path} <= files
        # (widgets' DEFAULT_CSS joins as new kinds of widget mount; no file does)
        assert {path for path, class_var in app.stylesheet.source if not class_var} == files
    app.campaign.store.close()


async def test_the_collector_runs_when_the_keys_pause_not_while_a_key_is_drawn(
    tmp_path: Path,
) -> None:
    """Once the first frame is up the collector's own thresholds are only a backstop: what the
    keys leave is collected, as Python's thresholds would, once the key's frame is drawn and
    the keys pause. At Python's own a 300-combatant ``n`` ran it six or seven times before
    its frame."""
    import gc

    from app import BACKSTOP_THRESHOLDS, USUAL_THRESHOLDS
    from app.collector import COLLECT_AFTER

    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if gc.get_threshold() == BACKSTOP_THRESHOLDS:
                break
        assert gc.get_threshold() == BACKSTOP_THRESHOLDS and gc.isenabled()
        await app.workers.wait_for_complete()  # the other panels loaded in the background
        events: list[str] = []
        on_each_frame(app.screen, lambda: events.append("frame"))

        def seen(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                events.append("collection")

        gc.callbacks.append(seen)
        try:
            kept = [[n] for n in range(USUAL_THRESHOLDS[0] * 2)]  # as a key's change leaves
            await pilot.press("alt+r")
            await pilot.pause(COLLECT_AFTER * 3)
        finally:
            gc.callbacks.remove(seen)
        assert "collection" in events, "nothing collected once the keys paused"
        assert events.index("frame") < events.index("collection"), events
        assert len(kept) == USUAL_THRESHOLDS[0] * 2
    app.campaign.store.close()


def test_the_collector_is_run_as_pythons_own_thresholds_would() -> None:
    import gc

    from app import BACKSTOP_THRESHOLDS, USUAL_THRESHOLDS
    from app.collector import collect_due

    before = gc.get_threshold()
    gc.set_threshold(*BACKSTOP_THRESHOLDS)  # as the app runs: its own thresholds a backstop
    try:
        gc.collect()
        assert collect_due() is None  # nothing made since
        kept = [[n] for n in range(USUAL_THRESHOLDS[0] * 2)]
        assert collect_due() in (0, 1, 2)
        assert gc.get_count()[0] < USUAL_THRESHOLDS[0]
        assert len(kept) == USUAL_THRESHOLDS[0] * 2
    finally:
        gc.set_threshold(*before)

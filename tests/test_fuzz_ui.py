"""Issue 7, bad input fuzzing through the UI: every input field gets the nasty inputs.

Pilot is slow (a tenth of a second per interaction), so each field gets a hand-picked list
rather than Hypothesis: Rich markup, escape codes, control characters, RTL marks, wide
characters, 10,000 characters (pasted: set as the field's value, as a terminal paste would),
bad dice and out-of-range numbers. After each submission the app must still be running
(Pilot re-raises a crash), a refusal must have said something (a notification or the form's
error line), nothing may be saved for a refusal, and an accepted name must be on screen
literally, with no markup interpreted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from app.store import read_campaign
from app.tui import TablesideApp
from screens.npc_confirm import NpcConfirm
from tests.apphelpers import SIZE, demo_app
from widgets.literal import literal

MARKUP = ["[bold]Bold[/bold]", "[@click=app.quit]q[/]", "[link=https://x.test]l[/link]", "[/]"]
CONTROL = ["\x1b[31mred\x1b[0m", "a\x00b\x07c", "\u202eevil\u202c", "line\nbreak"]
WIDE = ["😀 漢字 👨‍👩‍👧", "Z̴̡a̸l̷g̶o̵"]
LONG = "x" * 10_000
NUMBERS = ["-5", "²", "1_000", "9" * 5000, "10" * 60, "nan", "1e9", ""]
DICE = ["1000000d1000000", "1d1e1", "((((1))))" * 20, "١d٦", "d0", "1d6+" + "9" * 100]
NAMES = [*MARKUP, *CONTROL, *WIDE, LONG, "", "   "]


_TOLD: dict[int, list[str]] = {}


def notes(app: TablesideApp) -> int:
    """How many notifications the app has shown (toasts expire, so they are counted here)."""
    if id(app) not in _TOLD:
        told: list[str] = []
        show = app.notify

        def record(message: str, *args: Any, **kwargs: Any) -> None:
            told.append(message)
            show(message, *args, **kwargs)

        app.notify = record  # type: ignore[method-assign]
        _TOLD[id(app)] = told
    return len(_TOLD[id(app)])


async def paste(pilot: Pilot[Any], selector: str, text: str, *, enter: bool = True) -> None:
    """Put ``text`` into a field as a paste would, then press enter in it."""
    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    field.value = text
    await pilot.pause()
    if enter:
        await pilot.press("enter")
        await pilot.pause()


def saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


def shown(text: str) -> str:
    """What a literal display of a stored name shows (control codes as symbols, capped)."""
    return literal(text).plain.rstrip("…")


def table_text(table: DataTable[Any]) -> str:
    cells = []
    for row in range(table.row_count):
        for cell in table.get_row_at(row):
            assert isinstance(cell, Text), f"a {type(cell).__name__} cell is parsed as markup"
            cells.append(cell.plain)
    return "\n".join(cells)


def static_text(widget: Static) -> str:
    content = widget.render()
    return str(getattr(content, "plain", content))


def assert_literal_on_screen(app: TablesideApp, name: str, where: str) -> None:
    text = table_text(app.screen.query_one(where))  # type: ignore[arg-type]
    visible = shown(name)[:15]
    assert visible in text, f"{name[:30]!r} is not shown literally"


# --- the quick roll (d) and the tray's dice line --------------------------------------------


@pytest.mark.parametrize("game", ["somnihil"])
async def test_quick_roll_field_refuses_or_rolls_every_nasty_input(
    tmp_path: Path, game: str
) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        for text in [*DICE, *MARKUP, *CONTROL, LONG, "   ", "2d6+1"]:
            await pilot.press("d")
            log_before = len(app.campaign.log_entries())
            await paste(pilot, "#quick-roll-input", text)
            error = static_text(app.screen.query_one("#quick-roll-error", Static))
            rolled = len(app.campaign.log_entries()) > log_before
            assert rolled or error or text.strip() == "", f"{text[:20]!r}: no word"
            if rolled:
                assert app.campaign.log_entries()[-1]["expression"] == text.strip()
            await pilot.press("escape")
            await pilot.pause()
        assert app.is_running
        assert len(saved(app)["log"]) == len(app.campaign.log_entries())
        assert app.campaign.log_entries()[-1]["expression"] == "2d6+1"
    app.campaign.store.close()


async def test_tray_dice_line_refuses_or_rolls_every_nasty_input(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        for text in [*DICE[:3], MARKUP[0], CONTROL[0], LONG, "1d6"]:
            await pilot.press("i")
            before, told = len(app.campaign.log_entries()), notes(app)
            await paste(pilot, "#dice-input", text)
            error = static_text(app.screen.query_one("#dice-error", Static))
            rolled = len(app.campaign.log_entries()) > before
            assert rolled or error or notes(app) > told, f"{text[:20]!r}: no word"
            await pilot.press("escape")
            await pilot.pause()
        assert app.is_running
        assert app.campaign.log_entries()[-1]["expression"] == "1d6"
    app.campaign.store.close()


# --- the party sheet -------------------------------------------------------------------------


async def test_party_names_are_added_literally_or_refused(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        for name in NAMES:
            party_before, told = len(app.campaign.rows("party")), notes(app)
            await pilot.press("a")
            await paste(pilot, "#party-prompt-input", name)
            added = len(app.campaign.rows("party")) > party_before
            if added:
                assert app.campaign.rows("party")[-1][1]["name"] == name.strip()
                assert_literal_on_screen(app, name.strip(), "#party-table")
                summary = static_text(app.screen.query_one("#party-summary", Static))
                assert shown(name.strip())[:15] in summary
            else:
                assert notes(app) > told, f"{name[:20]!r} refused without a message"
            assert app.is_running
        names = [pc["name"] for pc in saved(app)["party"].values()]
        assert "[bold]Bold[/bold]" in names and "\x1b[31mred\x1b[0m" in names
        assert LONG not in names and "" not in names
    app.campaign.store.close()


async def select_field(pilot: Pilot[Any], key: str) -> None:
    fields = pilot.app.screen.query_one("#party-fields", DataTable)
    fields.focus()
    fields.move_cursor(row=fields.get_row_index(key), animate=False)
    await pilot.pause()


@pytest.mark.parametrize(
    ("game", "field"),
    [("somnihil", "res:vitality"), ("resolution", "attr:str")],
)
async def test_party_number_prompts_refuse_out_of_range_numbers(
    tmp_path: Path, game: str, field: str
) -> None:
    """'²' passed str.isdigit and then crashed int(); a 5000-digit paste crashed int() too."""
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        before = saved(app)["party"]
        for text in [*NUMBERS, "١٢", "1/²", "5/" + "9" * 5000, "-1/-1", "[b]1"]:
            await select_field(pilot, field)
            told = notes(app)
            await pilot.press("e")
            await paste(pilot, "#party-prompt-input", text)
            assert notes(app) > told, f"{text[:20]!r}: no word"
            assert app.is_running
        assert saved(app)["party"] == before
    app.campaign.store.close()


async def test_party_rename_notes_and_rest_hours(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        for text in [*MARKUP, *CONTROL, LONG]:
            await select_field(pilot, "notes")
            await pilot.press("e")
            await paste(pilot, "#party-prompt-input", text)
            doc_id = app.screen.selected_id  # type: ignore[attr-defined]
            assert app.campaign.doc("party", doc_id)["notes"] == text  # type: ignore[index]
        for text in ["[b]Kesh[/b]", "\x1b[2J", LONG]:
            await select_field(pilot, "name")
            told = notes(app)
            await pilot.press("e")
            await paste(pilot, "#party-prompt-input", text)
            doc_id = app.screen.selected_id  # type: ignore[attr-defined]
            stored = app.campaign.doc("party", doc_id)["name"]  # type: ignore[index]
            if text == LONG:
                assert notes(app) > told and stored != LONG
            else:
                assert stored == text
                assert_literal_on_screen(app, text, "#party-table")
        for text in ["1000000000", "²", "9" * 5000, "-3", "8761"]:
            # The rest's form says what is wrong under the field and stays open.
            await pilot.press("g")
            await paste(pilot, "#field-hours", text)
            assert static_text(app.screen.query_one("#form-error", Static)), text
            assert app.is_running
            await pilot.press("escape")
    app.campaign.store.close()


async def test_party_filter_takes_any_text(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        await pilot.press("slash")
        for text in [*MARKUP, *CONTROL, LONG, "²"]:
            await paste(pilot, "#party-filter", text, enter=False)
            assert app.screen.query_one("#party-table", DataTable).row_count == 0
        await paste(pilot, "#party-filter", "", enter=True)
        assert app.screen.query_one("#party-table", DataTable).row_count == 4
    app.campaign.store.close()


# --- the NPC builder, its modals and the 5e import --------------------------------------------


async def test_npc_builder_saves_names_literally_or_refuses(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await pilot.pause()
        for name in [*MARKUP[:2], *CONTROL[:2], WIDE[0], LONG, "   "]:
            count, told = len(app.campaign.rows("npcs")), notes(app)
            await pilot.press("n")
            await pilot.pause()
            if isinstance(app.screen, NpcConfirm):  # a refused save left edits: n asks first
                await pilot.press("y")
                await pilot.pause()
            await paste(pilot, "#npc-name", name, enter=False)
            await paste(pilot, "#npc-concepts", "[red]a[/red], \x1b[1mb, " + LONG, enter=False)
            await paste(pilot, "#npc-powers", "[@click=app.quit]x[/]; \x00", enter=False)
            await paste(pilot, "#npc-hd", "²", enter=False)
            await pilot.press("ctrl+s")
            await pilot.pause()
            if len(app.campaign.rows("npcs")) > count:
                doc = app.campaign.rows("npcs")[-1][1]
                assert doc["name"] == name[:80].strip()
                assert_literal_on_screen(app, doc["name"], "#npc-library")
            else:
                assert notes(app) > told, f"{name[:20]!r} refused without a message"
            await pilot.press("escape")
            await pilot.pause()
            assert app.is_running
        await pilot.press("slash")
        for text in [*MARKUP, *CONTROL, LONG]:
            await paste(pilot, "#npc-filter", text, enter=False)
        assert app.is_running
    app.campaign.store.close()


async def test_npc_add_roll_and_import_dialogs(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await pilot.pause()
        app.screen.query_one("#npc-library").focus()
        before = saved(app)["encounters"]
        for text in ["-5", "²", "1_000", "9" * 5000, "nan", "", "51"]:
            await pilot.press("a")
            await pilot.pause()
            await paste(pilot, "#npc-add-count", text)
            error = static_text(app.screen.query_one("#npc-add-error", Static))
            assert error, f"{text[:20]!r}: no word"
            await pilot.press("escape")
            await pilot.pause()
        assert saved(app)["encounters"] == before
        # Arabic-Indic and full-width digits are read as the number they are (int() does).
        for text in ["١٢", "１２"]:
            changes = len(app.campaign.undo_stack)
            await pilot.press("a")
            await pilot.pause()
            await paste(pilot, "#npc-add-count", text)
            assert len(app.campaign.undo_stack) == changes + 1
            added = app.campaign.undo_stack[-1].lines[-1]
            # Twelve goblins, each with its health (a Somnihil foe's is vitality: "4/4 vit").
            assert added.startswith("Added to ") and added.count(" vit") == 12
        for text in ["²", "9" * 5000, "101", "-1", "nan"]:
            await pilot.press("r")
            await pilot.pause()
            await pilot.press("t")
            await paste(pilot, "#npc-roll-target", text)
            await pilot.press("a")  # attack against that target (or none)
            await pilot.pause()
            assert app.is_running
            await pilot.press("escape")
            await pilot.pause()
        for path in ["[bold]x.json", "\x00", LONG, str(tmp_path), "/dev/null", "~nobody/x"]:
            await pilot.press("i")
            await pilot.pause()
            told = notes(app)
            await paste(pilot, "#npc-import-path", path)
            errors = [static_text(w) for w in app.screen.query(Static)]
            assert notes(app) > told or any(e.strip() for e in errors)
            await pilot.press("escape")
            await pilot.pause()
            assert app.is_running
    app.campaign.store.close()


# --- the tray's prompts -----------------------------------------------------------------------


async def test_tray_prompts_refuse_bad_numbers(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        assert app.screen.query("#cards-area")  # Shadows' tray starts at its cards
        opened = set()
        # a: the assistance prompt (a typed input); e, O, F: the card actions' forms
        for key in ("a", "e", "O", "F"):
            for text in ["²", "9" * 5000, "[bold]3\x1b[31m", LONG]:
                await pilot.press(key)
                await pilot.pause()
                fields = [f"#{w.id}" for w in app.screen.query(Input)]
                if not fields or not fields[0].startswith(("#tray-prompt-input", "#field-")):
                    break
                opened.add(key)
                await paste(pilot, fields[0], text)
                where = "#tray-prompt-error" if fields[0] == "#tray-prompt-input" else "#form-error"
                error = static_text(app.screen.query_one(where, Static))
                assert error and "invalid literal" not in error, (key, text[:10], error)
                await pilot.press("escape")
                await pilot.pause()
        assert opened == {"a", "e", "O", "F"}
        assert app.is_running
    app.campaign.store.close()


# --- the combat forms -------------------------------------------------------------------------


async def combat_form(pilot: Pilot[Any], key: str) -> bool:
    await pilot.press(key)
    await pilot.pause()
    return bool(list(pilot.app.screen.query("#form-error")))


async def inline_amount(app: TablesideApp, pilot: Pilot[Any], key: str, text: str) -> None:
    """Damage or heal typed on the tracker's amount line (pasted, then enter): either it is
    applied, or it is refused with words on the event line and changes nothing."""
    changes = len(app.campaign.undo_stack)
    await pilot.press(key)
    await pilot.pause()
    app.screen.post_message(events.Paste(text))
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    if len(app.campaign.undo_stack) == changes:
        said = static_text(app.screen.query_one("#combat-last", Static))
        assert said, f"{text[:20]!r}: no word"
        await pilot.press("escape")
        await pilot.pause()
    assert app.is_running


@pytest.mark.parametrize(
    ("key", "texts"),
    [
        ("t", [*DICE, "-5", "10001", "nan", "[bold]", "\x1b[31m", LONG]),
        ("l", [*DICE, "-5", "nan", "[bold]", LONG]),
        ("g", [*MARKUP, *CONTROL, LONG]),
    ],
    ids=["damage", "heal", "condition"],
)
async def test_combat_forms_refuse_or_accept_nasty_input(
    tmp_path: Path, key: str, texts: list[str]
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await pilot.pause()
        for text in texts:
            if key in ("t", "l"):
                await inline_amount(app, pilot, key, text)
                continue
            if not await combat_form(pilot, key):
                pytest.fail(f"{key} opened no form")
            changes = len(app.campaign.undo_stack)
            field = app.screen.query(Input).first()
            await paste(pilot, f"#{field.id}", text)
            still_open = bool(list(app.screen.query("#form-error")))
            if still_open:
                error = app.screen.query_one("#form-error", Static)
                assert static_text(error), f"{text[:20]!r}: no word"
                assert len(app.campaign.undo_stack) == changes
                await pilot.press("escape")
                await pilot.pause()
            assert app.is_running
    app.campaign.store.close()


@pytest.mark.parametrize("key", ["t", "l"], ids=["damage", "heal"])
@pytest.mark.parametrize("text", ["²", "9" * 5000], ids=["superscript", "5000-digits"])
async def test_combat_amount_unicode_and_huge_digits_do_not_crash(
    tmp_path: Path, key: str, text: str
) -> None:
    app = demo_app(tmp_path, "somnihil")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("1")
            await pilot.pause()
            await inline_amount(app, pilot, key, text)
    finally:
        app.campaign.store.close()

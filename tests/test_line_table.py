"""The line-table base on its own: a small table of a ship's crew built on it, driven by keys."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import App, ComposeResult
from textual.message import Message

from widgets.line_table import Cell, LineTable

CREW = [("ada", "Ada", "pilot"), ("bo", "Bo", "gunner"), ("cy", "Cy", "medic and cook")]


class Crew(LineTable[str]):
    """Names and roles, one line each; the role column is 6 cells wide."""

    def __init__(self) -> None:
        super().__init__(id="crew")
        self.ids = [crew_id for crew_id, _, _ in CREW]
        self.set_columns([4, 6])

    def header_cells(self) -> Sequence[str]:
        return ("Name", "Role")

    def cells(self, row: int) -> Sequence[Cell]:
        _, name, role = CREW[row]
        return ((name, "bold"), (role, ""))


class CrewApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.heard: list[Message] = []

    def compose(self) -> ComposeResult:
        yield Crew()

    @on(LineTable.CursorMoved)
    @on(LineTable.Selected)
    def _heard(self, message: Message) -> None:
        self.heard.append(message)


def text(table: Crew, y: int) -> str:
    return table.render_line(y).text


async def test_keys_move_the_cursor_and_enter_names_the_row() -> None:
    app = CrewApp()
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(Crew)
        table.focus()
        await pilot.press("down", "down", "down", "enter")
        await pilot.pause()
        assert table.selected_id == "cy"
        moved = [m for m in app.heard if isinstance(m, LineTable.CursorMoved)]
        assert len(moved) == 2 and all(m.control is table for m in moved)
        (selected,) = [m for m in app.heard if isinstance(m, LineTable.Selected)]
        assert selected.row_id == "cy" and selected.control is table


async def test_a_double_click_selects_the_row_under_the_pointer() -> None:
    app = CrewApp()
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(Crew)
        await pilot.double_click(Crew, offset=(2, 2))  # the header, then Ada, then Bo
        await pilot.pause()
        assert table.selected_id == "bo"
        assert [m.row_id for m in app.heard if isinstance(m, LineTable.Selected)] == ["bo"]


async def test_select_id_says_whether_the_row_is_there() -> None:
    app = CrewApp()
    async with app.run_test(size=(40, 8)):
        table = app.query_one(Crew)
        assert table.select_id("bo") and table.cursor_row == 1
        assert not table.select_id("dee") and table.selected_id == "bo"


async def test_the_header_is_pinned_and_a_long_cell_is_cut_at_its_column() -> None:
    app = CrewApp()
    async with app.run_test(size=(40, 8)):
        table = app.query_one(Crew)
        assert text(table, 0).startswith(" Name  Role ")
        assert text(table, 3).startswith(" Cy    medic  ")  # "medic and cook" in 6 cells
        assert [str(cell) for cell in table.get_row_at(2)] == ["Cy", "medic and cook"]
        table.set_columns([4, 6], hidden=frozenset({1}))
        assert "Role" not in text(table, 0) and "medic" not in text(table, 3)


async def test_a_focus_change_redraws_the_cursor_row_only() -> None:
    app = CrewApp()
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(Crew)
        await pilot.pause()
        assert app.focused is table  # the only thing to focus
        before = {row: table.render_line(row + 1) for row in range(3)}
        table.blur()
        await pilot.pause()
        after = {row: table.render_line(row + 1) for row in range(3)}
        assert after[0] != before[0]  # the cursor loses the focused colours
        assert after[1] is before[1] and after[2] is before[2]

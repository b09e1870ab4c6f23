"""The combatant table widget: what it shows, and that a change re-renders only its own line."""

from __future__ import annotations

from textual.app import App, ComposeResult

from widgets.combat_table import CombatTable, Row


def row(pos: int, name: str, hp: str = "5/5 HP") -> Row:
    return (("", ""), (str(pos), ""), ("10", ""), (name, "bold"), (hp, ""), ("", ""), ("", ""))


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CombatTable(id="t")


def fight(size: int) -> tuple[list[str], list[Row]]:
    return [f"c{i}" for i in range(size)], [row(i + 1, f"Goblin {i + 1}") for i in range(size)]


def line(table: CombatTable, y: int) -> str:
    return table.render_line(y).text


async def test_header_stays_and_rows_scroll_with_the_selection() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(CombatTable)
        table.show(*fight(300))
        await pilot.pause()
        assert "Name" in line(table, 0) and "Goblin 1 " in line(table, 1)
        table.focus()
        await pilot.press("end")
        await pilot.pause()
        assert table.selected_id == "c299"
        assert "Name" in line(table, 0)
        assert "Goblin 300" in line(table, table.size.height - 1)
        await pilot.press("home", "down", "down")
        assert table.selected_id == "c2" and "Goblin 1 " in line(table, 1)


async def test_a_changed_row_rerenders_only_its_line() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(CombatTable)
        ids, rows = fight(300)
        table.show(ids, rows)
        await pilot.pause()
        cached = set(table._lines)
        assert len(cached) >= 9  # every visible row was rendered once
        rows[3] = row(4, "Goblin 4", "1/5 HP")
        table.show(ids, rows)
        assert set(table._lines) == cached - {3}
        await pilot.pause()
        assert "1/5 HP" in line(table, 4) and set(table._lines) == cached


async def test_names_are_shown_literally_and_widen_their_column() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 8)) as pilot:
        table = app.query_one(CombatTable)
        ids, rows = fight(3)
        table.show(ids, rows)
        await pilot.pause()
        rows[1] = row(2, "[bold red]Gob[/] \x1b[31mlin the Unreasonably Long")
        table.show(ids, rows)
        await pilot.pause()
        assert "[bold red]Gob[/] \u241b[31mlin the Unreasonably Long" in line(table, 2)
        assert "\x1b" not in line(table, 2)
        assert line(table, 2).index("5/5 HP") == line(table, 1).index("5/5 HP")

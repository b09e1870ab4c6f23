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


async def test_the_position_gives_way_where_that_keeps_a_health_on_one_line() -> None:
    """At 80 columns a PC's long health and an "acted" in the Turn column were one cell too
    wide: the health wrapped. The position column goes instead; where even that would not
    keep every cell on one line, it stays (and the longest cell wraps)."""
    app = TableApp()
    async with app.run_test(size=(80, 8)) as pilot:
        table = app.query_one(CombatTable)
        health = "8/8 HP · Grip 15/15 · strain 0/13"
        rows = [row(i + 1, name, health) for i, name in enumerate(("Mara Quell", "Sefa Ironwood"))]
        table.show(["a", "b"], rows)
        await pilot.pause()
        assert line(table, 0).split()[0] == "#"  # it all fits: nothing gives way
        rows[0] = (*rows[0][:6], ("acted", ""))
        rows[1] = (("▶", ""), *rows[1][1:])  # whose turn it is
        table.show(["a", "b"], rows)
        await pilot.pause()
        assert line(table, 0).split() == ["Init", "Name", "Health", "Conditions", "Turn"]
        assert health in line(table, 1) and line(table, 1).rstrip().endswith("acted")
        assert "▶" in line(table, 2) and "Sefa Ironwood" in line(table, 2)
        assert health in line(table, 2)
        assert not table.gives_way and table.detail() == ""
        rows[1] = (*rows[1][:4], (f"out · {health}", ""), *rows[1][5:])
        table.show(["a", "b"], rows)
        await pilot.pause()
        assert line(table, 0).split()[0] == "#"  # it would wrap anyway: the position stays

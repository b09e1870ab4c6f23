"""Issue 22, "nothing hides": a long cell wraps in its own row instead of taking columns away,
every form fits 80x24 and says why it refuses where the GM is looking, log lines wrap to the
width, the Footer shows whole keys by priority, and the palette lists each action once.

Pilot tests at 80x24 (and 120x36 where the layout differs); each failed on main (52f9b16).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from app.queries import current_encounter
from app.tui import TablesideApp
from screens.combat import CombatScreen
from tests.apphelpers import SIZE, demo_app, running_encounter, screen_text, select_named
from tests.games import BUILT_IN

NARROW = (80, 24)
ALL_COLUMNS = ["#", "Init", "Name", "Health", "Conditions", "Turn"]


def table_lines(app: TablesideApp) -> list[str]:
    """The tracker's table as shown: from its header down, left of the pane's border."""
    lines = [line.split("▏")[0] for line in screen_text(app)]
    top = next(k for k, line in enumerate(lines) if " Name " in line)
    return lines[top:]


def header(app: TablesideApp) -> list[str]:
    return table_lines(app)[0].split()


def row_lines(app: TablesideApp, name: str) -> list[str]:
    """The lines of the combatant's row: its first, and those under it with an empty name."""
    lines = table_lines(app)
    start = next(k for k, line in enumerate(lines) if f" {name} " in line)
    name_at = lines[start].index(f" {name} ") + 1
    rows = [lines[start]]
    for line in lines[start + 1 :]:
        if line[:name_at].strip() or not line.strip():
            break
        rows.append(line)
    return rows


def cell(app: TablesideApp, name: str, column: str) -> str:
    """One cell of the combatant's row, its wrapped lines joined: the text under the column's
    header, up to the next column's."""
    top = table_lines(app)[0]
    starts = sorted(top.index(f" {c} ") + 1 for c in ALL_COLUMNS if f" {c} " in f"{top} ")
    start = top.index(f" {column} ") + 1 if f" {column} " in top else top.index(f" {column}") + 1
    end = next((s for s in starts if s > start), None)
    parts = [line[start - 1 : end].strip() for line in row_lines(app, name)]
    return " ".join(p for p in parts if p)


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize("size", [NARROW, SIZE])
async def test_a_long_conditions_cell_wraps_in_its_row_and_every_column_stays(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Somnihil: Anomaly 7 (disadv.), Anomaly 1 …, Stunned 1 shrank the header to
    Name Health Conditions for every row."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=size) as pilot:
        await pilot.press("alt+r")
        await select_named(pilot, "Vesna Kade")
        await pilot.press("alt+a", "4", "enter")
        await pilot.press("g", *"Stunned", "tab", "2", "enter")
        await pilot.press("g", *"Frightened of the dark below the mill", "enter")
        await pilot.press("n")
        await pilot.pause()
        assert header(app) == ALL_COLUMNS
        whole = "Anomaly 7 (disadv.), Stunned 1, Frightened of the dark below the mill"
        assert cell(app, "Vesna Kade", "Conditions") == whole
        assert cell(app, "Vesna Kade", "Turn") == "acted"
        assert len(row_lines(app, "Vesna Kade")) > 1 and len(row_lines(app, "Orrin Hale")) == 1
        screen = app.screen
        assert isinstance(screen, CombatScreen) and not screen.table.gives_way
    app.campaign.store.close()


async def test_a_pc_out_keeps_the_turn_column_at_80x24(tmp_path: Path) -> None:
    """Resolution: `out · 0/8 HP · Grip 15/15 · strain 0/13` took the Turn column away."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r", "j", "t", "9", "9", "enter", "n")
        await pilot.pause()
        assert header(app) == ALL_COLUMNS
        pc = next(c for c in running_encounter(app)["combatants"] if c["side"] == "pc")
        assert cell(app, pc["name"], "Turn") == "acted"
        dead = running_encounter(app)["combatants"][1]["name"]
        assert cell(app, dead, "Health") == "out · 0/8 HP · Grip 17/17 · strain 0/11"
    app.campaign.store.close()


async def test_a_cell_too_long_for_three_lines_is_cut_and_read_whole_below(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        long = " ".join(["Cursed"] * 30)
        await pilot.press("g", *long, "enter")
        await pilot.pause()
        assert header(app) == ALL_COLUMNS
        first = table_lines(app)[1]
        assert "…" in " ".join(table_lines(app)[1:4]) and "Mara Quell" in first
        detail = str(app.screen.query_one("#combat-detail").render())
        assert detail.startswith("Conditions: Cursed Cursed") and detail.count("Cursed") == 30
    app.campaign.store.close()


# --------------------------------------------------------------------------- forms


def form_fits(app: TablesideApp) -> None:
    """The open form is whole on the screen: no row of it scrolled out of view."""
    from screens.form import FormScreen

    form = app.screen
    assert isinstance(form, FormScreen)
    box = form.query_one("#form-box")
    assert box.max_scroll_y == 0, f"{form.title_text}: {box.max_scroll_y} rows below the fold"
    assert box.region.bottom <= app.size.height and box.region.y >= 0


GAMES = BUILT_IN


@pytest.mark.parametrize("game", GAMES)
async def test_the_quick_add_and_whole_damage_forms_fit_80x24(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("q")
        await pilot.pause()
        form_fits(app)
        await pilot.press("escape", "t", "tab")  # the game's whole damage form
        await pilot.pause()
        form_fits(app)
    app.campaign.store.close()


async def test_shadows_attack_card_form_fits_80x24_and_says_why_where_the_gm_looks(
    tmp_path: Path,
) -> None:
    """Shadows' P form was taller than the screen: a refused enter looked dead."""
    from screens.form import FormScreen

    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("2", "h", "1", "alt+r")
        await select_named(pilot, "Agnes Thorne")
        await pilot.press("P")
        await pilot.pause()
        form_fits(app)
        form = app.screen
        assert isinstance(form, FormScreen)
        await pilot.press("tab", "tab", "0", "enter")  # the AP: 0 is refused
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        error = form.query_one("#form-error")
        assert "at least 1" in str(error.render())
        # Right under the field it is about, which has the focus again, all in view.
        field = form.query_one("#field-ap")
        assert form.focused is field and error.region.y == field.region.bottom
        assert 0 <= error.region.y < app.size.height - 1
        # The game's own refusal (a card not in the hand) is said at the top.
        await pilot.press("backspace", "1", "tab", "3", *["shift+tab"] * 3, *"Queen of Stars")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "Stars" in str(error.render()) and "-invalid" not in field.parent.classes  # type: ignore[union-attr]
        assert error.region.y == form.query_one("#form-title").region.bottom
    app.campaign.store.close()


async def test_a_refused_quick_add_says_why_beside_the_field_at_80x24(tmp_path: Path) -> None:
    from screens.form import FormScreen

    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("q", "tab", "x", "enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        error = form.query_one("#form-error")
        assert "type a whole number" in str(error.render())
        field = form.query_one("#field-count")
        assert form.focused is field and error.region.y == field.region.bottom
        assert error.region.bottom <= form.query_one("#form-box").region.bottom
        form_fits(app)
    app.campaign.store.close()


# --------------------------------------------------------------------------- log lines

MORALE = "They continue to fight, but consider improved strategic positions"


async def five_goblins_check_morale(pilot: Any, app: TablesideApp) -> None:
    """Resolution: two more Goblins quick-added with an HD, one dropped: S rolls five checks."""
    # name, how many, HP, initiative, side, HD
    await pilot.press("q", *"Goblin", "tab", "2", "tab", "tab", "tab", "tab", "2", "enter")
    await pilot.press("alt+r")
    await select_named(pilot, "Goblin 1")
    await pilot.press("t", "9", "9", "enter", "S")
    await pilot.pause()


async def test_s_at_80x24_says_whole_results_and_counts_the_rest(tmp_path: Path) -> None:
    """S over five foes cut the fifth morale result mid-word under the table."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await five_goblins_check_morale(pilot, app)
        rolls = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
        assert len([r for r in rolls if "morale" in r["expression"]]) >= 4
        last = app.screen.query_one("#combat-last")
        content = str(last.render())
        said = " ".join(content.split())
        assert said.endswith(rolls[-1]["band"]), said  # the newest result, whole
        assert "more in the roll log" in said
        assert said.count(" — ") == said.count(";") + 1  # only whole results, never half of one
        rows = Text(content).wrap(app.console, last.content_size.width)
        assert len(rows) <= last.content_size.height  # all of it in view: nothing cut below
    app.campaign.store.close()


async def test_the_roll_log_wraps_a_long_band_to_the_width_at_80x24(tmp_path: Path) -> None:
    """The tray's log cut `They continue to fight, but consider im…` with room to spare."""
    from widgets.roll_log import RollLog

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await five_goblins_check_morale(pilot, app)
        await pilot.press("2")
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        shown = " ".join(" ".join(line.strip(" │") for line in screen_text(app)).split())
        assert MORALE in shown and "consider im…" not in shown
        assert "…" not in str(log.get_option_at_index(log.option_count - 1).prompt)
    app.campaign.store.close()


# --------------------------------------------------------------------------- the Footer


def footer_keys(app: TablesideApp) -> str:
    """The Footer's keys as shown, left of the palette key (each run of blanks one space)."""
    return " ".join(screen_text(app)[-1].split("▏")[0].split())


def offered_keys(app: TablesideApp) -> list[str]:
    """The keys the panel offers in the Footer's order, each as a whole key reads."""
    from widgets.footer import chosen_keys

    shown = chosen_keys(app.screen, 10_000)
    return [" ".join(f"{app.get_key_display(b)} {w}".split()) for b, _, _, w in shown]


def only_whole_keys(shown: str, offered: list[str]) -> bool:
    """``shown`` is some of ``offered``, whole, in their order (none cut short)."""
    rest = shown
    for key in offered:
        if rest == key or rest.startswith(key + " "):
            rest = rest[len(key) :].strip()
    return rest == ""


@pytest.mark.parametrize("size", [NARROW, SIZE])
@pytest.mark.parametrize("game", GAMES)
async def test_the_footer_shows_whole_keys_the_gm_needs_most(
    tmp_path: Path, game: str, size: tuple[int, int]
) -> None:
    """The Footer was cut mid-word (al▏, alt+t Tem▏) and at 80 columns showed none of t, l,
    i, alt+r, q, b, g."""
    app = demo_app(tmp_path, game)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        setup = footer_keys(app)
        assert {"alt+r Start", "q Quick add", "b NPCs"} <= pairs(setup), setup
        await pilot.press("alt+r")
        await pilot.pause()
        running = footer_keys(app)
        assert {"n Next turn", "t Damage", "l Heal", "? Keys"} <= pairs(running), running
        if size == SIZE:
            assert "g Condition" in pairs(running), running
        for panel in ("2", "3", "4", "1"):
            await pilot.press(panel)
            await pilot.pause()
            shown = footer_keys(app)
            # Only whole keys, in the order the panel ranks them (those that did not fit left
            # out whole, never one cut short).
            assert shown and only_whole_keys(shown, offered_keys(app)), (shown, offered_keys(app))
    app.campaign.store.close()


def pairs(footer: str) -> set[str]:
    """``n Next turn t Damage`` as {"n Next turn", "t Damage"}: each key with its word(s)."""
    found: set[str] = set()
    words = footer.split(" ")

    def is_key(word: str) -> bool:  # "n", "?", "P", "alt+n", "ctrl+n"
        return len(word) == 1 or ("+" in word and len(word) > 2)

    k = 0
    while k < len(words):
        key, k = words[k], k + 1
        said = []
        while k < len(words) and not is_key(words[k]):
            said.append(words[k])
            k += 1
        found.add(f"{key} {' '.join(said)}")
    return found


# --------------------------------------------------------------------------- the palette


@pytest.mark.parametrize(("game", "typed", "title"), [
    ("somnihil", "add party", "Add party"),
    ("somnihil", "distance", "Distance band farther"),
    ("shadows", "next turn", "Next turn"),
])  # fmt: skip
async def test_the_palette_lists_each_action_once(
    tmp_path: Path, game: str, typed: str, title: str
) -> None:
    """The palette read `Add party` and `Add party (p)`: its second line said the name again."""
    app = demo_app(tmp_path, game)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        commands = list(app.get_system_commands(app.screen))
        titles = [c.title.casefold() for c in commands]
        assert len(titles) == len(set(titles))
        assert not [c.help for c in commands if c.help.startswith(f"{c.title} (")]
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*typed)
        await pilot.pause(0.3)
        lines = [line.strip(" ▁▔") for line in screen_text(app)]
        named = [line for line in lines if title in line]
        assert len(named) == 1, named
    app.campaign.store.close()


async def test_the_footer_line_answers_the_mouse_as_its_keys_did(tmp_path: Path) -> None:
    """Over a key the Footer highlights it and shows its tooltip (the whole description where
    the Footer shows a shorter word); off the keys, none; a click on a key that does not work
    now rings the bell and does nothing."""
    from widgets.footer import TablesideFooter

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TablesideFooter)
        init = next(key for key in footer.shown if key.description == "Init")
        await pilot.hover(TablesideFooter, offset=(init.start + 1, 0))
        await pilot.pause()
        assert footer.tooltip == "Initiative"
        highlighted = footer.render()
        assert highlighted.get_style_at_offset(app.console, init.start).bgcolor != (
            highlighted.get_style_at_offset(app.console, footer.shown[0].start).bgcolor
        )
        blank = footer.shown[-2].end + 1
        await pilot.hover(TablesideFooter, offset=(blank, 0))
        await pilot.pause()
        assert footer.tooltip is None
        rang: list[bool] = []
        app.bell = lambda: rang.append(True)
        # No panel shows a key that does not work now (it hides it): one is made so here.
        footer._keys = tuple(replace(k, enabled=False) if k == init else k for k in footer._keys)
        await pilot.click(TablesideFooter, offset=(init.start + 1, 0))
        await pilot.pause()
        assert rang == [True]
        found = current_encounter(app.campaign)
        assert found is not None
        assert not any(c.get("initiative") for c in found[1]["combatants"])
    app.campaign.store.close()


@pytest.mark.parametrize("game", GAMES)
async def test_a_turn_redraws_the_footer_line_without_a_layout(tmp_path: Path, game: str) -> None:
    """``alt+r`` and ``n`` change which keys work (the fight starts; a turn, in games whose
    keys follow it): the Footer draws the keys now chosen as one line, a repaint of that line; it asks for no layout of the screen (a key
    widget per key did, 7 ms of a keypress, issue 26). What it draws is what the panel's order
    chooses for the room it has, and a click on a key presses it."""
    from textual.widget import Widget

    from widgets.footer import TablesideFooter, chosen_keys

    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TablesideFooter)
        layouts: list[bool] = []
        refresh = footer.refresh

        def spy(*regions: object, layout: bool = False, **kwargs: bool) -> Widget:
            layouts.append(layout)
            return refresh(*regions, layout=layout, **kwargs)  # type: ignore[arg-type]

        footer.refresh = spy  # type: ignore[method-assign, assignment]
        changed = 0
        for key in ("alt+r", *["n"] * 6):
            shown = footer_keys(app)
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            active = app.screen.active_bindings
            wanted = [
                " ".join(f"{app.get_key_display(b)} {w}".split())
                for b, _, _, w in chosen_keys(app.screen, footer._room(active), active=active)
            ]
            assert footer_keys(app) == " ".join(wanted)
            changed += footer_keys(app) != shown
        assert changed, "no turn changed the keys shown"
        assert layouts and not any(layouts), "the Footer asked for a layout"
        assert not footer.children
        first = footer.shown[0]
        assert first.description == "Next turn"
        round_before = running_encounter(app)["round"], running_encounter(app)["current"]
        await pilot.click(TablesideFooter, offset=(first.start + 1, 0))
        await pilot.pause()
        assert (running_encounter(app)["round"], running_encounter(app)["current"]) != round_before
    app.campaign.store.close()

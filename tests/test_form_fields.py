"""Forms and fields as a GM types in them: a line cleared, a choice stepped by arrows, the
focused field in sight in a long form at 80x24."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input, Static

from rulesets.table import Field
from screens.combat import CombatScreen
from screens.form import FormScreen
from tests.apphelpers import SIZE, demo_app


async def test_ctrl_u_clears_the_inline_damage_amount(tmp_path: Path) -> None:
    """``-3``, ctrl+u, then ``3`` gave ``-33``: the line is cleared as in any text field."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "9", "9", "ctrl+u", "3", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CombatScreen)
        vesna = app.campaign.doc("party", 1)
        assert vesna is not None and vesna["resources"]["vitality"]["current"] == 7
    app.campaign.store.close()


class FormApp(App[None]):
    def __init__(self, fields: list[Field]) -> None:
        super().__init__()
        self.fields = fields
        self.answers: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        yield Static("under the form")

    def on_mount(self) -> None:
        def done(answers: dict[str, Any] | None) -> None:
            self.answers = answers

        self.push_screen(FormScreen("A form", self.fields), done)


SPELLS = ("Rot Touch", "Wither", "Blight")


async def test_arrow_keys_step_a_choice_field_through_its_choices() -> None:
    """Down on the spell field chose nothing and Rot Touch was cast instead of Wither."""
    app = FormApp([Field("spell", "Spell", "Rot Touch", "choice", choices=SPELLS)])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#field-spell", Input)
        await pilot.press("down")
        assert field.value == "Wither"
        await pilot.press("down", "down")
        assert field.value == "Rot Touch"  # around
        await pilot.press("up")
        assert field.value == "Blight"
        await pilot.press("up", "enter")
        await pilot.pause()
    assert app.answers == {"spell": "Wither"}


async def test_in_a_long_form_at_80x24_the_focused_field_is_in_sight() -> None:
    """Its whole row: a long label wraps under the input, and was cut at the box's foot."""
    fields = [
        Field(f"f{i}", f"Field {i} " + "with a long label " * (i % 4), str(i)) for i in range(40)
    ]
    app = FormApp(fields)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        box = screen.query_one("#form-box")
        for i in range(1, 40):
            await pilot.press("tab")
            await pilot.pause()
            assert screen.query_one(f"#field-f{i}", Input).has_focus
            row = screen.query_one(f"#row-f{i}")
            assert box.content_region.contains_region(row.region), f"Field {i} out of sight"
        for i in range(38, 0, -1):
            await pilot.press("shift+tab")
            await pilot.pause()
            row = screen.query_one(f"#row-f{i}")
            assert box.content_region.contains_region(row.region), f"Field {i} out of sight"

"""ctrl+t: the campaign clock's timed effects and random-encounter checks.

The time itself is in every panel's header and moves by the app's clock keys from anywhere
(they work here too: this screen redraws as time passes). Here the GM adds a timed effect (a
torch, a spell, a curse), sets an encounter check, removes either, and chooses whether the
players' view shows the time of day and the light left. Every change is one command of
:mod:`app.commands.clock`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from app.clock_keys import CLOCK_BINDINGS
from app.commands import clock as cmd
from app.messages import CampaignChanged
from rulesets import clock
from screens.form import Field, FormScreen
from widgets.footer import TablesideFooter
from widgets.literal import literal

if TYPE_CHECKING:
    from app.host import TableHost
    from app.state import Command

YES_NO = ("yes", "no")
SHORT = {
    "clock.round": "round",
    "clock.turn": "turn",
    "clock.hour": "hour",
    "clock.watch": "watch",
    "clock.rest": "rest",
    "clock.day": "day",
    "clock.typed": "typed",
    "clock.fight": "fight",
}
"""The clock keys as the hint under the list names them."""


class ClockScreen(ModalScreen[None]):
    CSS_PATH = "clock.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_effect", "Timed effect", id="clock_screen.effect"),
        Binding("c", "new_check", "Encounter check", id="clock_screen.check"),
        Binding("delete,x", "remove", "End / remove", id="clock_screen.remove"),
        Binding("s", "settings", "Settings", id="clock_screen.settings"),
        Binding("escape", "close", "Close", id="clock_screen.close"),
    ]

    @property
    def tableside(self) -> TableHost:
        return cast("TableHost", self.app)

    def compose(self) -> ComposeResult:
        with Vertical(id="clock-box"):
            yield Static("", id="clock-now")
            yield OptionList(id="clock-items")
            yield Static("", id="clock-came-up")
            yield Static("", id="clock-players")
            yield Static("", id="clock-keys")
            yield Static("", id="clock-said")
        yield TablesideFooter()

    def on_mount(self) -> None:
        self._bind_clock_keys()
        self.redraw()
        self.query_one(OptionList).focus()

    def _bind_clock_keys(self) -> None:
        """The app's clock keys work here too (a modal screen stops the app's own bindings),
        as the GM's keymap has them; the hint says which they are."""
        from app.keymap import keys_of
        from app.textual_compat import key_bindings

        keymap = getattr(self.app, "keymap", {})
        hint = []
        for binding in CLOCK_BINDINGS:
            if binding.id not in SHORT:
                continue
            keys = keys_of(binding, keymap)
            for key in keys:
                key_bindings(self).setdefault(key, []).append(
                    Binding(key, f"app.{binding.action}", binding.description, show=False)
                )
            if keys:
                shown = self.app.get_key_display(Binding(keys[0], ""))
                hint.append(f"{shown} {SHORT[str(binding.id)]}")
        self.query_one("#clock-keys", Static).update(literal(" · ".join(hint)))

    @on(CampaignChanged)
    def _changed(self, message: CampaignChanged) -> None:
        self.redraw()

    def redraw(self) -> None:
        campaign = self.tableside.campaign
        rules = campaign.game.time
        now = clock.read(campaign.meta)
        self.query_one("#clock-now", Static).update(
            literal(f"{now.text(rules)} · a {rules.round_word} is {rules.round_seconds} s")
        )
        items = self.query_one(OptionList)
        keep = items.highlighted_option.id if items.highlighted_option else None
        items.clear_options()
        for effect, left in now.effects_left():
            light = " · light" if effect.light else ""
            text = f"{effect.label}{light} · {clock.duration_text(left)} left"
            items.add_option(Option(literal(text), id=f"effect:{effect.id}"))
        for check in now.checks:
            items.add_option(
                Option(literal(f"Encounter check {check.text}"), id=f"check:{check.id}")
            )
        if not items.option_count:
            items.add_option(
                Option("No timed effects or encounter checks yet", id="none", disabled=True)
            )
        if keep is not None:
            try:
                items.highlighted = items.get_option_index(keep)
            except LookupError:
                items.highlighted = 0
        came = now.came_up
        said = self.query_one("#clock-came-up", Static)
        said.display = came is not None
        if came is not None:
            said.update(literal(f"Came up at {now.clock_text(came.at)}: {came.text}"))
        shown = "shows" if now.players else "does not show"
        self.query_one("#clock-players", Static).update(
            f"The players' view {shown} the time of day and the light left"
        )

    def show_result(self, lines: list[str]) -> None:
        said = Text("\n").join(literal(f"› {line}", limit=300) for line in lines[-6:])
        self.query_one("#clock-said", Static).update(said)

    # --- changes -------------------------------------------------------------------------------
    def _ask(
        self, title: str, fields: list[Field], make: Callable[[dict[str, Any]], Command]
    ) -> None:
        said: list[str] = []

        def submit(values: dict[str, Any]) -> str | None:
            refusal: list[str] = []
            said.extend(self.tableside.apply(make(values), refused=refusal.append) or [])
            return refusal[0] if refusal else None

        def done(values: dict[str, Any] | None) -> None:
            if values is not None and said:
                self.redraw()
                self.show_result(said)

        self.app.push_screen(FormScreen(title, fields, submit=submit), done)

    def action_new_effect(self) -> None:
        party = tuple(str(pc.get("name", "")) for _, pc in self.tableside.campaign.rows("party"))
        fields = [
            Field("name", "Effect (a torch, a spell, a curse)"),
            Field("lasts", "Lasts (10m, 1h, 3d)", "1h"),
            Field(
                "light",
                "A light? (auto: a torch, a lantern … is)",
                "auto",
                "choice",
                choices=("auto", *YES_NO),
            ),
            Field("on", "On whom (blank: the party)", "", "choice", choices=party, required=False),
        ]

        def make(v: dict[str, Any]) -> Command:
            light = None if v["light"] == "auto" else v["light"] == "yes"
            return cmd.AddTimedEffect(v["name"], v["lasts"], light, v.get("on") or "")

        self._ask("A timed effect", fields, make)

    def action_new_check(self) -> None:
        names = tuple(str(doc.get("name", "")) for _, doc in self.tableside.campaign.rows("npcs"))
        fields = [
            Field("every", "Every (10m a turn, 1h, 4h)", "1h"),
            Field("chance", "Chance (1 in 6, 2 in 6, 15%)", "1 in 6"),
            Field(
                "table",
                "Encounters: name and count, ; between (Goblin 2d4; Wolf 1d3)",
                required=False,
                suggestions=names[:500],
            ),
        ]
        self._ask(
            "A random-encounter check",
            fields,
            lambda v: cmd.SetEncounterCheck(v["every"], v["chance"], v["table"]),
        )

    def action_remove(self) -> None:
        items = self.query_one(OptionList)
        option = items.highlighted_option
        kind, _, number = str(option.id if option else "").partition(":")
        if not number.isdigit():
            self.notify("Nothing to remove: add a timed effect (n) or a check (c)")
            return
        command: Command = (
            cmd.EndTimedEffect(int(number))
            if kind == "effect"
            else cmd.RemoveEncounterCheck(int(number))
        )
        lines = self.tableside.apply(command)
        if lines:
            self.redraw()
            self.show_result(lines)

    def action_settings(self) -> None:
        now = clock.read(self.tableside.campaign.meta)
        fields = [
            Field("start_hour", "The campaign began at (hour, 0-23)", str(now.start_hour), "int",
                  minimum=0, maximum=23),
            Field("players", "The players' view shows the time and light", YES_NO[not now.players],
                  "choice", choices=YES_NO),
        ]  # fmt: skip
        self._ask(
            "Clock settings",
            fields,
            lambda v: cmd.ClockSettings(int(v["start_hour"]), v["players"] == "yes"),
        )

    def action_close(self) -> None:
        self.dismiss(None)

"""The line under the tracker's table where the GM types an amount (damage, healing, on one
combatant or on the marked ones); while nothing is typed, it says the selected combatant's
detail.

The line keeps what it shows (:class:`UnderTable`, which the find bar and the exchange view
share), so the tracker can tell it the same text at every keypress for free. The amount being
typed is the line's: it takes the keys from the tracker (the focus stays on the table), opens
the game's whole form on tab, and posts :class:`UnderTable.Land` with the command to send.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from app.lazy import LazyModule
from rulesets import encounter as er
from rulesets import fight as fr
from rulesets.values import record
from screens.form import Field, FieldError, FormScreen
from screens.form import clean as clean_field
from widgets.literal import literal

if TYPE_CHECKING:
    from app.commands import combat as cmd
    from app.state import Command
else:
    cmd = LazyModule("app.commands.combat")

IDLE_AMOUNT = "A attacks · t damage · l heal · + marks an area · T lands the last damage roll"
"""What the amount line says while nothing is being typed in it."""


@record
class Inline:
    """What the inline amount is for: damage or heal, the game's form, the target."""

    verb: str
    fields: tuple[Field, ...]
    combatant_id: str
    who: str
    encounter_id: int
    area: tuple[str, ...] = ()
    """The marked combatants it lands on, in turn order (none: ``combatant_id`` alone)."""
    typed: str = ""

    def line(self) -> str:
        more = [f.label.split(" (")[0] for f in self.fields[1:]]
        label = self.fields[0].label if self.fields else "Amount"
        # The first two fields tab opens, and how many more: the amount line has two rows, and
        # Shadows' twelve names ran it past them.
        named = ", ".join(more[:2]) + (f" +{len(more) - 2} more" if len(more) > 2 else "")
        hint = f"tab: {named} · " if more else ""
        return f"{self.verb} {self.who} · {label}: {self.typed}▏  ({hint}enter · escape)"

    def command(self, answers: dict[str, Any]) -> Command:
        """The change the game's answers make: on the marked combatants, or on the one."""
        amount, heal = str(answers.get("amount") or ""), self.verb == "Heal"
        eid, one = self.encounter_id, self.combatant_id
        if self.area:
            return cmd.Area(eid, self.area, amount, answers, heal)
        return (
            cmd.Heal(eid, one, amount, answers) if heal else cmd.Damage(eid, one, amount, answers)
        )


def update_sized(
    static: Static, text: Text, wrapped: dict[int, tuple[int, tuple[int, int]]]
) -> None:
    """Show ``text``; lay the screen out again only if its height changes: a layout pass
    reflows the 300-row table and repaints its scrollbar a frame later. ``wrapped`` keeps each
    line's wrapped line count and size when last shown."""
    width = static.size.width
    lines = len(text.wrap(static.app.console, width)) if width > 0 else -1
    key = (width, static.size.height)
    same = width > 0 and (lines == static.size.height or wrapped.get(id(static)) == (lines, key))
    wrapped[id(static)] = (lines, key)
    static.update(text, layout=not same)


class Line(Static):
    """A line of the tracker (wrapping to its max height) that keeps what it shows."""

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        self.said: tuple[str, str] | None = None
        """The text and style last shown: the same again costs nothing."""
        self.wrapped: dict[int, tuple[int, tuple[int, int]]] = {}

    def say(self, text: str, style: str = "") -> None:
        """Show ``text``; the screen is laid out again only if the line's height changes."""
        # A Static update costs a layout pass of the whole screen; most keypresses leave the
        # line as it was.
        if self.said != (text, style):
            self.said = (text, style)
            update_sized(self, literal(text, style=style, limit=1000), self.wrapped)


class UnderTable(Line):
    """A line under the tracker's table that the GM types into (an amount, the exchange, a
    jump by name): the tracker hands it the keys, as the focus stays on the table."""

    class Land(Message):
        """Send ``command``. ``answer``: a refusal is handed back to the line (:meth:`refused`)
        instead of told by the app; ``unmark``: it lands on the marked combatants, unmarked once
        it is done; ``close``: the line's business is over once it is done."""

        def __init__(
            self,
            line: UnderTable,
            command: Command,
            *,
            answer: bool = False,
            unmark: bool = False,
            close: bool = True,
        ) -> None:
            super().__init__()
            self.line = line
            self.command = command
            self.answer = answer
            self.unmark = unmark
            self.close = close

        @property
        def control(self) -> UnderTable:
            return self.line

    def land(self, command: Command, **how: bool) -> None:
        """Post :class:`Land` with ``command`` (``how``: its flags) to the screen."""
        # Straight to the screen, not bubbled through the columns' queues: the screen takes it
        # before it next repaints, and the key's result shows in the frame after the key.
        self.screen.post_message(self.Land(self, command, **how))

    def refused(self, why: str) -> None:
        """The command posted was refused (asked by ``answer``)."""

    def landed(self, close: bool) -> None:
        """The command posted was done."""


class AmountLine(UnderTable):
    """One line that the GM types an amount into, or reads the selected combatant's detail."""

    class Closed(Message):
        """The amount is over (sent, or escape): the line may say the detail again."""

    class Refused(Message):
        """The typed amount is not one the form takes: ``text`` says why."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(IDLE_AMOUNT, id=id)
        self.inline: Inline | None = None
        """An amount being typed (damage, healing), if any."""

    def open_health(
        self,
        verb: str,
        form: Callable[[fr.HealthKind], tuple[Field, ...]],
        eid: int,
        c: er.Combatant,
        area: tuple[str, ...],
    ) -> None:
        """Damage or heal ``c`` (or the marked ``area``): the game's form for where its health
        lives, the amount typed here and the rest behind tab."""
        who = f"{len(area)} marked" if area else c.name
        self.open_amount(Inline(verb, tuple(form(fr.health_kind(c))), c.id, who, eid, area))

    def open_amount(self, inline: Inline) -> None:
        """Type ``inline``'s amount on the line (what it is for, and the keys, said)."""
        self.inline = inline
        self.show_amount()

    def show_amount(self) -> None:
        if self.inline is not None:
            self.say(self.inline.line(), style="bold")

    def key(self, event: events.Key) -> bool:
        """A key while an amount is typed; True when it was the amount's: escape closes it,
        enter sends it, tab opens the game's whole form, ctrl+u clears it (as in any text
        field), anything printable is typed."""
        inline = self.inline
        if inline is None:
            return False
        if event.key == "escape":
            self._close()
        elif event.key == "enter":
            self._send(inline)
        elif event.key == "tab":
            self._whole_form(inline)
        elif event.key == "backspace":
            inline.typed = inline.typed[:-1]
        elif event.key == "ctrl+u":
            inline.typed = ""
        elif event.is_printable and event.character and len(inline.typed) < 40:
            inline.typed += event.character
        else:
            return False
        if self.inline is inline:
            self.show_amount()
        return True

    def paste(self, text: str) -> None:
        """A paste goes into the amount (cut at 40 characters)."""
        if self.inline is not None:
            self.inline.typed = (self.inline.typed + text.replace("\n", " "))[:40]
            self.show_amount()

    def _close(self) -> None:
        self.inline = None
        self.post_message(self.Closed())

    def _land(self, inline: Inline, answers: dict[str, Any]) -> None:
        self.land(inline.command(answers), unmark=bool(inline.area))

    def _send(self, inline: Inline) -> None:
        try:
            values = {
                f.key: clean_field(f, inline.typed if k == 0 else f.default)
                for k, f in enumerate(inline.fields)
            }
        except FieldError as exc:
            self.post_message(self.Refused(f"✗ {exc}"))
            return
        self.inline = None  # the screen says the detail again as it sends
        self._land(inline, values)

    def _whole_form(self, inline: Inline) -> None:
        """The game's whole damage or heal form, the typed amount filled in."""
        typed = inline.typed
        fields = [replace(f, default=typed) if k == 0 else f for k, f in enumerate(inline.fields)]
        self._close()
        # The form starts past the amount once it is typed, or where the game lets it be blank
        # (an attack card instead); a required amount not typed yet is where it starts.
        skip = len(fields) > 1 and (typed.strip() or not fields[0].required)

        def done(v: dict[str, Any] | None) -> None:
            if v is not None:
                self._land(inline, v)

        title = f"{inline.verb} {inline.who}"
        self.app.push_screen(FormScreen(title, fields, start=1 if skip else 0), done)

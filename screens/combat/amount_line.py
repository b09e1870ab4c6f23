"""The line under the tracker's table where the GM types an amount or an answer to an attack;
while nothing is typed, it says the selected combatant's detail.

The line keeps what it shows (:class:`UnderTable`, which the find bar and the exchange view
share), so the tracker can tell it the same text at every keypress for free.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import Static

from rulesets.values import record
from screens.form import Field
from widgets.literal import literal

IDLE_AMOUNT = "A attacks · t damage · l heal · + marks an area · T lands the last damage roll"
"""What the amount line says while nothing is being typed in it."""


@record
class Inline:
    """What the inline amount is for: damage or heal, the game's form, the target."""

    verb: str
    fields: tuple[Field, ...]
    combatant_id: str
    who: str
    typed: str = ""
    strike: str = ""
    """Landing an attack (A): what it came to; T or enter lands it with what is typed."""
    hint: str = ""

    def line(self) -> str:
        if self.strike:
            label = self.fields[0].label if self.fields else "Answer"
            name, _, said = label.partition(" (")
            line = (
                f"{self.strike} · {name}: {self.typed}▏  (T/enter lands · tab: form · esc: later)"
            )
            # What a blank answer means comes last (a Nemron foe rolls its own defence when left
            # blank, a PC has none): cut first where the two rows run out, never the strike.
            return " · ".join(filter(None, (line, self.hint, said.removesuffix(")"))))
        more = [f.label.split(" (")[0] for f in self.fields[1:]]
        label = self.fields[0].label if self.fields else "Amount"
        # The first two fields tab opens, and how many more: the amount line has two rows, and
        # Shadows' twelve names ran it past them.
        named = ", ".join(more[:2]) + (f" +{len(more) - 2} more" if len(more) > 2 else "")
        hint = f"tab: {named} · " if more else ""
        return f"{self.verb} {self.who} · {label}: {self.typed}▏  ({hint}enter · escape)"


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


class UnderTable(Static):
    """A line under the tracker's table (wrapping to its max height) that keeps what it shows."""

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


class AmountLine(UnderTable):
    """One line that the GM types an amount into, or reads the selected combatant's detail."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(IDLE_AMOUNT, id=id)
        self.inline: Inline | None = None
        """An amount being typed (damage, healing, an answer to an attack), if any."""

    # --- an amount ----------------------------------------------------------------------------
    def open_amount(self, inline: Inline) -> None:
        """Type ``inline``'s amount on the line (what it is for, and the keys, said)."""
        self.inline = inline
        self.show_amount()

    def show_amount(self) -> None:
        if self.inline is not None:
            self.say(self.inline.line(), style="bold")

    def amount_key(self, event: events.Key) -> str | None:
        """A key while an amount is typed: ``close`` (escape), ``apply`` (enter; T lands an
        attack), ``form`` (tab: the game's whole form), ``typed`` (the amount changed; ctrl+u
        clears it, as in any text field), or None: not the amount's key."""
        inline = self.inline
        if inline is None:
            return None
        if event.key == "escape":
            return "close"
        if event.key == "enter" or (inline.strike and event.key == "T"):
            return "apply"
        if event.key == "tab":
            return "form"
        if event.key == "backspace":
            inline.typed = inline.typed[:-1]
        elif event.key == "ctrl+u":
            inline.typed = ""
        elif event.is_printable and event.character and len(inline.typed) < 40:
            inline.typed += event.character
        else:
            return None
        return "typed"

    def paste(self, text: str) -> None:
        """A paste goes into the amount (cut at 40 characters)."""
        if self.inline is not None:
            self.inline.typed = (self.inline.typed + text.replace("\n", " "))[:40]
            self.show_amount()

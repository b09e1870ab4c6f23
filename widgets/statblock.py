"""The NPC statblock as the GM reads it at the table (NPC-02/03/04/06/08).

It only displays: every number comes from a ``rulesets.npc`` Statblock or QuickBuild, so the
builder's live preview and the library's selected NPC read exactly what the rules built.
Names, concepts and powers are GM text and go through :func:`widgets.literal.literal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rulesets import npc as npc_rules
from widgets.literal import clean, flowed, literal


def _signed(value: int) -> str:
    return f"{value:+d}"


Pair = tuple[str, str | Text, str, str | Text]
"""One line of the wide statblock: two (label, value) pairs."""


def _pairs(
    block: npc_rules.NPC, effort_left: str | None = None, hp_now: str | None = None
) -> list[Pair]:
    hp = Text(f"{hp_now or block.hp} ({block.hp_roll})")
    effort = (
        block.effort if effort_left in (None, block.effort) else f"{effort_left} of {block.effort}"
    )
    rows: list[Pair] = [
        ("HD", str(block.hd), "AC", str(block.ac)),
        ("Hit die", f"d{block.hit_die}", "HP", hp),
        ("Move", f"{block.move} ft", "Save", f"{block.save}+"),
        ("Effort", effort, "Shock", block.shock),
    ]
    if isinstance(block, npc_rules.QuickBuild):
        rows.insert(0, ("Build", f"quick, HD {block.hd}", "Stats", _signed(block.stats)))
        rows.append(("Atk mod", _signed(block.atk_mod), "Atks", str(block.attacks)))
        rows.append(
            (
                "Atk Dmg",
                f"{block.atk_dmg} (avg)",
                "Morale",
                str(npc_rules.morale_score(block.stats)),
            )
        )
    else:
        rows.insert(
            0,
            (
                "Brawl",
                _signed(block.brawl),
                "Wit / Will",
                f"{_signed(block.wit)} / {_signed(block.will)}",
            ),
        )
        mods = block.atk_mod
        rows.append(
            (
                "Atk mod",
                f"B {_signed(mods['brawl'])} W {_signed(mods['wit'])} L {_signed(mods['will'])}",
                "Atks",
                str(block.attacks),
            )
        )
        rows.append(
            (
                "Atk Dmg",
                f"B {block.atk_dmg['brawl']}  L {block.atk_dmg['will']}",
                "Morale",
                str(block.morale),
            )
        )
    return rows


def _title(name: str, concepts: Sequence[str]) -> Text:
    title = literal(name or "(unnamed)", style="bold")
    if concepts:
        title.append("  ")
        title.append(clean(", ".join(concepts)), style="italic")
    return title


def _powers(block: npc_rules.NPC, powers: Sequence[str]) -> Text:
    slots = block.powers
    power_text = Text(f"Powers ({slots} slot{'s' if slots != 1 else ''})", style="bold")
    named = [p for p in powers if p.strip()]
    for index in range(max(slots, len(named))):
        power_text.append("\n  • ")
        if index < len(named):
            power_text.append(clean(named[index]))
        else:
            power_text.append("(unnamed)", style="dim")
    return power_text


def _power_items(block: npc_rules.NPC, powers: Sequence[str]) -> list[Text]:
    """The powers as short items to flow on a narrow screen: unnamed slots counted once."""
    slots = block.powers
    items = [Text(f"Powers ({slots} slot{'s' if slots != 1 else ''})", style="bold")]
    named = [p for p in powers if p.strip()]
    items += [Text("• ") + literal(name) for name in named]
    if (unnamed := slots - len(named)) > 0:
        items.append(Text(f"• {unnamed} unnamed", style="dim"))
    return items


def statblock_renderable(
    block: npc_rules.NPC,
    name: str = "",
    concepts: Sequence[str] = (),
    powers: Sequence[str] = (),
    notes: Sequence[str] = (),
    effort_left: str | None = None,
) -> RenderableType:
    """The statblock as a Rich renderable (the NPC panel and its roll modal)."""
    rows = _pairs(block, effort_left)
    grid = Table.grid(padding=(0, 2))
    for _ in range(4):
        grid.add_column()
    for a, b, c, d in rows:
        grid.add_row(Text(a, style="bold"), b, Text(c, style="bold"), d)
    pairs = [_pair(a, b) for row in rows for a, b in (row[:2], row[2:])]
    fit = _Fit((grid, _powers(block, powers)), (pairs, _power_items(block, powers)))
    parts: list[RenderableType] = [_title(name, concepts), fit]
    for note in notes:
        parts.append(literal(note, style="dim"))
    return Group(*parts)


def statblock_text(
    block: npc_rules.NPC, powers: Sequence[str] = (), leave_out: Sequence[str] = ()
) -> Text:
    """The statblock's numbers and powers as plain lines, one pair a line (a narrow column's
    look), for the tracker's pane; ``leave_out``: labels it shows elsewhere (the instance's HP
    and Effort head the pane).

    Plain text, not Rich tables: the pane is measured on every layout pass of the tracker,
    which has one per keypress, and a table costs milliseconds each time."""
    pairs = [
        pair
        for a, b, c, d in _pairs(block)
        for pair in ((a, b), (c, d))
        if pair[0] not in leave_out
    ]
    width = max(len(label) for label, _ in pairs) + 2
    text = Text()
    for label, value in pairs:
        text.append(label.ljust(width), style="bold")
        text.append(value)
        text.append("\n")
    text.append(_powers(block, powers))
    return text


def powers_text(block: npc_rules.NPC, powers: Sequence[str] = ()) -> Text:
    """The statblock's power slots and their names alone (a game that shows none of its
    numbers still has the powers, NPC-06)."""
    return _powers(block, powers)


def title_text(name: str, concepts: Sequence[str] = ()) -> Text:
    """The statblock's first line: the name in bold, the concepts in italics."""
    return _title(name, concepts)


def _pair(label: str, value: str | Text) -> Text:
    text = Text(label, style="bold")
    text.append(" ")
    text.append(value if isinstance(value, Text) else Text(value))
    return text


class _Fit:
    """The two-pair grid where it fits whole, else the pairs flowed whole, as many to a line as
    fit: never ``Bra…``, and short enough for the 80×24 builder (one pair a line was cut at the
    bottom there)."""

    def __init__(
        self, wide: tuple[Table, Text], narrow: tuple[Sequence[Text], Sequence[Text]]
    ) -> None:
        (self.wide, self.powers), (self.pairs, self.power_items) = wide, narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        unbounded = options.update(max_width=10_000)  # Measurement.get clamps to max_width
        if Measurement.get(console, unbounded, self.wide).maximum <= options.max_width:
            yield self.wide
            yield self.powers
            return
        yield flowed(self.pairs, options.max_width)
        yield flowed(self.power_items, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((pair.cell_len for pair in self.pairs), default=1)
        return Measurement(widest, Measurement.get(console, options, self.wide).maximum)


class StatblockView(Static):
    """A read-only statblock; call :meth:`show` with what the rules built."""

    DEFAULT_CSS = """
    StatblockView { height: auto; padding: 0 1; border: round $primary; }
    """
    shown: RenderableType = ""
    """What is displayed now (tests and the roll modal read it)."""

    def show(
        self,
        block: npc_rules.NPC | None,
        name: str = "",
        concepts: Sequence[str] = (),
        powers: Sequence[str] = (),
        notes: Sequence[str] = (),
        effort_left: str | None = None,
    ) -> None:
        """Display ``block`` (None shows why there is no statblock, via ``notes``)."""
        if block is None:
            self.shown = Group(*(literal(n) for n in notes)) if notes else Text("No statblock")
        else:
            self.shown = statblock_renderable(block, name, concepts, powers, notes, effort_left)
        self.update(self.shown)

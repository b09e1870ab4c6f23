"""The rows of a PC's detail pane: what the game's sheet declares, read from the PC, never computed.

Each row has a key saying what a key press on it edits (``res:ap``, ``attr:body``,
``item:spells:2``, ``limb:torso`` ...). The generic rows come from the game's sheet layout
(:class:`rulesets.base.SheetSpec`); the game's :class:`rulesets.sheet.SheetRules` adds its own
rows (limbs as bars, skills with rank dice), says how a list's header and an entry read and how
an attribute's value reads. GM-typed text is wrapped with :func:`widgets.literal.literal` so it
is never read as markup.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rulesets.base import Character
from rulesets.game import Game
from rulesets.sheet import Parts, SheetRow
from rulesets.values import frozen
from widgets.literal import literal
from widgets.resource_bar import resource_bar


@frozen
class FieldRow:
    """One line of the detail pane: ``key`` says what +/-, e, n and delete act on."""

    key: str
    label: Text
    value: Text


def _row(key: str, label: str, value: Text | str) -> FieldRow:
    shown = value if isinstance(value, Text) else Text(value)
    return FieldRow(key, Text(label, style="bold"), shown)


def parts_text(parts: Parts) -> Text:
    """A game's row value: each piece shown literally, in its style."""
    text = Text()
    for piece, style in parts:
        text.append(literal(piece, style=style))
    return text


def _entry_text(entry: Any) -> Text:
    """A list entry as the plain sheet stores it: a name, with what else it says."""
    if not isinstance(entry, dict):
        return literal(entry)
    text = literal(entry.get("name", "?"))
    if entry.get("protocol"):
        # Save text: made visible like the name (an ESC here reached the terminal once the
        # sheet wrapped instead of cutting the row at the pane's edge).
        text.append_text(literal(f"  ({entry['protocol']})", style="dim"))
    if entry.get("negative"):
        text.append("  negative", style="red")
    if entry.get("healed_from"):
        text.append("  healed from ", style="dim")
        text.append(literal(entry["healed_from"], style="dim"))
    if entry.get("received"):
        text.append_text(literal(f"  received {entry['received']}", style="dim"))
    return text


def _game_row(row: SheetRow) -> FieldRow:
    value = Text()
    if row.bar is not None:
        value = resource_bar(*row.bar)
    value.append(parts_text(row.value))
    label = Text(row.label, style="dim") if row.entry else Text(row.label, style="bold")
    return FieldRow(row.key, label, value)


def status_text(game: Game, pc: Character) -> Text:
    """A PC out of the fight by its game's rule (dead, perished, taken out) reads in red, as its
    row does in the tracker, where a foe's "defeated" is dimmed instead."""
    try:
        out = bool(game.fight.out(pc))
    except (KeyError, TypeError, ValueError, AttributeError):
        out = False
    return literal(pc.get("status", ""), style="bold red" if out else "")


def field_rows(game: Game, pc: Character) -> list[FieldRow]:
    """Every row of the detail pane for one PC, in sheet order."""
    sheet, rules = game.ruleset.sheet, game.sheet
    extra = rules.extra_rows(pc)
    rows: list[FieldRow] = [
        FieldRow("name", Text("Name", style="bold"), literal(pc.get("name", ""))),
        _row("status", "Status", status_text(game, pc)),
    ]
    pools = pc.get("resources", {})
    for spec in sheet.resources:
        pool = pools.get(spec.key, {})
        if spec.key in rules.counters:
            rows.append(_row(f"res:{spec.key}", spec.label, str(pool.get("current", 0))))
            continue
        bar = resource_bar(int(pool.get("current", 0)), int(pool.get("max", 0)))
        if spec.derive_max is not None:
            bar.append("  max derived", style="dim italic")
        rows.append(_row(f"res:{spec.key}", spec.label, bar))
    rows.extend(_game_row(r) for r in extra if r.place == "resources")
    for attr in sheet.attributes:
        value = int(pc.get("attributes", {}).get(attr.key, attr.default))
        shown = rules.attribute_shown(attr, value)
        rows.append(_row(f"attr:{attr.key}", attr.label, shown))
    rows.extend(_game_row(r) for r in extra if r.place == "attributes")
    for lspec in sheet.lists:
        entries = pc.get("lists", {}).get(lspec.key, [])
        header_of = rules.headers.get(lspec.key)
        header = header_of(pc) if header_of is not None else str(len(entries))
        rows.append(_row(f"list:{lspec.key}", lspec.label, header))
        reads = rules.entries.get(lspec.key)
        for index, entry in enumerate(entries):
            parts = reads(entry) if reads is not None else None
            rows.append(
                FieldRow(
                    f"item:{lspec.key}:{index}",
                    Text("  ·", style="dim"),
                    parts_text(parts) if parts is not None else _entry_text(entry),
                )
            )
    rows.append(_row("notes", "Notes", literal(pc.get("notes", ""), limit=80)))
    return rows

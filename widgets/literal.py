"""Text a GM typed, made safe to show: never parsed as markup, control codes made visible."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from rulesets.text import visible


def clean(value: object, limit: int = 200) -> str:
    """Control, bidi and zero-width characters made visible (see :func:`rulesets.text.visible`)."""
    return visible(value, limit)


def literal(value: object, style: str = "", limit: int = 200) -> Text:
    """A Rich Text that shows ``value`` exactly as typed: ``[bold]`` stays ``[bold]``."""
    return Text(visible(value, limit), style=style)


def flowed(units: Sequence[Text], width: int) -> Text:
    """Whole units, two spaces apart, as many to a line as fit (a longer one wraps alone): a
    narrow screen never breaks a statblock pair or a check's input in the middle."""
    lines: list[Text] = []
    for unit in units:
        if lines and lines[-1].cell_len + 2 + unit.cell_len <= width:
            lines[-1].append("  ")
            lines[-1].append_text(unit)
        else:
            lines.append(unit.copy())
    return Text("\n").join(lines)

"""Text a GM typed, made safe to show: never parsed as markup, control codes made visible."""

from __future__ import annotations

from rich.text import Text

from app.text import visible


def clean(value: object, limit: int = 200) -> str:
    """Control, bidi and zero-width characters made visible (see :func:`app.text.visible`)."""
    return visible(value, limit)


def literal(value: object, style: str = "", limit: int = 200) -> Text:
    """A Rich Text that shows ``value`` exactly as typed: ``[bold]`` stays ``[bold]``."""
    return Text(visible(value, limit), style=style)

"""Text a GM typed, made safe to show: never parsed as markup, control codes made visible."""

from __future__ import annotations

from rich.text import Text

_CONTROL_PICTURES = {i: chr(0x2400 + i) for i in range(32)} | {127: "\u2421"}


def clean(value: object, limit: int = 200) -> str:
    """Replace control characters (ESC, bell, newlines …) with visible symbols; cap length."""
    text = str(value).translate(_CONTROL_PICTURES)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def literal(value: object, style: str = "", limit: int = 200) -> Text:
    """A Rich Text that shows ``value`` exactly as typed: ``[bold]`` stays ``[bold]``."""
    return Text(clean(value, limit), style=style)

"""A current / max bar as Rich Text, so a DataTable cell can show a resource at a glance."""

from __future__ import annotations

from rich.text import Text


def resource_bar(current: int, maximum: int, width: int = 10) -> Text:
    """``7/10 ███████░░░``: the numbers, then a bar coloured by how full the pool is.

    A max of 0 (or a current above the max, from a hand edit) still draws without error.
    """
    top = max(0, int(maximum))
    now = int(current)
    filled = 0 if top == 0 else max(0, min(width, round(width * now / top)))
    ratio = 0.0 if top == 0 else now / top
    colour = "green" if ratio > 0.5 else "yellow" if ratio > 0.25 else "red"
    text = Text(f"{now}/{top} ".rjust(8))
    text.append("█" * filled, style=colour)
    text.append("░" * (width - filled), style="dim")
    return text

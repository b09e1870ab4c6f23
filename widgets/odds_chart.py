"""The tray's odds chart (GEN-02): each outcome band's exact chance as a bar, before rolling."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rich.text import Text
from textual.widgets import Static

BAR_WIDTH = 24


def chart_text(
    bands: Mapping[str, Fraction], width: int = BAR_WIDTH, empty: str = "no odds for this setup"
) -> Text:
    """One line per band: name, percentage, bar (scaled to the likeliest band); ``empty``
    where there are none."""
    text = Text()
    if not bands:
        text.append(empty, style="dim")
        return text
    top = max(bands.values()) or Fraction(1)
    name_width = max(len(name) for name in bands)
    for i, (name, p) in enumerate(bands.items()):
        if i:
            text.append("\n")
        text.append(f"{name:<{name_width}} ", style="bold")
        text.append(f"{float(p):6.1%} ")
        text.append("█" * round(float(p / top) * width), style="cyan")
    return text


class OddsChart(Static):
    """A small bar chart; the screen calls :meth:`show` whenever the check's setup changes."""

    DEFAULT_CSS = """
    OddsChart { border: round $secondary; padding: 0 1; height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.border_title = "Odds"
        self.bands: dict[str, Fraction] = {}

    def show(self, title: str, bands: Mapping[str, Fraction], empty: str = "") -> None:
        """Show ``bands`` (name → exact probability) under ``title`` (``empty``: what is said
        where there are none, such as odds still being worked out)."""
        self.bands = dict(bands)
        self.border_title = f"Odds · {title}"
        said = {"empty": empty} if empty else {}
        self.update(chart_text(self.bands, self._bar_width(), **said))

    def _bar_width(self) -> int:
        """The bars shrink to the room left beside names and percentages (never wrapped)."""
        room = self.content_size.width
        if room <= 0 or not self.bands:
            return BAR_WIDTH
        return max(3, min(BAR_WIDTH, room - max(len(name) for name in self.bands) - 8))

    def on_resize(self) -> None:
        if self.bands:
            self.update(chart_text(self.bands, self._bar_width()))

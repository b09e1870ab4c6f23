"""A QR code drawn with half-block characters, two modules per terminal cell, so a phone's
camera reads it off the GM's screen (the players' view URL).

The code is drawn dark on light in explicit colours (never the terminal's own), with its quiet
zone, so it scans whatever the theme; :func:`qr_modules` is what is drawn, for tests.
"""

from __future__ import annotations

import segno
from rich.style import Style
from rich.text import Text
from textual.widgets import Static

DARK = "#000000"
LIGHT = "#ffffff"
QUIET_ZONE = 2
"""Modules of light border: the standard asks 4; 2 scans on a screen and fits 80x24."""


def qr_modules(text: str) -> list[list[bool]]:
    """The code's modules (True is dark), quiet zone included; the smallest code that holds
    ``text`` at error level L (a screen is not a smudged print)."""
    code = segno.make(text, error="l", boost_error=False, micro=False)
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=QUIET_ZONE)]


def qr_text(text: str) -> Text:
    """The code as terminal text: each cell an upper half block, its top module the foreground
    and the bottom one the background."""
    rows = qr_modules(text)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    drawn = Text(no_wrap=True, overflow="crop")
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        for up, down in zip(top, bottom, strict=True):
            drawn.append("▀", Style(color=DARK if up else LIGHT, bgcolor=DARK if down else LIGHT))
        drawn.append("\n")
    drawn.rstrip()
    return drawn


class QrCode(Static):
    """Shows :func:`qr_text` of its text; :meth:`show` changes it."""

    DEFAULT_CSS = "QrCode { width: auto; height: auto; }"

    def __init__(self, text: str, **kwargs: object) -> None:
        super().__init__(qr_text(text), **kwargs)  # type: ignore[arg-type]
        self.text = text

    def show(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.update(qr_text(text))

"""Where the players join: the players' view URL and its QR code, for phones' cameras.

The URL is the one a running ``tableside serve`` on this save left beside it
(:func:`app.cli_serve.serving_url`); with none running, the one it would print when started to
share on the table's network, and the command to start it. Looked at again every second, so
starting the server while this is open shows its URL.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from widgets.literal import literal
from widgets.qr_code import QrCode


def join_link(save: Path) -> tuple[str, str]:
    """The URL players open and a line on where it comes from."""
    from app.cli_serve import DEFAULT_PORT, public_url, serving_url

    running = serving_url(save)
    if running is not None:
        return running, "tableside serve is running on this campaign: scan to join."
    command = shlex.join(["tableside", "serve", str(save), "--host", "0.0.0.0"])
    return (
        public_url("0.0.0.0", DEFAULT_PORT),
        f"Not served yet. In another terminal: {command}",
    )


class PlayerLinkScreen(ModalScreen[None]):
    """The players' view URL and its QR code; escape closes."""

    CSS_PATH = "player_link.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="player_link.close"),
    ]

    def __init__(self, save: Path) -> None:
        super().__init__()
        self.save = save
        self.url, self.note = join_link(save)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal("Players join here", style="bold"), id="link-title")
            yield Static(literal(self.url, style="bold"), id="link-url")
            yield QrCode(self.url, id="link-qr")
            yield Static(literal(self.note), id="link-note")
            yield Static("escape closes", classes="hint")

    def on_mount(self) -> None:
        self.set_interval(1.0, self._look_again)

    def _look_again(self) -> None:
        url, note = join_link(self.save)
        if (url, note) != (self.url, self.note):
            self.url, self.note = url, note
            self.query_one("#link-url", Static).update(literal(url, style="bold"))
            self.query_one(QrCode).show(url)
            self.query_one("#link-note", Static).update(literal(note))

    def action_close(self) -> None:
        self.dismiss(None)

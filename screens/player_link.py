"""Where the players join: the players' view URL and its QR code, for phones' cameras.

The URL is the one a running ``tableside serve`` on this save left beside it
(:func:`app.cli_serve.serving`); with none running, the one it would print when started to
share on the table's network, and the command to start it. A server listening on this machine
only (its default, ``localhost``) gets no code, since no phone can reach it, but the command
that shares it. Looked at again every second, so starting the server while this is open shows
its URL.
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


def join_link(save: Path) -> tuple[str, str, bool]:
    """The URL players open, a line on where it comes from, and whether a phone can use it
    (so its QR code is worth drawing)."""
    from app.cli_serve import DEFAULT_PORT, public_url, serving
    from app.side_files import SideFileError

    try:
        running = serving(save)
    except SideFileError as exc:
        running = None
        ignored = f"{save.name}.serve {exc}: ignored. "
    else:
        ignored = ""
    if running is not None and not running.local_only:
        return running.url, "tableside serve is running on this campaign: scan to join.", True
    port = [] if running is None or running.port == DEFAULT_PORT else ["--port", str(running.port)]
    command = shlex.join(["tableside", "serve", str(save), "--host", "0.0.0.0", *port])
    if running is not None:
        return (
            running.url,
            "tableside serve listens on this machine only: no phone can reach it. Stop it "
            f"(Ctrl+C) and start it shared on the table's network: {command}",
            False,
        )
    return (
        public_url("0.0.0.0", DEFAULT_PORT),
        f"{ignored}Not served yet. In another terminal: {command}",
        True,
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
        self.url, self.note, self.scannable = join_link(save)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal("Players join here", style="bold"), id="link-title")
            yield Static(literal(self.url, style="bold"), id="link-url")
            qr = QrCode(self.url, id="link-qr")
            qr.display = self.scannable
            yield qr
            yield Static(literal(self.note), id="link-note")
            yield Static("escape closes", classes="hint")

    def on_mount(self) -> None:
        self.set_interval(1.0, self._look_again)

    def _look_again(self) -> None:
        url, note, scannable = join_link(self.save)
        if (url, note, scannable) != (self.url, self.note, self.scannable):
            self.url, self.note, self.scannable = url, note, scannable
            self.query_one("#link-url", Static).update(literal(url, style="bold"))
            qr = self.query_one(QrCode)
            qr.show(url)
            qr.display = scannable
            self.query_one("#link-note", Static).update(literal(note))

    def action_close(self) -> None:
        self.dismiss(None)

"""The players' view: a small read-only Textual app that ``tableside serve`` starts per browser.

It reads the save and never writes it, and never takes its lock: :func:`app.store.read_campaign`
parses and validates without touching the file. It follows the GM's changes by polling the
file's size, mtime and inode (the GM's app replaces the save atomically, so a read sees either
the old or the new file, never half of one); a vanished or damaged save shows a message and
keeps the last good view. No key or palette entry changes anything: the command palette is off
and the app's only keys open the private hand, close it and quit.

Run by hand: ``python -m app.player SAVE``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from app.player_view import (
    SECRET_KEY,
    Data,
    Lockout,
    PlayerSettings,
    PlayerView,
    build_view,
    code_matches,
    hands_of,
    meta_of,
    party,
)
from app.store import StoreError, read_campaign
from rulesets import registry
from rulesets.game import Game
from rulesets.players import no_hands
from widgets.card_hand import CardHand
from widgets.initiative_order import InitiativeOrder
from widgets.literal import clean, literal

POLL_SECONDS = 0.4
"""How often the save is looked at: the GM's change shows within half a second."""

Fingerprint = tuple[int, int, int] | None


def fingerprint(path: Path) -> Fingerprint:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


class PlayerApp(App[None]):
    """What the players see of the GM's campaign, in their browser."""

    TITLE = "Tableside — players' view"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #heading { height: auto; padding: 0 1; background: $primary-background; }
    #problem { height: auto; padding: 0 1; color: $warning; }
    #order { height: auto; max-height: 70%; }
    #extras, #hand { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "hand", "My hand"),
        Binding("escape", "hide_hand", "Hide hand", show=False),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(
        self,
        path: Path,
        *,
        poll: float = POLL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.path = path
        self.poll = poll
        self.clock = clock
        self.lockout = Lockout()
        self.data: Data | None = None
        """The last good read of the save."""
        self.game: Game | None = None
        self.view: PlayerView | None = None
        self.problem = ""
        self.unlocked: int | None = None
        """The PC whose hand this browser may see (its code was typed)."""
        self._seen: Fingerprint = None

    def compose(self) -> ComposeResult:
        yield Static("", id="heading")
        yield Static("", id="problem")
        yield InitiativeOrder(id="order")
        yield Static("", id="extras")
        yield CardHand("", id="hand")
        yield Footer()

    def on_mount(self) -> None:
        self._seen = fingerprint(self.path)
        self.reload()
        self.set_interval(self.poll, self._poll)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        return ()  # no theme, screenshot or quit-by-palette: players only look

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hand":
            return self.game is not None and self.game.players.hands is not no_hands
        return True

    # --- following the save ------------------------------------------------------------------
    def _poll(self) -> None:
        now = fingerprint(self.path)
        if now != self._seen:
            self._seen = now
            self.reload()

    def reload(self) -> None:
        """Read the save again; on failure keep the last good view and say why."""
        try:
            data = read_campaign(self.path)
            game = registry.game(str(meta_of(data)["ruleset"]))
        except StoreError as exc:
            self.problem = f"{exc.reason} — showing the last good view"
        except (registry.UnknownGame, KeyError) as exc:
            self.problem = f"{self.path}: {exc} — showing the last good view"
        else:
            self.problem = ""
            had_game = self.game
            self.data, self.game = data, game
            self.view = build_view(data, game, PlayerSettings.from_meta(meta_of(data)))
            if had_game is None or had_game.id != game.id:
                self.refresh_bindings()
        self.render_view()

    # --- drawing -----------------------------------------------------------------------------
    def render_view(self) -> None:
        self.query_one("#problem", Static).update(literal(self.problem) if self.problem else "")
        view = self.view
        if view is None:
            self.query_one("#heading", Static).update(literal("Waiting for the campaign…"))
            return
        parts = [view.campaign, view.game, view.fight, view.round, view.turn, view.time]
        self.query_one("#heading", Static).update(
            literal("  ·  ".join(p for p in parts if p), style="bold")
        )
        self.query_one(InitiativeOrder).show(view)
        extras = [f"{clean(r.name, 40)} — {line}" for r in view.rows for line in r.extras]
        self.query_one("#extras", Static).update(literal("\n".join(extras), limit=4000))
        self._show_hand()

    def _show_hand(self) -> None:
        hand = self.query_one(CardHand)
        if self.unlocked is None or self.data is None or self.game is None:
            hand.show("", ())
            return
        names = dict(party(self.data))
        if self.unlocked not in names:
            self.unlocked = None
            hand.show("", ())
            return
        hand.show(names[self.unlocked], hands_of(self.data, self.game, self.unlocked))

    # --- the private hand --------------------------------------------------------------------
    def action_hand(self) -> None:
        from screens.hand_code import HandCodeScreen

        if self.data is None:
            return
        wait = self.lockout.wait_left(self.clock())
        if wait > 0:
            self.notify(f"Too many wrong codes: try again in {wait:.0f} s", severity="warning")
            return
        if not meta_of(self.data).get(SECRET_KEY):
            self.notify(
                "The GM has not set up player codes yet (players' view settings)",
                severity="warning",
            )
            return
        self.push_screen(HandCodeScreen(party(self.data)), self._code_typed)

    def _code_typed(self, answer: tuple[int, str] | None) -> None:
        if answer is None or self.data is None:
            return
        pc_id, typed = answer
        now = self.clock()
        if self.lockout.wait_left(now) > 0:
            self.notify("Too many wrong codes: wait before the next try", severity="warning")
            return
        secret = str(meta_of(self.data).get(SECRET_KEY, ""))
        right = bool(secret) and code_matches(secret, pc_id, typed)
        self.lockout.record(right, now)
        if not right:
            wait = self.lockout.wait_left(now)
            hint = f"; wait {wait:.0f} s before the next try" if wait else ""
            self.notify(f"That is not the code for this PC{hint}", severity="error")
            return
        self.unlocked = pc_id
        self._show_hand()

    def action_hide_hand(self) -> None:
        self.unlocked = None
        self._show_hand()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python -m app.player SAVE\n")
        return 2
    PlayerApp(Path(args[0]).expanduser().absolute()).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())

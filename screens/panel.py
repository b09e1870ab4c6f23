"""What the four panels share: the campaign header, the Footer, refresh on change."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import Static

from app.messages import CampaignChanged
from app.text import visible
from widgets.footer import TablesideFooter

if TYPE_CHECKING:
    from app.state import Campaign
    from app.tui import TablesideApp


class CampaignHeader(Static):
    """One line: campaign, game, panel tabs. Names are shown as text, never as markup."""

    DEFAULT_CSS = """
    CampaignHeader { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    """


class SaveBanner(Static):
    """Shown while the newest changes are not on disk (a full disk, a read-only save)."""

    DEFAULT_CSS = """
    SaveBanner { height: auto; background: $error; color: $text; padding: 0 1; display: none; }
    SaveBanner.-shown { display: block; }
    """

    def show_problem(self, problem: str | None) -> None:
        self.set_class(problem is not None, "-shown")
        self.update(f"NOT SAVED: {visible(problem)}" if problem else "")


PANELS: tuple[tuple[str, str, str], ...] = (
    ("1", "combat", "Combat"),
    ("2", "tray", "Tray"),
    ("3", "npcs", "NPCs"),
    ("4", "party", "Party"),
)


class PanelScreen(Screen[None]):
    """A panel: subclasses compose their body and implement :meth:`refresh_data`."""

    PANEL_ID: ClassVar[str] = ""
    PANEL_TITLE: ClassVar[str] = ""
    WATCHES: ClassVar[frozenset[str]] = frozenset()
    """Tables whose change means this panel must redraw."""
    BINDINGS: ClassVar[list[BindingType]] = []

    @property
    def tableside(self) -> TablesideApp:
        from app.tui import TablesideApp

        assert isinstance(self.app, TablesideApp)
        return self.app

    @property
    def campaign(self) -> Campaign:
        return self.tableside.campaign

    def compose(self) -> ComposeResult:
        yield CampaignHeader(self._header_text(), markup=False, id="campaign-header")
        yield SaveBanner(markup=False, id="save-banner")
        yield from self.compose_body()
        yield TablesideFooter()

    def compose_body(self) -> ComposeResult:
        raise NotImplementedError

    def _header_text(self) -> str:
        tabs = "  ".join(
            f"[{key} {title}]" if pid == self.PANEL_ID else f" {key} {title} "
            for key, pid, title in PANELS
        )
        # The name comes from the save or a file name: made visible, never sent raw (an ESC in
        # it would write the clipboard or the window title).
        return f"{visible(self.campaign.name, 60)} · {self.campaign.ruleset.name}   {tabs}"

    _drawn_version = -1
    """The campaign version this panel last drew (see :attr:`app.state.Campaign.version`)."""

    def on_mount(self) -> None:
        self._drawn_version = self.campaign.version
        self.show_save_problem()
        self.refresh_data()

    def show_save_problem(self) -> None:
        """The banner says whether the newest changes are on disk (the app calls this)."""
        self.query_one(SaveBanner).show_problem(self.tableside.save_problem)

    def on_screen_resume(self) -> None:
        self.show_save_problem()
        # Closing a prompt resumes the panel; redrawing 300 combatants for nothing would double
        # the cost of every damage entry. Only a change made meanwhile calls for a redraw.
        if self._drawn_version != self.campaign.version:
            self._drawn_version = self.campaign.version
            self.refresh_data()

    @on(CampaignChanged)
    def _campaign_changed(self, message: CampaignChanged) -> None:
        if (
            not self.WATCHES
            or self.WATCHES.intersection(message.tables)
            or "meta" in message.tables
        ):
            self._drawn_version = self.campaign.version
            self.refresh_data()

    def refresh_data(self) -> None:
        """Redraw from the campaign (read-only)."""

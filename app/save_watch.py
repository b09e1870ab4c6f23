"""The save as the GM sees it from the app: the NOT SAVED banner, the store's errors, a save
grown large, and quitting with changes not yet on disk.

The store calls back from its writer thread; what it says reaches the screen on the app's
thread. A store that failed for good (changed by another program) stops every change: the
change would be lost.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.screen import Screen

from app.state import Campaign
from app.store import MAX_SAVE_BYTES, WARN_SAVE_BYTES, ReadOnlySave, SaveTooLarge, StoreError


class SaveWatch:
    """Listens to one campaign's store for one app; the app asks it before any change."""

    def __init__(self, app: App[Any], campaign: Campaign, on_ui_thread: Callable[[], bool]) -> None:
        self._app = app
        self._store = campaign.store
        self._on_ui_thread = on_ui_thread
        self.problem: str | None = None
        """Why the newest changes are not on disk yet (the panels' banner); None: saved."""
        self._failed = False
        self._size_warned = False
        self._quit_unsaved = False
        campaign.store.on_error = self.store_failed
        campaign.store.on_status = self._status

    def opened(self) -> None:
        """The app is mounted: what the store found while opening is said now."""
        app = self._app
        self.warn_if_large()  # a save opened already large says so at once
        for note in self._store.notes:  # a journal recovered, or kept aside
            app.notify(note, title="Save", severity="warning", timeout=30, markup=False)
        # The NOT SAVED banner follows the GM into every dialog, not only the panels.
        app.screen_change_signal.subscribe(app, self.show_problem)
        # Found while opening, before the app listened: a save opened read-only, or the
        # journal's changes not yet written into the save file (a full disk).
        store = self._store
        problem = store.read_only or (None if store.unsaved is None else str(store.unsaved))
        if problem is not None:
            self.problem = problem
            app.call_after_refresh(lambda: self.show_problem(app.screen))

    def stopped(self) -> bool:
        """True (and the GM told) when saving has stopped: no change may be made then."""
        if self._failed:
            self._app.notify("Saving has stopped; changes are not possible.", severity="error")
        return self._failed

    def not_saved(self, exc: StoreError | SaveTooLarge) -> None:
        """A change the store refused to save: the reason said (a read-only save, one too
        large) or, for a store that failed, saving stopped."""
        if isinstance(exc, ReadOnlySave):
            self._app.notify(exc.reason, title="Not saved", severity="error", markup=False)
        elif isinstance(exc, StoreError):
            self.store_failed(exc)
        else:
            self._app.notify(str(exc), title="Not saved", severity="error", markup=False)

    def warn_if_large(self) -> None:
        """Once a session, well before the limit: the GM still has room to trim."""
        size = self._store.size
        if size > WARN_SAVE_BYTES and not self._size_warned:
            self._size_warned = True
            self._app.notify(
                f"The save is {size / 2**20:.0f} MB; past {MAX_SAVE_BYTES // 2**20} MB changes "
                "are refused. Trim the log or the NPC library.",
                title="Large save",
                severity="warning",
                timeout=30,
                markup=False,
            )

    def _status(self, problem: StoreError | None) -> None:
        # From the writer thread: a write failed for a passing reason, or works again.
        def show() -> None:
            self.problem = None if problem is None else str(problem)
            self.show_problem(self._app.screen)
            if problem is None:
                self._app.notify("Saved again: every change is on disk", markup=False)

        self._on_app_thread(show)

    def show_problem(self, screen: Screen[Any]) -> None:
        """The banner on ``screen``: a panel has its own; a dialog gets one over its top row,
        so a roll made in the quick-roll dialog on a full disk says at once it is not saved."""
        if hasattr(screen, "show_save_problem"):
            screen.show_save_problem()
            return
        from screens.panel import SaveBanner

        found = list(screen.query(SaveBanner))
        if found:
            found[0].show_problem(self.problem)
        elif self.problem is not None:
            banner = SaveBanner(markup=False, id="save-banner", classes="-over")
            screen.mount(banner)
            banner.show_problem(self.problem)

    def store_failed(self, exc: StoreError) -> None:
        """Saving has stopped for good: the store's error dialog, once."""

        # Called from the writer thread too; hop to the UI thread.
        def show() -> None:
            from screens.store_error import StoreErrorScreen

            if self._failed:
                return
            self._failed = True
            self._app.push_screen(StoreErrorScreen(str(exc)))

        self._on_app_thread(show)

    def _on_app_thread(self, show: Callable[[], None]) -> None:
        if self._on_ui_thread():
            show()
        else:
            self._app.call_from_thread(show)

    def retry(self) -> None:
        """ctrl+r: write the changes not yet on disk again."""
        if self._store.unsaved is None:
            self._app.notify("Everything is saved", markup=False)
            return
        self._store.retry()
        self._app.notify("Trying to save again…", markup=False)

    def may_quit(self) -> bool:
        """The newest changes are on disk (tried once more), or the GM was told they are not
        and quits again without them; False: stay, the GM told why."""
        store = self._store
        if store.unsaved is not None and not self._quit_unsaved:
            store.retry()
            with contextlib.suppress(StoreError):
                store.flush(timeout=5)
            if store.unsaved is not None:
                self._quit_unsaved = True
                self._app.notify(
                    "Your newest changes are not saved (see the banner). Free space or make "
                    "the save writable, then ctrl+r; ctrl+q again quits without them.",
                    title="Not saved",
                    severity="error",
                    markup=False,
                )
                return False
        return True

    def close(self) -> None:
        """Flush what is left before the app exits."""
        # A failed store has already been shown to the GM; quitting must still work.
        with contextlib.suppress(StoreError):
            self._store.flush(timeout=10)

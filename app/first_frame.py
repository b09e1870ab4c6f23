"""What the app does once its first frame is on screen whole: the work a first roll or a first
visit to another panel would otherwise wait for, kept out of the start itself.

The dice parser's grammar building holds the GIL: started on mount it held up composing the
opening panel, started at Ready (the first layout) it held up the Footer's keys. So it all
starts from the Footer's ``KeysShown`` (the last part of the first frame), after a refresh.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from textual.app import App

from app import css_cache
from app.collector import settle_collector

PANEL_STYLES_AFTER = 0.25
"""Seconds after the first whole frame that the other panels' stylesheets are read."""


def panel_stylesheets() -> list[Path]:
    """The stylesheets of the screens (the panels' and dialogs' CSS_PATH files), as Textual
    names them (resolved paths)."""
    import screens

    folder = Path(screens.__file__).parent
    return sorted(path.resolve() for path in folder.rglob("*.tcss"))


def warm_up() -> None:
    """In a thread: the dice parser (the first roll is then instant) and the other panels'
    code (their first visit then builds widgets, not imports: the imports were a third of a
    first visit to the NPC panel)."""
    from rulesets.dice import warm_up as warm_up_dice

    warm_up_dice()
    # The tracker's commands first (app.lazy: the screen imports them on first use): the GM's
    # first key is most likely a tracker key.
    modules = ("app.commands.combat", "app.commands.npcs")
    for module in (*modules, "screens.tray", "screens.npcs", "screens.party", "screens.help"):
        importlib.import_module(module)


class FirstFrame:
    """Runs the work behind the first frame, once a session."""

    def __init__(self, app: App[Any], then: Callable[[], None] | None = None) -> None:
        self._app = app
        self._then = then
        """Called after the first frame too (the background counts start)."""
        self._seen = False

    def shown(self) -> None:
        """The first frame is on screen whole (the Footer's keys drawn): once, after it."""
        if not self._seen:
            self._seen = True
            self._app.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        app = self._app
        settle_collector()
        app.run_worker(warm_up, thread=True, group="warm-up", exit_on_error=False)
        if self._then is not None:
            self._then()
        # A moment later: restyling the panel on screen holds the interpreter while Textual's
        # writer thread is still sending the first frame to the terminal.
        app.set_timer(PANEL_STYLES_AFTER, self._load_panel_styles)

    def _load_panel_styles(self) -> None:
        """Every panel's and dialog's stylesheet joins the app's once the first frame is up.
        Textual reads a screen's CSS_PATH when the screen first shows, and then parses all the
        app's CSS again and restyles every widget of every panel: a first visit to the tray
        spent part of its time restyling the tracker behind it."""
        app = self._app
        stylesheet = app.stylesheet
        fresh = [p for p in panel_stylesheets() if not stylesheet.has_source(str(p), "")]
        if fresh:
            for path in fresh:
                stylesheet.read(path)
            stylesheet.reparse()
            stylesheet.update(app)
        parses = css_cache.parses_to_save()
        if parses is not None:  # the next start reads the first frame's CSS parsed
            save = partial(css_cache.save_parses, parses)
            app.run_worker(save, thread=True, group="css-cache", exit_on_error=False)

"""What the four panels share: the campaign header, the Footer, refresh on change."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from app.messages import CampaignChanged
from app.textual_compat import GameSafe, key_bindings
from rulesets import clock
from rulesets.base import RuleError
from rulesets.game import Game
from rulesets.table import Action, Context, Panel
from rulesets.text import visible
from widgets.event_line import EventLine
from widgets.footer import TablesideFooter

if TYPE_CHECKING:
    from app.host import TableHost
    from app.state import Campaign
    from app.state import Command as AppCommand


class CampaignHeader(Static):
    """One line: campaign, game, panel tabs. Names are shown as text, never as markup."""

    DEFAULT_CSS = """
    CampaignHeader {
        height: 1; background: $primary-background; color: $text; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    """


class SaveBanner(Static):
    """Shown while the newest changes are not on disk (a full disk, a read-only save)."""

    DEFAULT_CSS = """
    SaveBanner { height: auto; background: $error; color: $text; padding: 0 1; display: none; }
    SaveBanner.-shown { display: block; }
    SaveBanner.-over { dock: top; width: 100%; }
    """

    def show_problem(self, problem: str | None) -> None:
        self.set_class(problem is not None, "-shown")
        self.update(f"NOT SAVED: {visible(problem)}" if problem else "")


PANELS: tuple[tuple[str, Panel, str], ...] = (
    ("1", "combat", "Combat"),
    ("2", "tray", "Tray"),
    ("3", "npcs", "NPCs"),
    ("4", "party", "Party"),
)


def action_bindings(game: Game, panel: Panel) -> list[Binding]:
    """A game's actions for a panel as bindings: ``game('<id>')``, binding id ``<panel>.<id>``."""
    return [
        Binding(
            action.key,
            f"game('{action.id}')",
            action.label,
            show=action.show,
            id=action.binding_id,
            tooltip=action.text,
        )
        for action in game.actions_for(panel)
    ]


class PanelScreen(GameSafe, Screen[None]):
    """A panel: subclasses compose their body and implement :meth:`refresh_data`.

    The open game's actions for this panel (:class:`rulesets.table.Action`) are bound here as
    ``game('<id>')`` with the binding id ``<panel>.<id>``, so the Footer, ``?``, the palette and
    a keymap treat them like the panel's own keys; :meth:`check_action` asks the game whether
    each works now. A panel describes what the GM has selected in :meth:`game_context`.
    """

    PANEL_ID: ClassVar[Panel]
    PANEL_TITLE: ClassVar[str] = ""
    WATCHES: ClassVar[frozenset[str]] = frozenset()
    """Tables whose change means this panel must redraw."""
    EVENT_LINE: ClassVar[bool] = True
    """The shared event line goes under the body (a panel with its own says False)."""
    SHORT_HIDES_EVENT_LINE: ClassVar[bool] = False
    """A short screen hides this panel's event line (its own .tcss says so)."""
    BINDINGS: ClassVar[list[BindingType]] = []
    FOOTER: ClassVar[tuple[str, ...]] = ()
    """Binding ids the Footer shows first, the one a GM needs most first, each while it fits
    whole (the other shown keys follow; ``?`` lists them all)."""
    FOOTER_WORDS: ClassVar[dict[str, str]] = {}
    """A shorter word in the Footer for a binding whose description is long (binding id to
    word); ``?`` and the palette keep the description."""

    def footer_order(self) -> tuple[str, ...]:
        """The Footer's order now (a panel may change it as the table does: a fight running)."""
        return self.FOOTER

    @property
    def tableside(self) -> TableHost:
        return cast("TableHost", self.app)

    @property
    def campaign(self) -> Campaign:
        return self.tableside.campaign

    @property
    def game(self) -> Game:
        return self.campaign.game

    # --- the game's actions ----------------------------------------------------------------
    def _bind_game_actions(self) -> None:
        keys = key_bindings(self)
        # The panel's own keys win over a game's: a game action on one of them would sit
        # behind it unseen while help listed both. It is left unbound and the GM told
        # once, naming the game, the action and what holds the key. (A game may take an App
        # key such as d in its panel: the panel's bindings come first, so that one works.)
        taken = {
            key: binding
            for key, held in keys.items()
            for binding in held[:1]
            if not binding.action.startswith("game(")  # the game's own (bound already)
        }
        for binding in action_bindings(self.game, self.PANEL_ID):
            holder = taken.get(binding.key)
            if holder is not None:
                clash = (
                    f"{self.game.name}: its action {binding.description!r} is not bound: "
                    f"{binding.key!r} is the {self.PANEL_TITLE} panel's "
                    f"{holder.description or holder.action!r} (keys.toml can move "
                    f"{binding.id} to a free key)"
                )
                self.tableside.game_key_clash(clash)
                continue
            held = keys.setdefault(binding.key, [])
            if binding not in held:
                held.append(binding)

    def game_context(self) -> Context:
        """What the GM has selected in this panel; panels add their selection."""
        return Context(read=self.campaign, game=self.game, panel=self.PANEL_ID)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "game" and parameters:
            found = self._game_action(str(parameters[0]))
            return found is not None and self._works_now(found, self.game_context())
        return True

    def _game_action(self, action_id: str) -> Action | None:
        try:
            return self.game.action(self.PANEL_ID, action_id)
        except KeyError:
            return None

    @staticmethod
    def _works_now(action: Action, ctx: Context) -> bool:
        try:
            return bool(action.available(ctx))
        except (RuleError, LookupError, TypeError, ValueError):
            return False  # a hand-edited document the rule cannot read: not offered

    def _missing(self, action: Action, ctx: Context) -> str:
        if action.needs == "encounter" and ctx.encounter_id is None:
            return "No encounter yet: ctrl+n makes one"
        if action.needs == "combatant" and ctx.combatant is None:
            return "Select a combatant first (j/k)"
        if action.needs == "pc" and ctx.pc_id is None:
            return "Pick a character first"
        return ""

    def action_game(self, action_id: str) -> None:
        """Take one of the game's actions: ask its form (if any), make its command, apply it."""
        action = self._game_action(action_id)
        if action is None:
            return
        ctx = self.game_context()
        missing = self._missing(action, ctx)
        if missing:
            self.notify(missing, severity="warning")
            return
        if not self._works_now(action, ctx):
            self.notify(f"{action.label}: not possible now", severity="warning", markup=False)
            return
        try:
            fields = tuple(action.form(ctx)) if action.form is not None else ()
            title = action.title(ctx) if action.title is not None else action.text
        except RuleError as exc:
            self.notify(str(exc), title="Not done", severity="warning", markup=False)
            return
        if not fields:
            self._take(action, ctx, {})
            return
        from screens.form import FormScreen

        def submit(values: dict[str, Any]) -> str | None:
            return self._take(action, ctx, values, in_form=True)

        # A refusal keeps the form open with what was typed and why, so the GM corrects one
        # field instead of typing the whole form again.
        self.app.push_screen(FormScreen(title, fields, submit=submit))

    def _take(
        self, action: Action, ctx: Context, values: Mapping[str, Any], in_form: bool = False
    ) -> str | None:
        """Make and apply the action's command; a refusal's message (None: done). Outside a
        form the GM is told here."""
        refusal: list[str] = []
        try:
            command = action.make(ctx, values)
        except RuleError as exc:
            refusal.append(str(exc))
        else:
            self.send(command, refused=refusal.append if in_form else None)
        if refusal and not in_form:
            self.notify(refusal[0], title="Not done", severity="warning", markup=False)
        return refusal[0] if refusal else None

    def send(
        self, command: AppCommand, refused: Callable[[str], None] | None = None
    ) -> list[str] | None:
        """Apply a command through the app; show what happened. None if refused (the app
        tells the GM why, or ``refused`` is handed the message)."""
        lines = self.tableside.apply(command, refused)
        if lines:
            self.show_result(lines)
        return lines

    def show_result(self, lines: list[str]) -> None:
        """Tell the GM what a change did, on the event line (a toast would cover the data)."""
        for line in self.query(EventLine):
            line.say(lines)
            return
        self.notify("\n".join(lines[:8]), markup=False)

    def say_word(self, line: str) -> None:
        """A word that is no change (no line of the log says it): on the event line, or in a
        toast where a short screen hides that line."""
        if self.SHORT_HIDES_EVENT_LINE and self.has_class("-short"):
            self.notify(line, markup=False)
        else:
            self.show_result([line])

    def action_list_move(self, delta: int) -> None:
        """j/k: move the focused list as the arrows do (every list moves with both)."""
        focused = self.focused
        step = getattr(focused, "action_cursor_down" if delta > 0 else "action_cursor_up", None)
        if callable(step):
            step()
            return
        move = getattr(focused, "action_move_cursor", None)
        if callable(move):
            move(delta)

    def compose(self) -> ComposeResult:
        # The size classes before anything is styled: a class changed once mounted restyles the
        # whole screen at once (Textual's update_styles), and the first frame paid for four.
        self._fit_size(self.app.size.width, self.app.size.height)
        yield CampaignHeader(self._header_text(), markup=False, id="campaign-header")
        yield SaveBanner(markup=False, id="save-banner")
        yield from self.compose_body()
        if self.EVENT_LINE:
            yield EventLine(id="event-line")
        yield TablesideFooter()

    def compose_body(self) -> ComposeResult:
        raise NotImplementedError

    def _header_text(self) -> str:
        tabs = "  ".join(
            f"[{key} {title}]" if pid == self.PANEL_ID else f" {key} {title} "
            for key, pid, title in PANELS
        )
        # The tabs first, then the in-game time: on a narrow screen the campaign's name gives
        # way, not the panels or the clock. The name comes from the save or a file name: made
        # visible, never sent raw (an ESC in it would write the clipboard or the window title).
        head = f"{tabs}   {self._clock_text()}"
        campaign, game = visible(self.campaign.name, 60), self.campaign.ruleset.name
        # Whole words where they fit: the game's name loses its parenthesis, then goes, then
        # the campaign's name is cut (the header never ends "(Without Number st…").
        room = (self.app.size.width or 200) - 2 - len(head) - 3
        for tail in (
            f"{campaign} · {game}",
            f"{campaign} · {re.sub(r' [(].*[)]$', '', game)}",
            campaign,
        ):
            if len(tail) <= room:
                return f"{head} · {tail}"
        return f"{head} · {campaign}"

    def _clock_text(self) -> str:
        """The campaign's time of day (``Day 2 14:20 afternoon``), and what an encounter check
        brought up while it waits to become the fight."""
        now = clock.read(self.campaign.meta)
        text = now.text(self.game.time, seconds=False)
        if now.came_up is not None:
            text += f" · came up: {visible(now.came_up.text, 40)}"
        return text

    def show_header(self) -> None:
        """The header again, where the clock (or the name) changed."""
        text = self._header_text()
        header = self.query_one(CampaignHeader)
        if str(header.content) != text:
            header.update(text)

    _step_followed = -1
    """The campaign version whose undo or redo this panel's cursor already followed."""

    def stepped_ids(self, table: str) -> list[int]:
        """Once per undo or redo, the documents of ``table`` it put back: a list puts its
        cursor there (the row that changed), and a filter typed afterwards does not again."""
        if self._step_followed == self.campaign.version:
            return []
        ids = self.campaign.stepped_ids(table)
        if ids:
            self._step_followed = self.campaign.version
        return ids

    _drawn_version = -1
    """The campaign version this panel last drew (see :attr:`app.state.Campaign.version`)."""

    NARROW: ClassVar[int] = 100
    """Below this many columns the screen has the ``-narrow`` class (layouts give way)."""
    SHORT: ClassVar[int] = 30
    """Below this many rows the screen has the ``-short`` class."""

    def on_resize(self, event: events.Resize) -> None:
        self._fit_size(event.size.width, event.size.height)

    def _fit_size(self, width: int, height: int) -> None:
        # Before the first mount (compose) no restyle: the children are styled as they mount
        # and the screen itself when it is first shown; each class set here restyled it.
        update = self.is_mounted
        self.set_class(width < self.NARROW, "-narrow", update=update)
        self.set_class(height < self.SHORT, "-short", update=update)
        if self.is_mounted:
            self.show_header()

    def on_mount(self) -> None:
        self._fit_size(self.app.size.width, self.app.size.height)
        self._bind_game_actions()
        self._drawn_version = self.campaign.version
        self.show_save_problem()
        self.refresh_data()

    def show_save_problem(self) -> None:
        """The banner says whether the newest changes are on disk (the app calls this)."""
        self.query_one(SaveBanner).show_problem(self.tableside.save_problem)

    def on_screen_resume(self) -> None:
        self.show_save_problem()
        self.show_header()
        # Closing a prompt resumes the panel; redrawing 300 combatants for nothing would double
        # the cost of every damage entry. Only a change made meanwhile calls for a redraw.
        if self._drawn_version != self.campaign.version:
            self._drawn_version = self.campaign.version
            self.refresh_data()

    @on(CampaignChanged)
    def _campaign_changed(self, message: CampaignChanged) -> None:
        self.campaign_changed(message.tables)

    def campaign_changed(self, tables: Sequence[str]) -> None:
        """These tables changed: redraw if the panel shows any of them (the app calls this
        once the panel's own change is saved; other changes come as :class:`CampaignChanged`)."""
        if self._drawn_version == self.campaign.version:
            return  # drawn already (a message behind the call for the same change)
        if not self.WATCHES or self.WATCHES.intersection(tables) or "meta" in tables:
            self._drawn_version = self.campaign.version
            self.refresh_data()
        if "meta" in tables:
            self.show_header()

    def refresh_data(self) -> None:
        """Redraw from the campaign (read-only)."""

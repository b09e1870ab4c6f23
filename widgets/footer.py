"""The Footer every panel shows: the keys a GM needs most, drawn as one line.

Textual's Footer is a container of widgets, one per key, recomposed whenever the screen's
bindings *may* have changed (every focus move, every modal opened or closed): a cost on every
damage prompt on the combat panel for a Footer that ends up showing the same keys. Each of its keys is
a widget to mount, style and lay out; a key whose label changed (a PC's turn, then a foe's: `n`
changes which keys work) lays out the whole screen again, a large part of a keypress.
This Footer is one widget one cell high: it draws the keys chosen now as one line, and a change
of keys is a repaint of that line, never a layout. It looks and answers the mouse as Textual's
keys do (a click presses the key, a disabled key rings the bell, hover highlights the key and
shows its tooltip), in the Footer's theme colours.

Keys are shown whole, most needed first: a panel names its bindings in the order a GM needs
them (``footer_order()``, binding ids, and ``FOOTER_WORDS``, a shorter word for the Footer
where the description is long); the rest that are shown follow in their own order. Each key
is shown only if it fits whole in what the width leaves; ``?`` lists every one (Textual cut
the last key mid-word, ``al▏``, and at 80 columns showed none of damage, heal or start).
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import ActiveBinding, Binding
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from rulesets.values import frozen

GAME_KEYS = "game"
"""In a panel's Footer order: where the open game's shown keys go (a Darkest Self, a card
draw: they show only while they apply, so they rank high)."""
Signature = tuple[object, ...]
Shown = tuple[Binding, bool, str, str]
"""A key the Footer shows: its binding, whether it works now, its tooltip, its word."""


def footer_words(screen: Screen[object]) -> Mapping[str, str]:
    """A panel's shorter Footer words: its ``footer_words()`` where the words change with
    what it shows (the turn order's word for n), else its ``FOOTER_WORDS``."""
    words = getattr(screen, "footer_words", None)
    return dict(words()) if callable(words) else getattr(screen, "FOOTER_WORDS", {})


def footer_order(screen: Screen[object]) -> tuple[str, ...]:
    order = getattr(screen, "footer_order", None)
    return tuple(order()) if callable(order) else ()


def key_width(display: str, word: str) -> int:
    """Cells a non-compact key takes: `` key `` then ``word ``."""
    return cell_len(display) + 2 + (cell_len(word) + 1 if word else 0)


def chosen_keys(
    screen: Screen[object],
    width: int,
    display: Mapping[str, str] | None = None,
    active: Mapping[str, ActiveBinding] | None = None,
) -> list[Shown]:
    """The keys the Footer shows on ``screen`` at ``width`` cells: by the panel's order, then
    the other shown ones in theirs; one per action; each only if it fits whole. ``active``:
    the screen's active bindings when the caller has them (Textual works them out again on
    every read, asking every binding's check_action)."""
    order = {bid: rank for rank, bid in enumerate(footer_order(screen))}
    words = footer_words(screen)
    app = screen.app
    # The app's own keys (undo, help …) after the panel's, in the app's order.
    app_order = {bid: rank for rank, bid in enumerate(getattr(app, "FOOTER", ()))}
    ranked: dict[str, tuple[tuple[int, int, int], Shown]] = {}
    if active is None:
        active = screen.active_bindings
    for place, (node, binding, enabled, tooltip) in enumerate(active.values()):
        listed = binding.id is not None and binding.id in order
        if binding.action in ranked or not (listed or binding.show):
            continue
        if binding.key == app.COMMAND_PALETTE_BINDING:
            continue
        if listed:
            rank = (0, order[binding.id], 0)  # type: ignore[index]
        elif binding.action.startswith("game(") and GAME_KEYS in order:
            rank = (0, order[GAME_KEYS], place)
        elif node is app:
            rank = (2, app_order.get(binding.id or "", len(app_order) + place), 0)
        else:
            rank = (1, place, 0)
        word = words.get(binding.id or "", binding.description)
        ranked[binding.action] = (rank, (binding, enabled, tooltip, word))
    room = width
    shown: list[Shown] = []
    for _rank, key in sorted(ranked.values(), key=lambda r: r[0]):
        binding, _enabled, _tooltip, word = key
        shown_as = (display or {}).get(binding.key) or app.get_key_display(binding)
        need = key_width(shown_as, word)
        if need <= room:
            shown.append(key)
            room -= need
    return shown


def _tooltip(binding: Binding, tooltip: str, word: str) -> str:
    """A key's tooltip: the binding's own, else its description when the Footer shows a
    shorter word for it."""
    return tooltip or (binding.description if word != binding.description else "")


@frozen
class DrawnKey:
    """A key as the Footer draws it, and the cells it takes (``start`` to ``end``)."""

    key: str
    display: str
    description: str
    enabled: bool
    tooltip: str
    start: int = 0
    end: int = 0


class TablesideFooter(Widget, can_focus=False):
    """The panel's keys on one line: redrawn when the keys it shows change, nothing else."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "footer-key--key",
        "footer-key--description",
        "footer-key--hover",
        "footer-key--edge",
    }
    # Textual's Footer and FooterKey rules (8.2), for one widget: its keys are the non-compact
    # look, the palette key the compact one with a rule on its left.
    DEFAULT_CSS = """
    TablesideFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        pointer: pointer;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .footer-key--edge {
            color: $foreground 20%;
        }
    }
    """

    class KeysShown(Message):
        """The Footer has its keys for the first time: the panel's first frame is whole."""

    def __init__(self, *, show_command_palette: bool = True, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.show_command_palette = show_command_palette
        self._signature: Signature | None = None
        self._bindings_ready = False
        self._rebuild_queued = False
        self._announced = False
        self._keys: tuple[DrawnKey, ...] = ()
        self._palette_key: DrawnKey | None = None
        self._hover: DrawnKey | None = None

    @property
    def shown(self) -> tuple[DrawnKey, ...]:
        """The keys drawn now, left to right, the palette key last when it is drawn."""
        return self._keys + ((self._palette_key,) if self._palette_key else ())

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _palette(self, active: Mapping[str, ActiveBinding]) -> ActiveBinding | None:
        """The palette key, when the Footer shows it (docked at its right)."""
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        return active.get(self.app.COMMAND_PALETTE_BINDING)

    def _room(self, active: Mapping[str, ActiveBinding]) -> int:
        """Cells for the keys: the Footer's width less the palette key drawn at its right."""
        width = self.size.width or self.app.size.width
        palette = self._palette(active)
        if palette is not None:
            binding = palette.binding
            width -= _palette_width(self.app.get_key_display(binding), binding.description)
        return width

    def _shown_keys(self, screen: Screen[object]) -> Signature:
        # One reading of the active bindings: each read asks every binding's check_action
        # (some 60 on the tracker), and the first frame read them 13 times.
        active = screen.active_bindings
        order = footer_order(screen)
        return (
            self._room(active),
            order,
            tuple(
                (binding.key, binding.description, binding.action, enabled, tooltip)
                for key, (_node, binding, enabled, tooltip) in active.items()
                if binding.show or key == screen.app.COMMAND_PALETTE_BINDING or binding.id in order
            ),
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        # Textual's Footer keeps its keys while the app is not focused (they come back as the
        # focus does); so does this one.
        if not (self.is_attached and screen is self.screen):
            return
        if not screen.app.app_focus:
            self._bindings_ready = True
            return
        signature = self._shown_keys(screen)
        if signature == self._signature and self._bindings_ready:
            return
        self._signature = signature
        self._bindings_ready = True
        # One rebuild per frame, with the keys as they are then: at start-up the bindings
        # change twice before the first frame (the panel reads its encounter in between).
        if not self._rebuild_queued:
            self._rebuild_queued = True
            self.call_after_refresh(self._rebuild)

    def _rebuild(self) -> None:
        self._rebuild_queued = False
        if not self.is_attached:
            return
        self._choose()
        if not self._announced:
            self._announced = True
            self.post_message(self.KeysShown())

    def _choose(self) -> None:
        """Choose the keys for the width now and redraw them if they differ."""
        screen = self.screen
        active = screen.active_bindings
        keys: list[DrawnKey] = []
        x = 0
        for binding, enabled, tooltip, word in chosen_keys(
            screen, self._room(active), active=active
        ):
            display = self.app.get_key_display(binding)
            width = key_width(display, word)
            keys.append(
                DrawnKey(
                    binding.key,
                    display,
                    word,
                    enabled,
                    _tooltip(binding, tooltip, word),
                    x,
                    x + width,
                )
            )
            x += width
        palette_key = None
        if (palette := self._palette(active)) is not None:
            binding = palette.binding
            display = self.app.get_key_display(binding)
            width = self.size.width or self.app.size.width
            start = max(x, width - _palette_width(display, binding.description))
            palette_key = DrawnKey(
                binding.key,
                display,
                binding.description,
                palette.enabled,
                binding.tooltip or binding.description,
                start,
                width,
            )
        if (tuple(keys), palette_key) != (self._keys, self._palette_key):
            self._keys, self._palette_key = tuple(keys), palette_key
            self._hover = None
            self._show_tooltip()
            self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        # Another width fits other keys: choose them again.
        if self.is_attached and self._bindings_ready:
            self._choose()

    # --- drawing ------------------------------------------------------------------------------
    def render(self) -> Text:
        width = self.size.width
        base = self.rich_style
        key_style = self.get_component_rich_style("footer-key--key")
        word_style = self.get_component_rich_style("footer-key--description")
        line = Text(no_wrap=True, overflow="crop", end="")
        for key in self._keys:
            self._draw(
                line, key, (f" {key.display} ", key_style), (f"{key.description} ", word_style)
            )
        palette = self._palette_key
        if palette is not None:
            line.append(" " * max(0, palette.start - line.cell_len))
            line.append("▏", self.get_component_rich_style("footer-key--edge"))
            self._draw(
                line,
                palette,
                (palette.display, key_style),
                (f" {palette.description}", word_style),
            )
            line.append(" ")
        line.stylize_before(base)
        line.truncate(width, pad=True)
        return line

    def _draw(
        self, line: Text, key: DrawnKey, shown: tuple[str, Style], word: tuple[str, Style]
    ) -> None:
        """Append a key: its display, then its word (none when it has no word)."""
        look = Style() if key.enabled else Style(dim=True)
        if key == self._hover:
            hover = self.get_component_rich_style("footer-key--hover")
            look += Style(color=hover.color, bgcolor=hover.bgcolor)
        line.append(shown[0], shown[1] + look)
        if key.description:
            line.append(word[0], word[1] + look)

    # --- the mouse ------------------------------------------------------------------------------
    def key_at(self, x: int) -> DrawnKey | None:
        """The key drawn at column ``x``, if any."""
        return next((key for key in self.shown if key.start <= x < key.end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._point_at(self.key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._point_at(None)

    def _point_at(self, key: DrawnKey | None) -> None:
        if key != self._hover:
            self._hover = key
            self._show_tooltip()
            self.refresh()

    def _show_tooltip(self) -> None:
        tip = self._hover.tooltip if self._hover is not None else ""
        if self.tooltip != (tip or None):
            self.tooltip = tip or None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self.key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


def _palette_width(display: str, description: str) -> int:
    """Cells the palette key takes at the Footer's right: a rule, ``key word`` and a blank."""
    return cell_len(display) + cell_len(description) + 3

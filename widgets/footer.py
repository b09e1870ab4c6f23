"""The Footer every panel shows, rebuilt only when the keys it shows change.

Textual's Footer recomposes itself (a widget per key, each restyled) whenever the screen's
bindings *may* have changed: every focus move, every modal opened or closed. On the combat
panel that is ~80 ms per damage prompt for a Footer that ends up showing the same keys.

It also composes its keys without binding each one to the Footer's ``compact`` flag (never
set here): that binding restyles every key twice as it mounts, 10-30 ms of the first paint;
each key is given the non-compact look before it mounts instead.

Keys are shown whole, most needed first: a panel names its bindings in the order a GM needs
them (``footer_order()``, binding ids, and ``FOOTER_WORDS``, a shorter word for the Footer
where the description is long); the rest that are shown follow in their own order. Each key
is shown only if it fits whole in what the width leaves; ``?`` lists every one (Textual cut
the last key mid-word, ``al▏``, and at 80 columns showed none of damage, heal or start).
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

GAME_KEYS = "game"
"""In a panel's Footer order: where the open game's shown keys go (a Darkest Self, a card
draw: they show only while they apply, so they rank high)."""
Signature = tuple[object, ...]
Shown = tuple[Binding, bool, str, str]
"""A key the Footer shows: its binding, whether it works now, its tooltip, its word."""


def footer_words(screen: Screen[object]) -> Mapping[str, str]:
    return getattr(screen, "FOOTER_WORDS", {})


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


def _roomy(key: FooterKey) -> FooterKey:
    """The non-compact look the Footer's binding would give, set before mount (no restyle)."""
    key.set_reactive(FooterKey.compact, False)
    return key


def _tooltip(binding: Binding, tooltip: str, word: str) -> str:
    """A key's tooltip: the binding's own, else its description when the Footer shows a
    shorter word for it."""
    return tooltip or (binding.description if word != binding.description else "")


def _show(key: FooterKey, binding: Binding, display: str, word: str, enabled: bool) -> None:
    """A mounted key shows another binding (FooterKey keeps what it shows in attributes
    read when it renders; its ``disabled`` look is the ``-disabled`` class and a flag)."""
    now = (binding.key, display, word, binding.action, not enabled)
    if (key.key, key.key_display, key.description, key.action, key._disabled) == now:
        return
    key.key, key.key_display, key.description, key.action, key._disabled = now
    key.set_class(not enabled, "-disabled")
    key.refresh(layout=True)


class TablesideFooter(Footer):
    """A Footer that skips the rebuild when the shown keys, labels and states are unchanged."""

    class KeysShown(Message):
        """The Footer has its keys for the first time: the panel's first frame is whole."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._signature: Signature | None = None
        self._rebuild_queued = False
        self._shown = False

    def _palette(self, active: Mapping[str, ActiveBinding]) -> ActiveBinding | None:
        """The palette key, when the Footer shows it (docked at its right)."""
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        return active.get(self.app.COMMAND_PALETTE_BINDING)

    def _room(self, active: Mapping[str, ActiveBinding]) -> int:
        """Cells for the keys: the Footer's width less the palette key docked at its right."""
        width = self.size.width or self.app.size.width
        palette = self._palette(active)
        if palette is not None:
            binding = palette.binding
            # compact: "ctrl+p palette", a border on its left and a blank on its right
            width -= cell_len(self.app.get_key_display(binding)) + cell_len(binding.description)
            width -= 3
        return width

    def _shown_keys(self, screen: Screen[object]) -> Signature:
        # One reading of the active bindings: each read asks every binding's check_action
        # (some 60 on the tracker), and the first frame read them 13 times (issue 26).
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
        if not (self.is_attached and screen is self.screen and screen.app.app_focus):
            super().bindings_changed(screen)
            return
        signature = self._shown_keys(screen)
        if signature == self._signature and self._bindings_ready:
            return
        self._signature = signature
        self._bindings_ready = True
        # One rebuild per frame, with the keys as they are then: at start-up the bindings
        # change twice before the first frame (the panel reads its encounter in between), and
        # each queued a rebuild of every key (8 ms each, issue 26).
        if not self._rebuild_queued:
            self._rebuild_queued = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_queued = False
        if not self._relabel():
            await self.recompose()
        if not self._shown:
            self._shown = True
            self.post_message(self.KeysShown())

    def _relabel(self) -> bool:
        """Show the keys now chosen on the keys already mounted, when there are as many (the
        tracker's ``n`` changes which keys work, rarely how many fit). Recomposing mounted and
        styled a dozen new keys on every such key, 3-4 ms of a 16 ms budget (issue 26)."""
        keys = self.query_children(FooterKey)
        mounted = [key for key in keys if not key.has_class("-command-palette")]
        if not mounted or not self._bindings_ready:
            return False
        active = self.screen.active_bindings
        shown = chosen_keys(self.screen, self._room(active), active=active)
        palette = self._palette(active)
        palettes = keys.filter(".-command-palette")
        if len(mounted) != len(shown) or bool(palettes) != (palette is not None):
            return False
        for widget, (binding, enabled, tooltip, word) in zip(mounted, shown, strict=True):
            _show(widget, binding, self.app.get_key_display(binding), word, enabled)
            tip = _tooltip(binding, tooltip, word) or None
            if widget.tooltip != tip:
                widget.tooltip = tip
        if palette is not None and palettes:
            binding, enabled = palette.binding, palette.enabled
            display = self.app.get_key_display(binding)
            _show(palettes.first(), binding, display, binding.description, enabled)
        return True

    def on_resize(self, event: events.Resize) -> None:
        # Another width fits other keys: choose them again.
        if self.is_attached and self._bindings_ready:
            self.bindings_changed(self.screen)

    def compose(self) -> ComposeResult:
        # Textual's Footer.compose (8.2), less the per-key ``data_bind(compact=...)``, with
        # the keys chosen by the panel's order and each shown only whole (see the module).
        if not self._bindings_ready:
            return
        active = self.screen.active_bindings
        shown = chosen_keys(self.screen, self._room(active), active=active)
        self.styles.grid_size_columns = len(shown)
        for binding, enabled, tooltip, word in shown:
            yield _roomy(
                FooterKey(
                    binding.key,
                    self.app.get_key_display(binding),
                    word,
                    binding.action,
                    disabled=not enabled,
                    tooltip=_tooltip(binding, tooltip, word),
                )
            )
        palette = self._palette(active)
        if palette is not None:
            binding, enabled = palette.binding, palette.enabled
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )

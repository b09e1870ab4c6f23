"""The Footer every panel shows, rebuilt only when the keys it shows change.

Textual's Footer recomposes itself (a widget per key, each restyled) whenever the screen's
bindings *may* have changed: every focus move, every modal opened or closed. On the combat
panel that is ~80 ms per damage prompt for a Footer that ends up showing the same keys.

It also composes its keys without binding each one to the Footer's ``compact`` flag (never
set here): that binding restyles every key twice as it mounts, 10-30 ms of the first paint;
each key is given the non-compact look before it mounts instead.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

Signature = tuple[tuple[str, str, str, bool, str], ...]


def _roomy(key: FooterKey) -> FooterKey:
    """The non-compact look the Footer's binding would give, set before mount (no restyle)."""
    key.set_reactive(FooterKey.compact, False)
    return key


class TablesideFooter(Footer):
    """A Footer that skips the rebuild when the shown keys, labels and states are unchanged."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._signature: Signature | None = None

    def _shown_keys(self, screen: Screen[object]) -> Signature:
        return tuple(
            (binding.key, binding.description, binding.action, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items()
            if binding.show or key == screen.app.COMMAND_PALETTE_BINDING
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            signature = self._shown_keys(screen)
            if signature == self._signature and self._bindings_ready:
                return
            self._signature = signature
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        # Textual's Footer.compose (8.2), less the per-key ``data_bind(compact=...)``.
        if not self._bindings_ready:
            return
        active = self.screen.active_bindings
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))
        self.styles.grid_size_columns = len(by_action)
        for group, runs in groupby(by_action.values(), lambda run: run[0][0].group):
            grouped = list(runs)
            if group is not None and len(grouped) > 1:
                with KeyGroup(classes="-compact" if group.compact else ""):
                    for run in grouped:
                        binding, enabled, tooltip = run[0]
                        yield _roomy(
                            FooterKey(
                                binding.key,
                                self.app.get_key_display(binding),
                                "",
                                binding.action,
                                disabled=not enabled,
                                tooltip=tooltip or binding.description,
                                classes="-grouped",
                            )
                        )
                yield FooterLabel(group.description)
                continue
            for run in grouped:
                binding, enabled, tooltip = run[0]
                yield _roomy(
                    FooterKey(
                        binding.key,
                        self.app.get_key_display(binding),
                        binding.description,
                        binding.action,
                        disabled=not enabled,
                        tooltip=tooltip,
                    )
                )
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            _node, binding, enabled, _tooltip = palette
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )

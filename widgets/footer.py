"""The Footer every panel shows, rebuilt only when the keys it shows change.

Textual's Footer recomposes itself (a widget per key, each restyled) whenever the screen's
bindings *may* have changed: every focus move, every modal opened or closed. On the combat
panel that is ~80 ms per damage prompt for a Footer that ends up showing the same keys.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

Signature = tuple[tuple[str, str, str, bool, str], ...]


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

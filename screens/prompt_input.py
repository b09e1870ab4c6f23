"""The text field of a prompt that takes keys typed ahead and one entry per enter."""

from __future__ import annotations

from textual import events

from widgets.text_field import TextField


class PromptInput(TextField):
    """An ``Input`` for prompts a GM types into fast (a paste, a quick typist).

    * Keys typed before it had focus were held by the app (``TYPE_AHEAD`` on the screen); on
      focus it asks for them, so they arrive first and in order.
    * Enter takes the text out at once: the next keys start the next entry, instead of being
      appended to the one still being handled and then wiped by its ``clear()``. A handler
      that refuses the entry puts it back with :meth:`restore`.
    """

    def on_focus(self, event: events.Focus) -> None:
        # The Tableside app holds keys typed before this field had focus (other apps do not);
        # it sends them with call_later, after Input's own handling of this Focus.
        ready = getattr(self.app, "type_ahead_ready", None)
        if ready is not None:
            ready(self)

    async def action_submit(self) -> None:
        value = self.value
        self.value = ""
        self.post_message(self.Submitted(self, value))

    def restore(self, value: str) -> None:
        """Put a refused entry back for the GM to fix, unless they already typed the next."""
        if not self.value:
            self.value = value
            self.cursor_position = len(value)

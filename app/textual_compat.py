"""The one place Tableside reaches into Textual beyond its public API.

Everything else in the app, the screens, the widgets, the games, the tests and the benches
uses Textual's public names only (tests/test_textual_public.py fails on any other). What is here has no
public way in the Textual releases ``pyproject.toml`` admits; each reach-in is listed in
:data:`INTERNALS`, and :func:`missing_internals` (run by tests/test_textual_compat.py) names
any a Textual release no longer has, so an upgrade fails loudly in the tests. At run time
each use has a fallback that keeps the app working without it: a feature gets smaller (a
game's key is not bound on a panel, a failing game hook ends the session as any error does),
never the app.

docs/textual-workarounds.md says why each is needed and what to ask upstream for.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

from textual.binding import Binding
from textual.message import Message
from textual.message_pump import MessagePump

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen

INTERNALS: tuple[tuple[str, str, str], ...] = (
    # (module, class, attribute)
    ("textual.dom", "DOMNode", "_bindings"),
    ("textual.binding", "BindingsMap", "key_to_bindings"),
    ("textual.screen", "Screen", "_binding_chain"),
    ("textual.message_pump", "MessagePump", "_dispatch_message"),
    ("textual.screen", "Screen", "_invoke_later"),
    ("textual.screen", "Screen", "_compositor"),
    ("textual.screen", "Screen", "_compositor_refresh"),
    ("textual.css.stylesheet", "Stylesheet", "_parse_rules"),
    ("textual.css.stylesheet", "Stylesheet", "_variables"),
)
"""Textual's private names used here."""


def missing_internals() -> list[str]:
    """The private Textual names this module uses that the installed Textual lacks."""
    import importlib

    missing = []
    for module_name, class_name, attribute in INTERNALS:
        owner = getattr(importlib.import_module(module_name), class_name, None)
        if owner is None:
            missing.append(f"{module_name}.{class_name}")
        elif attribute == "_parse_rules":
            found = getattr(owner, attribute, None)
            if found is None or _parameters(found) != PARSE_RULES_PARAMETERS:
                missing.append(f"{module_name}.{class_name}.{attribute}{PARSE_RULES_PARAMETERS}")
        elif attribute in ("_bindings", "_compositor", "_variables"):
            # An instance attribute: set in the class's (or a base's) __init__.
            sources = "".join(
                inspect.getsource(c.__dict__["__init__"])
                for c in owner.__mro__
                if inspect.isfunction(c.__dict__.get("__init__"))
            )
            if f"self.{attribute} " not in sources and f"self.{attribute}:" not in sources:
                missing.append(f"{module_name}.{class_name}.{attribute}")
        elif attribute == "key_to_bindings":
            from textual.binding import BindingsMap

            if not isinstance(getattr(BindingsMap(), attribute, None), dict):
                missing.append(f"{module_name}.{class_name}.{attribute}")
        elif not hasattr(owner, attribute):
            missing.append(f"{module_name}.{class_name}.{attribute}")
    return missing


# --- one parse per stylesheet source ---------------------------------------------------------
# Textual caches a stylesheet's parsed sources, but Stylesheet.reparse (a source added, a
# theme change) parses them all again in a fresh Stylesheet with an empty cache, and a run
# starts with none: docs/textual-workarounds.md. Textual offers no hook to supply parses.
PARSE_RULES_PARAMETERS = ("self", "css", "read_from", "is_default_rules", "tie_breaker", "scope")
"""``Stylesheet._parse_rules``'s parameters in the Textual releases tested."""

ParseKey = tuple[Any, ...]


def _parameters(function: object) -> tuple[str, ...]:
    try:
        return tuple(inspect.signature(function).parameters)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ()


def route_stylesheet_parses(
    through: Callable[[ParseKey, Callable[[], Any]], Any],
) -> Callable[[], None] | None:
    """Every stylesheet source Textual parses goes through ``through(key, parse)``, which
    returns the rules (``parse()`` parses as Textual would). The key is all a parse depends
    on: the source's text, where it is from, its options and the theme's variables.

    Returns what undoes it, or None when this Textual's Stylesheet is not the one tested
    (the fallback: Textual parses as it always does)."""
    from textual.css.stylesheet import Stylesheet

    parse = getattr(Stylesheet, "_parse_rules", None)
    if parse is None or _parameters(parse) != PARSE_RULES_PARAMETERS:
        return None
    seen: list[Any] = [None, None]

    def parse_rules(
        self: Stylesheet,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> Any:
        def parsed() -> Any:
            return parse(self, css, read_from, is_default_rules, tie_breaker, scope)

        variables = getattr(self, "_variables", None)
        if not isinstance(variables, dict):
            return parsed()
        if seen[0] is not variables:  # a theme change sets a new dict: key it once
            seen[:] = [variables, frozenset(variables.items())]
        return through((css, read_from, is_default_rules, tie_breaker, scope, seen[1]), parsed)

    def undo() -> None:
        if Stylesheet.__dict__.get("_parse_rules") is parse_rules:
            Stylesheet._parse_rules = parse  # type: ignore[method-assign]

    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]
    return undo


# --- bindings added at run time -------------------------------------------------------------
# Textual reads a node's bindings from its class's BINDINGS; a game's actions, a tray check's
# inputs and the clock's keys on a modal are known only once the screen is built. Textual's
# App.bind is documented as "may be private or removed" and takes no binding id or tooltip.
def key_bindings(node: DOMNode) -> dict[str, list[Binding]]:
    """The live map of ``node``'s own keys to their bindings, to add bindings to at run time.

    Fallback: an empty map nobody reads (the run-time keys are then unbound)."""
    bindings = getattr(node, "_bindings", None)
    found = getattr(bindings, "key_to_bindings", None)
    return found if isinstance(found, dict) else {}


def binding_chain(screen: Screen[Any]) -> list[tuple[DOMNode, dict[str, list[Binding]]]]:
    """The nodes whose keys work on ``screen`` now, nearest first, each with all its bindings
    (the keymap applied), including those a nearer node's binding of the same key hides.

    Fallback: Textual's public ``active_bindings`` (one binding per key)."""
    chain = getattr(screen, "_binding_chain", None)
    if isinstance(chain, list):
        return [(node, dict(bindings.key_to_bindings)) for node, bindings in chain]
    nodes: dict[int, tuple[DOMNode, dict[str, list[Binding]]]] = {}
    for key, active in screen.active_bindings.items():
        entry = nodes.setdefault(id(active.node), (active.node, {}))
        entry[1].setdefault(key, []).append(active.binding)
    return list(nodes.values())


# --- a game's failure costs one message ------------------------------------------------------
class GameSafe:
    """A message pump (the app, a panel) on which the open game's failure costs one message.

    A panel asks the game for what it shows (a health line, a tag, a form) under a key, a
    message, a callback or a repaint; Textual ends a message loop (the app's: the session) on
    any exception a handler raises, and offers no hook between a message and its handlers.
    Here an exception that is the game's (a hook that raised, :mod:`rulesets.guard`, or the
    game's own code) is told to the GM once (the app's ``game_failed``) and the loop goes on;
    anything else is raised as before.

    Fallback: on a Textual without these methods nothing is overridden; a game's failure
    then ends the session as any error does.
    """

    def _game_failed(self, exc: Exception) -> bool:
        pump = cast(MessagePump, self)
        failed: Callable[[Exception], bool] | None = getattr(pump.app, "game_failed", None)
        return failed is not None and failed(exc)

    def _game_safe(
        self, callback: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Callable[[], Any]:
        async def guarded() -> None:
            try:
                result = callback(*args, **kwargs)
                if inspect.isawaitable(result):
                    await result
            except Exception as exc:
                if not self._game_failed(exc):
                    raise

        return guarded

    async def _dispatch_message(self, message: Message) -> None:
        try:
            await super()._dispatch_message(message)  # type: ignore[misc]
        except Exception as exc:
            if not self._game_failed(exc):
                raise

    # What runs after a repaint (call_after_refresh: most redraws) runs outside the message
    # loop: guarded as the rest.
    def _invoke_later(self, callback: Callable[[], Any], sender: MessagePump) -> None:
        super()._invoke_later(self._game_safe(callback), sender)  # type: ignore[misc]

    def call_next(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        # A form's answer, after the current message: outside the message loop too.
        super().call_next(self._game_safe(callback, *args, **kwargs))  # type: ignore[misc]


def screen_lines(screen: Screen[Any]) -> Iterator[str]:
    """The screen as drawn now, one string per terminal row (styles dropped); for tests.

    Textual's public screenshot is an SVG; its compositor has the rows as text."""
    update = screen._compositor.render_full_update()
    for strip in update.strips:
        yield "".join(segment.text for segment in strip)


def on_each_frame(screen: Screen[Any], seen: Callable[[], None]) -> None:
    """Call ``seen`` each time ``screen`` has drawn a frame; for tests that check what runs
    after a key's frame. Textual posts no message when a frame is drawn.

    No fallback: without the compositor's refresh it raises (:func:`_frame_drawer`)."""
    draw = _frame_drawer(screen)

    def drawn() -> None:
        draw()
        seen()

    screen._compositor_refresh = drawn  # type: ignore[method-assign]


def on_every_frame(
    seen: Callable[[Screen[Any]], None], screens: type[Screen[Any]] | None = None
) -> Callable[[], None]:
    """Call ``seen(screen)`` each time any screen (of class ``screens``; default: any) has
    drawn a frame, from now on in this process; for the benches, which time a key to the
    frame that shows its result and a start to its first whole frame. Returns what undoes it.

    No fallback: a bench that timed something else would print a wrong figure, so without
    the compositor's refresh this raises (:func:`_frame_drawer`)."""
    from textual.screen import Screen

    owner = Screen if screens is None else screens
    draw = _frame_drawer(owner)

    def drawn(screen: Screen[Any]) -> None:
        draw(screen)
        seen(screen)

    def undo() -> None:
        if owner.__dict__.get("_compositor_refresh") is drawn:
            owner._compositor_refresh = draw  # type: ignore[method-assign]

    owner._compositor_refresh = drawn  # type: ignore[method-assign, assignment]
    return undo


def _frame_drawer(owner: object) -> Callable[..., None]:
    """The screen's (or Screen's) compositor refresh: what draws a frame."""
    draw = getattr(owner, "_compositor_refresh", None)
    if not callable(draw):
        raise RuntimeError(
            "this Textual's Screen has no _compositor_refresh: frames cannot be timed "
            "(app/textual_compat.py, docs/textual-workarounds.md)"
        )
    return cast("Callable[..., None]", draw)

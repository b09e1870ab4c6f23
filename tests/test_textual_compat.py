"""app/textual_compat.py: the Textual internals it uses are there, and it falls back without.

A Textual release that renames or drops one of them fails here first, by name, before the
app loses the feature quietly."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import ActiveBinding, Binding

from app.textual_compat import binding_chain, key_bindings, missing_internals, on_every_frame
from tests.apphelpers import SIZE, demo_app


def test_every_textual_internal_the_compat_module_uses_is_there() -> None:
    assert missing_internals() == []


def test_without_the_internals_keys_added_at_run_time_go_nowhere() -> None:
    class Bare:
        pass

    assert key_bindings(Bare()) == {}  # type: ignore[arg-type]


def test_without_the_internals_help_lists_textuals_active_bindings() -> None:
    class Node:
        pass

    class Shown:
        def __init__(self, node: object, binding: Binding) -> None:
            self.active_bindings = {"x": ActiveBinding(node, binding, True, "")}  # type: ignore[arg-type]

    node: object = Node()
    binding = Binding("x", "close", "Close")
    chain = binding_chain(Shown(node, binding))  # type: ignore[arg-type]
    assert len(chain) == 1
    assert chain[0][0] is node
    assert chain[0][1] == {"x": [binding]}


async def test_the_binding_chain_has_the_panel_and_the_app(tmp_path: Path) -> None:
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.set_focus(None)
        chain = binding_chain(app.screen)
        nodes = [node for node, _ in chain]
        assert app.screen in nodes and app in nodes
        app_keys = dict(chain)[app]
        assert [b.action for b in app_keys["ctrl+q"]] == ["quit"]
        key_bindings(app.screen).setdefault("f9", []).append(Binding("f9", "app.help", "Keys"))
        assert "f9" in dict(binding_chain(app.screen))[app.screen]
    app.campaign.store.close()


async def test_every_frame_drawn_is_seen_until_undone(tmp_path: Path) -> None:
    """The benches time a key to its frame through this: the frame the key drew is seen, and
    once undone, none is."""
    app = demo_app(tmp_path)
    seen: list[str] = []
    undo = on_every_frame(lambda screen: seen.append(type(screen).__name__))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "CombatScreen" in seen
            await pilot.press("2")
            await pilot.pause()
            assert "TrayScreen" in seen
            undo()
            before = len(seen)
            await pilot.press("1")
            await pilot.pause()
            assert len(seen) == before
    finally:
        undo()
    app.campaign.store.close()


def test_without_the_compositor_frames_cannot_be_timed() -> None:
    class Bare:  # a Screen as a Textual release without the compositor's refresh has it
        pass

    with pytest.raises(RuntimeError, match="no _compositor_refresh: frames cannot be timed"):
        on_every_frame(lambda screen: None, Bare)  # type: ignore[arg-type]

"""The games that ship with Tableside, asked of the registry rather than listed: a test of the
built-in games' own behaviour runs over these, so a sixth game installed beside them (the toy
game of tests/fixtures/toy_game, a GM's own) is neither tested against their expectations nor
breaks a count. What every installed game must do is tableside_api.testing's (test_game_kit)."""

from __future__ import annotations

from rulesets import registry

BUILT_IN_PACKAGE = "rulesets."


def built_in() -> list[str]:
    """The ids of the installed games whose entry point is in Tableside's own ``rulesets``."""
    return sorted(
        ep.name for ep in registry._entry_points().values() if ep.value.startswith(BUILT_IN_PACKAGE)
    )


BUILT_IN: tuple[str, ...] = tuple(built_in())

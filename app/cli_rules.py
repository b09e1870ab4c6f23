"""The rules subcommands of ``tableside``; each lives beside the panel that owns its rules."""

from __future__ import annotations

from collections.abc import Sequence


def cmd_odds(argv: Sequence[str]) -> int:
    from app.cli_tray import cmd_odds as run

    return run(argv)


def cmd_draw(argv: Sequence[str]) -> int:
    from app.cli_tray import cmd_draw as run

    return run(argv)


def cmd_npc(argv: Sequence[str]) -> int:
    from app.cli_npc import cmd_npc as run

    return run(argv)


def cmd_import_5e(argv: Sequence[str]) -> int:
    from app.cli_npc import cmd_import_5e as run

    return run(argv)


def cmd_import(argv: Sequence[str]) -> int:
    from app.cli_npc import cmd_import as run

    return run(argv)

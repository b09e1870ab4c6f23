"""The ``tableside`` command line (a contract: scripts rely on its forms, keys and exit codes).

Forms::

    tableside [SAVE] [--ruleset ID]           open a campaign in the TUI
    tableside --demo [ID]                     open a fresh demo campaign for a game
    tableside export SAVE                     the whole campaign as one JSON document
    tableside roll EXPR [--times N] [--seed S] [--json]
    tableside odds CHECK [--game ID ...] [--json]
    tableside draw [--deck minor|major] [--count N] [--save SAVE] [--json]
    tableside npc (--brawl B --wit W --will L | --hd N) [--json]
    tableside import-5e FILE [--save SAVE] [--json]

Exit codes: 0 ok, 2 bad usage or bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import orjson

from app import __version__
from app.text import json_safe, visible

EXIT_OK = 0
EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad usage or bad input: printed as one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse prints usage and exits on error; we want one line and our exit code."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _print_json(obj: object, option: int = 0) -> None:
    # C1, bidi and zero-width characters as \uXXXX escapes: the same data for a JSON reader,
    # nothing a terminal acts on (orjson escapes only C0 itself).
    sys.stdout.write(json_safe(orjson.dumps(obj, option=option).decode()) + "\n")


def print_text(text: str) -> None:
    """A line of text for a terminal, every control character in it made visible."""
    sys.stdout.write("\n".join(visible(line) for line in text.split("\n")) + "\n")


# --- tableside roll ----------------------------------------------------------------------------
def _roll_parser() -> _Parser:
    p = _Parser(
        prog="tableside roll", description="Roll a dice expression without opening the TUI."
    )
    p.add_argument("expr", metavar="EXPR", help="dice expression, e.g. 4d6kh3, 2d20kl1+3, 1d6e6")
    p.add_argument("--times", type=int, default=1, metavar="N", help="roll N times (1..1000)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed for repeatable rolls")
    p.add_argument("--json", action="store_true", help="one JSON object per roll")
    return p


def cmd_roll(argv: Sequence[str]) -> int:
    from rulesets import dice

    args = _roll_parser().parse_args(argv)
    if not 1 <= args.times <= 1000:
        raise UsageError("tableside roll: --times must be between 1 and 1000")
    rng = random.Random(args.seed)
    for _ in range(args.times):
        try:
            result = dice.roll(args.expr, rng)
        except dice.DiceError as exc:
            raise UsageError(f"tableside roll: {exc}") from None
        if args.json:
            _print_json(result.as_json())
        else:
            print_text(result.text)
    return EXIT_OK


# --- tableside export --------------------------------------------------------------------------
def cmd_export(argv: Sequence[str]) -> int:
    from app.store import StoreError, export_campaign

    p = _Parser(
        prog="tableside export",
        description="Print the whole campaign as one JSON document (see README, 'Export schema').",
    )
    p.add_argument("save", metavar="SAVE", type=Path)
    args = p.parse_args(argv)
    try:
        doc = export_campaign(args.save.expanduser().absolute())
    except StoreError as exc:
        raise UsageError(f"tableside export: {exc}") from None
    _print_json(doc, orjson.OPT_INDENT_2)
    return EXIT_OK


# --- tableside [SAVE] --------------------------------------------------------------------------
SUBCOMMANDS: dict[str, Callable[[Sequence[str]], int]] = {}


def _open_parser() -> _Parser:
    from rulesets.registry import GAMES

    games = ", ".join(GAMES)
    p = _Parser(
        prog="tableside",
        description="A game master's table companion: combat tracker, dice and cards, NPC "
        "statblocks and the party sheet, for five tabletop RPGs.",
        epilog="Other commands (each has --help): " + ", ".join(SUBCOMMANDS) + f". Games: {games}.",
    )
    p.add_argument(
        "save", metavar="SAVE", nargs="?", type=Path, help="campaign file (created if missing)"
    )
    p.add_argument(
        "--ruleset",
        metavar="ID",
        default=None,
        help=f"game of a new campaign ({games}); default somnihil",
    )
    p.add_argument(
        "--demo",
        metavar="ID",
        nargs="?",
        const="somnihil",
        default=None,
        help="open a fresh demo campaign for that game",
    )
    p.add_argument(
        "--from-backup",
        action="store_true",
        help="SAVE is damaged: open a copy of its newest good backup",
    )
    p.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--version", action="version", version=f"tableside {__version__}")
    return p


def cmd_open(argv: Sequence[str]) -> int:
    from app import paths
    from app.store import StoreError
    from rulesets.registry import GAMES

    args = _open_parser().parse_args(argv)
    for option, value in (("--ruleset", args.ruleset), ("--demo", args.demo)):
        if value is not None and value not in GAMES:
            raise UsageError(
                f"tableside: {option}: unknown game {value!r}; choose one of {', '.join(GAMES)}"
            )
    if args.demo and args.save:
        raise UsageError("tableside: give either SAVE or --demo, not both")
    from app.launch import LaunchError, launch

    try:
        if args.demo:
            from app.demo import write_demo

            path = write_demo(
                args.demo, paths.new_campaign_path(f"demo-{args.demo}"), seed=args.seed
            )
            ruleset = args.demo
        elif args.from_backup:
            if args.save is None:
                raise UsageError("tableside: --from-backup needs the damaged SAVE")
            from app.launch import recover_from_backup

            path = recover_from_backup(args.save.expanduser().absolute())
            ruleset = "somnihil"
        else:
            path = args.save or paths.last_campaign() or paths.new_campaign_path("campaign")
            ruleset = args.ruleset or "somnihil"
        return launch(path.expanduser().absolute(), ruleset=ruleset, seed=args.seed)
    except (StoreError, LaunchError) as exc:
        raise UsageError(f"tableside: {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _register()
    try:
        if argv and argv[0] in SUBCOMMANDS:
            return SUBCOMMANDS[argv[0]](argv[1:])
        return cmd_open(argv)
    except UsageError as exc:
        # The message may quote a file name or save text: one visible line, nothing raw.
        sys.stderr.write(f"{visible(exc)}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


def _register() -> None:
    from app import cli_rules

    SUBCOMMANDS.update(
        {
            "roll": cmd_roll,
            "export": cmd_export,
            "odds": cli_rules.cmd_odds,
            "draw": cli_rules.cmd_draw,
            "npc": cli_rules.cmd_npc,
            "import-5e": cli_rules.cmd_import_5e,
        }
    )

"""The ``tableside`` command line (a contract: scripts rely on its forms, keys and exit codes).

Forms::

    tableside [SAVE] [--ruleset ID]           open a campaign in the TUI
    tableside --demo [ID]                     open a fresh demo campaign for a game
    tableside --where                         the campaign folder in use, and why
    tableside export SAVE [--format json|ii|markdown] [--session N]
    tableside roll EXPR [--times N] [--seed S] [--json]
    tableside odds CHECK [--game ID ...] [--json]
    tableside draw [--deck ID] [--game ID] [--count N] [--save SAVE] [--json]
    tableside npc (--brawl B --wit W --will L | --hd N) [--json]
    tableside import-5e FILE [--save SAVE] [--json]
    tableside import FILE [--save SAVE] [--json]
    tableside clock SAVE [--advance D | --rest D | --effort D] [--json]
    tableside attack SAVE ATTACKER TARGET [--encounter NAME] [--seed N] [--defence TEXT]
                     [--dry-run] --json
    tableside danger SAVE [--encounter NAME] [--runs N] [--seed S] --json
    tableside keys                            the keymap file and every binding id's key
    tableside serve [SAVE] [--host H] [--port P]

Exit codes: 0 ok, 2 bad usage or bad input (one line on stderr, never a traceback), 3 the
save is open in the TUI (``attack``; nothing done).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import orjson

from app import __version__
from app.cli_base import EXIT_BAD_INPUT, EXIT_OK, Parser, UsageError, print_json, print_text
from rulesets.text import visible


# --- tableside roll ----------------------------------------------------------------------------
def _roll_parser() -> Parser:
    p = Parser(
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
            print_json(result.as_json())
        else:
            print_text(result.text)
    return EXIT_OK


# --- tableside export --------------------------------------------------------------------------
EXPORT_FORMATS = ("json", "ii", "markdown")


def cmd_export(argv: Sequence[str]) -> int:
    from app.store import StoreError, read_campaign

    p = Parser(
        prog="tableside export",
        description="Print the campaign: the whole of it as one JSON document (see docs/cli.md, "
        "'Export schema'), its NPC library and current encounter as Improved Initiative JSON "
        "(--format ii), or its session log as Markdown (--format markdown).",
    )
    p.add_argument("save", metavar="SAVE", type=Path)
    p.add_argument("--format", choices=EXPORT_FORMATS, default="json", help="default: json")
    p.add_argument(
        "--session", type=int, metavar="N", default=None, help="markdown: only session N"
    )
    args = p.parse_args(argv)
    if args.session is not None and args.format != "markdown":
        raise UsageError("tableside export: --session is only used by --format markdown")
    try:
        data = read_campaign(args.save.expanduser().absolute())
    except StoreError as exc:
        raise UsageError(f"tableside export: {exc}") from None
    from app import export
    from app.store import export_document

    if args.format == "markdown":
        try:
            print_text(export.markdown_log(data, args.session).rstrip("\n"))
        except export.ExportError as exc:
            raise UsageError(f"tableside export: {exc}") from None
        return EXIT_OK
    doc = export.improved_initiative(data) if args.format == "ii" else export_document(data)
    print_json(doc, orjson.OPT_INDENT_2)
    return EXIT_OK


# --- tableside keys ----------------------------------------------------------------------------
def cmd_keys(argv: Sequence[str]) -> int:
    p = Parser(
        prog="tableside keys",
        description="Print the keymap file's path and every binding id with its key. The file "
        '(TOML) maps ids to keys, e.g. "combat.next_turn" = "space".',
    )
    p.parse_args(argv)
    from app.keymap import keys_listing, register_bindings
    from app.tui import TablesideApp
    from rulesets import registry
    from screens.panel import PANELS, action_bindings

    # Every installed game's actions: which of them a campaign offers depends on its game.
    # A game that cannot be used has no keys: it is named at the end instead.
    unusable = []
    for entry in registry.listing():
        if entry.state != "ok":
            unusable.append(f"{entry.id}: {entry.state}: {entry.reason}")
            continue
        for _key, panel, _title in PANELS:
            register_bindings(panel, action_bindings(registry.game(entry.id), panel))

    print(keys_listing(TablesideApp))
    if unusable:
        print("\nGames not loaded (their keys are not listed):\n" + "\n".join(unusable))
    return EXIT_OK


# --- tableside [SAVE] --------------------------------------------------------------------------
SUBCOMMANDS: dict[str, str] = {
    "roll": "app.cli:cmd_roll",
    "export": "app.cli:cmd_export",
    "odds": "app.cli_tray:cmd_odds",
    "draw": "app.cli_tray:cmd_draw",
    "npc": "app.cli_npc:cmd_npc",
    "import-5e": "app.cli_npc:cmd_import_5e",
    "import": "app.cli_npc:cmd_import",
    "keys": "app.cli:cmd_keys",
    "clock": "app.cli_clock:cmd_clock",
    "attack": "app.cli_attack:cmd_attack",
    "danger": "app.cli_danger:cmd_danger",
    "serve": "app.cli_serve:cmd_serve",
}
"""Each subcommand's function by import path: a module is imported only when its command runs,
so opening the TUI pays for none of them."""


def _subcommand(name: str) -> Callable[[Sequence[str]], int]:
    module, _, function = SUBCOMMANDS[name].partition(":")
    command: Callable[[Sequence[str]], int] = getattr(importlib.import_module(module), function)
    return command


class _InstalledGames(argparse.HelpFormatter):
    """Names the installed games in the help only when help is printed: listing them reads
    every installed package's metadata, which opening a campaign does not need."""

    def _format_text(self, text: str) -> str:
        return super()._format_text(_with_games(text))

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        return None if text is None else _with_games(text)


def _with_games(text: str) -> str:
    if GAMES not in text:
        return text
    from rulesets import registry

    return text.replace(GAMES, ", ".join(registry.ids()))


GAMES = "{installed games}"


def _open_parser() -> Parser:
    from rulesets import registry

    p = Parser(
        prog="tableside",
        description="A game master's table companion: combat tracker, dice and cards, NPC "
        "statblocks and the party sheet, for five tabletop RPGs.",
        epilog="Other commands (each has --help): " + ", ".join(SUBCOMMANDS) + f". Games: {GAMES}.",
        formatter_class=_InstalledGames,
    )
    p.add_argument(
        "save", metavar="SAVE", nargs="?", type=Path, help="campaign file (created if missing)"
    )
    p.add_argument(
        "--ruleset",
        metavar="ID",
        default=None,
        help=f"game of a new campaign ({GAMES}); default {registry.DEFAULT}",
    )
    p.add_argument(
        "--demo",
        metavar="ID",
        nargs="?",
        const=registry.DEFAULT,
        default=None,
        help="open a fresh demo campaign for that game",
    )
    p.add_argument(
        "--from-backup",
        action="store_true",
        help="SAVE is damaged: open a copy of its newest good backup",
    )
    p.add_argument(
        "--where", action="store_true", help="print the campaign folder in use and why, then exit"
    )
    p.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--version", action="version", version=f"tableside {__version__}")
    return p


def cmd_open(argv: Sequence[str]) -> int:
    # Opening the TUI imports and builds objects that live all session and next to no
    # garbage: the collector's usual thresholds would traverse them again and again. Raised
    # for this command alone (not at import: the players' server keeps Python's own), and put
    # back however it ends.
    import gc

    from app import START_UP_THRESHOLDS

    before = gc.get_threshold()
    gc.set_threshold(*START_UP_THRESHOLDS)
    try:
        return _open(argv)
    finally:
        gc.set_threshold(*before)


def _open(argv: Sequence[str]) -> int:
    from app import paths
    from app.store import StoreError
    from rulesets import registry

    args = _open_parser().parse_args(argv)
    if args.where:
        print_text(paths.where_text())
        return EXIT_OK
    for option, value in (("--ruleset", args.ruleset), ("--demo", args.demo)):
        if value is not None and not registry.is_known(value):
            listing = "; ".join(
                f"{e.id} ({e.name if e.state == 'ok' else e.state})" for e in registry.listing()
            )
            raise UsageError(
                f"tableside: {option}: unknown game {value!r}; installed games: {listing}"
            )
        if value is not None:
            registry.game(value)  # broken or incompatible: one line, before any file is made
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
            ruleset = registry.DEFAULT
        else:
            path = args.save or paths.last_campaign() or paths.new_campaign_path("campaign")
            ruleset = args.ruleset or registry.DEFAULT
        return launch(path.expanduser().absolute(), ruleset=ruleset, seed=args.seed)
    except (StoreError, LaunchError) as exc:
        raise UsageError(f"tableside: {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in SUBCOMMANDS:
            return _subcommand(argv[0])(argv[1:])
        return cmd_open(argv)
    except UsageError as exc:
        # The message may quote a file name or save text: one visible line, nothing raw.
        sys.stderr.write(f"{visible(exc)}\n")
        return EXIT_BAD_INPUT
    except KeyError as exc:
        # Whichever command picked the game (--demo, odds --game, a save's game): a game that
        # is not there, or fails to load, is one line naming it and why.
        from rulesets.registry import UnknownGame

        if not isinstance(exc, UnknownGame):
            raise
        sys.stderr.write(f"tableside: {visible(exc)}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK

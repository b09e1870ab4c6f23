"""``tableside odds`` and ``tableside draw``: the tray's odds and cards from the command line.

Both follow :mod:`app.cli`: bad usage or input is a :class:`~app.cli.UsageError` (one line,
exit 2). ``draw --save`` goes through the same command path as the TUI (open the store,
``Campaign.apply(DrawCards)``, close) so the deck a script draws from is the table's deck. The
decks are the game's (``Game.decks``): ``--deck`` takes its deck ids, and a game without decks
is one line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli_base import EXIT_OK, Parser, UsageError, print_json, print_text

if TYPE_CHECKING:
    from rulesets.checks import Check, CliFlag
    from rulesets.decks import DeckSpec
    from rulesets.game import Game

BAR_WIDTH = 30


# --- tableside odds ----------------------------------------------------------------------------
def _odds_parser() -> Parser:
    p = Parser(
        prog="tableside odds",
        description="Exact odds of a dice expression (optionally with a target, '2d6+1 >= 8') "
        "or of a game's check; 'tableside odds --game ID --help' lists that check's options.",
    )
    p.add_argument("check", metavar="CHECK", nargs="?", default=None, help="dice expression")
    _shared_options(p)
    return p


def _shared_options(p: Parser) -> None:
    """What every form of ``tableside odds`` takes; a game's check declares the rest."""
    from rulesets import registry

    p.add_argument(
        "--game", choices=registry.ids(), help="odds of that game's check instead of an expression"
    )
    p.add_argument(
        "--check",
        dest="check_id",
        default=None,
        metavar="ID",
        help="with --game: which of its checks (default: its first)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _check_parser(game: Game, check: Check) -> Parser:
    """The options of one game's check, as it declares them."""
    p = Parser(
        prog=f"tableside odds --game {game.id}",
        description=f"Exact odds of {game.name}'s {check.name}.",
    )
    for flag in _flags(check):
        name = f"--{flag.name}"
        if flag.kind == "switch":
            p.add_argument(name, action="store_true", default=None, help=flag.help)
        else:
            p.add_argument(name, type=int if flag.kind == "int" else str, help=flag.help)
    return p


def _flags(check: Check) -> tuple[CliFlag, ...]:
    """The check's declared flags; a check that declares none takes its inputs by their keys
    (``--bonus 2``), as the tray's typed setup reads them."""
    from rulesets.checks import CliFlag as Flag

    if check.flags:
        return check.flags
    return tuple(
        Flag(i.key, i.label, "int" if i.kind == "number" else "text") for i in check.inputs
    )


def game_odds(
    game_id: str, argv: Sequence[str], check_id: str | None = None
) -> dict[str, Fraction]:
    """Band → probability of one game's check (its first, or ``check_id``), set up from its
    command-line flags."""
    from rulesets import registry
    from rulesets.base import RuleError
    from rulesets.checks import Setup

    game = registry.game(game_id)
    check = game.checks.main
    if check_id is not None:
        found = [c for c in game.checks.checks if c.id == check_id]
        if not found:
            ids = ", ".join(c.id for c in game.checks.checks) or "none"
            raise UsageError(
                f"tableside odds: {game.name} has no check {check_id!r} (its checks: {ids})"
            )
        check = found[0]
    if check is None:
        raise UsageError(f"tableside odds: {game.name} states no check")
    flags = _flags(check)
    known = {f"--{f.name}" for f in flags}
    for word in argv:
        flag = word.split("=", 1)[0]
        if flag.startswith("--") and flag not in known and flag != "--help":
            options = ", ".join(sorted(known)) or "none"
            raise UsageError(
                f"tableside odds: {flag} is not an option of {game.name}'s {check.name} "
                f"(its options: {options})"
            )
    args = vars(_check_parser(game, check).parse_args(argv))
    given = {name: value for name, value in args.items() if value is not None}
    missing = [f"--{f.name}" for f in flags if f.required and f.name not in given]
    if missing:
        raise UsageError(f"tableside odds: --game {game.id} needs {' and '.join(missing)}")
    try:
        values = check.values_from_flags(given)
        return dict(check.spec(Setup(values)).odds())
    except (RuleError, ValueError) as exc:
        raise UsageError(f"tableside odds: {exc}") from None


def _bar(p: Fraction) -> str:
    return "█" * round(float(p) * BAR_WIDTH)


def cmd_odds(argv: Sequence[str]) -> int:
    """``tableside odds CHECK | --game ID ...``: bands or a distribution, exact."""
    from rulesets import odds

    parser = _odds_parser()
    # The game's own options are its check's to parse: first only what every form shares.
    shared = Parser(prog="tableside odds", add_help=False)
    _shared_options(shared)
    args, rest = shared.parse_known_args(argv)
    result: dict[str, dict[Any, Fraction]]
    notes: list[str] = []
    if args.game is not None:
        expression = [w for w in rest if not w.startswith("-")]
        if expression and not any(w.startswith("--") for w in rest):
            raise UsageError("tableside odds: give a dice expression or --game, not both")
        result = {"bands": game_odds(args.game, rest, args.check_id)}
    else:
        flags = [w for w in rest if w.startswith("--") and w not in ("--help",)]
        if flags:
            raise UsageError(
                f"tableside odds: {flags[0]} is an option of a game's check: add --game ID"
            )
        args = parser.parse_args(argv)
        if args.check is None:
            raise UsageError("tableside odds: give a dice expression or --game ID")
        try:
            result = odds.odds(args.check)
            notes = odds.notes(args.check)
        except odds.OddsError as exc:
            raise UsageError(f"tableside odds: {exc}") from None
    key, table = next(iter(result.items()))
    if args.json:
        # "exact" gives each probability as a fraction, for scripts that need it to the last digit.
        exact = {str(k): f"{v.numerator}/{v.denominator}" for k, v in table.items()}
        document: dict[str, Any] = {key: {str(k): float(v) for k, v in table.items()}}
        print_json({**document, "exact": exact, "notes": notes})
        return EXIT_OK
    width = max(len(str(k)) for k in table)
    for name, p in table.items():
        print(f"{str(name):>{width}}  {float(p):7.2%}  {_bar(p)}")
    for note in notes:
        print(f"note: {note}")
    return EXIT_OK


# --- tableside draw ----------------------------------------------------------------------------
def _draw_parser() -> Parser:
    from rulesets import registry

    p = Parser(
        prog="tableside draw",
        description="Draw cards from a campaign's deck (state saved) or a fresh shuffle of a "
        "game's deck. The decks are the game's own: --deck takes one of its deck ids.",
    )
    p.add_argument("--deck", default="", metavar="ID", help="the game's deck (default: its first)")
    p.add_argument(
        "--game",
        choices=registry.ids(),
        default=None,
        help="the game of a fresh shuffle (default: the default game, else the first game "
        "that has the deck); with --save, the save's game",
    )
    p.add_argument("--count", type=int, default=1, metavar="N", help="cards to draw (1..deck size)")
    p.add_argument("--save", type=Path, default=None, metavar="SAVE", help="campaign file")
    p.add_argument("--seed", type=int, default=None, help="seed for a fresh deck")
    p.add_argument("--json", action="store_true", help="one JSON object per card")
    return p


def _deck_of(game: Game, deck: str) -> DeckSpec[Any]:
    """The game's deck of that id ("" its first); one line if the game has no such deck."""
    from rulesets.decks import DeckError, deck_spec

    try:
        return deck_spec(game, deck)
    except DeckError as exc:
        raise UsageError(f"tableside draw: {exc}") from None


def _game_with_deck(game_id: str | None, deck: str) -> Game:
    """The game a save-less draw shuffles: the one named, else the default game if it has the
    deck, else the first installed game that has it (a game that fails to load is passed by)."""
    from rulesets import registry

    if game_id is not None:
        try:
            return registry.game(game_id)
        except registry.UnknownGame as exc:
            raise UsageError(f"tableside draw: {exc}") from None
    for candidate in dict.fromkeys([registry.DEFAULT, *registry.ids()]):
        try:
            game = registry.game(candidate)
        except registry.UnknownGame:
            continue
        if any(deck in (spec.id, "") for spec in game.decks):
            return game
    wanted = f"a deck {deck!r:.40}" if deck else "a deck of cards"
    raise UsageError(f"tableside draw: no installed game has {wanted}")


def _draw_from_save(path: Path, deck: str, count: int, game_id: str | None) -> list[dict[str, Any]]:
    from app.state import Campaign, CommandError
    from app.store import CampaignStore, StoreError
    from rulesets.decks import DrawCards, read_deck

    try:
        store = CampaignStore.open(path, create=False)
    except StoreError as exc:
        raise UsageError(f"tableside draw: {exc}") from None
    try:
        campaign = Campaign(store)
        game = campaign.game
        if game_id is not None and game_id != game.id:
            raise UsageError(f"tableside draw: the campaign plays {game.id}, not {game_id}")
        spec = _deck_of(game, deck)
        try:
            campaign.apply(DrawCards(spec.id, count))
        except CommandError as exc:
            raise UsageError(f"tableside draw: {exc}") from None
        _, after = read_deck(campaign.rows("decks"), spec, campaign.rows("party"))
        drawn = after.discard[-count:]
        return [c.to_dict() for c in drawn]
    finally:
        try:
            store.close()
        except StoreError as exc:
            raise UsageError(f"tableside draw: {exc}") from None


def cmd_draw(argv: Sequence[str]) -> int:
    """``tableside draw [--deck ID] [--game ID] [--count N] [--save SAVE] [--json]``."""
    from rulesets.decks import DeckError, DeckState

    args = _draw_parser().parse_args(argv)
    if args.count < 1:
        raise UsageError("tableside draw: --count must be 1 or more")
    if args.save is not None:
        path = args.save.expanduser().absolute()
        cards = _draw_from_save(path, args.deck, args.count, args.game)
    else:
        spec = _deck_of(_game_with_deck(args.game, args.deck), args.deck)
        if args.count > len(spec.cards):
            raise UsageError(
                f"tableside draw: --count must be between 1 and {len(spec.cards)} (the {spec.name})"
            )
        rng = random.Random(args.seed)
        state = DeckState.new(spec, rng)
        try:
            cards = [c.to_dict() for c in state.draw(rng, args.count).cards]
        except DeckError as exc:
            raise UsageError(f"tableside draw: {exc}") from None
    for card in cards:
        if args.json:
            print_json(card)
        else:
            turned = " (reversed)" if card["reversed"] else ""
            print_text(f"{card['name']}{turned}")
    return EXIT_OK

"""``tableside odds`` and ``tableside draw``: the tray's odds and cards from the command line.

Both follow :mod:`app.cli`: bad usage or input is a :class:`~app.cli.UsageError` (one line,
exit 2). ``draw --save`` goes through the same command path as the TUI (open the store,
``Campaign.apply(DrawCards)``, close) so the deck a script draws from is the table's deck.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from app.cli import EXIT_OK, UsageError, _Parser, _print_json, print_text

BAR_WIDTH = 30


# --- tableside odds ----------------------------------------------------------------------------
def _odds_parser() -> _Parser:
    p = _Parser(
        prog="tableside odds",
        description="Exact odds of a dice expression (optionally with a target, '2d6+1 >= 8') "
        "or of a game's check.",
    )
    p.add_argument("check", metavar="CHECK", nargs="?", default=None, help="dice expression")
    p.add_argument(
        "--game",
        choices=("somnihil", "resolution", "nemron", "aspects", "shadows"),
        help="odds of that game's check instead of an expression",
    )
    p.add_argument("--adv", action="store_true", help="somnihil: advantage")
    p.add_argument("--dis", action="store_true", help="somnihil: disadvantage")
    p.add_argument("--skill", type=int, default=0, help="aspects: skill bonus")
    p.add_argument("--opposing", type=int, default=0, help="aspects: the NPC's skill")
    p.add_argument("--pool", default=None, help="nemron: dice pool, e.g. d6,d10,d8")
    p.add_argument("--boon", default=None, help="nemron: lesser/greater boon or penalty")
    p.add_argument("--dc", type=int, default=None, help="nemron / resolution: the DC")
    p.add_argument("--dice", default="2d6", help="resolution: 2d6 or d20")
    p.add_argument("--mod", type=int, default=0, help="resolution: the modifier")
    p.add_argument("--draw", choices=("single", "three"), default="single", help="shadows")
    p.add_argument("--bonus", type=int, default=0, help="shadows: skill + attribute")
    p.add_argument("--difficulty", default="normal", help="shadows: Mundane … Absurd")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def game_odds(args: Any) -> dict[str, Fraction]:
    """Band → probability of one game's check, from that game's rules."""
    from rulesets import aspects, nemron, resolution, shadows, somnihil
    from rulesets.tarot import full_deck

    game = args.game
    try:
        if game == "somnihil":
            return somnihil.odds(somnihil.edge(int(args.adv), int(args.dis)))
        if game == "aspects":
            return aspects.odds(args.skill, args.opposing)
        if game == "nemron":
            if args.pool is None or args.dc is None:
                raise UsageError("tableside odds: --game nemron needs --pool and --dc")
            pool = [d for d in args.pool.split(",") if d.strip()]
            return nemron.odds(pool, args.dc, args.boon)
        if game == "resolution":
            return resolution.odds(8 if args.dc is None else args.dc, args.mod, args.dice)
        return shadows.draw_odds(full_deck("minor"), args.bonus, args.difficulty, args.draw)
    except (
        somnihil.RuleError,
        aspects.RuleError,
        nemron.RuleError,
        resolution.RuleError,
        shadows.RuleError,
    ) as exc:
        raise UsageError(f"tableside odds: {exc}") from None


def _bar(p: Fraction) -> str:
    return "█" * round(float(p) * BAR_WIDTH)


def cmd_odds(argv: Sequence[str]) -> int:
    """``tableside odds CHECK | --game ID ...``: bands or a distribution, exact."""
    from rulesets import odds

    args = _odds_parser().parse_args(argv)
    result: dict[str, dict[Any, Fraction]]
    if args.game is not None:
        if args.check is not None:
            raise UsageError("tableside odds: give a dice expression or --game, not both")
        result = {"bands": dict(game_odds(args))}
    else:
        if args.check is None:
            raise UsageError("tableside odds: give a dice expression or --game ID")
        try:
            result = odds.odds(args.check)
        except odds.OddsError as exc:
            raise UsageError(f"tableside odds: {exc}") from None
    key, table = next(iter(result.items()))
    if args.json:
        _print_json({key: {str(k): float(v) for k, v in table.items()}})
        return EXIT_OK
    width = max(len(str(k)) for k in table)
    for name, p in table.items():
        print(f"{str(name):>{width}}  {float(p):7.2%}  {_bar(p)}")
    return EXIT_OK


# --- tableside draw ----------------------------------------------------------------------------
def _draw_parser() -> _Parser:
    p = _Parser(
        prog="tableside draw",
        description="Draw tarot cards from a campaign's deck (state saved) or a fresh shuffle.",
    )
    p.add_argument("--deck", choices=("minor", "major"), default="minor")
    p.add_argument("--count", type=int, default=1, metavar="N", help="cards to draw (1..78)")
    p.add_argument("--save", type=Path, default=None, metavar="SAVE", help="campaign file")
    p.add_argument("--seed", type=int, default=None, help="seed for a fresh deck")
    p.add_argument("--json", action="store_true", help="one JSON object per card")
    return p


def _draw_from_save(path: Path, deck: str, count: int) -> list[dict[str, Any]]:
    from app.commands.cards import DrawCards, find_deck
    from app.state import Campaign, CommandError
    from app.store import CampaignStore, StoreError

    try:
        store = CampaignStore.open(path, create=False)
    except StoreError as exc:
        raise UsageError(f"tableside draw: {exc}") from None
    try:
        campaign = Campaign(store)
        try:
            campaign.apply(DrawCards(deck, count))  # type: ignore[arg-type]
        except CommandError as exc:
            raise UsageError(f"tableside draw: {exc}") from None
        _, after = find_deck(campaign.rows("decks"), deck)
        drawn = after.discard[-count:]
        return [c.to_dict() for c in drawn]
    finally:
        try:
            store.close()
        except StoreError as exc:
            raise UsageError(f"tableside draw: {exc}") from None


def cmd_draw(argv: Sequence[str]) -> int:
    """``tableside draw [--deck minor|major] [--count N] [--save SAVE] [--json]``."""
    from rulesets.tarot import DeckError, DeckState

    args = _draw_parser().parse_args(argv)
    if not 1 <= args.count <= 78:
        raise UsageError("tableside draw: --count must be between 1 and 78")
    if args.save is not None:
        cards = _draw_from_save(args.save.expanduser().absolute(), args.deck, args.count)
    else:
        rng = random.Random(args.seed)
        state = DeckState.new(args.deck, rng)
        try:
            cards = [c.to_dict() for c in state.draw(rng, args.count).cards]
        except DeckError as exc:
            raise UsageError(f"tableside draw: {exc}") from None
    for card in cards:
        if args.json:
            _print_json(card)
        else:
            turned = " (reversed)" if card["reversed"] else ""
            print_text(f"{card['name']}{turned}")
    return EXIT_OK

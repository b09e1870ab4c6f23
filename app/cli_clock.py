"""``tableside clock SAVE [--advance D | --rest D | --effort D] [--json]``: the campaign clock
from the command line, a contract for scripts.

Advancing goes through the same command path as the TUI (open the store under its lock,
``Campaign.apply(Advance)``, close), so a script's hour is the table's hour: undoable in the
next TUI session's log, refused while the TUI holds the save. ``--json`` prints one object:
``time`` (the in-game time as text), ``minutes`` (since the campaign began), ``day``, ``lines``
(what happened), ``effects`` (each timed effect with its minutes left) and ``came_up`` (what
an encounter check brought up, or null).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.cli_base import EXIT_OK, Parser, UsageError, print_json, print_text


def _parser() -> Parser:
    p = Parser(
        prog="tableside clock",
        description="Show the campaign's in-game time, or let time pass: D is a duration such "
        "as 10m, 1h, 8h, 2d or 1h30m. Time passing ticks timed effects, makes the encounter "
        "checks and applies the game's rules for time (a rest: its rest).",
    )
    p.add_argument("save", metavar="SAVE", type=Path, help="campaign file")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--advance", metavar="D", help="let D pass")
    how.add_argument("--rest", metavar="D", help="the party rests for D (the game's rest)")
    how.add_argument("--effort", metavar="D", help="D of hard effort (where the game prices it)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed for repeatable rolls")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _minutes(seconds: int) -> int | float:
    whole, part = divmod(seconds, 60)
    return whole if not part else seconds / 60


def report(data: dict[str, Any], game_id: str, lines: list[str]) -> dict[str, Any]:
    """The clock as ``--json`` prints it, from a campaign's ``meta`` document."""
    from rulesets import clock, registry

    rules = registry.game(game_id).time
    now = clock.read(data)
    came = now.came_up
    return {
        "time": now.text(rules),
        "minutes": _minutes(now.seconds),
        "day": now.day(),
        "lines": lines,
        "effects": [
            {"name": e.name, "on": e.on, "light": e.light, "minutes_left": _minutes(left)}
            for e, left in now.effects_left()
        ],
        "came_up": None if came is None else {"text": came.text, **came.to_dict()},
    }


def cmd_clock(argv: Sequence[str]) -> int:
    from app.commands.clock import Advance
    from app.state import Campaign, CommandError
    from app.store import CampaignStore, StoreError
    from rulesets import clock

    args = _parser().parse_args(argv)
    typed = [(a, d) for a, d in ((clock.TIME, args.advance), (clock.REST, args.rest),
                                 (clock.EFFORT, args.effort)) if d is not None]  # fmt: skip
    if typed:
        try:
            clock.parse_duration(typed[0][1])  # a bad duration never opens the save
        except clock.ClockError as exc:
            raise UsageError(f"tableside clock: {exc}") from None
    path = args.save.expanduser().absolute()
    try:
        store = CampaignStore.open(path, create=False)
    except StoreError as exc:
        raise UsageError(f"tableside clock: {exc}") from None
    try:
        campaign = Campaign(store, rng=random.Random(args.seed))
        lines: list[str] = []
        if typed:
            activity, duration = typed[0]
            try:
                lines = campaign.apply(Advance(duration, activity))
            except (CommandError, StoreError) as exc:
                raise UsageError(f"tableside clock: {exc}") from None
        result = report(campaign.meta, campaign.game.id, lines)
    finally:
        try:
            store.close()
        except StoreError as exc:
            raise UsageError(f"tableside clock: {exc}") from None
    if args.json:
        print_json(result)
        return EXIT_OK
    for line in lines:
        print_text(line)
    print_text(f"Now: {result['time']}")
    for effect in result["effects"]:
        on = f" ({effect['on']})" if effect["on"] else ""
        left = clock.duration_text(round(effect["minutes_left"] * 60))
        print_text(f"  {effect['name']}{on}: {left} left")
    if result["came_up"] is not None:
        print_text(f"Came up: {result['came_up']['text']}")
    return EXIT_OK

"""``tableside danger SAVE [--encounter NAME] [--runs N] [--seed S] --json``: how dangerous an
encounter is, the fight played out by its game's rules (:mod:`rulesets.danger`), a contract.

It prints ``{"runs": N, "party_wins": p, "party_wins_ci": [low, high], "foes_flee": p,
"rounds": {"median": m, "p90": q}, "drops": {"<PC name>": p, …}, "not_modelled": [...]}``.
Without ``--encounter`` it is the running encounter (the one the tracker has open, if it has
started; else the last started one), else the last one. The encounter matches by unique
prefix; an unknown or ambiguous name is exit 2 and one line. The same ``--seed`` prints the
same figures. It reads the save (even while the TUI holds it) and writes nothing beside it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.cli_base import EXIT_OK, Parser, UsageError, print_json, print_text

PROG = "tableside danger"
DEFAULT_RUNS = 2000
MAX_RUNS = 100_000


def _parser() -> Parser:
    p = Parser(
        prog=PROG,
        description="How dangerous an encounter is: the fight played out many times by the "
        "game's own rules; the chance the party wins, the rounds, each PC's chance to drop.",
    )
    p.add_argument("save", metavar="SAVE", type=Path, help="campaign file")
    p.add_argument(
        "--encounter",
        metavar="NAME",
        help="the encounter (default: the running one, else the last)",
    )
    p.add_argument(
        "--runs", type=int, default=DEFAULT_RUNS, metavar="N", help="fights to play (default 2,000)"
    )
    p.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed for repeatable figures"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def chosen_encounter(
    rows: Sequence[tuple[int, dict[str, Any]]], meta: dict[str, Any], typed: str | None
) -> int:
    """The encounter's id: the one named (unique prefix), else the running one, else the last."""
    from app.cli_attack import by_prefix

    if not rows:
        raise UsageError(f"{PROG}: the campaign has no encounter")
    if typed is not None:
        names = [(str(doc_id), str(doc.get("name", ""))) for doc_id, doc in rows]
        return int(by_prefix(names, typed, "encounter", PROG))
    started = [doc_id for doc_id, doc in rows if doc.get("started")]
    current = meta.get("current_encounter")
    if current in started:
        return int(current)
    if started:
        return started[-1]
    return max(doc_id for doc_id, _ in rows)


def estimate(path: Path, encounter: str | None, runs: int, seed: int | None) -> dict[str, Any]:
    """The estimate of the save's encounter, as the JSON prints it; nothing written."""
    from app.store import StoreError, read_campaign
    from rulesets import danger, registry
    from rulesets.base import RuleError

    if not 1 <= runs <= MAX_RUNS:
        raise UsageError(f"{PROG}: --runs is from 1 to {MAX_RUNS:,}, not {runs}")
    try:
        data = read_campaign(path)
    except StoreError as exc:
        raise UsageError(f"{PROG}: {exc}") from None
    meta = dict(next(iter(data.get("meta", {}).values()), {}))
    try:
        game = registry.game(str(meta.get("ruleset", "")))
    except (KeyError, ValueError) as exc:
        raise UsageError(f"{PROG}: {exc}") from None
    rows = [(int(k), dict(v)) for k, v in data.get("encounters", {}).items()]
    eid = chosen_encounter(rows, meta, encounter)
    rng = random.Random(seed)
    try:
        found = danger.estimate_encounter(data, game, eid, runs, rng)
        assert found is not None  # nothing stops it
    except RuleError as exc:
        raise UsageError(f"{PROG}: {exc}") from None
    except Exception as exc:  # a game's hook failed: one line, never a traceback
        raise UsageError(
            f"{PROG}: no estimate for this game ({type(exc).__name__}: {exc})"
        ) from None
    return danger.report(found)


def cmd_danger(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    path = args.save.expanduser().absolute()
    result = estimate(path, args.encounter, args.runs, args.seed)
    if args.json:
        print_json(result)
        return EXIT_OK
    low, high = result["party_wins_ci"]
    print_text(
        f"party wins {result['party_wins']:.0%} ({low:.0%}–{high:.0%}) · foes flee "
        f"{result['foes_flee']:.0%} · rounds {result['rounds']['median']} "
        f"(90%: {result['rounds']['p90']})"
    )
    for name, p in result["drops"].items():
        print_text(f"  {name} drops {p:.0%}")
    print_text("not modelled: " + "; ".join(result["not_modelled"]))
    return EXIT_OK

"""``tableside attack SAVE ATTACKER TARGET [--encounter NAME] [--seed N] [--defence TEXT]
[--dry-run] --json``: one exchange of the game's fight from the command line, a contract.

Names (the attacker, the target, the encounter) match by unique prefix, case aside; an exact
name wins over a longer one it begins. An unknown or ambiguous name is exit 2 and one line.

``--dry-run`` reads the save (even while the TUI holds it) and writes nothing; it prints the
exchange's exact odds: ``{"attacker", "target", "hit", "damage": {amount: p, …}, "drops",
"steps"}``. Without it the exchange is rolled and landed through the same command path as the
TUI (open the store under its lock, ``Campaign.apply(Attack)``, close; undoable as one change),
and it prints ``{"attacker", "target", "steps", "landed": {pool: [before, after], …}}``; while
the TUI holds the save it is exit 3 and one line. The same ``--seed`` prints the same output.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli_base import EXIT_OK, Parser, UsageError, print_json, print_text
from rulesets.danger import Scratch
from rulesets.text import named_by

if TYPE_CHECKING:
    from rulesets import encounter as er

EXIT_HELD = 3
"""The TUI holds the save: nothing was done."""


class SaveHeld(Exception):
    """The save is open in a Tableside: one line, exit 3."""


def _parser() -> Parser:
    p = Parser(
        prog="tableside attack",
        description="One attack of the game's fight: ATTACKER attacks TARGET (names by unique "
        "prefix). --dry-run prints the exact odds and writes nothing; else the attack is "
        "rolled and lands in the save.",
    )
    p.add_argument("save", metavar="SAVE", type=Path, help="campaign file")
    p.add_argument("attacker", metavar="ATTACKER", help="who attacks (a unique name prefix)")
    p.add_argument("target", metavar="TARGET", help="whom (a unique name prefix)")
    p.add_argument("--encounter", metavar="NAME", help="the encounter (default: the running one)")
    p.add_argument("--seed", type=int, default=None, metavar="N", help="seed for repeatable rolls")
    p.add_argument(
        "--defence", metavar="TEXT", default="", help="the defender's answer (default: the game's)"
    )
    p.add_argument("--dry-run", action="store_true", help="print the exact odds, write nothing")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def by_prefix(
    names: Sequence[tuple[str, str]], typed: str, what: str, prog: str = "tableside attack"
) -> str:
    """The key of the one name ``typed`` begins (case aside; an exact name wins)."""
    found = named_by(names, typed)
    if not found:
        known = ", ".join(name for _, name in names) or "none"
        raise UsageError(f"{prog}: no {what} named {typed!r} (there are: {known})")
    if len(found) > 1:
        raise UsageError(
            f"{prog}: {typed!r} is ambiguous: " + ", ".join(name for _, name in found)
        )
    return found[0][0]


class ReadOnly(Scratch):
    """The save's tables read as the danger estimate reads them, every write refused (the
    dry run)."""

    def get(self, table: str, doc_id: int) -> dict[str, Any]:
        found = self.find(table, doc_id)
        if found is None:
            raise UsageError(f"tableside attack: nothing with id {doc_id} in {table}")
        return found

    def _write(self) -> None:
        raise UsageError("tableside attack: a dry run writes nothing")

    def insert(self, table: str, doc: dict[str, Any]) -> int:
        self._write()
        return 0

    def put(
        self, table: str, doc_id: int, doc: dict[str, Any], *, handed_over: bool = False
    ) -> None:
        self._write()

    def remove(self, table: str, doc_id: int) -> None:
        self._write()

    def log_roll(self, who: str, result: Any, *, extra: dict[str, Any] | None = None) -> str:
        self._write()
        return ""


def _encounter(
    rows: list[tuple[int, dict[str, Any]]], meta: dict[str, Any], typed: str | None
) -> int:
    if not rows:
        raise UsageError("tableside attack: the campaign has no encounter")
    if typed is not None:
        names = [(str(doc_id), str(doc.get("name", ""))) for doc_id, doc in rows]
        return int(by_prefix(names, typed, "encounter"))
    wanted = meta.get("current_encounter")
    ids = [doc_id for doc_id, _ in rows]
    return wanted if wanted in ids else ids[0]


def _pair(enc: er.Encounter, attacker: str, target: str) -> tuple[str, str]:
    names = [(c.id, c.name) for c in enc.combatants]
    return by_prefix(names, attacker, "combatant"), by_prefix(names, target, "combatant")


def _number(p: Any) -> float:
    return float(p)


def dry_run(path: Path, args: Any) -> dict[str, Any]:
    """The exchange's exact odds, read from the save; nothing written."""
    from app.store import StoreError, read_campaign
    from rulesets import encounter as er
    from rulesets import exchange, registry
    from rulesets.base import RuleError
    from rulesets.fight import Fight

    try:
        data = read_campaign(path)
    except StoreError as exc:
        raise UsageError(f"tableside attack: {exc}") from None
    meta = dict(next(iter(data.get("meta", {}).values()), {}))
    game = registry.game(str(meta.get("ruleset", "")))
    tx = ReadOnly(data, game, random.Random(args.seed))
    rows = tx.all("encounters")
    eid = _encounter(rows, meta, args.encounter)
    doc = dict(rows[[r[0] for r in rows].index(eid)][1])
    try:
        enc = er.Encounter.from_dict(doc)
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"tableside attack: the encounter cannot be read: {exc}") from None
    attacker, target = _pair(enc, args.attacker, args.target)
    fight = Fight(tx, eid, doc, enc)
    try:
        setup = exchange.setup_of(fight, attacker, target, args.defence)
        found = exchange.odds(game.exchange, setup)
    except RuleError as exc:
        raise UsageError(f"tableside attack: {exc}") from None
    return {
        "attacker": found.attacker,
        "target": found.target,
        "hit": _number(found.hit),
        # 0 is always a key (with 0 where every outcome deals something: a Shock on a miss).
        "damage": {str(k): _number(v) for k, v in sorted({0: 0, **found.damage}.items())},
        "drops": _number(found.drops),
        "steps": list(found.steps),
    }


def land(path: Path, args: Any) -> dict[str, Any]:
    """The exchange rolled and landed in the save, through the TUI's command path."""
    from app.state import Campaign, CommandError
    from app.store import CampaignStore, SaveLocked, StoreError
    from rulesets import encounter as er
    from rulesets.exchange import Attack

    try:
        store = CampaignStore.open(path, create=False)
    except SaveLocked as exc:
        raise SaveHeld(f"tableside attack: {exc}") from None
    except StoreError as exc:
        raise UsageError(f"tableside attack: {exc}") from None
    try:
        campaign = Campaign(store, rng=random.Random(args.seed))
        eid = _encounter(campaign.rows("encounters"), campaign.meta, args.encounter)
        doc = campaign.doc("encounters", eid) or {}
        try:
            enc = er.Encounter.from_dict(doc)
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"tableside attack: the encounter cannot be read: {exc}") from None
        attacker, target = _pair(enc, args.attacker, args.target)
        report: dict[str, Any] = {}
        try:
            campaign.apply(
                Attack(eid, attacker_id=attacker, target_id=target, defence=args.defence,
                       report=report)
            )  # fmt: skip
        except CommandError as exc:
            raise UsageError(f"tableside attack: {exc}") from None
        return {
            "attacker": enc.get(attacker).name,
            "target": enc.get(target).name,
            "steps": report.get("steps", []),
            "landed": report.get("landed", {}),
        }
    finally:
        try:
            store.close()
        except StoreError as exc:
            raise UsageError(f"tableside attack: {exc}") from None


def cmd_attack(argv: Sequence[str]) -> int:
    import sys

    from rulesets.text import visible

    args = _parser().parse_args(argv)
    path = args.save.expanduser().absolute()
    try:
        result = dry_run(path, args) if args.dry_run else land(path, args)
    except SaveHeld as exc:
        sys.stderr.write(f"{visible(exc)}\n")
        return EXIT_HELD
    if args.json:
        print_json(result)
        return EXIT_OK
    print_text(f"{result['attacker']} → {result['target']}")
    for step in result["steps"]:
        print_text(f"  {step}")
    if args.dry_run:
        print_text(f"  hits {result['hit']:.1%} · drops {result['drops']:.1%}")
    else:
        for pool, (before, after) in result["landed"].items():
            print_text(f"  {pool}: {before} → {after}")
    return EXIT_OK

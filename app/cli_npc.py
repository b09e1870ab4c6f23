"""``tableside npc``, ``import`` and ``import-5e`` (NPC-01..NPC-03, NPC-09): a contract.

Attributes accepted by ``npc``: -3..+8 (the range of the text's first table, which is the
range the rules are checked against); HD for a quick build: 0..20 (the second table).
Anything else exits 2 with one line on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from app import importing
from app.cli_base import EXIT_BAD_INPUT, EXIT_OK, Parser, UsageError, print_json, print_text
from app.commands.npcs import import_summary
from rulesets import npc as npc_rules
from rulesets.npc import ATTRIBUTE_RANGE
from rulesets.text import visible

LOW, HIGH = ATTRIBUTE_RANGE.start, ATTRIBUTE_RANGE.stop - 1


def _npc_parser() -> Parser:
    p = Parser(
        prog="tableside npc",
        description="Print an NPC statblock from Brawl/Wit/Will, or the quick build of an HD.",
    )
    p.add_argument("--brawl", type=int, metavar="B", help=f"Brawl ({LOW:+d}..{HIGH:+d})")
    p.add_argument("--wit", type=int, metavar="W", help=f"Wit ({LOW:+d}..{HIGH:+d})")
    p.add_argument("--will", type=int, metavar="L", help=f"Will ({LOW:+d}..{HIGH:+d})")
    p.add_argument("--hd", type=int, metavar="N", help="quick build of HD N (0..20)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    return p


def statblock_text(block: npc_rules.NPC) -> str:
    """The readable statblock of ``tableside npc`` without --json."""
    lines = []
    if isinstance(block, npc_rules.QuickBuild):
        lines.append(f"Quick build HD {block.hd} (each attribute {block.stats:+d})")
        atk = f"Atk mod {block.atk_mod:+d}  Atks {block.attacks}  Atk Dmg {block.atk_dmg}"
    else:
        lines.append(f"Brawl {block.brawl:+d}  Wit {block.wit:+d}  Will {block.will:+d}")
        mods = "  ".join(f"{k.capitalize()} {v:+d}" for k, v in block.atk_mod.items())
        dmg = "  ".join(f"{k.capitalize()} {v}" for k, v in block.atk_dmg.items())
        atk = f"Atk mod {mods}\nAtks {block.attacks}  Atk Dmg {dmg}  Morale {block.morale}"
    lines.append(
        f"HD {block.hd}  AC {block.ac}  Hit die d{block.hit_die}  HP {block.hp} ({block.hp_roll})"
    )
    lines.append(atk)
    lines.append(
        f"Move {block.move} ft  Effort {block.effort}  Save {block.save}+  Shock {block.shock}"
        f"  Powers {block.powers}"
    )
    return "\n".join(lines)


def cmd_npc(argv: Sequence[str]) -> int:
    args = _npc_parser().parse_args(argv)
    attrs = (args.brawl, args.wit, args.will)
    block: npc_rules.NPC
    if args.hd is not None:
        if any(a is not None for a in attrs):
            raise UsageError("tableside npc: give either --hd or --brawl/--wit/--will, not both")
        if not 0 <= args.hd <= npc_rules.MAX_QUICK_HD:
            raise UsageError(
                f"tableside npc: --hd must be between 0 and {npc_rules.MAX_QUICK_HD}, not {args.hd}"
            )
        block = npc_rules.quick_build(args.hd)
    else:
        if any(a is None for a in attrs):
            raise UsageError("tableside npc: give --brawl, --wit and --will, or --hd")
        for name, value in zip(("--brawl", "--wit", "--will"), attrs, strict=True):
            if value not in ATTRIBUTE_RANGE:
                raise UsageError(
                    f"tableside npc: {name} must be between {LOW:+d} and {HIGH:+d}, not {value}"
                )
        block = npc_rules.build(args.brawl, args.wit, args.will)
    if args.json:
        print_json(block.to_json())
    else:
        print_text(statblock_text(block))
    return EXIT_OK


def conversion_json(conversion: npc_rules.Conversion) -> dict[str, Any]:
    """One monster of ``import-5e --json``: name, CR, attributes, then the statblock keys."""
    block = conversion.statblock
    return {
        "name": conversion.source_name,
        "cr": conversion.cr_text,
        "brawl": block.brawl,
        "wit": block.wit,
        "will": block.will,
        **block.to_json(),
        "hd_target": str(conversion.hd_target),
        "hd_off": str(conversion.hd_off),
        "acceptable": conversion.acceptable,
        "power_names": list(conversion.powers),
        "report": conversion.report(),
    }


SKIPPED_SHOWN = 5
"""At most this many lines about skipped entries; the last says how many more there were."""


def _import_parser(prog: str, what: str) -> Parser:
    p = Parser(prog=prog, description=what)
    p.add_argument("file", metavar="FILE", type=Path)
    p.add_argument("--save", metavar="SAVE", type=Path, help="add them to that campaign's library")
    p.add_argument("--json", action="store_true", help="the converted NPCs as JSON")
    return p


def _convert(prog: str, path: Path, *, only_5e: bool) -> importing.Converted:
    try:
        converted = importing.convert_file(path.expanduser(), only_5e=only_5e)
    except importing.ImportFileError as exc:
        raise UsageError(f"{prog}: {exc}") from None
    skipped = converted.skipped
    shown = skipped if len(skipped) <= SKIPPED_SHOWN else skipped[: SKIPPED_SHOWN - 1]
    for index, name, reason in shown:
        sys.stderr.write(visible(f"{prog}: skipped #{index} {name or '(no name)'}: {reason}") + "\n")
    if len(shown) < len(skipped):
        # A 50 MB file of another format is tens of thousands of entries: a screenful of
        # them says nothing the first few do not.
        sys.stderr.write(f"{prog}: skipped {len(skipped) - len(shown):,} more entries\n")
    return converted


def _print_conversions(conversions: Sequence[npc_rules.Conversion]) -> None:
    for c in conversions:
        b = c.statblock
        print_text(
            f"{c.source_name} (CR {c.cr_text}): Brawl {b.brawl:+d} Wit {b.wit:+d} "
            f"Will {b.will:+d}; HD {b.hd} AC {b.ac} HP {b.hp_text()}; {c.report()}"
        )


def cmd_import_5e(argv: Sequence[str]) -> int:
    prog = "tableside import-5e"
    args = _import_parser(
        prog, "Convert every monster of a 5e SRD JSON file into an NPC statblock."
    ).parse_args(argv)
    converted = _convert(prog, args.file, only_5e=True)
    conversions = list(converted.conversions)
    outcome = _save(prog, args.save, converted) if args.save is not None and conversions else None
    if args.json:
        print_json([conversion_json(c) for c in conversions])
        if outcome is not None:
            sys.stderr.write(f"{prog}: {import_summary(**outcome)}\n")
    else:
        _print_conversions(conversions)
        if outcome is not None:
            print_text(import_summary(**outcome))
    return EXIT_BAD_INPUT if converted.skipped else EXIT_OK


def cmd_import(argv: Sequence[str]) -> int:
    """``tableside import FILE [--save SAVE] [--no-fight] [--json]``: Improved Initiative or
    5e SRD JSON; an Improved Initiative encounter is recreated in the tracker too."""
    prog = "tableside import"
    parser = _import_parser(
        prog,
        "Convert the statblocks of an Improved Initiative library or encounter, or of a 5e SRD "
        "monster file (told apart by content), into NPC statblocks. With --save, an Improved "
        "Initiative encounter becomes a fight in the tracker: its order, HP, conditions, round "
        "and whose turn.",
    )
    parser.add_argument(
        "--no-fight", action="store_true", help="import an encounter's statblocks only"
    )
    args = parser.parse_args(argv)
    converted = _convert(prog, args.file, only_5e=False)
    if args.no_fight:
        converted = replace(converted, encounters=())
    conversions = list(converted.conversions)
    wanted = args.save is not None and (conversions or converted.encounters)
    outcome = _save(prog, args.save, converted) if wanted else None
    fights = (outcome or {}).pop("encounters", None)
    if args.json:
        print_json(
            {
                "format": converted.kind,
                **(outcome or {}),
                "skipped": len(converted.skipped),
                "npcs": [conversion_json(c) for c in conversions],
                **({"encounters": fights} if fights is not None else {}),
            }
        )
    else:
        print_text(f"{converted.kind}: {len(conversions)} statblock(s)")
        _print_conversions(conversions)
        if outcome and "added" in outcome:
            print_text(import_summary(**outcome))
        for fight in fights or ():
            state = f"round {fight['round']}" if fight["round"] else "not started"
            print_text(f"Encounter {fight['name']}: {fight['combatants']} combatant(s), {state}")
            if fight["left_out"]:
                print_text(f"  left out: {', '.join(fight['left_out'])}")
    return EXIT_BAD_INPUT if converted.skipped else EXIT_OK


def _save(prog: str, path: Path, converted: importing.Converted) -> dict[str, Any]:
    """Apply one import to the campaign: how many NPCs were added, updated and left alone,
    and (an encounter file) what each recreated fight holds."""
    from app.commands.encounter_import import ImportEncounters
    from app.commands.npcs import ImportNpcs
    from app.state import Campaign, CommandError
    from app.store import CampaignStore, StoreError

    try:
        store = CampaignStore.open(path.expanduser().absolute(), create=False)
    except StoreError as exc:
        raise UsageError(f"{prog}: {exc}") from None
    command: ImportNpcs | ImportEncounters = (
        ImportEncounters(converted.conversions, converted.encounters, converted.source_hp)
        if converted.encounters
        else ImportNpcs(converted.conversions, converted.kind)
    )
    try:
        Campaign(store).apply(command)
    except CommandError as exc:
        raise UsageError(f"{prog}: {exc}") from None
    finally:
        try:
            store.close()
        except StoreError as exc:
            raise UsageError(f"{prog}: {exc}") from None
    return dict(command.outcome)

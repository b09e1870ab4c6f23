"""The rows of a PC's detail pane: what each game tracks, read from the sheet, never computed.

Each row has a key saying what a key press on it edits (``res:ap``, ``attr:body``,
``item:spells:2`` ...). Derived maxes and costs come from the ruleset modules; GM-typed text is
wrapped with :func:`widgets.literal.literal` so it is never read as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from rulesets import tarot
from rulesets.aspects import rules as aspects
from rulesets.base import Character, Ruleset
from rulesets.nemron import rules as nemron
from rulesets.somnihil import rules as somnihil
from widgets.literal import literal
from widgets.resource_bar import resource_bar


@dataclass(frozen=True)
class FieldRow:
    """One line of the detail pane: ``key`` says what +/-, e, n and delete act on."""

    key: str
    label: Text
    value: Text


def _row(key: str, label: str, value: Text | str) -> FieldRow:
    shown = value if isinstance(value, Text) else Text(value)
    return FieldRow(key, Text(label, style="bold"), shown)


def _entry_text(game: str, key: str, entry: Any) -> Text:
    if not isinstance(entry, dict):
        return literal(entry)
    if game == "shadows" and key == "major_arcana":
        try:
            card = tarot.as_card(entry)
            text = literal(card.label, style="bold")
            text.append(" — ")
            text.append(literal(card.meaning()))
            return text
        except (ValueError, KeyError, TypeError):
            return literal(entry.get("name", "?"))
    text = literal(entry.get("name", "?"))
    if entry.get("protocol"):
        text.append(f"  ({entry['protocol']})", style="dim")
    if entry.get("negative"):
        text.append("  negative", style="red")
    if entry.get("healed_from"):
        text.append("  healed from ", style="dim")
        text.append(literal(entry["healed_from"], style="dim"))
    if entry.get("received"):
        text.append(f"  received {entry['received']}", style="dim")
    return text


def _list_header(ruleset: Ruleset, pc: Character, key: str, label: str) -> str:
    count = len(pc.get("lists", {}).get(key, []))
    if ruleset.id == "somnihil" and key == "spells":
        limit = somnihil.spells_known_limit(int(pc.get("sessions", 0)))
        known = ", ".join(somnihil.protocols_known(pc)) or "none yet"
        return f"{count}/{limit} known · Protocols: {known} (at most 2)"
    if ruleset.id == "aspects" and key == "aspects":
        return f"{count}/{aspects.PERMANENT_ASPECTS} permanent"
    if ruleset.id == "aspects" and key == "consequences":
        return f"{count}/{aspects.consequence_limit(pc)} held"
    if ruleset.id == "resolution" and key == "deliria":
        return f"{count} (permanent, never removed)"
    return str(count)


def field_rows(ruleset: Ruleset, pc: Character) -> list[FieldRow]:
    """Every row of the detail pane for one PC, in sheet order."""
    game = ruleset.id
    rows: list[FieldRow] = [
        FieldRow("name", Text("Name", style="bold"), literal(pc.get("name", ""))),
        _row("status", "Status", literal(pc.get("status", ""))),
    ]
    pools = pc.get("resources", {})
    for spec in ruleset.sheet.resources:
        pool = pools.get(spec.key, {})
        if spec.key in ("luck", "xp"):
            rows.append(_row(f"res:{spec.key}", spec.label, str(pool.get("current", 0))))
            continue
        bar = resource_bar(int(pool.get("current", 0)), int(pool.get("max", 0)))
        if spec.derive_max is not None:
            bar.append("  max derived", style="dim italic")
        rows.append(_row(f"res:{spec.key}", spec.label, bar))
    if game == "nemron":
        for limb, track in nemron.limbs_of(pc).items():
            bar = resource_bar(int(track["hp"]), int(track["max"]))
            rows.append(_row(f"limb:{limb}", nemron.limb_label(limb).capitalize(), bar))
    for attr in ruleset.sheet.attributes:
        value = int(pc.get("attributes", {}).get(attr.key, attr.default))
        shown = str(value)
        if game == "nemron":
            cost = nemron.rank_up_cost(value)
            shown = f"d{nemron.rank_die(value)}  (rank {value}; rank up {cost} XP)"
        rows.append(_row(f"attr:{attr.key}", attr.label, shown))
    if game == "aspects":
        pending = int(pc.get("advancements_pending", 0))
        rows.append(_row("level", "Advancements", f"{pending} pending · retire at 6"))
    if game == "nemron":
        skills = pc.get("skills", {})
        rows.append(_row("list:skills", "Skills", f"{len(skills)} · learn 1 XP"))
        for skill, rank in skills.items():
            die = f"d{nemron.rank_die(int(rank))}"
            text = literal(skill)
            text.append(f"  {die} (rank {rank}; rank up {nemron.rank_up_cost(int(rank))} XP)")
            rows.append(FieldRow(f"skill:{skill}", Text("  skill", style="dim"), text))
        domains = pc.get("domains", {})
        rows.append(_row("list:domains", "Domains", f"{len(domains)} · make one 2 XP"))
        for domain, features in domains.items():
            text = literal(domain)
            text.append(f"  features: {len(features)} (2 XP each) ", style="dim")
            text.append(literal(", ".join(str(f) for f in features)))
            rows.append(FieldRow(f"domain:{domain}", Text("  domain", style="dim"), text))
    for lspec in ruleset.sheet.lists:
        entries = pc.get("lists", {}).get(lspec.key, [])
        header = _list_header(ruleset, pc, lspec.key, "")
        rows.append(_row(f"list:{lspec.key}", lspec.label, header))
        for index, entry in enumerate(entries):
            rows.append(
                FieldRow(
                    f"item:{lspec.key}:{index}",
                    Text("  ·", style="dim"),
                    _entry_text(game, lspec.key, entry),
                )
            )
    rows.append(_row("notes", "Notes", literal(pc.get("notes", ""), limit=80)))
    return rows

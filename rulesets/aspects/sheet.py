"""Aspects on the party sheet: fate points by their cap, permanent and temporary aspects,
consequences that heal into negative aspects, advancements, and a new scene's fate point."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.aspects import rules
from rulesets.aspects.advantage import end_scene
from rulesets.base import Character, RuleError
from rulesets.clock import campaign_date
from rulesets.sheet import Adding, Parts, Rest, RestCall, SheetRow, SheetRules
from rulesets.table import Action, Command, Context, Field, PcChange, Tx, need_pc


def _fate(tx: Tx, pc: Character, delta: int) -> list[str]:
    """ASP-02: never more than five fate points; spending goes one at a time."""
    pool = pc.get("resources", {}).get("fate_points")
    if not isinstance(pool, dict):
        raise RuleError(f"{pc.get('name', '?')} has no fate_points")
    if delta > 0 and int(pool["current"]) >= rules.MAX_FATE_POINTS:
        raise RuleError(
            f"{pc['name']} already has {rules.MAX_FATE_POINTS} fate points, the max"
        )
    return rules.gain_fate(pc, delta) if delta > 0 else rules.spend_fate(pc)


def _count(key: str, pc: Character) -> int:
    return len(pc.get("lists", {}).get(key, []))


def _scene(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    return rules.new_scene(pc)


def _scene_aspects_end(tx: Tx, call: RestCall) -> list[str]:
    """A new scene: the last one's aspects end (ASP-04, :func:`advantage.end_scene`)."""
    return end_scene(tx)


def _no_removal(tx: Tx, pc: Character, name: str) -> list[str]:
    raise RuleError("a consequence heals into a negative aspect: press h on it")


def _consequence_entry(entry: Any) -> Parts | None:
    """ASP-07: a consequence with the campaign date it was received, and whether the clock has
    given it its time to heal (then ``h`` on it downgrades it)."""
    if not isinstance(entry, dict):
        return None
    parts: list[tuple[str, str]] = [(str(entry.get("name", "?")), "")]
    if entry.get("received"):
        parts.append((f"  received {entry['received']}", "dim"))
    if entry.get("due"):
        parts.append(("  due to heal: h downgrades it", "bold yellow"))
    return tuple(parts)


def _advancements(pc: Character) -> list[SheetRow]:
    pending = int(pc.get("advancements_pending", 0))
    return [
        SheetRow(
            "level", "Advancements", ((f"{pending} pending · retire at {rules.RETIRE_LEVEL}", ""),)
        )
    ]


SHEET = SheetRules(
    adjust={"fate_points": _fate},
    adding={
        "aspects": Adding(
            "Permanent aspect",
            lambda pc, target: (Field("text", "Aspect"),),
            lambda tx, pc, v: rules.add_aspect(pc, str(v.get("text", ""))),
        ),
        "temporary_aspects": Adding(
            "Temporary aspect",
            lambda pc, target: (Field("text", "Temporary aspect"),),
            lambda tx, pc, v: rules.add_temporary_aspect(
                pc, str(v.get("text", "")), today=campaign_date(tx)
            ),
        ),
    },
    remove={
        "temporary_aspects": lambda tx, pc, name: rules.remove_temporary_aspect(pc, name),
        "injuries": lambda tx, pc, name: rules.remove_temporary_aspect(pc, name),
        "consequences": _no_removal,
    },
    rename={"consequences": lambda tx, pc, old, new: rules.rename_consequence(pc, old, new)},
    entries={"consequences": _consequence_entry},
    headers={
        "aspects": lambda pc: f"{_count('aspects', pc)}/{rules.PERMANENT_ASPECTS} permanent",
        "consequences": lambda pc: f"{_count('consequences', pc)}/"
        f"{rules.consequence_limit(pc)} held",
    },
    rows=_advancements,
    rests={
        "session": Rest(_scene, before=_scene_aspects_end),
        "scene": Rest(_scene, before=_scene_aspects_end),
    },
)


def _consequence(ctx: Context) -> str:
    """The name of the highlighted consequence, or a refusal saying to highlight one."""
    kind, _, rest = ctx.row.partition(":")
    key, _, index = rest.partition(":")
    pc = ctx.pc
    entries = pc.get("lists", {}).get("consequences", []) if pc is not None else []
    if kind != "item" or key != "consequences" or not index.isdigit():
        raise RuleError("Highlight a consequence to heal it")
    if int(index) >= len(entries):
        raise RuleError("Highlight a consequence to heal it")
    entry = entries[int(index)]
    return str(entry.get("name", "")) if isinstance(entry, dict) else str(entry)


def _heal(ctx: Context, values: Mapping[str, Any]) -> Command:
    """ASP-07: the consequence becomes a negative aspect keeping its date received."""
    name = _consequence(ctx)
    healed_as = str(values.get("aspect", ""))

    def rule(tx: Tx, pc: Character) -> list[str]:
        return rules.downgrade_consequence(pc, name, healed_as, today=campaign_date(tx))

    return PcChange(need_pc(ctx, "Healing a consequence"), "Heal consequence", rule)


def _level_up(ctx: Context, values: Mapping[str, Any]) -> Command:
    """ASP-08: the next level; at the sixth the character retires."""
    return PcChange(need_pc(ctx, "Levelling up"), "Level up", lambda tx, pc: rules.level_up(pc))


ACTIONS: tuple[Action, ...] = (
    Action(
        "heal_consequence",
        "party",
        "h",
        "Heal consequence",
        _heal,
        description="Heal the highlighted consequence into a negative aspect",
        needs="pc",
        form=lambda ctx: (Field("aspect", "Negative aspect"),),
        title=lambda ctx: f"{_consequence(ctx)} heals into which negative aspect?",
    ),
    Action("level_up", "party", "l", "Level up", _level_up, needs="pc"),
)

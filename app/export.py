"""A campaign in other shapes: Improved Initiative's JSON, and a session log in Markdown.

Both read a campaign's data as :func:`app.store.read_campaign` returns it (the open store's
``data`` is the same shape), write nothing, and know no game: a game's own words come from the
log lines its rules wrote and from the ruleset's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from app.commands.npcs import npc_block
from app.store import atomic_write, export_document
from rulesets import improved_initiative as ii
from rulesets import registry
from rulesets.text import visible


class ExportError(ValueError):
    """Nothing to export as asked (a session that is not in the log); one line."""


# --- Improved Initiative ----------------------------------------------------------------------
def npc_statblock(npc: dict[str, Any]) -> dict[str, Any]:
    """One library NPC (an export row, with its ``id``) as an Improved Initiative statblock."""
    block = npc_block(npc)
    source = npc.get("source") if isinstance(npc.get("source"), dict) else {}
    cr = source.get("cr") if source and source.get("system") != "Without Number" else None
    return ii.statblock(
        key=f"tableside-npc-{npc['id']}",
        name=str(npc.get("name", "")),
        brawl=block.attribute("brawl"),
        wit=block.attribute("wit"),
        will=block.attribute("will"),
        block=block,
        concepts=[str(c) for c in npc.get("concepts", [])],
        powers=[str(p) for p in npc.get("powers", [])],
        cr=str(cr) if cr else None,
        description=str(npc.get("notes", "")),
    )


def _pc_statblock(pc: dict[str, Any] | None, name: str) -> dict[str, Any]:
    hp = _first_resource(pc)
    return {
        "Name": name,
        "HP": {"Value": hp[1] if hp else 0, "Notes": ""},
        "AC": {"Value": 10, "Notes": ""},
        "InitiativeModifier": 0,
        "Abilities": dict.fromkeys(ii.ABILITIES, 10),
        "Challenge": "",
        "Traits": [],
        "Actions": [],
        "Reactions": [],
        "LegendaryActions": [],
        "Player": "player",
    }


def _first_resource(pc: dict[str, Any] | None) -> tuple[int, int] | None:
    """(current, max) of a PC's first resource track: the one the tracker shows as its HP."""
    for value in (pc or {}).get("resources", {}).values():
        if isinstance(value, dict) and isinstance(value.get("max"), int):
            current = value.get("current")
            return (current if isinstance(current, int) else value["max"]), value["max"]
    return None


def _current_encounter(export: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any] | None:
    wanted = meta.get("current_encounter")
    fights = export["encounters"]
    return next((e for e in fights if e["id"] == wanted), fights[0] if fights else None)


def _tags(combatant: dict[str, Any]) -> list[dict[str, Any]]:
    tags = []
    for effect in combatant.get("conditions", []):
        tag: dict[str, Any] = {"Text": str(effect.get("name", ""))}
        if effect.get("remaining") is not None:
            tag["DurationRemaining"] = effect["remaining"]
            tag["DurationTiming"] = (
                "StartOfTurn" if effect.get("tick") == "turn_start" else "EndOfTurn"
            )
            tag["DurationCombatantId"] = effect.get("owner") or combatant.get("id")
        tags.append(tag)
    return tags


def ii_encounter(
    fight: dict[str, Any], library: dict[int, dict[str, Any]], party: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    """One encounter as Improved Initiative's: Combatants with their StatBlock, HP, order."""
    combatants = []
    for index, c in enumerate(fight.get("combatants", [])):
        stats = c.get("stats", {})
        ref = int(c["ref"]) if str(c.get("ref") or "").isdigit() else None
        if c.get("side") == "pc":
            pc = party.get(ref) if ref is not None else None
            block = _pc_statblock(pc, str(c.get("name", "")))
            hp = _first_resource(pc)
            current = hp[0] if hp else 0
        else:
            npc = library.get(ref) if ref is not None else None
            if npc is not None:
                block = npc_statblock(npc)
            else:
                block = _pc_statblock(None, str(c.get("name", "")))
                block["Player"] = ""
                block["HP"]["Value"] = int(stats.get("hp_max", stats.get("hp", 0)) or 0)
            current = int(stats.get("hp", block["HP"]["Value"]) or 0)
        combatants.append(
            {
                "Id": str(c.get("id", index)),
                "StatBlock": block,
                "CurrentHP": current,
                "TemporaryHP": int(stats.get("temp_hp", 0) or 0),
                "Initiative": c.get("initiative") or 0,
                "Alias": str(c.get("name", "")),
                "IndexLabel": index + 1,
                "Tags": _tags(c),
                "Hidden": bool(c.get("hidden")),
                "InterfaceVersion": "3.9.0",
            }
        )
    return {
        "Name": str(fight.get("name", "")),
        "Combatants": combatants,
        "RoundCounter": int(fight.get("round", 0) or 0),
        "ActiveCombatantId": fight.get("current"),
    }


def improved_initiative(data: dict[str, Any]) -> dict[str, Any]:
    """The NPC library and the current encounter, keyed as Improved Initiative's own export
    keys them (``ImprovedInitiative.Creatures.<id>``, ``ImprovedInitiative.SavedEncounters.<id>``)."""
    export = export_document(data)
    meta = next(iter(data["meta"].values()))
    library = {npc["id"]: npc for npc in export["npcs"]}
    party = {pc["id"]: pc for pc in export["party"]}
    doc: dict[str, Any] = {}
    creatures = [npc_statblock(npc) for npc in export["npcs"]]
    doc["ImprovedInitiative.Creatures"] = [c["Id"] for c in creatures]
    for creature in creatures:
        doc[ii.LIBRARY_PREFIX + creature["Id"]] = creature
    fight = _current_encounter(export, meta)
    if fight is not None:
        key = f"tableside-encounter-{fight['id']}"
        doc["ImprovedInitiative.SavedEncounters"] = [key]
        doc[ii.ENCOUNTER_PREFIX + key] = {"Id": key, **ii_encounter(fight, library, party)}
    return doc


# --- Markdown session log ---------------------------------------------------------------------
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<|~])")
"""What Markdown reads as formatting inside a line; every line here starts with "- " or a
heading's "#", so line-start marks (#, >, +) need no escape and the raw file stays readable."""


def md(text: object) -> str:
    """Typed text shown literally in Markdown (a name like ``*Bob*`` stays ``*Bob*``), every
    control, bidi or invisible character made visible (``␛``, ``⟨U+202E⟩``): a file written
    by ``L`` is read in a terminal or an editor as much as ``export`` is."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", visible(" ".join(str(text).split())))


@dataclass
class _Fight:
    name: str
    lines: list[str] = field(default_factory=list)


@dataclass
class _Session:
    number: int
    entries: list[dict[str, Any]] = field(default_factory=list)


def _sessions(log: list[dict[str, Any]]) -> list[_Session]:
    """The log cut at each "New session" section; what precedes the first is session 0
    (preparation), and a log with no section at all is session 1."""
    has_sections = any(e.get("kind") == "section" for e in log)
    sessions = [_Session(0 if has_sections else 1)]
    for entry in log:
        if entry.get("kind") == "section":
            sessions.append(_Session(sessions[-1].number + 1))
        sessions[-1].entries.append(entry)
    return [s for s in sessions if s.entries]


def _clock(at: object) -> str:
    try:
        return datetime.fromisoformat(str(at)).strftime("%H:%M")
    except ValueError:
        return ""


def _day(at: object) -> str:
    try:
        return datetime.fromisoformat(str(at)).strftime("%A %d %B %Y")
    except ValueError:
        return ""


def _line(entry: dict[str, Any]) -> str | None:
    kind = entry.get("kind")
    when = _clock(entry.get("at"))
    prefix = f"{when} · " if when else ""
    if kind == "roll":
        expression = str(entry.get("expression", ""))
        dice = entry.get("dice")
        shown = f" (dice {', '.join(map(str, dice))})" if isinstance(dice, list) and dice else ""
        band = f" — {md(entry['band'])}" if entry.get("band") else ""
        detail = str(entry.get("detail", ""))
        # A plain roll's detail repeats the expression and dice; a check's says more (the DC).
        more = f"; {md(detail)}" if detail and not detail.startswith(expression) else ""
        return (
            f"- {prefix}**{md(entry.get('who', ''))}** rolls {md(expression)} → "
            f"**{entry.get('total', '')}**{shown}{band}{more}"
        )
    if kind in ("event", None) and entry.get("text"):
        return f"- {prefix}{md(entry['text'])}"
    return None  # sections are headings; undo/redo notes are bookkeeping, not the story


FIGHT_START = "Start encounter"
FIGHT_END = "End encounter"


def _session_markdown(session: _Session) -> list[str]:
    first = next((e.get("at") for e in session.entries if e.get("at")), None)
    last = next((e.get("at") for e in reversed(session.entries) if e.get("at")), None)
    title = "Before the first session" if session.number == 0 else f"Session {session.number}"
    out = [f"## {title}", ""]
    if first:
        span = _clock(first) if _clock(first) == _clock(last) else f"{_clock(first)}–{_clock(last)}"
        out += [f"*{_day(first)}, {span}*", ""]
    fight: _Fight | None = None
    body: list[str] = []
    for entry in session.entries:
        label = entry.get("label")
        if label == FIGHT_START and fight is None:
            name = str(entry.get("text", "")).split(";")[0].removesuffix(" begins").strip()
            fight = _Fight(name or "Fight")
            body += [*([""] if body and body[-1] else []), f"### Fight: {md(fight.name)}", ""]
        line = _line(entry)
        if line is not None:
            body.append(line)
        if label == FIGHT_END and fight is not None:
            body.append("")
            fight = None
    while body and body[0] == "":
        body.pop(0)
    out += body or ["*Nothing happened yet.*"]
    return [*out, ""]


def markdown_log(data: dict[str, Any], session: int | None = None) -> str:
    """The campaign's events and rolls as Markdown, grouped by session and fight.

    Raises:
        ExportError: ``session`` is not in the log.
    """
    export = export_document(data)
    sessions = _sessions([{k: v for k, v in e.items() if k != "id"} for e in export["log"]])
    if session is not None:
        chosen = [s for s in sessions if s.number == session]
        if not chosen:
            have = ", ".join(str(s.number) for s in sessions) or "none"
            raise ExportError(f"no session {session} in the log (sessions: {have})")
        sessions = chosen
    try:
        game = registry.get(export["ruleset"]).name
    except (KeyError, ValueError):
        game = str(export["ruleset"])
    out = [f"# {md(export['name'])}: session log", "", f"{md(game)}", ""]
    if not sessions:
        out += ["*The log is empty.*", ""]
    for part in sessions:
        out += _session_markdown(part)
    return "\n".join(out).rstrip("\n") + "\n"


def last_session(data: dict[str, Any]) -> int:
    """The number of the session the log ends in."""
    sessions = _sessions(list(data.get("log", {}).values()))
    return sessions[-1].number if sessions else 1


def write_session_log(data: dict[str, Any], save: Path) -> Path:
    """The current session's Markdown, written atomically beside the save; returns the path."""
    number = last_session(data)
    target = save.with_name(f"{save.stem}-session-{number}.md")
    atomic_write(target, markdown_log(data, number).encode("utf-8"))
    return target

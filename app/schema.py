"""The save file's shape, its validation and its migrations.

A campaign is one TinyDB JSON file: ``{table: {doc_id: document}}``. The ``meta`` table holds one
document with ``schema_version``, ``ruleset`` and ``name``. Validation is strict about what the
app relies on and silent about extra keys, so a hand-edited save that keeps the shape still
opens, and one that breaks it is reported with the exact place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesets import registry

SCHEMA_VERSION = 2
"""v1: first release layout. v2: every roll-log entry carries ``kind`` and ``who``."""

TABLES = ("meta", "party", "npcs", "encounters", "log", "decks")


class SchemaError(ValueError):
    """The file parses as JSON but is not a campaign this version can open."""


def empty_campaign(ruleset: str, name: str) -> dict[str, Any]:
    return {
        "meta": {"1": {"schema_version": SCHEMA_VERSION, "ruleset": ruleset, "name": name}},
        **{table: {} for table in TABLES if table != "meta"},
    }


def _require(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise SchemaError(f"{where}: {what}")


def _check_str(doc: dict[str, Any], key: str, where: str) -> None:
    _require(isinstance(doc.get(key), str), where, f"'{key}' must be text")


def validate(data: Any) -> dict[str, Any]:
    """Raise :class:`SchemaError` naming the first problem; return the data (migrated)."""
    _require(isinstance(data, dict), "top level", "must be an object of tables")
    meta_table = data.get("meta")
    _require(
        isinstance(meta_table, dict) and len(meta_table) >= 1, "meta", "table missing or empty"
    )
    meta = next(iter(meta_table.values()))
    _require(isinstance(meta, dict), "meta", "document must be an object")
    version = meta.get("schema_version")
    _require(
        isinstance(version, int) and not isinstance(version, bool),
        "meta.schema_version",
        "missing or not a whole number",
    )
    _require(
        version <= SCHEMA_VERSION,
        "meta.schema_version",
        f"{version} is newer than this Tableside understands ({SCHEMA_VERSION}); upgrade Tableside",
    )
    _require(version >= 1, "meta.schema_version", f"{version} is not a known version")
    data = migrate(data, version)
    meta = next(iter(data["meta"].values()))
    _require(
        isinstance(meta.get("ruleset"), str) and registry.is_known(meta["ruleset"]),
        "meta.ruleset",
        f"{meta.get('ruleset')!r} is not an installed game ({', '.join(registry.ids())})",
    )
    _check_str(meta, "name", "meta")
    for table in TABLES:
        docs = data.setdefault(table, {})
        _require(isinstance(docs, dict), table, "must be an object of documents")
        for doc_id, doc in docs.items():
            where = f"{table}[{doc_id}]"
            _require(str(doc_id).isdigit(), where, "document id must be a number")
            _require(isinstance(doc, dict), where, "document must be an object")
            _CHECKS.get(table, lambda d, w: None)(doc, where)
    return data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "text": (lambda v: isinstance(v, str), "text"),
    "int": (_is_int, "a whole number"),
    "int?": (lambda v: v is None or _is_int(v), "a whole number or null"),
    "text?": (lambda v: v is None or isinstance(v, str), "text or null"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "list": (lambda v: isinstance(v, list), "a list"),
    "object": (lambda v: isinstance(v, dict), "an object"),
}

FIELDS: dict[str, dict[str, str]] = {
    "meta": {"current_encounter": "int?", "player_view": "object", "player_secret": "text"},
    "party": {
        "attributes": "object",
        "resources": "object",
        "lists": "object",
        "tracks": "object",
        "skills": "object",
        "domains": "object",
        "status": "text",
        "notes": "text",
        "playbook": "text",
        "sessions": "int",
        "advancements_pending": "int",
    },
    "npcs": {
        "concepts": "list",
        "brawl": "int",
        "wit": "int",
        "will": "int",
        "statblock": "object",
        "powers": "list",
        "notes": "text",
        "source": "object",
    },
    "encounters": {
        "id": "text",
        "model": "text",
        "combatants": "list",
        "round": "int",
        "current": "text?",
        "started": "bool",
        "ticked_round": "int",
        "next_seq": "int",
        "morale_due": "list",
    },
    "log": {"who": "text", "text": "text", "label": "text", "dice": "list"},
    "decks": {"kind": "text"},
}
"""The type of every field the panels read, checked where present (absent ones get defaults):
a hand-edited save with a wrong type is refused at open, naming the place, rather than
crashing a panel mid-session."""


def _check_fields(doc: dict[str, Any], table: str, where: str) -> None:
    for key, kind in FIELDS.get(table, {}).items():
        if key in doc:
            ok, what = _TYPES[kind]
            _require(ok(doc[key]), where, f"'{key}' must be {what}")


def _check_meta(doc: dict[str, Any], where: str) -> None:
    from app.player_view import SETTINGS_KEY, settings_problem

    _check_fields(doc, "meta", where)
    if SETTINGS_KEY in doc:
        problem = settings_problem(doc[SETTINGS_KEY])
        _require(problem is None, f"{where}.{SETTINGS_KEY}", str(problem))


def _check_named(doc: dict[str, Any], where: str) -> None:
    _check_str(doc, "name", where)


def _check_party(doc: dict[str, Any], where: str) -> None:
    _check_named(doc, where)
    _check_fields(doc, "party", where)
    for key, value in doc.get("attributes", {}).items():
        _require(_is_int(value), f"{where}.attributes.{key}", "must be a whole number")
    for key, res in doc.get("resources", {}).items():
        _require(
            isinstance(res, dict) and _is_int(res.get("current")) and _is_int(res.get("max")),
            f"{where}.resources.{key}",
            "needs whole-number 'current' and 'max'",
        )
    for key, items in doc.get("lists", {}).items():
        _require(isinstance(items, list), f"{where}.lists.{key}", "must be a list")
    for key, track in doc.get("tracks", {}).items():
        _require(isinstance(track, dict), f"{where}.tracks.{key}", "must be an object")


def _check_npc(doc: dict[str, Any], where: str) -> None:
    _check_named(doc, where)
    _check_fields(doc, "npcs", where)


def _check_encounter(doc: dict[str, Any], where: str) -> None:
    from rulesets.encounter import Encounter

    _check_named(doc, where)
    _check_fields(doc, "encounters", where)
    for index, combatant in enumerate(doc.get("combatants", [])):
        _require(isinstance(combatant, dict), f"{where}.combatants[{index}]", "must be an object")
    try:
        Encounter.from_dict(doc)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise SchemaError(f"{where}: cannot be read as an encounter ({exc})") from None


def _check_log(doc: dict[str, Any], where: str) -> None:
    _check_str(doc, "at", where)
    _check_str(doc, "kind", where)
    _check_fields(doc, "log", where)


def _check_deck(doc: dict[str, Any], where: str) -> None:
    from rulesets.tarot import DeckState

    _check_fields(doc, "decks", where)
    if doc.get("kind") in ("minor", "major"):
        try:
            DeckState.from_dict(doc)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise SchemaError(f"{where}: cannot be read as a deck ({exc})") from None


_CHECKS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "meta": lambda doc, where: _check_meta(doc, where),
    "party": _check_party,
    "npcs": _check_npc,
    "encounters": _check_encounter,
    "log": _check_log,
    "decks": _check_deck,
}


def _v1_to_v2(data: dict[str, Any]) -> None:
    for entry in data.get("log", {}).values():
        if isinstance(entry, dict):
            entry.setdefault("kind", "roll")
            entry.setdefault("who", "GM")


MIGRATIONS: dict[int, Callable[[dict[str, Any]], None]] = {1: _v1_to_v2}
"""``MIGRATIONS[n]`` upgrades a version-n campaign to n + 1 in place."""


def migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    while version < SCHEMA_VERSION:
        MIGRATIONS[version](data)
        version += 1
    for meta in data["meta"].values():
        meta["schema_version"] = SCHEMA_VERSION
    return data

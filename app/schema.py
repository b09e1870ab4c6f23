"""The save file's shape, its validation and its migrations.

A campaign is one TinyDB JSON file: ``{table: {doc_id: document}}``. The ``meta`` table holds one
document with ``schema_version``, ``ruleset`` and ``name``. Validation is strict about what the
app relies on and silent about extra keys, so a hand-edited save that keeps the shape still
opens, and one that breaks it is reported with the exact place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SCHEMA_VERSION = 2
"""v1: first release layout. v2: every roll-log entry carries ``kind`` and ``who``."""

TABLES = ("meta", "party", "npcs", "encounters", "log", "decks")
RULESET_IDS = ("somnihil", "resolution", "shadows", "nemron", "aspects")


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
        meta.get("ruleset") in RULESET_IDS,
        "meta.ruleset",
        f"{meta.get('ruleset')!r} is not one of {', '.join(RULESET_IDS)}",
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


def _check_named(doc: dict[str, Any], where: str) -> None:
    _check_str(doc, "name", where)


def _check_party(doc: dict[str, Any], where: str) -> None:
    _check_named(doc, where)
    for key in ("attributes", "resources"):
        if key in doc:
            _require(isinstance(doc[key], dict), where, f"'{key}' must be an object")
    for key, res in doc.get("resources", {}).items():
        _require(
            isinstance(res, dict)
            and isinstance(res.get("current"), int)
            and isinstance(res.get("max"), int),
            f"{where}.resources.{key}",
            "needs whole-number 'current' and 'max'",
        )


def _check_encounter(doc: dict[str, Any], where: str) -> None:
    _check_named(doc, where)
    _require(isinstance(doc.get("combatants", []), list), where, "'combatants' must be a list")
    _require(isinstance(doc.get("round", 0), int), where, "'round' must be a whole number")


def _check_log(doc: dict[str, Any], where: str) -> None:
    _check_str(doc, "at", where)
    _check_str(doc, "kind", where)


_CHECKS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "party": _check_party,
    "npcs": _check_named,
    "encounters": _check_encounter,
    "log": _check_log,
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

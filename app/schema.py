"""The save file's shape, its validation and its migrations.

A campaign is one TinyDB JSON file: ``{table: {doc_id: document}}``. The ``meta`` table holds one
document with ``schema_version``, ``ruleset`` and ``name``. Validation is strict about what the
app relies on and silent about extra keys, so a hand-edited save that keeps the shape still
opens, and one that breaks it is reported with the exact place.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, cast

from rulesets import registry
from rulesets.base import RuleError

SCHEMA_VERSION = 3
"""v1: first release layout. v2: every roll-log entry carries ``kind`` and ``who``. v3: the
campaign clock, ``meta.clock`` (:mod:`rulesets.clock`)."""

TABLES = ("meta", "party", "npcs", "encounters", "log", "decks")


MAX_DEPTH = 32
"""Deepest nesting a save may have (a campaign needs about 8). orjson writes at most 255 levels
and Python's recursion stops near 1,000: a save nested deeper is refused, not half-read."""

MAX_NUMBER = 2**53
"""The largest whole number a save may hold anywhere."""

_DOC_ID = re.compile(r"[1-9][0-9]{0,14}")
"""A document id as TinyDB writes it: ASCII digits, no leading zero (so "1" and "01" cannot
both exist and collide as the same row), small enough to be an exact JSON number."""


class SchemaError(ValueError):
    """The file parses as JSON but is not a campaign this version can open."""


def empty_campaign(ruleset: str, name: str) -> dict[str, Any]:
    from rulesets.clock import CLOCK_KEY, Clock

    meta: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "ruleset": ruleset, "name": name}
    if registry.is_known(ruleset) and (layout := registry.game(ruleset).save_version) > 1:
        meta[GAME_VERSION] = layout
    return {
        "meta": {"1": {**meta, CLOCK_KEY: Clock().to_dict()}},
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
    _check_depth(data)
    meta_table = data.get("meta")
    _require(
        isinstance(meta_table, dict) and len(meta_table) >= 1, "meta", "table missing or empty"
    )
    # The app reads the campaign's own document as meta id 1; another id (or a second one)
    # would open and then fail in every panel.
    _require(list(meta_table) == ["1"], "meta", "must hold exactly one document, with id 1")
    meta = meta_table["1"]
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
    if not (isinstance(meta.get("ruleset"), str) and registry.is_known(meta["ruleset"])):
        # Listing the installed games reads every package's metadata: only when refusing.
        installed = ", ".join(registry.ids())
        _require(
            False, "meta.ruleset", f"{meta.get('ruleset')!r} is not an installed game ({installed})"
        )
    migrate_game(data, meta)
    _check_str(meta, "name", "meta")
    for table in TABLES:
        docs = data.setdefault(table, {})
        _require(isinstance(docs, dict), table, "must be an object of documents")
        for doc_id, doc in docs.items():
            _check_document(table, doc_id, doc, meta["ruleset"])
    return cast(dict[str, Any], data)


def check_document(
    table: str, doc_id: str, doc: Any, game: str, *, before: Any = None
) -> None:
    """Refuse one document the reader would refuse (:class:`SchemaError` naming the field).

    The store's last line of defence: every document a change writes is checked by the same
    rules as a save being opened, so no change can make a save Tableside would not open.
    ``before``: the document as it was stored before the change (so already checked); an
    encounter's combatants equal to theirs there are not read again (at 300 combatants, reading
    them all was a cost on every tracker key).
    """
    _require(table in TABLES, table, "is not a table of a campaign")
    where = f"{table}[{doc_id}]"
    unchanged = _unchanged_combatants(doc, before) if table == "encounters" else frozenset()
    if not unchanged:
        _check_numbers(doc, where, 3)
        _check_document(table, doc_id, doc, game)
        return
    _check_numbers({k: v for k, v in doc.items() if k != "combatants"}, where, 3)
    for index, combatant in enumerate(doc["combatants"]):
        if index not in unchanged:  # in the list's place, so a refusal names its index
            _check_numbers({index: combatant}, f"{where}.combatants", 4)
    _check_document(table, doc_id, doc, game, unchanged)


def _unchanged_combatants(doc: Any, before: Any) -> frozenset[int]:
    """The indices of ``doc``'s combatants that ``before`` (checked when it was stored) holds
    as they are, by id."""
    if not (isinstance(doc, dict) and isinstance(before, dict)):
        return frozenset()
    now, then = doc.get("combatants"), before.get("combatants")
    if not (isinstance(now, list) and isinstance(then, list)):
        return frozenset()
    prior = {c.get("id"): c for c in then if isinstance(c, dict)}
    return frozenset(
        index
        for index, combatant in enumerate(now)
        if isinstance(combatant, dict) and prior.get(combatant.get("id")) == combatant
    )


def _check_document(
    table: str, doc_id: str, doc: Any, game: str, unchanged: frozenset[int] = frozenset()
) -> None:
    where = f"{table}[{doc_id}]"
    _require(
        _DOC_ID.fullmatch(doc_id) is not None,
        where,
        "document id must be a number: 1 or more in digits 0-9, "
        "no leading zeros, at most 15 digits",
    )
    _require(isinstance(doc, dict), where, "document must be an object")
    if table == "party":
        _check_party(doc, where, game)
    elif table == "decks":
        _check_deck(doc, where, game)
    elif table == "encounters":
        _check_encounter(doc, where, game, unchanged)
    else:
        _CHECKS[table](doc, where)


def _check_depth(data: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and numbers no reader keeps exactly,
    without recursing (a hostile save may nest thousands deep)."""
    _check_numbers(data, "", 1)


def _check_numbers(root: Any, where: str, depth: int) -> None:
    """:func:`_check_depth` for ``root`` found at ``depth`` (the top level is 1) at ``where``.

    Each node carries its place only as a parent link, so a save of a million values costs
    no string until one is refused; the refusal names the field (``encounters[3].round``).
    """
    # Every change checks the documents it wrote, and a 300-combatant encounter holds some
    # 2,500 numbers: exact types first (JSON only makes these), the rest by isinstance.
    stack: list[tuple[Any, int, tuple[Any, ...] | None]] = [(root, depth, None)]
    while stack:
        node, level, place = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            kind = type(child)
            if kind is str or kind is bool or child is None:
                continue
            if kind is int:
                if -MAX_NUMBER <= child <= MAX_NUMBER:
                    continue
                raise SchemaError(f"{_place(where, (place, key))}: {child} is too large")
            if isinstance(child, int | float) and not isinstance(child, bool):
                problem = _number_problem(child)
                if problem is not None:
                    raise SchemaError(f"{_place(where, (place, key))}: {problem}")
            elif isinstance(child, dict | list):
                if level >= MAX_DEPTH:
                    raise SchemaError(
                        f"{_place(where, (place, key)) or 'top level'}: nested more than "
                        f"{MAX_DEPTH} levels deep; a campaign never is"
                    )
                stack.append((child, level + 1, (place, key)))


def _number_problem(value: int | float) -> str | None:
    # Past 2**53 a number is not exact in JSON readers, and past 64 bits orjson cannot write
    # the save back: every later change would be refused. orjson writes NaN and infinity as
    # null, which would turn a count into nothing.
    if isinstance(value, float):
        return (
            None
            if math.isfinite(value) and abs(value) <= MAX_NUMBER
            else (f"{value} is not a number a save can hold")
        )
    return None if abs(value) <= MAX_NUMBER else f"{value} is too large"


def _place(where: str, link: tuple[Any, ...] | None) -> str:
    """The dotted place of a parent link: ``npcs[1].source.hp``, ``party[2].lists.spells[3]``."""
    keys: list[Any] = []
    while link is not None:
        link, key = link
        keys.append(key)
    text = where
    for depth, key in enumerate(reversed(keys)):
        # A list index, or (in a whole save) a document id under its table: in brackets.
        if isinstance(key, int) or (not where and depth == 1):
            text += f"[{key}]"
        else:
            text += f".{key}" if text else str(key)
    return text


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "text": (lambda v: isinstance(v, str), "text"),
    "int": (_is_int, "a whole number"),
    "int?": (lambda v: v is None or _is_int(v), "a whole number or null"),
    "text?": (lambda v: v is None or isinstance(v, str), "text or null"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "list": (lambda v: isinstance(v, list), "a list"),
    "texts": (_texts, "a list of texts"),
    "ints": (
        lambda v: isinstance(v, list) and all(_is_int(i) for i in v),
        "a list of whole numbers",
    ),
    "object": (lambda v: isinstance(v, dict), "an object"),
}

FIELDS: dict[str, dict[str, str]] = {
    "meta": {
        "current_encounter": "int?",
        "player_view": "object",
        "player_secret": "text",
        "game_version": "int",
    },
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
        "concepts": "texts",
        "brawl": "int",
        "wit": "int",
        "will": "int",
        "quick_hd": "int?",
        "statblock": "object",
        "powers": "texts",
        "notes": "text",
        "source": "object",
        "effort_left": "text",
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
    "log": {"who": "text", "text": "text", "label": "text", "dice": "ints"},
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
    from app.player_settings import SETTINGS_KEY, settings_problem
    from rulesets.clock import CLOCK_KEY, clock_problem

    _check_fields(doc, "meta", where)
    if SETTINGS_KEY in doc:
        problem = settings_problem(doc[SETTINGS_KEY])
        _require(problem is None, f"{where}.{SETTINGS_KEY}", str(problem))
    if CLOCK_KEY in doc:
        problem = clock_problem(doc[CLOCK_KEY])
        _require(problem is None, f"{where}.{CLOCK_KEY}", str(problem))


def _check_named(doc: dict[str, Any], where: str) -> None:
    _check_str(doc, "name", where)


def _check_party(doc: dict[str, Any], where: str, game: str) -> None:
    _check_named(doc, where)
    _check_fields(doc, "party", where)
    for key, value in doc.get("attributes", {}).items():
        _require(_is_int(value), f"{where}.attributes.{key}", "must be a whole number")
        low, high = _attribute_range(game, key)
        _require(low <= value <= high, f"{where}.attributes.{key}", f"must be from {low} to {high}")
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
    from rulesets.registry import game as game_of

    # What only the game can read (a Nemron skill rank 0..4): its own check, named by field.
    for field, reason in game_of(game).sheet.problems_of(doc):
        _require(False, f"{where}.{field}", reason)


def _attribute_range(game: str, key: str) -> tuple[int, int]:
    """The game's range for a sheet attribute (the one the party panel enforces)."""
    from rulesets.registry import get

    spec = next((a for a in get(game).sheet.attributes if a.key == key), None)
    return (spec.minimum, spec.maximum) if spec is not None else (-99, 99)


def _check_npc(doc: dict[str, Any], where: str) -> None:
    from rulesets.npc import CONVERTED_RANGE, MAX_QUICK_HD

    _check_named(doc, where)
    _check_fields(doc, "npcs", where)
    # The statblock is rebuilt from these on every draw, one line per power slot: an
    # attribute of 300000 would hang the panel, so the range the builder keeps is the limit.
    low, high = CONVERTED_RANGE.start, CONVERTED_RANGE.stop - 1
    for key in ("brawl", "wit", "will"):
        if key in doc:
            _require(low <= doc[key] <= high, f"{where}.{key}", f"must be from {low} to {high}")
    if doc.get("quick_hd") is not None:
        _require(
            0 <= doc["quick_hd"] <= MAX_QUICK_HD,
            f"{where}.quick_hd",
            f"must be from 0 to {MAX_QUICK_HD}",
        )
    # The panel, the tracker and `export --format ii` rebuild the statblock from the document:
    # whatever the rules refuse there (four concepts) is refused here, on opening.
    from rulesets.npc import NPCError, library_block

    try:
        library_block(doc)
    except NPCError as exc:
        field = "concepts" if "concepts" in str(exc) else "statblock"
        _require(False, f"{where}.{field}", str(exc))


def _check_encounter(
    doc: dict[str, Any], where: str, game: str, unchanged: frozenset[int] = frozenset()
) -> None:
    from rulesets.encounter import Combatant, Encounter
    from rulesets.registry import game as game_of
    from rulesets.turn_orders import turn_order

    _check_named(doc, where)
    _check_fields(doc, "encounters", where)
    # A turn order is the built-ins' or the game's own: only the game can say which ids exist.
    try:
        turn_order(str(doc.get("model", "initiative")), game_of(game))
    except ValueError as exc:
        raise SchemaError(f"{where}: cannot be read as an encounter ({exc})") from None
    combatants = doc.get("combatants", [])
    if unchanged and isinstance(combatants, list):
        # Those equal to the stored ones were read when they were stored.
        combatants = [c for index, c in enumerate(combatants) if index not in unchanged]
    for index, combatant in enumerate(doc.get("combatants", [])):
        if index not in unchanged:
            _require(
                isinstance(combatant, dict), f"{where}.combatants[{index}]", "must be an object"
            )
    try:
        Encounter.from_dict({**doc, "combatants": combatants}, combatant=Combatant.from_dict)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise SchemaError(f"{where}: cannot be read as an encounter ({exc})") from None


def _check_log(doc: dict[str, Any], where: str) -> None:
    _check_str(doc, "at", where)
    _check_str(doc, "kind", where)
    _check_fields(doc, "log", where)


def _check_deck(doc: dict[str, Any], where: str, game: str) -> None:
    """A document of one of the game's declared decks must be that whole deck; another kind
    (a game's running contest) is the game's own."""
    from rulesets.decks import DeckState
    from rulesets.registry import game as game_of

    _check_fields(doc, "decks", where)
    for spec in game_of(game).decks:
        if doc.get("kind") == spec.id:
            try:
                DeckState.from_dict(doc, spec)
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise SchemaError(f"{where}: cannot be read as a deck ({exc})") from None


_CHECKS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "meta": _check_meta,
    "npcs": _check_npc,
    "log": _check_log,
}


def _v1_to_v2(data: dict[str, Any]) -> None:
    for entry in data.get("log", {}).values():
        if isinstance(entry, dict):
            entry.setdefault("kind", "roll")
            entry.setdefault("who", "GM")


def _v2_to_v3(data: dict[str, Any]) -> None:
    """The campaign clock: an old save's clock starts now, at Day 1, 08:00."""
    from rulesets.clock import CLOCK_KEY, Clock

    for meta in data.get("meta", {}).values():
        if isinstance(meta, dict):
            meta.setdefault(CLOCK_KEY, Clock().to_dict())


MIGRATIONS: dict[int, Callable[[dict[str, Any]], None]] = {1: _v1_to_v2, 2: _v2_to_v3}
"""``MIGRATIONS[n]`` upgrades a version-n campaign to n + 1 in place."""


GAME_VERSION = "game_version"
"""``meta`` key: the version of the game's own save layout (:attr:`Game.save_version`); absent
is 1, and a game still at 1 writes none."""


def migrate_game(data: dict[str, Any], meta: dict[str, Any]) -> None:
    """The game's own migrations (:attr:`Game.migrations`) bring a save of an older layout of
    the game's sheets up to its :attr:`Game.save_version`, after Tableside's own; a save of a
    newer layout is refused, and a migration that fails is the game's fault, in one line."""
    try:
        game = registry.game(meta["ruleset"])
    except registry.UnknownGame:
        return  # a game that cannot load: opening the save says so, in one line
    have = meta.get(GAME_VERSION, 1)
    if not _is_int(have):
        return  # the field check names it ("must be a whole number")
    where = f"meta.{GAME_VERSION}"
    _require(have >= 1, where, f"{have!r} is not a version of {game.name}'s saves")
    _require(
        have <= game.save_version,
        where,
        f"{have} is newer than the installed {game.name} understands ({game.save_version}); "
        "upgrade the game",
    )
    while have < game.save_version:
        step = game.migrations.get(have)
        _require(step is not None, where, f"{game.name} has no migration from its version {have}")
        assert step is not None
        try:
            step(data)
        except RuleError as exc:  # the game's refusal, or its hook's failure (named)
            _require(False, where, f"{game.name} could not migrate version {have}: {exc}")
        have += 1
    if have > 1:
        meta[GAME_VERSION] = have


def migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    while version < SCHEMA_VERSION:
        MIGRATIONS[version](data)
        version += 1
    for meta in data["meta"].values():
        meta["schema_version"] = SCHEMA_VERSION
    return data

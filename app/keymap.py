"""Keys the GM chooses: a TOML keymap in the user config folder, applied with Textual's
``App.set_keymap`` to the binding ids (every Binding has an ``id=``).

The file maps binding ids to keys; a dotted id may be written quoted or as TOML tables::

    "combat.next_turn" = "space"      # or, the same:  [combat]  next_turn = "space"
    "app.undo" = ["u", "ctrl+z"]      # a list, or "u,ctrl+z"

A bad file (not TOML, an unknown id, a misspelt key, a key taken twice in one panel) is reported in one line
naming the file and the line; then no key of it is used (half a keymap can put two actions
on one key), and the file is never written.

The ids come from the App's and each panel's ``BINDINGS``, found through the App's ``MODES``,
plus any list fed in through :func:`register_bindings` (a game's own actions), so nothing here
names a panel or a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from textual.binding import Binding
from textual.keys import Keys, key_to_character

from app.bounded import FileReadError, read_regular_file
from app.paths import APP_NAME
from rulesets.values import frozen

KEYMAP_FILE = "keys.toml"
MAX_KEYMAP_BYTES = 256 * 1024
"""Every binding given three keys with comments is ~20 KB; more is not a keymap."""
EVERYWHERE = "everywhere"
"""The group of the App's own bindings: they are live in every panel."""

_EXTRA: dict[str, list[Binding]] = {}


def keymap_path() -> Path:
    """``keys.toml`` in the user config folder (platformdirs)."""
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False) / KEYMAP_FILE


def register_bindings(group: str, bindings: Iterable[Binding]) -> None:
    """Feed in bindings that are not in a panel's ``BINDINGS`` (a game's own actions), so
    the keymap accepts their ids, checks their keys against the group's, and ``tableside
    keys`` lists them. ``group`` is the panel (mode) they are live in."""
    known = {b.id for b in _EXTRA.get(group, [])}
    _EXTRA.setdefault(group, []).extend(b for b in bindings if b.id not in known)


def _own_bindings(cls: type) -> list[Binding]:
    """The Bindings with an id in ``cls.BINDINGS`` and its bases' (subclass first)."""
    found: list[Binding] = []
    seen: set[str] = set()
    for klass in cls.__mro__:
        for binding in klass.__dict__.get("BINDINGS", []):
            if isinstance(binding, Binding) and binding.id and binding.id not in seen:
                seen.add(binding.id)
                found.append(binding)
    return found


@frozen
class Group:
    """The bindings live together: the App's (everywhere) or one panel's."""

    name: str
    title: str
    bindings: tuple[Binding, ...]


def binding_groups(app_class: type) -> list[Group]:
    """Every binding id the keymap may name, by panel: the App's, then each mode's screen
    (made through the App's ``MODES`` factories: this imports every panel)."""
    groups = [Group(EVERYWHERE, "Everywhere", tuple(_own_bindings(app_class)))]
    modes: Mapping[str, Any] = getattr(app_class, "MODES", {})
    for name, make in modes.items():
        screen_class = make if isinstance(make, type) else type(make()) if callable(make) else None
        if screen_class is None:
            continue
        title = str(getattr(screen_class, "PANEL_TITLE", "") or name)
        bindings = [*_own_bindings(screen_class), *_EXTRA.get(name, [])]
        groups.append(Group(name, title, tuple(bindings)))
    for name, extra in _EXTRA.items():
        if name not in modes and name != EVERYWHERE:
            groups.append(Group(name, name, tuple(extra)))
    if _EXTRA.get(EVERYWHERE):
        groups[0] = Group(EVERYWHERE, "Everywhere", (*groups[0].bindings, *_EXTRA[EVERYWHERE]))
    return groups


_SPLIT_BY_BINDING = {",": "comma", " ": "space"}
"""Characters Textual's Binding cannot be given alone (it splits on commas, strips spaces)."""


def character_key(character: str) -> str:
    """Textual's name for the key that types ``character`` (``?``: ``question_mark``)."""
    if character in _SPLIT_BY_BINDING:
        return _SPLIT_BY_BINDING[character]
    return next(iter(Binding.make_bindings([Binding(character, "")]))).key


def key_names(keys: str) -> list[str]:
    """A comma-separated key list (``"u, ?, ctrl+z"``) as Textual names the keys, as a
    Binding reads it: ``["u", "question_mark", "ctrl+z"]``; empty entries are dropped."""
    names = []
    for entry in keys.split(","):
        key = entry.strip()
        if key:
            names.append(character_key(key) if len(key) == 1 else key)
    return names


def keys_of(binding: Binding, keymap: Mapping[str, str]) -> list[str]:
    """The keys a binding answers to once ``keymap`` is applied (Textual's long names)."""
    chosen = keymap.get(binding.id or "") or binding.key
    return key_names(chosen)


# --- reading the file -------------------------------------------------------------------------
_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_ASSIGN = re.compile(r"^\s*([^=#\[]+?)\s*=")
_PART = re.compile(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+)")


def _dotted(text: str) -> str:
    return ".".join(next(g for g in m.groups() if g is not None) for m in _PART.finditer(text))


def entry_lines(text: str) -> dict[str, int]:
    """Line number (1-based) of each id the file assigns, tables included."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), 1):
        if header := _HEADER.match(line):
            table = _dotted(header.group(1))
        elif assign := _ASSIGN.match(line):
            key = _dotted(assign.group(1))
            lines.setdefault(f"{table}.{key}" if table else key, number)
    return lines


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            flat.update(_flatten(value, name))
        else:
            flat[name] = value
    return flat


_MODIFIERS = frozenset({"ctrl", "alt", "shift", "meta", "super", "hyper"})
_NAMED_KEYS = frozenset(
    {k.value.rpartition("+")[2] for k in Keys}
    | {character_key(chr(code)) for code in range(32, 127)}
    | {"enter"}
)


def is_key_name(key: str) -> bool:
    """A key a terminal can send: modifiers, then a named key (``f5``, ``pageup``), one
    character, or a character's name (``left_square_bracket``). A misspelt ``spcae`` is not
    one: bound, it would never fire, and the action would be unreachable."""
    *modifiers, base = key.split("+") if key not in {"+", "plus"} else [key]
    if not base or any(m not in _MODIFIERS for m in modifiers):
        return False
    return len(base) == 1 or base in _NAMED_KEYS or key_to_character(base) is not None


class KeymapError(ValueError):
    """A keymap file that is not used; the message is the one line the GM sees."""


def _problem(path: Path, line: int | None, reason: str) -> KeymapError:
    where = f"{path} line {line}" if line else str(path)
    return KeymapError(f"Keymap {where}: {reason}; the default keys are used")


def parse_keymap(text: str, path: Path, groups: list[Group]) -> dict[str, str]:
    """The keymap of a file's text, checked against ``groups``.

    Raises:
        KeymapError: not TOML, a value that is not keys, an unknown id, or a key taken twice
            in one panel (the App's keys count in every panel).
    """
    import tomllib  # only when a keymap file exists: most start-ups never parse TOML

    try:
        data = tomllib.loads(text)
        flat = _flatten(data)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        raise _problem(path, int(found.group(1)) if found else None, f"not TOML ({exc})") from None
    except RecursionError:  # tables or arrays nested hundreds deep: no keymap is like that
        raise _problem(path, None, "nested too deeply to be a keymap") from None
    lines = entry_lines(text)
    known = {b.id: b for g in groups for b in g.bindings}
    keymap: dict[str, str] = {}
    for binding_id, value in flat.items():
        line = lines.get(binding_id)
        keys = [value] if isinstance(value, str) else value
        if (
            not isinstance(keys, list)
            or not keys
            or not all(isinstance(k, str) and k.strip() for k in keys)
        ):
            raise _problem(path, line, f'{binding_id} must be a key such as "space" or a list')
        if binding_id not in known:
            raise _problem(
                path, line, f"unknown binding id {binding_id!r} (tableside keys lists them)"
            )
        chosen = key_names(",".join(k.strip() for k in keys))
        unknown = [k for k in chosen if not is_key_name(k)]
        if unknown:
            raise _problem(
                path, line, f"{binding_id}: {unknown[0]!r} is not a key (e.g. \"space\", \"f5\","
                " \"ctrl+x\", \"]\")"
            )
        keymap[binding_id] = ",".join(chosen)
    _check_clashes(keymap, groups, path, lines)
    return keymap


def _check_clashes(
    keymap: Mapping[str, str], groups: list[Group], path: Path, lines: Mapping[str, int]
) -> None:
    """A key the keymap gives to one binding while another binding of the same panel has it.
    Keys shared by default are left alone: they are the panels' own (one per mode or game)."""
    everywhere = groups[0].bindings
    for group in groups:
        live = group.bindings if group.name == EVERYWHERE else (*everywhere, *group.bindings)
        holders: dict[str, list[Binding]] = {}
        for binding in live:
            for key in keys_of(binding, keymap):
                holders.setdefault(key, []).append(binding)
        for key, bindings in holders.items():
            ids = list(dict.fromkeys(b.id for b in bindings))
            by_id = {b.id: b for b in bindings}
            moved = [i for i in ids if i in keymap and key not in keys_of(by_id[i], {})]
            if len(ids) > 1 and moved:
                where = "everywhere" if group.name == EVERYWHERE else f"the {group.title} panel"
                others = ", ".join(str(i) for i in ids if i != moved[0])
                raise _problem(
                    path,
                    lines.get(str(moved[0])),
                    f"key {key!r} taken twice in {where} ({moved[0]} and {others})",
                )


def load_keymap(
    app_class: type, path: Path | None = None, *, groups: Callable[[], list[Group]] | None = None
) -> tuple[dict[str, str], str | None]:
    """(keymap, problem): the file's keymap, or {} and the one line saying why it is not used.
    No file: ({}, None), without importing a panel."""
    path = path or keymap_path()
    try:
        text = read_regular_file(path, MAX_KEYMAP_BYTES).decode("utf-8")
    except FileNotFoundError:
        return {}, None
    except FileReadError as exc:
        return {}, str(_problem(path, None, str(exc)))
    except UnicodeDecodeError as exc:
        return {}, str(_problem(path, None, f"cannot be read ({exc})"))
    try:
        return parse_keymap(text, path, (groups or (lambda: binding_groups(app_class)))()), None
    except KeymapError as exc:
        return {}, str(exc)


def keys_listing(app_class: type, path: Path | None = None) -> str:
    """``tableside keys``: the keymap's path and state, then every binding id with its key."""
    path = path or keymap_path()
    groups = binding_groups(app_class)
    keymap, problem = load_keymap(app_class, path, groups=lambda: groups)
    if problem:
        state = problem
    elif keymap:
        state = f"{len(keymap)} key(s) changed"
    else:
        state = "in use, no key changed" if path.exists() else "not there: the default keys"
    out = [f"keymap: {path} ({state})"]
    width = max((len(b.id or "") for g in groups for b in g.bindings), default=10)
    for group in groups:
        out.append(f"\n[{group.name}] {group.title}")
        for binding in group.bindings:
            now = ",".join(keys_of(binding, keymap))
            default = ",".join(keys_of(binding, {}))
            note = f"  (default {default})" if now != default else ""
            out.append(f"{binding.id:<{width}}  {now:<22} {binding.description}{note}")
    return "\n".join(out)

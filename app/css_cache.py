"""Parsed CSS kept across Textual's reparses and from one run to the next.

Textual parses every stylesheet source (a panel's ``.tcss``, each widget's ``DEFAULT_CSS``)
into rules, and parses them all again into a fresh stylesheet whenever a source is added or the
theme changes. The first frame of the tracker spent about twice a bare Textual app's time
parsing CSS, the same text every start. A parse depends only on the source's text, where it is from,
its options and the theme's variables, so that is the key; Textual does not change rules after
parsing them, so one parse serves every reparse in the run (:func:`share_parses`).

The parses the first frame and the panels used are written to the user's cache folder
(:func:`save_parses`, once the panels' stylesheets are in) and read at the next start: the
file is Python's ``pickle`` of Textual's rule objects, so it is read only if it is a regular
file (not a link, at most 8 MB) this user owns and nobody else may write, checked and read
through one open file, and only for the same Textual and Python (the format stamp);
anything else about it (missing, damaged, another version) means parsing as Textual does.
``TABLESIDE_CACHE`` names another folder (the tests give each test its own).
How the parses are taken from Textual is app.textual_compat's (Textual has no hook for it).
"""

from __future__ import annotations

import os
import pickle
import stat
import sys
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

CACHE_FILE = "css-parses.pickle"

Parses = dict[tuple[Hashable, ...], Any]
"""Textual's rules parsed from one source, by the source's key (see :func:`share_parses`)."""

_shared: Parses = {}
"""Every parse of this run, by key."""
_used: set[tuple[Hashable, ...]] = set()
"""The keys this run asked for: what the next start will ask for again."""
_state = {"read": False, "parsed": 0}
"""Whether the cache file was read yet, and how many sources this run parsed itself."""


def cache_folder() -> Path:
    chosen = os.environ.get("TABLESIDE_CACHE")
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_path

    return user_cache_path("tableside", appauthor=False)


def _stamp() -> tuple[object, ...]:
    """What the pickled rules depend on: Python's version and Textual's CSS modules (their
    size and time: an upgrade, or an editable install changed, writes them anew)."""
    from textual.css import model, styles, stylesheet

    files = (model.__file__, styles.__file__, stylesheet.__file__)
    return (sys.version_info[:2], *((s.st_size, s.st_mtime_ns) for s in map(os.stat, files)))


MAX_BYTES = 8 * 1024 * 1024
"""A cache file larger than this is not read (a few hundred KB is usual)."""


def _trusted(info: os.stat_result) -> bool:
    """Ours alone: a file others can write could run code when unpickled."""
    if not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    if info.st_size > MAX_BYTES:
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _read_cache() -> None:
    _state["read"] = True
    path = cache_folder() / CACHE_FILE
    try:
        # One open file, checked and read: not a link, and not swapped between the check and
        # the read (the folder may be one others can write to, such as /tmp).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return
    try:
        with os.fdopen(fd, "rb") as file:
            if not _trusted(os.fstat(file.fileno())):
                return
            stamp, parses = pickle.loads(file.read(MAX_BYTES + 1))
        if stamp == _stamp() and isinstance(parses, dict):
            for key, rules in parses.items():
                _shared.setdefault(key, rules)
    except Exception:  # noqa: BLE001 - a cache that cannot be used is parsed again, as Textual does
        return


def parse_through(key: tuple[Hashable, ...], parse: Callable[[], Any]) -> Any:
    """The rules of the source ``key`` names: this run's parse, the cache file's, or
    ``parse()``'s."""
    found = _shared.get(key)
    if found is None and not _state["read"]:
        _read_cache()
        found = _shared.get(key)
    if found is None:
        found = _shared[key] = parse()
        _state["parsed"] += 1
    _used.add(key)
    return found


def share_parses() -> Callable[[], None] | None:
    """Textual's stylesheets parse each source once per run, and the cache file's sources
    not at all, until the returned function is called. None: this Textual is not one
    tested (app.textual_compat); it parses as it always does, and nothing is cached."""
    from app.textual_compat import route_stylesheet_parses

    return route_stylesheet_parses(parse_through)


def parses_to_save() -> Parses | None:
    """What the cache file should hold now (the parses this run used), or None when this run
    parsed nothing the file lacked. Taken on the UI thread, where Textual parses; the rules are
    not changed after parsing, so pickling and writing them may happen elsewhere."""
    if not _state["parsed"]:
        return None
    _state["parsed"] = 0
    return {key: _shared[key] for key in _used}


def save_parses(parses: Parses) -> None:
    """Write the cache file (a worker thread's job: pickled, then written and fsynced)."""
    from app.store import atomic_write

    folder = cache_folder()
    try:
        payload = pickle.dumps((_stamp(), parses), protocol=5)
    except Exception:  # noqa: BLE001 - rules that do not pickle are parsed at each start
        return
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        atomic_write(folder / CACHE_FILE, payload)
    except OSError:
        return  # a read-only or full disk: the next start parses, as before


__all__ = [
    "CACHE_FILE",
    "cache_folder",
    "parse_through",
    "parses_to_save",
    "save_parses",
    "share_parses",
]

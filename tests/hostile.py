"""Hostile saves for the escape tests: every text in a campaign laced with terminal attacks.

``HOSTILE`` holds each attack the issue reproduced (clipboard write, window title, screen
clear, the 8-bit C1 forms, bidi overrides and isolates, zero-width characters). ``leaks``
finds any of them, in raw form, in what was written to a terminal or to stdout.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from app import schema

HOSTILE = (
    "\x1b]52;c;UFdORUQ=\x1b\\"  # OSC 52: write the clipboard
    "\x1b]2;PWN\x1b\\"  # OSC 2: window title
    "\x1b]0;PWN\x07"  # OSC 0 ended by BEL
    "\x1b[2J"  # clear the screen
    "\x9b31m\x9d0;PWN\x9c"  # C1 CSI, OSC, ST
    "\u202eRTL\u202c\u2066iso\u2069"  # bidi override and isolate
    "\u200bzw\u200d\ufeff"  # zero-width space, joiner, BOM
)

_ESC_ATTACKS = ("\x1b]", "\x1b[2J", "\x1bP", "\x1b_", "\x1b^", "\x07")
_OWN = re.compile("\x1b]22;[a-z-]*\x07")
"""Textual's own pointer-shape sequence (OSC 22), the only OSC it writes."""
_RAW = re.compile("[\x80-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def leaks(written: str) -> list[str]:
    """Every raw attack found in ``written`` (text as sent to a terminal), with context."""
    found = []
    written = _OWN.sub("", written)
    for attack in _ESC_ATTACKS:
        at = written.find(attack)
        if at >= 0:
            found.append(repr(written[max(0, at - 400) : at + 30]))
    for match in _RAW.finditer(written):
        found.append(repr(written[max(0, match.start() - 20) : match.end() + 20]))
    return found


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _leaves(value, (*path, index))
    elif isinstance(node, str):
        yield path


def _set(node: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def poison(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``data`` with every text field that can hold free text prefixed by ``HOSTILE``.

    A field whose value the save's rules constrain (a ruleset id, a card id, a turn model) is
    left alone when poisoning it fails validation: the walk keeps every field the schema lets a
    hand-editor fill with anything. Returns the new campaign and how many fields were poisoned.
    """
    data = copy.deepcopy(data)
    poisoned = 0
    for path in list(_leaves(data)):
        if path[0] == "meta" and path[-1] != "name":
            continue
        original = _get(data, path)
        _set(data, path, HOSTILE + original)
        try:
            schema.validate(copy.deepcopy(data))
        except schema.SchemaError:
            _set(data, path, original)
        else:
            poisoned += 1
    return data, poisoned

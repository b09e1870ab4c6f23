"""The one place text from a save (or a file name, or a typed field) is made safe to show.

A save is data anyone can hand-edit or craft. Written raw to a terminal, its text can run
escape sequences: ``ESC ] 52`` writes the GM's clipboard, ``ESC ] 0`` sets the window title,
``ESC [ 2 J`` blanks the screen, and the 8-bit C1 forms (U+009B CSI, U+009D OSC, U+009C ST) do
the same on terminals that honour them. Bidi overrides and isolates (U+202E …) reorder what
follows them and zero-width characters hide text or shift table columns.

:func:`visible` replaces every such character with a visible stand-in, so the GM sees that it
is there and nothing runs. Both the TUI (``widgets.literal``, the header, toasts) and the CLI
(error lines, JSON on stdout) call it; it is pure Python with no Textual import.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

# Unicode categories Cc (C0, DEL, C1), Cf (format: bidi controls, zero-width characters, soft
# hyphen, BOM, tags …), Zl / Zp (line and paragraph separators) and Cs (lone surrogates, which
# cannot even be encoded), generated from unicodedata 14; plus U+2065 (reserved in the bidi
# block) and the Hangul fillers, which draw as nothing.
_HIDDEN = re.compile(
    "[\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2"
    "\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ud800-\udfff\ufeff"
    "\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)

_HIDDEN_PAST_C0 = re.compile(_HIDDEN.pattern[0] + _HIDDEN.pattern[4:])
"""The same without C0: JSON's own line breaks stay, and orjson escapes C0 inside strings."""


MAX_TEXT = 500
"""The bound on a free-text field (concepts, powers, a form's text): a few hundred characters,
more than a GM types; past it is a paste gone wrong, refused with a message."""


MAX_NOTES = 20_000
"""The bound on a notes field: pages of notes; past it is a paste gone wrong."""


Key = TypeVar("Key")


def too_long(label: str, text: str, limit: int = MAX_TEXT) -> str | None:
    """The message for ``text`` past ``limit`` characters (None: within it)."""
    if len(text) <= limit:
        return None
    return f"{label}: at most {limit:,} characters, not {len(text):,}"


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␛ for ESC, ␇ for BEL …
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\u27e8U+{code:04X}\u27e9"  # ⟨U+202E⟩: no picture exists for these


def visible(value: object, limit: int | None = None) -> str:
    """``value`` as text with every control, format and invisible character made visible.

    ``limit`` caps the length (an ellipsis marks the cut), for one-line places.
    """
    text = value if isinstance(value, str) else str(value)
    if _HIDDEN.search(text) is not None:
        text = _HIDDEN.sub(_stand_in, text)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text


def without_hidden(text: str) -> str:
    """``text`` with every hidden character removed, keeping its width on a terminal.

    The last guard before the terminal (see ``app.tui``): each of these characters takes no
    cell (``rich.cells.cell_len`` is 0), except the soft hyphen, drawn as the hyphen it means.
    """
    return _HIDDEN.sub(lambda m: "-" if m.group() == "\u00ad" else "", text)


def has_hidden(text: str) -> bool:
    """True when :func:`visible` would change ``text`` (tests and the CLI's JSON use it)."""
    return _HIDDEN.search(text) is not None


def json_safe(encoded: str) -> str:
    """JSON text with every hidden character written as a ``\\uXXXX`` escape.

    The data is unchanged (a JSON reader gets the same strings back), but a terminal showing
    ``tableside export`` sees only plain ASCII escapes. orjson already escapes C0; this
    covers C1, bidi and zero-width characters, which it writes raw.
    """
    if _HIDDEN_PAST_C0.search(encoded) is None:
        return encoded

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        if code > 0xFFFF:  # a surrogate pair, as JSON spells characters past the BMP
            code -= 0x10000
            return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
        return f"\\u{code:04x}"

    return _HIDDEN_PAST_C0.sub(escape, encoded)


def named_by(names: Sequence[tuple[Key, str]], typed: str) -> list[tuple[Key, str]]:
    """The names ``typed`` names, case aside: an exact name alone where there is exactly one,
    else every name it begins (several: ambiguous; none: nobody). Blank names no one. The
    tracker's attack line and the command line pick a combatant or an encounter by it."""
    wanted = typed.strip().casefold()
    if not wanted:
        return []
    exact = [(key, name) for key, name in names if name.casefold() == wanted]
    if len(exact) == 1:
        return exact
    return [(key, name) for key, name in names if name.casefold().startswith(wanted)]

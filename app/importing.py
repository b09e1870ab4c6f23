"""Reading statblock files from other tools: the 5e SRD JSON and Improved Initiative's.

One reader for the command line (``tableside import``, ``tableside import-5e``) and the NPC
panel, so a file is refused the same way everywhere: only a regular file (a FIFO or a device
would block or never end), at most :data:`MAX_IMPORT_BYTES` read (``/dev/zero`` through a
link would otherwise be read until memory runs out), JSON, in a format told apart by content.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

import orjson

from app.bounded import FileReadError, read_regular_file
from rulesets import improved_initiative as ii
from rulesets import npc as npc_rules
from rulesets.values import frozen

MAX_IMPORT_BYTES = 64 * 1024 * 1024
"""The whole 5e SRD is ~4 MB and 8,000 monsters ~27 MB; a bigger file is not a statblock file."""
FIVE_E = "5e SRD"


class ImportFileError(ValueError):
    """A file that cannot be imported; the message is one line naming the file and why."""


def read_json(path: Path) -> Any:
    """The JSON of a regular file of at most :data:`MAX_IMPORT_BYTES`.

    Raises:
        ImportFileError: missing, unreadable, not a regular file, too large, or not JSON.
    """
    try:
        raw = read_regular_file(path, MAX_IMPORT_BYTES)
    except FileNotFoundError:
        raise ImportFileError(f"cannot read {path}: No such file or directory") from None
    except FileReadError as exc:
        reason = str(exc)
        if "larger than" in reason or "grew past" in reason:
            reason += ": too large for a statblock file"
        raise ImportFileError(f"{path}: {reason}") from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ImportFileError(f"{path} is not JSON ({exc})") from None


@frozen
class Converted:
    """A file's statblocks converted (NPC-09): its format, the conversions, and the skipped
    entries as (index, name or "", reason)."""

    path: Path
    kind: str
    conversions: tuple[npc_rules.Conversion, ...]
    skipped: tuple[tuple[int, str, str], ...]
    encounters: tuple[ii.SavedEncounter, ...] = ()
    """An Improved Initiative encounter file's fights (an account export's saved ones)."""
    source_hp: dict[str, int] = field(default_factory=dict)
    """Each statblock's own maximum HP by name, for the share a wounded combatant keeps."""


def convert_data(data: Any, path: Path, *, only_5e: bool = False) -> Converted:
    """Tell the format apart by content and convert every statblock.

    Raises:
        ImportFileError: neither format (or, with ``only_5e``, not a 5e monster list).
    """
    blocks = None if only_5e else ii.statblocks_in(data)
    if blocks is not None:
        conversions, errors = ii.convert_all(blocks)
        return Converted(
            path,
            ii.SYSTEM,
            tuple(conversions),
            tuple(errors),
            tuple(ii.encounters_in(data, path.stem)),
            ii.max_hp_by_name(blocks),
        )
    if not only_5e and not isinstance(data, list):
        raise ImportFileError(
            f"{path}: neither Improved Initiative statblocks nor a 5e SRD monster list"
        )
    try:
        conversions, errors = npc_rules.import_5e_file(data)
    except npc_rules.ConversionError as exc:
        raise ImportFileError(str(exc)) from None
    return Converted(path, FIVE_E, tuple(conversions), tuple(errors))


def convert_file(path: Path, *, only_5e: bool = False) -> Converted:
    """:func:`read_json` then :func:`convert_data` (blocking: call it from a worker in the TUI)."""
    return convert_data(read_json(path), path, only_5e=only_5e)

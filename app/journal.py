"""The journal beside a save: one checksummed line per change, replayed on opening.

Each change is appended as one line (compact JSON, a tab, its CRC-32) holding the changed
documents whole, and synced before the change is shown. A line sets documents to their state
after the change, and each fold first notes the digest of the file it writes and the last change
it holds, so only the changes a save lacks are replayed, and only onto a save the journal
belongs to. Reading proves each line (its checksum, each change the one after the last) and
stops at the first it cannot prove, counting what follows.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from dataclasses import field
from pathlib import Path
from typing import Any

import orjson

from app.save_files import MAX_SAVE_BYTES, digest, journal_path
from rulesets.values import record


def _frame(record: dict[str, Any]) -> bytes:
    """One journal line: compact JSON (orjson escapes tabs and line breaks inside strings),
    a tab and its CRC-32, so a line cut short or damaged is recognised and not replayed."""
    payload = orjson.dumps(record, option=orjson.OPT_NON_STR_KEYS)
    return b"%s\t%08x\n" % (payload, zlib.crc32(payload))


def _unframe(line: bytes) -> Any:
    payload, tab, crc = line.rpartition(b"\t")
    if not tab or len(crc) != 8:
        return None
    try:
        if int(crc, 16) != zlib.crc32(payload):
            return None
        return orjson.loads(payload)
    except (ValueError, orjson.JSONDecodeError):
        return None


Docs = list[tuple[str, str, "dict[str, Any] | None"]]


JOURNAL_MAX_BYTES = MAX_SAVE_BYTES * 2
"""A journal Tableside wrote holds at most a save's worth of changes beyond the save (the size
bound counts every unfolded line); a longer file is not one of ours and is not read."""
_BOM = b"\xef\xbb\xbf"


@record
class JournalRead:
    """What a journal holds: the save it was started on, the folds noted since, the changes
    proven whole (each line's checksum, and each change the one after the last), and what
    could not be proven."""

    base: str | None
    """Digest (hex) of the save the journal was started on; None: its first line is damaged
    beyond proof."""
    base_seq: int
    folds: dict[str, int] = field(default_factory=dict)
    """Digest (hex) of each save file a fold wrote -> the last change it holds."""
    changes: list[tuple[int, Docs]] = field(default_factory=list)
    problem: str | None = None
    """Why reading stopped before the last whole line (or why the file was not read)."""
    unproven: int = 0
    """Whole lines after the proven ones: not replayed, possibly changes."""
    repeated: int = 0
    """Lines that repeat the line before them exactly (skipped: they change nothing)."""
    proven_end: int = 0
    """Bytes of the file up to the end of the last proven line."""
    size: int = 0
    unreadable: bool = False
    """The file is not a journal that can be read (a folder, a pipe, unreadable, too large)."""
    raw: bytes = b""
    head: bytes = b""
    """The first line as found (without its line end)."""

    def holds(self, save: bytes) -> int | None:
        """The last change the save holds, when the journal belongs to it; else None."""
        found = digest(save).hex()
        seqs = [self.folds[found]] if found in self.folds else []
        if found == self.base:
            seqs.append(self.base_seq)
        return max(seqs) if seqs else None

    @property
    def last_seq(self) -> int:
        return self.changes[-1][0] if self.changes else self.base_seq

    @property
    def damaged(self) -> bool:
        """Something in it could not be proven, or repeats: worth keeping as found."""
        return self.problem is not None or bool(self.unproven or self.repeated)

    def claim_base(self, save: bytes) -> None:
        """A head line that fails its checksum still belongs to ``save`` when it differs by a
        bit or two from the head that would name it (one flipped bit does not make a digest
        of another file): then its changes are proven by their own lines."""
        if self.base is not None or not self.changes:
            return
        seq = self.changes[0][0] - 1
        expected = _frame({"journal": 1, "base": digest(save).hex(), "seq": seq})[:-1]
        if len(expected) != len(self.head):
            return
        flipped = sum((a ^ b).bit_count() for a, b in zip(expected, self.head, strict=True))
        if flipped <= 2:
            self.base, self.base_seq = digest(save).hex(), seq


def _docs(raw: Any) -> Docs | None:
    if not isinstance(raw, list):
        return None
    docs: Docs = []
    for item in raw:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and isinstance(item[1], str)
            and (item[2] is None or isinstance(item[2], dict))
        ):
            return None
        docs.append((item[0], item[1], item[2]))
    return docs


Reader = Callable[[Path, int], bytes]
"""Reads a file up to a size (``app.bounded.read_regular_file`` and its kin)."""


def read_journal(path: Path, read: Reader | None = None) -> JournalRead | None:
    """The journal beside the save ``path``; None when there is none.

    A file that cannot be read as one (a folder, a pipe, unreadable, too large) comes back
    ``unreadable`` with the reason, so the opening can say so rather than drop it. ``read``:
    how it is read (the players' view reads without following links).
    """
    from app.bounded import FileReadError, read_regular_file

    try:  # a FIFO or a device put in the journal's place must not hang the opening
        raw = (read or read_regular_file)(journal_path(path), JOURNAL_MAX_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, FileReadError) as exc:
        return JournalRead(None, 0, problem=str(exc), unreadable=True)
    return parse_journal(raw)


def parse_journal(raw: bytes) -> JournalRead:
    """Read a journal's bytes, line by line, as far as each line can be proven.

    The piece after the last line break was never finished (a kill mid-append): each line is
    synced before the next is written, so nothing after it was acknowledged. A damaged line,
    one out of order, or anything but a change or a fold, stops the replay there: what comes
    after is counted, not applied. A byte-order mark and CRLF line ends (an editor's) are read
    through.
    """
    start = len(_BOM) if raw.startswith(_BOM) else 0
    whole = raw.rfind(b"\n") + 1
    lines: list[tuple[bytes, int]] = []  # (line without its end, offset after it)
    pos = start
    while pos < whole:
        nl = raw.index(b"\n", pos)
        lines.append((raw[pos:nl].removesuffix(b"\r"), nl + 1))
        pos = nl + 1
    head = _unframe(lines[0][0]) if lines else None
    if (
        isinstance(head, dict)
        and head.get("journal") == 1
        and isinstance(head.get("base"), str)
        and isinstance(head.get("seq"), int)
    ):
        found = JournalRead(head["base"], head["seq"], proven_end=lines[0][1])
    elif lines:
        # Its changes may still be proven (claim_base) if the head is near enough.
        found = JournalRead(None, -1, problem="its first line is damaged")
    else:
        return JournalRead(None, 0, size=len(raw), raw=raw)  # nothing whole in it
    found.size, found.raw, found.head = len(raw), raw, lines[0][0]
    last = found.base_seq
    previous = b""
    for n, (line, end) in enumerate(lines[1:], start=2):
        record = _unframe(line)
        docs = None
        if isinstance(record, dict) and isinstance(record.get("seq"), int):
            if isinstance(record.get("fold"), str):
                # A fold noted twice (a recovery killed before its write, then run again)
                # says the same thing twice.
                found.folds[record["fold"]] = record["seq"]
                found.proven_end = end
                continue
            docs = _docs(record.get("docs"))
        if record is None or docs is None:
            found.problem = found.problem or f"line {n} is damaged"
        elif line == previous:
            found.repeated += 1  # the change just applied, again: nothing to apply twice
            found.proven_end = end
            continue
        elif last != -1 and record["seq"] != last + 1:
            found.problem = found.problem or f"line {n} is out of order"
        else:
            # A damaged head: the first change says where the journal began.
            last = record["seq"]
            found.changes.append((last, docs))
            found.proven_end, previous = end, line
            continue
        found.unproven = len(lines) - n + 1
        break
    if found.base is None:
        found.base_seq = found.changes[0][0] - 1 if found.changes else 0
    return found


def replay(data: dict[str, Any], changes: Iterable[tuple[int, Docs]], after: int) -> int:
    """Put the documents of every change after ``after`` into ``data``; returns how many
    changes that was. Each table touched is kept in id order, as the app keeps it."""
    touched: set[str] = set()
    count = 0
    for seq, docs in changes:
        if seq <= after:
            continue
        for table, doc_id, doc in docs:
            rows = data.setdefault(table, {})
            if not isinstance(rows, dict):
                return count
            if doc is None:
                rows.pop(doc_id, None)
            else:
                rows[doc_id] = doc
            touched.add(table)
        count += 1
    for table in touched:
        data[table] = dict(sorted(data[table].items(), key=lambda kv: _id_order(kv[0])))
    return count


def _id_order(doc_id: str) -> int:
    return int(doc_id) if doc_id.isascii() and doc_id.isdigit() else -1

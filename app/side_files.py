"""Reading the files beside a save for the players' view, whatever was put in their place.

``tableside serve`` and the GM's party panel read files other programs (or other users of a
shared folder) can replace: the lock's owner file (``SAVE.owner``), the URL a running server
leaves (``SAVE.serve``), the save itself and its journal. A name there can be a link to
``/dev/zero`` (read until memory runs out), a FIFO (an open or a read that never returns), a
folder, or a file that grows while it is read. So each is opened without following a link,
without waiting (``O_NONBLOCK``: a FIFO opens at once), checked to be a regular file on the
open descriptor (no window between the check and the read) and read up to a bound.
"""

from __future__ import annotations

from pathlib import Path

from app.bounded import FileReadError, read_regular_file

OWNER_BYTES = 4096
"""``pid N on HOST`` is under 300 bytes."""
LINK_BYTES = 4096
"""``SAVE.serve``'s record (a URL, a pid, a host name) is under 500 bytes."""


class SideFileError(FileReadError):
    """A side file not read; the message is the reason only (the caller names the file)."""


def read_side_file(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a link) of at most ``limit`` bytes.

    Raises:
        FileNotFoundError: there is no such file (for a side file that usually means "none").
        SideFileError: a link, not a regular file, larger than ``limit``, or unreadable.
    """
    try:
        return read_regular_file(path, limit, follow_links=False)
    except FileReadError as exc:
        raise SideFileError(str(exc)) from None


def read_side_text(path: Path, limit: int) -> str:
    """:func:`read_side_file` as UTF-8 text (bytes that are not UTF-8 are a :class:`SideFileError`)."""
    try:
        return read_side_file(path, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise SideFileError("is not UTF-8 text") from None

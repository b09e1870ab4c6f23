"""Reading a small file a user points Tableside at, without trusting what the name is.

A name can be a link to ``/dev/zero`` (read until memory runs out), a FIFO (an open that never
returns), a folder or a file that grows while it is read. Only a regular file of a bounded size
is read; anything else is one line saying why.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class FileReadError(ValueError):
    """A file not read; the message is the reason only (the caller names the file)."""


def read_regular_file(path: Path, limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes (and not a
    link, unless ``follow_links``).

    Raises:
        FileNotFoundError: there is no such file (callers often treat this as "not set").
        FileReadError: unreadable, not a regular file, or larger than ``limit``.
    """
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever before the
        # file type can even be checked.
        flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
        fd = os.open(path, flags if follow_links else flags | os.O_NOFOLLOW)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_links:
            raise FileReadError("is a link (not followed)") from None
        raise FileReadError(f"cannot be read ({exc.strerror or exc})") from None
    except ValueError:  # a NUL in the name
        raise FileReadError("is not a file name") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileReadError("is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileReadError("is not a regular file (a device, pipe or socket)")
        if info.st_size > limit:
            raise FileReadError(f"is {_size(info.st_size)}, larger than the {_size(limit)} allowed")
        chunks: list[bytes] = []
        size = 0
        while size <= limit and (chunk := os.read(fd, min(1024 * 1024, limit + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileReadError(f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if size > limit:  # it grew while it was read
        raise FileReadError(f"grew past the {_size(limit)} allowed while it was read")
    return b"".join(chunks)


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024:
        return f"{n // 1024} KB"
    return f"{n} bytes"

"""The files around a save: their names, how each is written, opened, locked and backed up.

* **Written whole or not at all.** :func:`atomic_write` writes a temp file in the same folder,
  syncs it, ``os.replace``\\s it over the target and syncs the folder: a kill at any moment
  leaves the old file or the new one.
* **Side files are ours.** The owner, lock, journal and temp files beside a save are opened
  without following a link and without blocking, and refused unless regular
  (:func:`open_side_file`); new ones are made afresh (``O_EXCL``), so a link planted in a
  folder others can write to is never written through.
* **One instance per save.** A lock file beside the save (:class:`SideLock`); the store also
  holds an ``flock`` on the save file itself, so any other name of the same file is the same
  save.
* **A change behind our back is seen.** :class:`_Fingerprint` tells our own last write from
  another program's (a ``touch``, or an identical copy moved over it, is not a change).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import threading
from pathlib import Path
from typing import Protocol

from rulesets.values import frozen

BACKUPS_KEPT = 3
MAX_SAVE_BYTES = 64 * 1024 * 1024
"""A campaign is a few MB at most; anything bigger is not ours and is refused, not parsed.
Tableside never writes a save this large (:class:`app.store.SaveTooLarge`), so it can always
reopen it."""


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def owner_path(path: Path) -> Path:
    return path.with_name(path.name + ".owner")


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


def backup_paths(path: Path) -> list[Path]:
    """Newest first."""
    return [path.with_name(f"{path.name}.bak{i}") for i in range(1, BACKUPS_KEPT + 1)]


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


NEW_FILE_MODE = 0o600
"""A save, its journal, backups and session logs hold the players' hand codes
(``player_secret``): made for the GM alone (the umask can only close it further)."""


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotRegularFile(OSError):
    """A side file's name holds a link, folder, pipe or device: never opened through it."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            errno.EINVAL,
            "is not a regular file (a link, folder, pipe or device is in its place)",
            str(path),
        )


def open_side_file(path: Path, flags: int, mode: int = NEW_FILE_MODE) -> int:
    """Open a file Tableside keeps beside a save (owner, lock, journal, temp file).

    In a folder others can write to, a link planted at the name would make us write the file
    it points to, and a FIFO would block the open: the name is opened without following a
    link and without blocking, and anything but a regular file is closed again and refused.
    Raises OSError (:class:`NotRegularFile` for the wrong kind of file).
    """
    try:
        fd = os.open(path, flags | _NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegularFile(path) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def create_side_file(path: Path, mode: int = NEW_FILE_MODE, *, append: bool = False) -> int:
    """A new, empty file at ``path`` for writing, made by us: whatever was at the name (a
    leftover, or a link or hard link someone planted) is unlinked first, never written
    through (``O_EXCL``)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | (os.O_APPEND if append else 0)
    return open_side_file(path, flags, mode)


def atomic_write(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` so that a crash leaves either the old or the new file.

    A file that is there keeps its mode (the GM's choice); a new one is
    :data:`NEW_FILE_MODE` less the umask."""
    folder = path.parent
    try:
        mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = None
    tmp = folder / f"{_temp_prefix(path)}{os.getpid()}.{threading.get_ident()}.tmp"
    fd = create_side_file(tmp)
    try:
        try:
            _write_all(fd, payload)
            if mode is not None:
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        # A full disk fails mid-write: the partial temp file would hold the space the next
        # attempt needs, so it goes at once (the save itself was never touched).
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(folder)


try:
    # hashlib's own BLAKE2 (CPython builds it in): hashlib itself loads OpenSSL's bindings
    # first, at every start, for a digest that does not use them.
    from _blake2 import blake2b
except ImportError:  # another Python
    from hashlib import blake2b


def digest(payload: bytes) -> bytes:
    return blake2b(payload, digest_size=16).digest()


def read_only_reason(path: Path) -> str | None:
    """Why ``path`` (a save or its folder) must not be written, or None.

    The write bits say what the owner wants even where they would not stop us (root ignores
    them): a save made 0444 is not to be replaced.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(
        path, os.W_OK
    ):
        kind = "folder" if stat.S_ISDIR(info.st_mode) else "file"
        return f"the {kind} is read-only (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


@frozen
class _Fingerprint:
    """What the save on disk looked like when we last wrote (or read) it.

    Size, mtime and inode are the cheap check; the content hash decides when they differ (a
    ``touch``, or an identical copy moved over the save by a sync or backup tool, is still
    our save) and catches an edit of the same size whose mtime was put back."""

    size: int
    mtime_ns: int
    inode: int
    content: bytes

    @classmethod
    def of(cls, path: Path, payload: bytes) -> _Fingerprint | None:
        try:
            info = path.stat()
        except FileNotFoundError:
            return None
        return cls(info.st_size, info.st_mtime_ns, info.st_ino, digest(payload))

    def still(self, path: Path) -> _Fingerprint | None:
        """This fingerprint (brought up to date) while the file holds what we last wrote;
        None when it holds something else. Raises FileNotFoundError when it is gone."""
        info = path.stat()
        same = (info.st_size, info.st_mtime_ns, info.st_ino) == (
            self.size,
            self.mtime_ns,
            self.inode,
        )
        if info.st_size != self.size:
            return None
        try:
            content = digest(path.read_bytes())
        except FileNotFoundError:
            raise
        except OSError:
            return None
        if content != self.content:
            return None
        if same:
            return self
        return _Fingerprint(info.st_size, info.st_mtime_ns, info.st_ino, content)


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
        with contextlib.suppress(OSError):
            fsync_dir(path.parent)


def shared_folder_warning(folder: Path) -> str | None:
    """A warning when users other than the GM can write to the campaign folder: they could
    put links or pipes at the save's side files' names (refused, but the GM should know) or
    remove the save."""
    try:
        info = folder.stat()
    except OSError:
        return None
    others = info.st_mode & stat.S_IWOTH or (
        info.st_mode & stat.S_IWGRP and info.st_gid != os.getgid()
    )
    if not others:
        return None
    return (
        f"The campaign folder {folder} can be written by other users (mode "
        f"{stat.S_IMODE(info.st_mode):04o}); keep campaigns in a folder only you can write "
        f"(chmod go-w {folder})"
    )


class SideLock:
    """The lock file beside a save, locked (``flock``) while the save is open.

    Opened as every side file is (:func:`open_side_file`): a link planted at its name is not
    followed, so no file of the GM's is opened, let alone written, through it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> None:
        """Raises BlockingIOError when another process holds it, OSError when it cannot be
        opened."""
        fd = open_side_file(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None


class Releasable(Protocol):
    """What the store needs of its lock: to let it go."""

    def release(self) -> None: ...


def _clean_temp_files(path: Path) -> None:
    """Temp files left by a write that was killed before its rename are garbage."""
    for leftover in path.parent.glob(f"{_temp_prefix(path)}*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def _rotate_backups(path: Path, raw: bytes) -> None:
    """Keep the last few good saves, so a bad session can be walked back.

    Only a save that changed since the newest backup is backed up: opening and closing three
    times must not push the history out. The new backup is written whole (temp file, then
    rename) before the older ones move, and a failed copy (a full disk) leaves no partial file.
    """
    baks = backup_paths(path)
    with contextlib.suppress(OSError):
        if digest(baks[0].read_bytes()) == digest(raw):
            return
    tmp = path.with_name(f"{_temp_prefix(path)}bak.tmp")
    try:
        fd = create_side_file(tmp)
        try:
            _write_all(fd, raw)
            os.fsync(fd)
        finally:
            os.close(fd)
        for older, newer in zip(reversed(baks[1:]), reversed(baks[:-1]), strict=True):
            if newer.exists():
                os.replace(newer, older)
        os.replace(tmp, baks[0])
    except OSError:
        # A backup that cannot be made does not stop the GM from playing; its partial temp
        # file must not eat the space the save itself needs.
        with contextlib.suppress(OSError):
            os.unlink(tmp)

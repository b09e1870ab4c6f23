"""The campaign store: one TinyDB JSON file per campaign that never loses data.

The journal's lines live in :mod:`app.journal`, the files around a save (names, atomic writes,
side files, locks, backups) in :mod:`app.save_files`; the names other code imports from here
are kept here too.

Why it is shaped like this:

* **Shown means saved.** Each change is appended to a journal beside the save
  (``<save>.journal``, one checksummed line holding the changed documents whole) and synced
  before :meth:`CampaignStore.record` returns, so before the app shows its result. That costs
  the same for a new campaign and a long one: nothing but the changed documents is written.
  SQLite's write-ahead log is the model.
* **The save file stays one complete campaign.** A writer thread folds the journal into it
  now and then: the whole campaign is serialised (``orjson``; a table that did not change
  reuses its bytes), written to a temp file in the same folder, synced, ``os.replace``\\d over
  the save, the folder synced. A kill at any moment leaves the old save or the new one, never
  half of one; the journal then holds what the save lacks.
* **Replaying is exact.** A journal line sets documents to their state after the change, and
  each fold first notes in the journal the digest of the file it writes and the last change it
  holds, so on opening only the changes the save lacks are replayed, and only onto a save the
  journal belongs to (one the same session wrote). A save changed by another program since is
  opened as it is, and the journal is kept aside under a name that says so.
* TinyDB 4.9's own ``JSONStorage`` rewrites the file in place; :class:`MemoryStorage` keeps the
  campaign in memory for TinyDB, and the app's changes write documents directly (TinyDB
  rebuilds a whole table on every insert: a long log made each roll slower).
* **One instance per save.** A lock file beside the save (an owner file names the
  process) and an ``flock`` on the save file itself, so a hard link or any other name of the
  same file is the same save.
* **Nothing is written that Tableside would not open.** Every changed document is checked by
  the reader's own rules (:func:`app.schema.check_document`) before it is journalled; a file
  that fails to parse or validate is never written over; a file changed behind our back stops
  the writer instead of clobbering the other program's edit (a ``touch``, or an identical
  copy moved over it, is not a change).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from tinydb import TinyDB
from tinydb.storages import Storage

from app import schema
from app.journal import (
    JOURNAL_MAX_BYTES,
    Docs,
    JournalRead,
    Reader,
    _frame,
    _id_order,
    parse_journal,
    read_journal,
    replay,
)
from app.save_files import (
    BACKUPS_KEPT,
    MAX_SAVE_BYTES,
    NEW_FILE_MODE,
    NotRegularFile,
    Releasable,
    SideLock,
    _clean_temp_files,
    _Fingerprint,
    _remove,
    _rotate_backups,
    _temp_prefix,
    _write_all,
    atomic_write,
    backup_paths,
    create_side_file,
    digest,
    fsync_dir,
    journal_path,
    lock_path,
    open_side_file,
    owner_path,
    read_only_reason,
    shared_folder_warning,
)
from rulesets import registry
from rulesets.text import visible
from rulesets.values import record

__all__ = [  # what other modules import from here, wherever it now lives
    "BACKUPS_KEPT",
    "MAX_SAVE_BYTES",
    "NEW_FILE_MODE",
    "WARN_SAVE_BYTES",
    "CampaignStore",
    "CorruptSave",
    "Docs",
    "ExternalChange",
    "JournalRead",
    "NotRegularFile",
    "ReadOnlySave",
    "SaveLocked",
    "SaveTooLarge",
    "StoreError",
    "UnopenableChange",
    "atomic_write",
    "backup_paths",
    "create_side_file",
    "digest",
    "export_campaign",
    "export_document",
    "fsync_dir",
    "journal_path",
    "load_campaign",
    "lock_path",
    "newest_good_backup",
    "open_side_file",
    "owner_path",
    "parse_journal",
    "read_campaign",
    "read_journal",
    "read_only_reason",
    "replay",
    "shared_folder_warning",
]

WARN_SAVE_BYTES = 32 * 1024 * 1024
"""Past this the GM is warned, with half the room still left to trim the log or library."""
RETRY_SECONDS = 2.0
"""How often a save that could not be written (a full disk, a read-only file) is tried again."""
FOLD_SECONDS = 0.1
"""At most this often the journal is folded into the save file while changes keep coming; at
once on flush and close. (Tableside's own readers, ``tableside export`` and the players' view,
replay the journal: a program that copies the file alone, a backup or a sync, does not.)"""
FOLD_QUIET = 0.2
"""A fold waits for the changes to pause this long: folding a large campaign (serialising
what changed, joining and hashing megabytes) right after a key ran beside that key's redraw
and slowed it by a third; a key's frame is drawn well within this."""
FOLD_LATEST = 1.0
"""However fast the changes keep coming, the save file is at most this far behind the first
change it lacks."""
JOURNAL_RESTART_BYTES = 1024 * 1024
"""Once folded, a journal longer than this is started afresh (holding only what the save
lacks), so opening never replays much."""


class StoreError(Exception):
    """A save that cannot be opened or written; the message names the file and the reason."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class SaveLocked(StoreError):
    """Another Tableside holds this save."""


class CorruptSave(StoreError):
    """The save does not parse or fails validation; it is left exactly as found."""


class ExternalChange(StoreError):
    """Another program changed the save since we last wrote it."""


class ReadOnlySave(StoreError):
    """The save was opened read-only (its journal cannot be written); the reason says why."""


class SaveTooLarge(ValueError):
    """A change would make the save larger than Tableside may write; nothing was queued."""


class UnopenableChange(ValueError):
    """A change would put a document in the save that Tableside refuses when opening it."""


# --- the journal ----------------------------------------------------------------------------------


# --- reading --------------------------------------------------------------------------------------
@record
class Loaded:
    """A save as read: the campaign (with the journal's changes replayed), the file's bytes,
    and its journal."""

    data: dict[str, Any]
    raw: bytes
    journal: JournalRead | None = None
    holds: int | None = None
    """The last journalled change the save file holds (None: the journal is not its own)."""
    replayed: int = 0


def read_campaign(path: Path) -> dict[str, Any]:
    """Parse and validate a save, its journal replayed. Raises :class:`CorruptSave` with the
    reason; writes nothing."""
    return load_campaign(path).data


def _read_with(read: Reader, path: Path) -> bytes:
    from app.bounded import FileReadError

    try:
        return read(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise StoreError(path, "no such file") from None
    except FileReadError as exc:
        raise CorruptSave(path, str(exc)) from None


def _read_save(path: Path) -> bytes:
    try:
        info = path.lstat()
    except FileNotFoundError:
        raise StoreError(path, "no such file") from None
    except OSError as exc:
        raise CorruptSave(path, exc.strerror or str(exc)) from None
    if stat.S_ISLNK(info.st_mode):
        info = follow_link(path).stat()
    if stat.S_ISDIR(info.st_mode):
        raise CorruptSave(path, "is a folder, not a save file")
    if not stat.S_ISREG(info.st_mode):
        raise CorruptSave(path, "is not a regular file")
    if info.st_size > MAX_SAVE_BYTES:
        raise CorruptSave(
            path, f"is {info.st_size // (1024 * 1024)} MB, too large to be a campaign"
        )
    try:
        raw = path.read_bytes()
    except PermissionError:
        raise CorruptSave(path, "cannot be read (permission denied)") from None
    except OSError as exc:
        raise CorruptSave(path, exc.strerror or str(exc)) from None
    return raw


def load_campaign(path: Path, *, with_journal: bool = True, read: Reader | None = None) -> Loaded:
    """:func:`read_campaign`, also returning the bytes it parsed and the journal it read.

    ``read``: how the save and its journal are read (the players' view reads them without
    following links, :func:`app.side_files.read_side_file`); by default a link to a save is
    followed, as the GM's app opens it."""
    raw = _read_save(path) if read is None else _read_with(read, path)
    if not raw.strip():
        raise CorruptSave(path, "is empty")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise CorruptSave(path, f"is not valid JSON ({exc})") from None
    loaded = Loaded(data, raw)
    if with_journal and isinstance(data, dict):
        loaded.journal = read_journal(path, read)
        if loaded.journal is not None and not loaded.journal.unreadable:
            loaded.journal.claim_base(raw)
            loaded.holds = loaded.journal.holds(raw)
            if loaded.holds is not None:
                loaded.replayed = replay(data, loaded.journal.changes, loaded.holds)
    with_changes = (
        f" with the {loaded.replayed} change(s) in {journal_path(path).name}"
        if loaded.replayed
        else ""
    )
    try:
        loaded.data = schema.validate(data)
    except schema.SchemaError as exc:
        raise CorruptSave(path, f"is not a valid campaign{with_changes} ({exc})") from None
    try:
        orjson.dumps(loaded.data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError as exc:  # orjson.JSONEncodeError: opened, no change could ever be saved
        raise CorruptSave(path, f"cannot be saved back by Tableside ({exc})") from None
    return loaded


def follow_link(path: Path) -> Path:
    """The save a symbolic link points to; a link to nothing is refused with a clear reason."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):  # missing target, or a loop (RuntimeError before 3.13)
        raise CorruptSave(
            path, "is a link to nothing (its target is missing or the link loops)"
        ) from None
    if not target.is_file():
        raise CorruptSave(path, f"is a link to {target}, which is not a file")
    return target


def newest_good_backup(path: Path) -> Path | None:
    for candidate in backup_paths(path):
        if candidate.exists():
            try:
                load_campaign(candidate, with_journal=False)
            except StoreError:
                continue
            return candidate
    return None


class MemoryStorage(Storage):
    """TinyDB storage over the in-memory campaign; persistence is the store's job."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def read(self) -> dict[str, Any]:
        return self.data

    def write(self, data: dict[str, Any]) -> None:
        self.data = data


class _FileLock:
    """An ``flock`` on the save file itself, held while it is open.

    A lock file beside a path cannot see that two paths are one file: two hard links to one
    save opened twice and split the campaign. Every name of a file shares its inode, and an
    ``flock`` is on the inode. The inode opened is held for the whole session (its other names
    stay refused however often the save is rewritten), and each file a fold writes is taken
    as it is written.
    """

    def __init__(self) -> None:
        self.first: int | None = None
        self.current: int | None = None

    def take(self, path: Path) -> None:
        """Lock the file now at ``path``; :class:`SaveLocked` if another process holds it."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return  # not there (yet) or not readable: the reader says why
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _flock_holder(os.fstat(fd))
            os.close(fd)
            who = f" (pid {holder})" if holder else ""
            raise SaveLocked(
                path,
                f"is already open in another Tableside{who}, under another name (a hard link "
                "or another path to the same file); close that one first",
            ) from None
        except OSError:
            os.close(fd)  # a file system without flock: the lock file beside it still holds
            return
        if self.first is None:
            self.first = fd
        else:
            if self.current is not None:
                os.close(self.current)
            self.current = fd

    def release(self) -> None:
        for fd in (self.current, self.first):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.first = self.current = None


def _flock_holder(info: os.stat_result) -> int | None:
    """The pid holding an ``flock`` on this file (Linux's /proc/locks), when it can be told."""
    wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    with (
        contextlib.suppress(OSError, ValueError),
        open("/proc/locks", encoding="ascii", errors="replace") as fh,
    ):
        for line in fh:
            parts = line.split()
            if len(parts) > 5 and parts[1] == "FLOCK" and parts[5] == wanted:
                return int(parts[4])
    return None


class _Writer(threading.Thread):
    """Folds the journal into the save file, in order, on one thread.

    A write that fails for a reason that can pass (a full disk, the save or its folder made
    read-only, the folder removed) is tried again every :data:`RETRY_SECONDS`, or at once on
    :meth:`retry`. A change made behind our back stops the writer for good: only the GM can
    decide whose version wins.
    """

    def __init__(self, store: CampaignStore) -> None:
        super().__init__(name="tableside-autosave", daemon=True)
        self.store = store
        self.cond = threading.Condition()
        self.closing = False
        self.error: StoreError | None = None
        """Saving stopped for good (the file was changed behind our back)."""
        self.unsaved: StoreError | None = None
        """The last write failed for a passing reason; it is tried again."""
        self.writing = False
        self._retry_at = 0.0
        self._retry_now = False
        self._now = False
        self._folded_at = 0.0
        self._changed_at = 0.0
        self._waiting_since: float | None = None
        """When the oldest change not yet folded was made (None: none waiting)."""

    def poke(self, *, now: bool = False) -> None:
        """Something is there to fold (``now``: at once, without waiting for a pause)."""
        with self.cond:
            self._now = self._now or now
            self._changed_at = time.monotonic()
            if self._waiting_since is None:
                self._waiting_since = self._changed_at
            self.cond.notify_all()

    def retry(self) -> None:
        """Try a failed write again now (the GM freed space, or pressed the key)."""
        with self.cond:
            self._retry_now = True
            self.cond.notify_all()

    def _due(self) -> float | None:
        """Seconds until a fold is due (0: now); None when nothing is waiting."""
        if not self.store._unwritten():
            return None
        now = time.monotonic()
        if self.unsaved is not None and not self._retry_now:
            return max(0.0, self._retry_at - now)
        if self._now or self._retry_now or self.closing:
            return 0.0
        since = self._changed_at if self._waiting_since is None else self._waiting_since
        settled = min(self._changed_at + FOLD_QUIET, since + FOLD_LATEST)
        return max(0.0, self._folded_at + FOLD_SECONDS - now, settled - now)

    def _next(self) -> bool:
        with self.cond:
            while True:
                if self.error is not None:
                    return False
                wait = self._due()
                if wait is None:
                    self._now = False  # a flush with nothing to fold: the next change waits
                    if self.closing:
                        return False
                if wait == 0.0:
                    self._now = False
                    self._waiting_since = None  # a change from now on waits for the next fold
                    self.writing = True
                    return True
                self.cond.wait(wait)

    def run(self) -> None:
        while self._next():
            try:
                self.store._fold()
            except StoreError as exc:
                with self.cond:
                    self.error = exc
                    self.writing = False
                    self.cond.notify_all()
                self.store._report(exc)
                return
            except OSError as exc:
                problem = StoreError(self.store.path, f"is not saved: {_why(exc, self.store.path)}")
                with self.cond:
                    first = self.unsaved is None or self.unsaved.reason != problem.reason
                    self.unsaved = problem
                    self.writing = False
                    self._retry_at = time.monotonic() + RETRY_SECONDS
                    give_up = self.closing and not self._retry_now
                    self._retry_now = False
                    self.cond.notify_all()
                if first:
                    self.store._report_status(problem)
                if give_up:
                    return
                continue
            with self.cond:
                self._folded_at = time.monotonic()
                self._retry_now = False
                resumed = self.unsaved is not None and not self.store._journal_failed
                if resumed:
                    self.unsaved = None
                self.writing = False
                self.cond.notify_all()
            if resumed:
                self.store._report_status(None)

    def journal_failed(self, problem: StoreError) -> None:
        """An append to the journal failed: the change is in memory only until a fold lands."""
        with self.cond:
            first = self.unsaved is None
            self.unsaved = problem
            self._retry_now = True  # the save file itself may still be writable: try now
            self.cond.notify_all()
        if first:
            self.store._report_status(problem)

    def wait_for(self, done: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait until ``done()``, saving has stopped, or a write is failing."""
        with self.cond:
            if done():
                # Nothing to wait for: asking for a fold now would leave the writer set to
                # fold the next change at once, before the writer thread next wakes to clear it.
                return True
            self._now = True
            self.cond.notify_all()
            return self.cond.wait_for(
                lambda: (
                    done()
                    or self.error is not None
                    or (self.unsaved is not None and not self.writing and not self._retry_now)
                ),
                timeout,
            )

    def close(self) -> None:
        with self.cond:
            self.closing = True
            self._retry_now = self.unsaved is not None  # one last try, then give up
            self.cond.notify_all()
        self.join()

    def abandon(self) -> None:
        """Stop at once, writing nothing more (the save could not even be created)."""
        with self.cond:
            self.closing = True
            self.error = self.error or StoreError(self.store.path, "was not created")
            self.cond.notify_all()
        self.join()


def _side_reason(exc: OSError) -> str:
    if isinstance(exc, NotRegularFile):
        return exc.strerror or "is not a regular file"
    return f"cannot be written ({exc.strerror or exc})"


def _why(exc: OSError, path: Path) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full; Tableside tries again every few seconds (ctrl+r: now)"
    if isinstance(exc, FileNotFoundError) and not path.parent.is_dir():
        return (
            f"its folder {path.parent} was removed; your changes are kept here. ctrl+r makes "
            "the folder again and saves there"
        )
    if isinstance(exc, PermissionError) or exc.errno == errno.EROFS:
        return (
            f"{exc.strerror or exc}; Tableside will not replace it and tries again every few "
            "seconds (ctrl+r: now)"
        )
    return f"could not be written ({exc.strerror or exc}); retrying (ctrl+r: now)"


class CampaignStore:
    """One open campaign: locks held, data in memory, every change journalled and folded."""

    def __init__(
        self,
        path: Path,
        data: dict[str, Any],
        lock: Releasable,
        on_error: Callable[[StoreError], None] | None = None,
        raw: bytes = b"",
        *,
        file_lock: _FileLock | None = None,
    ) -> None:
        self.path = path
        self.data = data
        self._lock = lock
        self._file_lock = file_lock or _FileLock()
        self.on_error = on_error
        self.on_status: Callable[[StoreError | None], None] | None = None
        """Told (from the writer thread) when saving fails for a passing reason, and with
        None when it works again."""
        self.notes: list[str] = []
        """What opening did that the GM should hear about (a journal kept aside)."""
        self.read_only: str | None = None
        """Why no change can be saved this session (its journal cannot be written), for the
        banner; None: changes are saved. Set only while opening."""
        self.db = TinyDB(storage=MemoryStorage, data=data)
        self._changing = threading.RLock()
        """Held while the campaign changes and while a fold serialises it: a fold sees the
        campaign between two changes, never in the middle of one."""
        self._jlock = threading.Lock()
        """The journal and the change counters."""
        self._seq = 0
        """Changes recorded so far (and direct commits)."""
        self._written = 0
        """The last change the save file holds."""
        self._unfolded: list[tuple[int, bytes]] = []
        """Journal lines of the changes the save file lacks, kept to start a journal afresh."""
        self._direct: tuple[int, list[bytes]] | None = None
        self._journal_fd: int | None = None
        self._journal_size = 0
        self._journal_failed = False
        self._recreate_folder = False
        self._dirty: set[str] = set(data)
        self._table_json: dict[str, bytes] = {}
        self._next_ids: dict[str, int] = {}
        self.size = len(raw)
        """Bytes of the save as last measured (the newest snapshot, or the file read)."""
        self._size_bound = len(raw)
        """At least the size the save would have now (grows by each journal line)."""
        self._fingerprint = _Fingerprint.of(path, raw)
        self._writer = _Writer(self)
        self._writer.start()
        self.closed = False

    # --- opening -----------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        ruleset: str = registry.DEFAULT,
        name: str | None = None,
        create: bool = True,
        on_error: Callable[[StoreError], None] | None = None,
    ) -> CampaignStore:
        """Lock and load ``path`` (creating it if missing and ``create``)."""
        path = Path(path).expanduser().absolute()
        if path.is_symlink():
            # Lock, back up and write the file the link points to, atomically beside it: an
            # os.replace over the link would turn it into a copy and strand the real save.
            path = follow_link(path)
        if path.is_dir():
            raise CorruptSave(path, "is a folder, not a save file")
        if not create and not path.exists():
            # Checked before locking: a lock file (and its folder) made for a save that is not
            # there would be left behind beside nothing.
            raise StoreError(path, "no such file")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(path, f"folder cannot be created ({exc.strerror or exc})") from None
        # Said at open, not at the first change: a folder we cannot write a temp file into
        # (a lock file left there would otherwise let us in), or a save we may not replace.
        _refuse_read_only(path, path.parent)
        lock = acquire_lock(path)
        shared = shared_folder_warning(path.parent)
        file_lock = _FileLock()
        try:
            file_lock.take(path)
            _clean_temp_files(path)
            if path.exists() or path.is_symlink():
                store = cls._open_existing(path, lock, file_lock, on_error)
            elif journal_path(path).exists():
                raise StoreError(
                    path,
                    f"is missing, but {journal_path(path).name} beside it holds changes made to "
                    "it; put the save back (its newest backup is .bak1) before opening it",
                )
            elif create:
                try:
                    registry.game(ruleset)  # a broken game's campaign is not made
                except registry.UnknownGame as exc:
                    raise StoreError(path, str(exc)) from None
                data = schema.empty_campaign(ruleset, name or path.stem)
                store = cls(path, data, lock, on_error, file_lock=file_lock)
                try:
                    store.commit()
                    store.flush()
                except BaseException:
                    store._writer.abandon()  # no writer may retry once the lock is gone
                    raise
            else:
                # Removed between the check above and the lock: the lock file is ours to remove.
                with contextlib.suppress(OSError):
                    lock_path(path).unlink()
                raise StoreError(path, "no such file")
        except BaseException:
            file_lock.release()
            _release(lock, path)
            raise
        if shared is not None:
            store.notes.insert(0, shared)
        return store

    @classmethod
    def _open_existing(
        cls,
        path: Path,
        lock: Releasable,
        file_lock: _FileLock,
        on_error: Callable[[StoreError], None] | None,
    ) -> CampaignStore:
        found = load_campaign(path)  # an unreadable save says so first
        _refuse_unusable_game(path, found.data)
        _refuse_read_only(path, path)
        _rotate_backups(path, found.raw)
        store = cls(path, found.data, lock, on_error, found.raw, file_lock=file_lock)
        try:
            store._take_journal(found)
        except BaseException:
            store._writer.abandon()
            raise
        return store

    def _take_journal(self, found: Loaded) -> None:
        """What the last session's journal holds, made the save's (or kept, and said).

        Never is a journal truncated, replaced or removed while it holds a change the save
        lacks: a damaged one is copied aside first, one that does not belong is moved aside,
        and one that cannot be written leaves the save open read-only, its changes in memory.
        """
        journal, target = found.journal, journal_path(self.path)
        if journal is None:
            return
        if journal.unreadable:
            self._unreadable_journal(journal)
            return
        if found.holds is None:
            self._set_journal_aside(journal)
            return
        try:
            fd = open_side_file(target, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            self._open_read_only(f"{target.name} {_side_reason(exc)}", found.replayed)
            return
        if not os.fstat(fd).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            os.close(fd)  # root may write it; its owner made it read-only: not ours to write
            self._open_read_only(f"{target.name} is read-only", found.replayed)
            return
        self._written, self._seq = found.holds, journal.last_seq
        self._journal_fd, self._journal_size = fd, journal.size
        if journal.damaged:
            try:
                aside = self._copy_journal_aside(journal)
                self._unfolded = [
                    (seq, _frame({"seq": seq, "docs": docs}))
                    for seq, docs in journal.changes
                    if seq > self._written
                ]
                with self._jlock:
                    self._start_journal()  # a clean journal of what was proven
            except OSError as exc:
                self._close_journal()
                self._open_read_only(
                    f"{target.name} is damaged and could not be kept aside ({_side_reason(exc)})",
                    found.replayed,
                )
                return
            self.notes.append(
                f"{target.name} was damaged ({journal.problem or 'a line repeats'}): "
                f"{found.replayed} change(s) recovered, {journal.unproven} line(s) after it "
                f"could not be proven whole and were not applied. The journal as found is "
                f"kept in {aside.name}"
            )
        elif journal.proven_end < journal.size:
            # The unfinished piece a kill left mid-append was never acknowledged; the fold
            # noted next must start on a line of its own, or no reader would find it.
            os.ftruncate(fd, journal.proven_end)
            self._journal_size = journal.proven_end
        if not found.replayed:
            with self._jlock:
                self._drop_journal()  # the save holds it all (a damaged one is kept aside)
            return
        # The last session ended without folding its journal (a kill, a power cut): its
        # changes are in the campaign now; written into the save at once, the journal is no
        # longer needed. The fold is noted in the journal first, so a kill during this write
        # still finds the save and its journal in step.
        try:
            self.flush()
        except StoreError:
            if self._writer.error is not None:
                raise
            self.notes.append(
                f"{found.replayed} change(s) the last session made after its last save were "
                f"recovered from {target.name}; they are not in the save file yet "
                f"({self._writer.unsaved.reason if self._writer.unsaved else 'not written'}), "
                "and the journal keeps them until they are"
            )
            return
        with self._jlock:
            self._drop_journal()
        self.notes.append(
            f"{found.replayed} change(s) the last session made after its last save "
            "were recovered from its journal"
        )

    def _unreadable_journal(self, journal: JournalRead) -> None:
        """A journal that is not a file we can read: one too large to be ours is moved aside
        (renaming needs no room); anything else (a folder, a pipe, no permission) leaves the
        save read-only, since no change could be journalled."""
        target = journal_path(self.path)
        with contextlib.suppress(OSError):
            info = target.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_size > JOURNAL_MAX_BYTES:
                aside = self._aside_name("journal-not-applied")
                os.rename(target, aside)
                self.notes.append(
                    f"{target.name} is {info.st_size // 2**20} MB, larger than any journal "
                    f"Tableside writes: not applied, kept in {aside.name}"
                )
                return
        self._open_read_only(f"{target.name} {journal.problem}", 0)

    def _open_read_only(self, why: str, recovered: int) -> None:
        self.read_only = (
            f"Read-only: {why}. Changes cannot be saved; quit, move or fix that file, and "
            "open the save again"
        )
        if recovered:
            self.read_only += (
                f" ({recovered} change(s) from it are shown here, not yet in the save file)"
            )

    def _aside_name(self, what: str) -> Path:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.{what}-{stamp}")
        n = 2
        while aside.exists() or aside.is_symlink():
            aside = self.path.with_name(f"{self.path.name}.{what}-{stamp}-{n}")
            n += 1
        return aside

    def _copy_journal_aside(self, journal: JournalRead) -> Path:
        aside = self._aside_name("journal-damaged")
        atomic_write(aside, journal.raw)
        return aside

    def _set_journal_aside(self, journal: JournalRead) -> None:
        """A journal from a session whose save another program changed since (or whose first
        line is damaged past proof): not replayed onto a file it may not belong to, and not
        thrown away: kept under a name that says so."""
        aside = self._aside_name("journal-not-applied")
        try:
            os.rename(journal_path(self.path), aside)
        except OSError as exc:
            self._open_read_only(
                f"{journal_path(self.path).name} holds changes that do not belong to this save "
                f"and cannot be moved aside ({exc.strerror or exc})",
                0,
            )
            return
        if journal.base is None:
            self.notes.append(
                f"{journal_path(self.path).name} is damaged ({journal.problem}), so Tableside "
                f"cannot tell which save it belongs to: 0 change(s) recovered, "
                f"{len(journal.changes) + journal.unproven} line(s) not applied. It is kept in "
                f"{aside.name}"
            )
            return
        self.notes.append(
            f"The save was changed by another program after the last session's changes; "
            f"those changes were not applied and are kept in {aside.name}"
        )

    # --- changing ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def changing(self) -> Iterator[None]:
        """Hold while changing the campaign: a fold never writes half a change."""
        with self._changing:
            yield

    def new_id(self, table: str) -> int:
        """The id of the next document of ``table`` (ids only grow, as TinyDB's do)."""
        rows = self.data.get(table) or {}
        last = _id_order(next(reversed(rows))) if rows else 0
        if table not in self._next_ids:
            last = max((_id_order(k) for k in rows), default=0)
        doc_id = max(last + 1, self._next_ids.get(table, 1))
        self._next_ids[table] = doc_id + 1
        return doc_id

    def put_doc(self, table: str, doc_id: int, doc: dict[str, Any] | None) -> None:
        """Set (or, with None, remove) one document, keeping the table in id order. O(1) for
        the changes play makes: TinyDB's own insert copies the whole table."""
        rows = self.data.setdefault(table, {})
        key = str(doc_id)
        if doc is None:
            rows.pop(key, None)
            return
        out_of_order = key not in rows and rows and _id_order(next(reversed(rows))) > doc_id
        rows[key] = doc
        if out_of_order:
            self.data[table] = dict(sorted(rows.items(), key=lambda kv: _id_order(kv[0])))
        self._next_ids[table] = max(self._next_ids.get(table, 1), doc_id + 1)
        cached = self.db._tables.get(table)
        if cached is not None:
            cached._next_id = None  # TinyDB counts again if anything inserts through it

    def record(
        self,
        changed: Iterable[tuple[str, int]],
        before: Mapping[tuple[str, int], Any] | None = None,
    ) -> int:
        """Make the change to these documents durable before it is shown: checked by the
        reader's rules, appended to the journal and synced. Returns the change's number.

        Call it holding :meth:`changing`, after the change is made in :attr:`data`.
        ``before``: the documents as they were stored before the change (the undo record), so
        that what the change left as it was is not checked again.

        Raises (the journal untouched, so the caller can undo its change):
            UnopenableChange: a document the reader would refuse (names the field).
            TypeError: something orjson cannot write (a number past 64 bits).
            SaveTooLarge: the save would pass :data:`MAX_SAVE_BYTES`.
            StoreError: saving has stopped (the save was changed behind our back), or closed.
        """
        with self._changing:
            if self.closed:
                raise StoreError(self.path, "is closed")
            if self.read_only is not None:
                raise ReadOnlySave(self.path, self.read_only)
            if self._writer.error is not None:
                raise self._writer.error
            game = self.data["meta"]["1"]["ruleset"]
            docs: Docs = []
            for table, doc_id in dict.fromkeys(changed):
                doc = self.data.get(table, {}).get(str(doc_id))
                if doc is not None:
                    try:
                        prior = before.get((table, doc_id)) if before else None
                        schema.check_document(table, str(doc_id), doc, game, before=prior)
                    except schema.SchemaError as exc:
                        raise UnopenableChange(str(exc)) from None
                docs.append((table, str(doc_id), doc))
            with self._jlock:
                seq = self._seq + 1
                line = _frame({"seq": seq, "docs": docs})
                tables = {table for table, _, _ in docs}
                self._check_size(len(line), tables)
                self._seq = seq
                self._dirty |= tables
                self._unfolded.append((seq, line))
                problem: StoreError | None = None
                try:
                    self._append(line)
                except OSError as exc:
                    self._journal_failed = True
                    self._close_journal()
                    problem = StoreError(self.path, f"is not saved: {_why(exc, self.path)}")
        if problem is not None:
            self._writer.journal_failed(problem)
        self._writer.poke()
        return seq

    def _check_size(self, growth: int, tables: set[str]) -> None:
        """Refuse a change that would make the save too large to open (journal lock held).

        The bound is cheap (each line adds at most its own length); only near the limit is
        the campaign measured exactly, without keeping what is measured."""
        if self._size_bound + growth <= MAX_SAVE_BYTES:
            self._size_bound += growth
            return
        _, size, _ = self._serialise(self._dirty | tables)
        if size > MAX_SAVE_BYTES:
            raise SaveTooLarge(
                f"that change would make the save {size / 2**20:.0f} MB, past the "
                f"{MAX_SAVE_BYTES // 2**20} MB a campaign may be; it is not saved"
            )
        self._size_bound = self.size = size

    def _append(self, line: bytes) -> None:
        """Append one line to the journal and sync it (journal lock held)."""
        if self._journal_fd is None:
            self._start_journal()  # written with every unfolded line, this one included
            return
        fd = self._journal_fd
        size = os.fstat(fd).st_size
        try:
            _write_all(fd, line)
            os.fdatasync(fd)
        except OSError:
            # Half a line must not sit before the next; cut back to what was there, measured
            # now: a journal taken over from the last session holds more than this one wrote.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)
            raise
        self._journal_size = size + len(line)
        if os.fstat(fd).st_nlink == 0:
            # Removed behind our back (or its folder was): the line went to a file no one can
            # read. Started afresh with every change the save lacks, or the failure is said.
            self._close_journal()
            self._start_journal()

    def _start_journal(self) -> None:
        """A fresh journal beside the save: its base is the save file as we last wrote it,
        then every change the save lacks. Written whole and renamed into place."""
        self._close_journal()
        if self._fingerprint is None:
            raise FileNotFoundError(errno.ENOENT, "the save is not written yet", str(self.path))
        head = _frame({"journal": 1, "base": self._fingerprint.content.hex(), "seq": self._written})
        lines = [head, *(line for seq, line in self._unfolded if seq > self._written)]
        target = journal_path(self.path)
        tmp = target.with_name(f"{_temp_prefix(self.path)}journal.{os.getpid()}.tmp")
        fd = create_side_file(tmp, append=True)
        try:
            payload = b"".join(lines)
            _write_all(fd, payload)
            os.fsync(fd)
            os.replace(tmp, target)
            fsync_dir(target.parent)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        # The file just written, by its descriptor: the name could be swapped since.
        self._journal_fd = fd
        self._journal_size = len(payload)
        self._journal_failed = False

    def _close_journal(self) -> None:
        if self._journal_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._journal_fd)
            self._journal_fd = None

    def commit(self, tables: Iterable[str] | None = None) -> int:
        """Snapshot the campaign now and hand it to the writer. Returns its sequence number.

        For code that changed :attr:`db` itself (the demo writer, tests, benches); the app's
        changes go through :meth:`record`. ``tables`` names the tables that changed (None:
        all); each of their documents is checked as :meth:`record` checks one.
        Raises TypeError, queueing nothing, if the data cannot be serialised,
        :class:`UnopenableChange` if a document would be refused, and :class:`SaveTooLarge`
        if it would pass :data:`MAX_SAVE_BYTES`.
        """
        if self.closed:
            raise StoreError(self.path, "is closed")
        if self.read_only is not None:
            raise ReadOnlySave(self.path, self.read_only)
        with self._changing:
            names = set(self.data) if tables is None else set(tables)
            game = self.data["meta"]["1"]["ruleset"]
            for table in names:
                for doc_id, doc in (self.data.get(table) or {}).items():
                    try:
                        schema.check_document(table, doc_id, doc, game)
                    except schema.SchemaError as exc:
                        raise UnopenableChange(str(exc)) from None
            payload, size, fresh = self._serialise(self._dirty | names)
            if size > MAX_SAVE_BYTES:
                # Never written: Tableside would refuse to open its own file.
                raise SaveTooLarge(
                    f"that change would make the save {size / 2**20:.0f} MB, past the "
                    f"{MAX_SAVE_BYTES // 2**20} MB a campaign may be; it is not saved"
                )
            self._keep(fresh)
            with self._jlock:
                self._seq += 1
                self._direct = (self._seq, payload)
                self._size_bound = self.size = size
        self._writer.poke(now=True)
        return self._seq

    def _serialise(
        self, dirty: set[str]
    ) -> tuple[list[bytes], int, dict[str, bytes]]:
        """The whole campaign as JSON chunks and their size, re-serialising only ``dirty``
        tables (returned too, for :meth:`_keep`). A table orjson refuses raises TypeError."""
        names = list(self.data)
        fresh = {
            name: orjson.dumps(self.data[name], option=orjson.OPT_NON_STR_KEYS)
            for name in names
            if name in dirty or name not in self._table_json
        }
        payload = [b"{"]
        for i, name in enumerate(names):
            table = fresh[name] if name in fresh else self._table_json[name]
            payload += (b"," if i else b"", orjson.dumps(name), b":", table)
        payload.append(b"}")
        return payload, sum(map(len, payload)), fresh

    def _keep(self, fresh: dict[str, bytes]) -> None:
        """The tables just serialised are the cache now: clean until changed again."""
        self._table_json.update(fresh)
        for name in set(self._table_json) - set(self.data):
            del self._table_json[name]
        self._dirty.clear()

    # --- folding (the writer thread) ---------------------------------------------------------
    def _unwritten(self) -> bool:
        return self._seq > self._written or self._direct is not None

    def _fold(self) -> None:
        """Write the campaign as it is now into the save file, noting it in the journal first
        (so a kill between the two still finds the save and its journal in step)."""
        self._ensure_folder()
        with self._changing:
            seq = self._seq
            if self._direct is not None and self._direct[0] == seq:
                chunks = self._direct[1]
            else:
                chunks, _, fresh = self._serialise(self._dirty)
                self._keep(fresh)
            self._direct = None
        payload = b"".join(chunks)
        with self._jlock:
            if self._journal_fd is not None and os.fstat(self._journal_fd).st_nlink == 0:
                self._close_journal()  # removed: started afresh once the save is written
                self._journal_failed = True
            if self._journal_fd is not None:
                self._append(_frame({"fold": digest(payload).hex(), "seq": seq}))
        self._write_now(payload)
        with self._jlock:
            self._written = max(self._written, seq)
            self._unfolded = [(s, line) for s, line in self._unfolded if s > self._written]
            self.size = len(payload)
            self._size_bound = len(payload) + sum(len(line) for _, line in self._unfolded)
            stale = self._journal_failed or (
                self._journal_fd is not None and self._journal_size > JOURNAL_RESTART_BYTES
            )
            if stale and self._unfolded:
                self._start_journal()  # what the save lacks was in memory only: durable now
            elif stale:
                self._drop_journal()
                self._journal_failed = False

    def _ensure_folder(self) -> None:
        """A removed folder stops saving with a message that says so; :meth:`retry` (the GM's
        ctrl+r) makes it again, with a fresh lock file in it."""
        folder = self.path.parent
        if folder.is_dir():
            return
        if not self._recreate_folder:
            raise FileNotFoundError(errno.ENOENT, "folder removed", str(folder))
        folder.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError, RuntimeError):
            self._lock.release()
        self._lock = acquire_lock(self.path)

    def _drop_journal(self) -> None:
        """The save holds every change: the journal has nothing left to say."""
        self._close_journal()
        _remove(journal_path(self.path))

    def _write_now(self, payload: bytes) -> None:
        self._recreate_folder = False
        if self._fingerprint is not None:
            try:
                still = self._fingerprint.still(self.path)
            except FileNotFoundError:
                still = self._fingerprint  # removed: nothing of anyone's to clobber
            if still is None:
                raise ExternalChange(
                    self.path,
                    "was changed by another program since Tableside last saved it; "
                    "not overwriting it (your last change is not saved)",
                )
            self._fingerprint = still
        if (reason := read_only_reason(self.path)) is not None:
            raise PermissionError(errno.EACCES, reason)
        atomic_write(self.path, payload)
        self._fingerprint = _Fingerprint.of(self.path, payload)
        self._file_lock.take(self.path)

    # --- waiting, telling, closing -------------------------------------------------------------
    def flush(self, timeout: float | None = None) -> None:
        """Block until the save file holds every change so far (raises if it cannot)."""
        seq = self._seq
        self._writer.wait_for(lambda: self._written >= seq and self._direct is None, timeout)
        if self._writer.error is not None:
            raise self._writer.error
        if self._writer.unsaved is not None and self._written < seq:
            raise self._writer.unsaved

    def retry(self) -> None:
        """Try a failed write again now (a removed folder is made again)."""
        self._recreate_folder = True
        self._writer.retry()

    @property
    def saved_seq(self) -> int:
        """The last change the save file holds."""
        return self._written

    @property
    def error(self) -> StoreError | None:
        return self._writer.error

    @property
    def unsaved(self) -> StoreError | None:
        """Why the newest changes are not on disk yet (None: all saved, or being saved)."""
        return self._writer.unsaved

    def _report(self, exc: StoreError) -> None:
        if self.on_error is not None:
            self.on_error(exc)

    def _report_status(self, problem: StoreError | None) -> None:
        if self.on_status is not None:
            self.on_status(problem)

    def close(self) -> None:
        """Fold what is left into the save, then release the locks."""
        if self.closed:
            return
        self.closed = True
        self._writer.close()
        with self._jlock:
            if self.read_only is None and self._writer.error is None and not self._unwritten():
                self._drop_journal()
            else:
                self._close_journal()  # kept: the next opening replays it
        self._file_lock.release()
        _release(self._lock, self.path)
        if self._writer.error is not None:
            raise self._writer.error
        if self._writer.unsaved is not None and self._unwritten():
            raise self._writer.unsaved


def _refuse_read_only(path: Path, where: Path) -> None:
    if (reason := read_only_reason(where)) is not None:
        raise StoreError(
            path,
            f"cannot be saved: {reason}. Tableside will not replace it; make it writable "
            "(chmod u+w) or open a copy",
        )


def acquire_lock(path: Path) -> SideLock:
    lock = SideLock(lock_path(path))
    try:
        lock.acquire()
    except BlockingIOError:
        holder = "another process"
        from app.bounded import FileReadError, read_regular_file

        with contextlib.suppress(OSError, FileReadError, UnicodeDecodeError):
            owner = read_regular_file(owner_path(path), 4096).decode("utf-8").strip()
            holder = visible(owner, 200) or holder
        raise SaveLocked(
            path, f"is already open in another Tableside ({holder}); close that one first"
        ) from None
    except OSError as exc:
        raise StoreError(
            path, f"cannot be locked: {lock_path(path).name} {exc.strerror or exc}"
        ) from None
    with contextlib.suppress(OSError):
        # Ours to replace: the lock is held. A link planted at the name is unlinked, not
        # written through.
        fd = create_side_file(owner_path(path), 0o644)
        try:
            _write_all(fd, f"pid {os.getpid()} on {socket.gethostname()}".encode())
        finally:
            os.close(fd)
    return lock


def _release(lock: Releasable, path: Path) -> None:
    with contextlib.suppress(OSError):
        owner_path(path).unlink()
    lock.release()


def _refuse_unusable_game(path: Path, data: dict[str, Any]) -> None:
    """A save whose game is installed but fails to load (or speaks another game API) is not
    opened: nothing can be shown or changed without it, and nothing is written."""
    meta: dict[str, Any] = next(iter(data.get("meta", {}).values()), {})
    try:
        registry.game(str(meta.get("ruleset")))
    except registry.UnknownGame as exc:
        raise StoreError(path, str(exc)) from None


def export_campaign(path: Path) -> dict[str, Any]:
    """The whole campaign as one JSON document (the ``tableside export`` schema)."""
    data = read_campaign(path)
    return export_document(data)


def export_document(data: dict[str, Any]) -> dict[str, Any]:
    meta = next(iter(data["meta"].values()))

    def rows(table: str) -> list[dict[str, Any]]:
        return [
            {"id": int(k), **v}
            for k, v in sorted(data.get(table, {}).items(), key=lambda kv: int(kv[0]))
        ]

    return {
        "schema_version": meta["schema_version"],
        "ruleset": meta["ruleset"],
        "name": meta["name"],
        "clock": meta.get("clock", {}),
        "party": rows("party"),
        "npcs": rows("npcs"),
        "encounters": rows("encounters"),
        "log": rows("log"),
        "decks": rows("decks"),
    }

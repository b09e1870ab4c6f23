"""The campaign store: one TinyDB JSON file per campaign that never loses data.

Why it is shaped like this:

* TinyDB 4.9's own ``JSONStorage`` rewrites the file in place; a kill mid-write leaves it
  unreadable. :class:`MemoryStorage` keeps the campaign in memory for TinyDB, and
  :class:`CampaignStore` persists whole snapshots atomically (temp file in the same folder,
  fsync, ``os.replace``, fsync the folder), so the file on disk is always one complete save.
* Serialising (``orjson``, fast) happens on the caller's thread right after a command, so each
  snapshot is exactly one consistent state; the slow part, disk I/O and fsync, runs on one
  writer thread, in order. Intermediate snapshots still waiting when a newer one arrives are
  superseded (each snapshot is the whole campaign), and :meth:`CampaignStore.close` drains.
* A ``filelock`` lock beside the save is held for the app's lifetime; an owner file names the
  process so a refused second instance can say who holds it.
* A file that fails to parse or validate is never written over; a file changed behind our back
  stops the writer instead of clobbering the other program's edit.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from filelock import FileLock, Timeout
from tinydb import TinyDB
from tinydb.storages import Storage

from app import schema
from rulesets import registry

BACKUPS_KEPT = 3
MAX_SAVE_BYTES = 64 * 1024 * 1024
"""A campaign is a few MB at most; anything bigger is not ours and is refused, not parsed.
Tableside never writes a save this large (:class:`SaveTooLarge`), so it can always reopen it."""
WARN_SAVE_BYTES = 32 * 1024 * 1024
"""Past this the GM is warned, with half the room still left to trim the log or library."""
RETRY_SECONDS = 2.0
"""How often a save that could not be written (a full disk, a read-only file) is tried again."""


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


class SaveTooLarge(ValueError):
    """A change would make the save larger than Tableside may write; nothing was queued."""


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def owner_path(path: Path) -> Path:
    return path.with_name(path.name + ".owner")


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


def atomic_write(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` so that a crash leaves either the old or the new file."""
    folder = path.parent
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
    tmp = folder / f"{_temp_prefix(path)}{os.getpid()}.{threading.get_ident()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        try:
            view = memoryview(payload)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        # A full disk fails mid-write: the partial temp file would hold the space the next
        # attempt needs, so it goes at once (the save itself was never touched).
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(folder)


def read_campaign(path: Path) -> dict[str, Any]:
    """Parse and validate a save. Raises :class:`CorruptSave` with the reason; writes nothing."""
    return load_campaign(path)[0]


def load_campaign(path: Path) -> tuple[dict[str, Any], bytes]:
    """:func:`read_campaign`, also returning the bytes it parsed (to fingerprint them)."""
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
    if not raw.strip():
        raise CorruptSave(path, "is empty")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise CorruptSave(path, f"is not valid JSON ({exc})") from None
    try:
        data = schema.validate(data)
    except schema.SchemaError as exc:
        raise CorruptSave(path, f"is not a valid campaign ({exc})") from None
    try:
        orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError as exc:  # orjson.JSONEncodeError: opened, no change could ever be saved
        raise CorruptSave(path, f"cannot be saved back by Tableside ({exc})") from None
    return data, raw


def digest(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=16).digest()


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
                read_campaign(candidate)
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


@dataclass(frozen=True)
class _Fingerprint:
    """What the save on disk looked like when we last wrote (or read) it.

    Size, mtime and inode are the cheap check; the content hash catches an edit of the same
    size whose mtime was put back, which they cannot."""

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

    def matches(self, path: Path) -> bool:
        """True when the file still holds what we last wrote (reads it when stat agrees)."""
        try:
            info = path.stat()
        except FileNotFoundError:
            return False
        if (info.st_size, info.st_mtime_ns, info.st_ino) != (self.size, self.mtime_ns, self.inode):
            return False
        try:
            return digest(path.read_bytes()) == self.content
        except OSError:
            return False


class _Writer(threading.Thread):
    """Writes snapshots in order on one thread; a newer snapshot supersedes a waiting one.

    A write that fails for a reason that can pass (a full disk, the save or its folder made
    read-only) keeps its snapshot and is tried again every :data:`RETRY_SECONDS`, or at once
    on :meth:`retry`; newer changes still supersede it. A change made behind our back stops
    the writer for good: only the GM can decide whose version wins.
    """

    def __init__(self, store: CampaignStore) -> None:
        super().__init__(name="tableside-autosave", daemon=True)
        self.store = store
        self.cond = threading.Condition()
        self.pending: tuple[int, list[bytes]] | None = None
        """The newest snapshot not yet written, as chunks: joining a 5 MB library into one
        buffer is left to this thread, off the keypress, and skipped for superseded ones."""
        self.written_seq = 0
        self.closing = False
        self.error: StoreError | None = None
        """Saving stopped for good (the file was changed behind our back)."""
        self.unsaved: StoreError | None = None
        """The last write failed for a passing reason; the snapshot waits in ``pending``."""
        self.writing = False
        self._retry_at = 0.0
        self._retry_now = False

    def submit(self, seq: int, payload: list[bytes]) -> None:
        with self.cond:
            if self.error is not None:
                raise self.error
            self.pending = (seq, payload)
            self.cond.notify_all()

    def retry(self) -> None:
        """Try the waiting snapshot again now (the GM freed space, or pressed the key)."""
        with self.cond:
            self._retry_now = True
            self.cond.notify_all()

    def _next(self) -> tuple[int, list[bytes]] | None:
        """Wait for a snapshot that is due; None when the thread should end."""
        with self.cond:
            while True:
                if self.error is not None or (self.pending is None and self.closing):
                    return None
                if self.pending is not None:
                    wait = self._retry_at - time.monotonic()
                    if self.unsaved is None or self._retry_now or wait <= 0:
                        break
                    self.cond.wait(wait)
                else:
                    self.cond.wait()
            item, self.pending = self.pending, None
            self._retry_now = False
            self.writing = True
            return item

    def run(self) -> None:
        while (item := self._next()) is not None:
            seq, payload = item
            joined = b"".join(payload)
            try:
                self.store._write_now(joined)
            except StoreError as exc:
                with self.cond:
                    self.error = exc
                    self.writing = False
                    self.cond.notify_all()
                self.store._report(exc)
                return
            except OSError as exc:
                problem = StoreError(self.store.path, f"is not saved: {_why(exc)}")
                with self.cond:
                    if self.pending is None:  # nothing newer came meanwhile: keep this one
                        self.pending = (seq, [joined])
                    first = self.unsaved is None
                    self.unsaved = problem
                    self.writing = False
                    self._retry_at = time.monotonic() + RETRY_SECONDS
                    give_up = self.closing and not self._retry_now
                    self.cond.notify_all()
                if first:
                    self.store._report_status(problem)
                if give_up:
                    return
                continue
            with self.cond:
                self.written_seq = seq
                resumed = self.unsaved is not None
                self.unsaved = None
                self.writing = False
                self.cond.notify_all()
            if resumed:
                self.store._report_status(None)

    def wait_for(self, seq: int, timeout: float | None = None) -> bool:
        """Wait until ``seq`` is written, saving has stopped, or a write is failing."""
        with self.cond:
            return self.cond.wait_for(
                lambda: (
                    self.written_seq >= seq
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
            self.pending = None
            self.closing = True
            self.cond.notify_all()
        self.join()


def _why(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full; Tableside tries again every few seconds (ctrl+r: now)"
    if isinstance(exc, PermissionError) or exc.errno == errno.EROFS:
        return (
            f"{exc.strerror or exc}; Tableside will not replace it and tries again every few "
            "seconds (ctrl+r: now)"
        )
    return f"could not be written ({exc.strerror or exc}); retrying (ctrl+r: now)"


class CampaignStore:
    """One open campaign: lock held, data in memory, every commit written atomically."""

    def __init__(
        self,
        path: Path,
        data: dict[str, Any],
        lock: FileLock,
        on_error: Callable[[StoreError], None] | None = None,
        raw: bytes = b"",
    ) -> None:
        self.path = path
        self.data = data
        self._lock = lock
        self.on_error = on_error
        self.on_status: Callable[[StoreError | None], None] | None = None
        """Told (from the writer thread) when saving fails for a passing reason, and with
        None when it works again."""
        self.db = TinyDB(storage=MemoryStorage, data=data)
        self._seq = 0
        self._table_json: dict[str, bytes] = {}
        self.size = len(raw)
        """Bytes of the newest snapshot (the save on disk when nothing is pending)."""
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
        try:
            _clean_temp_files(path)
            if path.exists() or path.is_symlink():
                data, raw = load_campaign(path)  # an unreadable save says so first
                _refuse_read_only(path, path)
                _rotate_backups(path, raw)
                store = cls(path, data, lock, on_error, raw)
            elif create:
                if not registry.is_known(ruleset):
                    raise StoreError(path, f"unknown game {ruleset!r}")
                data = schema.empty_campaign(ruleset, name or path.stem)
                store = cls(path, data, lock, on_error)
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
            _release(lock, path)
            raise
        return store

    # --- writing -----------------------------------------------------------------------------
    def commit(self, tables: Iterable[str] | None = None) -> int:
        """Snapshot the campaign now and queue it for writing. Returns its sequence number.

        ``tables`` names the tables that changed since the last commit (None: all). The others
        reuse their serialised bytes, so a combat change does not re-serialise a 5,000-NPC
        library: the snapshot is still the whole campaign, spliced from per-table JSON.
        Raises TypeError, queueing nothing, if the data cannot be serialised, and
        :class:`SaveTooLarge` if it would pass :data:`MAX_SAVE_BYTES`.
        """
        if self.closed:
            raise StoreError(self.path, "is closed")
        names = list(self.data)
        dirty = set(names) if tables is None else set(tables)
        # All or nothing: a table that cannot be serialised (a number past 64 bits) raises
        # TypeError here with the cache untouched, so the caller can roll its change back.
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
        size = sum(map(len, payload))
        if size > MAX_SAVE_BYTES:
            # Never written: Tableside would refuse to open its own file. The cache keeps the
            # state before this change, which the caller rolls back to.
            raise SaveTooLarge(
                f"that change would make the save {size / 2**20:.0f} MB, past the "
                f"{MAX_SAVE_BYTES // 2**20} MB a campaign may be; it is not saved"
            )
        self._table_json.update(fresh)
        for name in set(self._table_json) - set(names):
            del self._table_json[name]
        self.size = size
        self._seq += 1
        self._writer.submit(self._seq, payload)
        return self._seq

    def flush(self, timeout: float | None = None) -> None:
        """Block until everything committed so far is on disk (raises if it cannot be)."""
        self._writer.wait_for(self._seq, timeout)
        if self._writer.error is not None:
            raise self._writer.error
        if self._writer.unsaved is not None and self.saved_seq < self._seq:
            raise self._writer.unsaved

    def retry(self) -> None:
        """Try a failed write again now."""
        self._writer.retry()

    @property
    def saved_seq(self) -> int:
        return self._writer.written_seq

    @property
    def error(self) -> StoreError | None:
        return self._writer.error

    @property
    def unsaved(self) -> StoreError | None:
        """Why the newest changes are not on disk yet (None: all saved, or being saved)."""
        return self._writer.unsaved

    def _write_now(self, payload: bytes) -> None:
        if self._fingerprint is not None and not self._fingerprint.matches(self.path):
            raise ExternalChange(
                self.path,
                "was changed by another program since Tableside last saved it; "
                "not overwriting it (your last change is not saved)",
            )
        if (reason := read_only_reason(self.path)) is not None:
            raise PermissionError(errno.EACCES, reason)
        atomic_write(self.path, payload)
        self._fingerprint = _Fingerprint.of(self.path, payload)

    def _report(self, exc: StoreError) -> None:
        if self.on_error is not None:
            self.on_error(exc)

    def _report_status(self, problem: StoreError | None) -> None:
        if self.on_status is not None:
            self.on_status(problem)

    def close(self) -> None:
        """Drain pending writes, then release the lock."""
        if self.closed:
            return
        self.closed = True
        self._writer.close()
        _release(self._lock, self.path)
        if self._writer.error is not None:
            raise self._writer.error
        if self._writer.unsaved is not None and self._writer.pending is not None:
            raise self._writer.unsaved


def _refuse_read_only(path: Path, where: Path) -> None:
    if (reason := read_only_reason(where)) is not None:
        raise StoreError(
            path,
            f"cannot be saved: {reason}. Tableside will not replace it; make it writable "
            "(chmod u+w) or open a copy",
        )


def acquire_lock(path: Path) -> FileLock:
    lock = FileLock(str(lock_path(path)), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        holder = "another process"
        with contextlib.suppress(OSError):
            holder = owner_path(path).read_text(encoding="utf-8").strip() or holder
        raise SaveLocked(
            path, f"is already open in another Tableside ({holder}); close that one first"
        ) from None
    except OSError as exc:
        raise StoreError(path, f"cannot be locked ({exc.strerror or exc})") from None
    with contextlib.suppress(OSError):
        owner_path(path).write_text(
            f"pid {os.getpid()} on {socket.gethostname()}", encoding="utf-8"
        )
    return lock


def _release(lock: FileLock, path: Path) -> None:
    with contextlib.suppress(OSError):
        owner_path(path).unlink()
    lock.release()


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
        with open(tmp, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        for older, newer in zip(reversed(baks[1:]), reversed(baks[:-1]), strict=True):
            if newer.exists():
                os.replace(newer, older)
        os.replace(tmp, baks[0])
    except OSError:
        # A backup that cannot be made does not stop the GM from playing; its partial temp
        # file must not eat the space the save itself needs.
        with contextlib.suppress(OSError):
            os.unlink(tmp)


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

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
import os
import shutil
import socket
import stat
import threading
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
"""A campaign is a few MB at most; anything bigger is not ours and is refused, not parsed."""


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
        view = memoryview(payload)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, mode)
    os.replace(tmp, path)
    fsync_dir(folder)


def read_campaign(path: Path) -> dict[str, Any]:
    """Parse and validate a save. Raises :class:`CorruptSave` with the reason; writes nothing."""
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
        return schema.validate(data)
    except schema.SchemaError as exc:
        raise CorruptSave(path, f"is not a valid campaign ({exc})") from None


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
    size: int
    mtime_ns: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> _Fingerprint | None:
        try:
            info = path.stat()
        except FileNotFoundError:
            return None
        return cls(info.st_size, info.st_mtime_ns, info.st_ino)


class _Writer(threading.Thread):
    """Writes snapshots in order on one thread; a newer snapshot supersedes a waiting one."""

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

    def submit(self, seq: int, payload: list[bytes]) -> None:
        with self.cond:
            if self.error is not None:
                raise self.error
            self.pending = (seq, payload)
            self.cond.notify_all()

    def run(self) -> None:
        while True:
            with self.cond:
                while self.pending is None and not self.closing:
                    self.cond.wait()
                if self.pending is None:
                    return
                seq, payload = self.pending
                self.pending = None
            try:
                self.store._write_now(b"".join(payload))
            except StoreError as exc:
                with self.cond:
                    self.error = exc
                    self.cond.notify_all()
                self.store._report(exc)
                return
            except OSError as exc:
                err = StoreError(self.store.path, f"could not be written ({exc.strerror or exc})")
                with self.cond:
                    self.error = err
                    self.cond.notify_all()
                self.store._report(err)
                return
            with self.cond:
                self.written_seq = seq
                self.cond.notify_all()

    def wait_for(self, seq: int, timeout: float | None = None) -> bool:
        with self.cond:
            return self.cond.wait_for(
                lambda: self.written_seq >= seq or self.error is not None, timeout
            )

    def close(self) -> None:
        with self.cond:
            self.closing = True
            self.cond.notify_all()
        self.join()


class CampaignStore:
    """One open campaign: lock held, data in memory, every commit written atomically."""

    def __init__(
        self,
        path: Path,
        data: dict[str, Any],
        lock: FileLock,
        on_error: Callable[[StoreError], None] | None = None,
    ) -> None:
        self.path = path
        self.data = data
        self._lock = lock
        self.on_error = on_error
        self.db = TinyDB(storage=MemoryStorage, data=data)
        self._seq = 0
        self._table_json: dict[str, bytes] = {}
        self._fingerprint = _Fingerprint.of(path)
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
        lock = acquire_lock(path)
        try:
            _clean_temp_files(path)
            if path.exists() or path.is_symlink():
                data = read_campaign(path)
                _rotate_backups(path)
                store = cls(path, data, lock, on_error)
            elif create:
                if not registry.is_known(ruleset):
                    raise StoreError(path, f"unknown game {ruleset!r}")
                data = schema.empty_campaign(ruleset, name or path.stem)
                store = cls(path, data, lock, on_error)
                store.commit()
                store.flush()
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
        Raises TypeError, queueing nothing, if the data cannot be serialised.
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
        self._table_json.update(fresh)
        for name in set(self._table_json) - set(names):
            del self._table_json[name]
        payload = [b"{"]
        for i, name in enumerate(names):
            payload += (b"," if i else b"", orjson.dumps(name), b":", self._table_json[name])
        payload.append(b"}")
        self._seq += 1
        self._writer.submit(self._seq, payload)
        return self._seq

    def flush(self, timeout: float | None = None) -> None:
        """Block until everything committed so far is on disk."""
        self._writer.wait_for(self._seq, timeout)
        if self._writer.error is not None:
            raise self._writer.error

    @property
    def saved_seq(self) -> int:
        return self._writer.written_seq

    @property
    def error(self) -> StoreError | None:
        return self._writer.error

    def _write_now(self, payload: bytes) -> None:
        current = _Fingerprint.of(self.path)
        if self._fingerprint is not None and current != self._fingerprint:
            raise ExternalChange(
                self.path,
                "was changed by another program since Tableside last saved it; "
                "not overwriting it (your last change is not saved)",
            )
        atomic_write(self.path, payload)
        self._fingerprint = _Fingerprint.of(self.path)

    def _report(self, exc: StoreError) -> None:
        if self.on_error is not None:
            self.on_error(exc)

    def close(self) -> None:
        """Drain pending writes, then release the lock."""
        if self.closed:
            return
        self.closed = True
        self._writer.close()
        _release(self._lock, self.path)
        if self._writer.error is not None:
            raise self._writer.error


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


def _rotate_backups(path: Path) -> None:
    """Keep the last few good saves, one per opening, so a bad session can be walked back."""
    baks = backup_paths(path)
    with contextlib.suppress(OSError):
        for older, newer in zip(reversed(baks[1:]), reversed(baks[:-1]), strict=True):
            if newer.exists():
                os.replace(newer, older)
        tmp = path.with_name(f"{_temp_prefix(path)}bak.tmp")
        shutil.copyfile(path, tmp)
        os.replace(tmp, baks[0])


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
        "party": rows("party"),
        "npcs": rows("npcs"),
        "encounters": rows("encounters"),
        "log": rows("log"),
        "decks": rows("decks"),
    }

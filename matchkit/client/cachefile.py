"""The HTTP cache's file: SQLite, entries as checksummed JSON, owner-only, failures as CacheErrors.

What this module guarantees, whatever the file holds:

- **Nothing in the file can run code.** Entries are checksummed JSON followed by the raw body,
  never pickles (:mod:`matchkit.client.cacheentry`). A file whose entries are of another format
  (requests-cache's own SQLite cache pickles them) is refused whole, with the way out; it is
  never unpickled.
- **A damaged entry is a cache miss, never data.** An entry whose digest does not match (a
  flipped byte, a changed digit) is dropped with a warning and fetched again.
- **Owner-only.** The file is created 0600 (SQLite gives its ``-wal`` and ``-shm`` files the
  same mode) and the folders matchkit creates for it 0700.
- **Failures are** :class:`matchkit.errors.CacheError` **naming the file and the way out.** A
  damaged file (garbage, truncated) or one of another format does not stop ``Client()``: every
  use then raises, and ``Client(...).clear_cache()`` (or deleting the file) clears it. A write
  lock held by another process is waited for ``lock_timeout`` seconds, then reported.
- **Read-only caches are readable.** When the file or its folder cannot be written, an offline
  client opens it read-only; an online one is refused at once (it could not store anything).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from requests_cache import SQLiteCache
from requests_cache.backends.base import BaseCache
from requests_cache.backends.sqlite import SQLiteDict

from matchkit.client.cacheentry import SERIALIZER
from matchkit.errors import CacheError, InvalidArgumentError

__all__ = ["FORMAT_VERSION", "LOCK_TIMEOUT", "CacheFile", "prepare_folder", "writable"]

logger = logging.getLogger(__name__)

FORMAT_VERSION = 0x6D6B6332
"""``PRAGMA user_version`` of a cache in this format (``"mkc2"``: checksummed JSON entries)."""
LOCK_TIMEOUT = 10.0
"""Seconds to wait for another process's write lock before saying so."""

_SIBLINGS = ("-wal", "-shm", "-journal")
# sqlite3 error names that mean the file itself is damaged (clearing it is the way out).
_DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}


def prepare_folder(folder: Path) -> None:
    """Create ``folder`` (owner-only, with any parents matchkit creates) if it is missing.

    Raises:
        InvalidArgumentError: it cannot be created or is not a folder.
    """
    created = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        created.append(probe)
        probe = probe.parent
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        for path in created:
            path.chmod(0o700)
    except OSError as error:
        raise InvalidArgumentError(
            f"cache_dir={str(folder)!r} cannot hold the HTTP cache "
            f"({error.strerror or error}); pass a writable folder as cache_dir= or "
            "MATCHKIT_CACHE_DIR",
            parameter="cache_dir",
        ) from None


def writable(path: Path) -> bool:
    """Whether SQLite can write ``path`` (the folder too: it holds the ``-wal`` file)."""
    return os.access(path.parent, os.W_OK | os.X_OK) and (
        not path.exists() or os.access(path, os.W_OK)
    )


class CacheFile(SQLiteCache):
    """requests-cache's SQLite backend on one file, with the guarantees of this module.

    Args:
        path: the database file.
        read_only: open it read-only (nothing is stored, dropped or cleared).
        lock_timeout: seconds to wait for another process's write lock.
    """

    def __init__(self, path: Path, *, read_only: bool = False, lock_timeout: float = LOCK_TIMEOUT):
        BaseCache.__init__(self, cache_name=str(path))
        self.path = path
        self.read_only = read_only
        self.lock_timeout = lock_timeout
        self.stored_rows = 0
        self._version = 0
        self._tables: set[str] = set()
        self.problem: CacheError | None = None
        if not read_only:
            _create_owner_only(path)
        self.problem = self._probe()
        self.responses: _Table = _Table(self, "responses", SERIALIZER)
        self.redirects: _Table = _Table(self, "redirects", None, lock=self.responses._lock)
        self._mark()

    def __repr__(self) -> str:
        return f"CacheFile({str(self.path)!r}, read_only={self.read_only})"

    def connect(self) -> sqlite3.Connection:
        """A new connection, in WAL mode when writable; read-only ones fall back to immutable."""
        options: dict[str, Any] = {
            "isolation_level": None,
            "timeout": self.lock_timeout,
            "check_same_thread": False,
        }
        if not self.read_only:
            connection = sqlite3.connect(self.path, **options)
            # WAL with synchronous=NORMAL: a commit per page without an fsync each; a crash can
            # lose the last pages written, never corrupt the file.
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            return connection
        uri = self.path.absolute().as_uri()
        connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, **options)
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            # A WAL file in a folder we cannot write, with no -shm beside it: nobody can be
            # writing it, so it can be read as immutable.
            connection.close()
            connection = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, **options)
        return connection

    def failure(self, error: sqlite3.Error) -> CacheError:
        """The CacheError for ``error``; a damaged file also refuses every later use."""
        name = getattr(error, "sqlite_errorname", "")
        text = str(error)
        if name in _DAMAGED or "malformed" in text or "not a database" in text:
            self.problem = self._damaged(text)
            return self.problem
        if name.startswith("SQLITE_BUSY") or "locked" in text:
            return CacheError(
                f"the HTTP cache {self.path} is locked by another process; waited "
                f"{self.lock_timeout:g} s. Another matchkit may be fetching into the same cache: "
                "let it finish, or pass another cache_dir=",
                path=self.path,
            )
        if name.startswith("SQLITE_READONLY") or "readonly" in text:
            return CacheError(
                f"the HTTP cache {self.path} cannot be written ({text}); pass offline=True to "
                "read it as it is, or a writable cache_dir=",
                path=self.path,
            )
        return CacheError(
            f"the HTTP cache {self.path} failed: {text}. If it persists, clear it with "
            f"Client(...).clear_cache() or delete {self.path}",
            path=self.path,
        )

    def clear(self) -> None:
        """Remove every response; a damaged or refused file is deleted and created anew."""
        if self.problem is None:
            try:
                BaseCache.clear(self)
                return
            except CacheError:
                if self.problem is None:
                    raise
        if self.read_only:
            raise CacheError(
                f"the HTTP cache {self.path} cannot be cleared: it is read-only here "
                "(delete it where it can be written)",
                path=self.path,
            )
        self.close()
        for suffix in ("", *_SIBLINGS):
            try:
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            except OSError as error:
                raise CacheError(
                    f"the HTTP cache {self.path} cannot be cleared: deleting "
                    f"{self.path}{suffix} failed ({error.strerror or error}); remove it yourself",
                    path=self.path,
                ) from None
        _create_owner_only(self.path)
        self.problem = None
        self.stored_rows = self._version = 0
        self._tables = set()
        self.responses.init_db()
        self.redirects.init_db()
        self._mark()

    def _probe(self) -> CacheError | None:
        """Check the file before use: readable SQLite, and our format or empty.

        Returns:
            The problem that refuses every use of a damaged file or one of another format
            (clearing is the way out), else ``None``.

        Raises:
            CacheError: the file is locked past the wait, or cannot be opened at all.
        """
        try:
            connection = self.connect()
            try:
                version = self._version = connection.execute("PRAGMA user_version").fetchone()[0]
                tables = self._tables = {
                    row[0]
                    for row in connection.execute(
                        "SELECT name FROM sqlite_master WHERE type='table'"
                    )
                }
                if "responses" in tables:
                    query = "SELECT count(*) FROM responses"
                    self.stored_rows = connection.execute(query).fetchone()[0]
            finally:
                connection.close()
        except sqlite3.DatabaseError as error:
            failure = self.failure(error)
            if failure is self.problem:  # damaged: every use raises until it is cleared
                return failure
            raise failure from None  # locked past the wait, or cannot be opened: say so now
        if version == FORMAT_VERSION or (version == 0 and not self.stored_rows):
            return None
        return CacheError(
            f"the HTTP cache {self.path} holds {self.stored_rows} responses in a format this "
            "matchkit does not load (not its sealed JSON: written by another program, such as "
            "requests-cache, whose entries are pickles that can run code when loaded). Clear it "
            f"with Client(...).clear_cache() or delete {self.path}",
            path=self.path,
        )

    def _damaged(self, reason: str) -> CacheError:
        return CacheError(
            f"the HTTP cache {self.path} is damaged ({reason}). Clear it with "
            f"Client(...).clear_cache() or delete {self.path} (and its -wal and -shm files)",
            path=self.path,
        )

    def _mark(self) -> None:
        if self.problem is None and not self.read_only and self._version != FORMAT_VERSION:
            with self.responses.connection(commit=True) as connection:
                connection.execute(f"PRAGMA user_version={FORMAT_VERSION}")
            self._version = FORMAT_VERSION


class _Table(SQLiteDict):
    """One table of a :class:`CacheFile`: its connection, bounded locks and checked entries."""

    def __init__(self, file: CacheFile, table_name: str, serializer: Any, **kwargs: Any) -> None:
        self.file = file
        super().__init__(file.path, table_name=table_name, serializer=serializer, **kwargs)

    def init_db(self) -> None:
        """Create the table, unless it exists (no write, so a held lock does not matter)."""
        file = self.file
        if file.problem is None and not file.read_only and self.table_name not in file._tables:
            super().init_db()

    @contextmanager
    def connection(self, commit: bool = False) -> Iterator[sqlite3.Connection]:
        if self.file.problem is not None:
            raise self.file.problem
        if commit and self.file.read_only:
            raise CacheError(
                f"the HTTP cache {self.file.path} is open read-only; nothing can be stored",
                path=self.file.path,
            )
        try:
            with self._lock:
                if self._connection is None:
                    self._connection = self.file.connect()
            if commit and not self._active_transaction:
                with self._acquire_sqlite_lock():
                    yield self._connection
            else:
                yield self._connection
        except sqlite3.Error as error:
            raise self.file.failure(error) from None

    @contextmanager
    def _acquire_sqlite_lock(self) -> Iterator[None]:
        """A write transaction; waits ``lock_timeout`` for the lock (SQLite's busy timeout)."""
        assert self._connection is not None
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            self._active_transaction = True
            try:
                yield
                self._connection.commit()
            except BaseException:
                self._connection.rollback()
                raise
            finally:
                self._active_transaction = False

    def __getitem__(self, key: str) -> Any:
        with self.connection() as connection:
            query = f"SELECT value FROM {self.table_name} WHERE key=?"
            row = connection.execute(query, (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        value = self.deserialize(key, row[0])
        if value is None:
            self._drop(key)
        return value

    def deserialize(self, key: str, value: Any) -> Any:
        """The stored value, or ``None`` for an entry that fails its checksum or does not load."""
        if self.serializer is None:
            return value
        try:
            response = self.serializer.loads(value)
        except Exception as error:  # any failure to load is a damaged entry
            logger.warning(
                "the HTTP cache %s holds a damaged entry (%s): it is not used, and fetched again",
                self.file.path,
                str(error)[:80] or type(error).__name__,
            )
            return None
        response.cache_key = key
        return response

    def _drop(self, key: str) -> None:
        if not self.file.read_only:
            with self.connection(commit=True) as connection:
                connection.execute(f"DELETE FROM {self.table_name} WHERE key=?", (key,))


def _create_owner_only(path: Path) -> None:
    """Create ``path`` empty with mode 0600, or tighten an existing file of ours to 0600."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        return
    except FileExistsError:
        pass
    except OSError as error:
        raise CacheError(
            f"the HTTP cache {path} cannot be created ({error.strerror or error}); pass a "
            "writable cache_dir=",
            path=path,
        ) from None
    for candidate in (path, *(Path(f"{path}{suffix}") for suffix in _SIBLINGS)):
        try:
            status = candidate.stat()
            if status.st_uid == os.geteuid() and status.st_mode & 0o077:
                candidate.chmod(0o600)
        except OSError:
            continue

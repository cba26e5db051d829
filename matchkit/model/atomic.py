"""The one atomic write of a file: every file matchkit replaces in place goes through it.

:func:`atomic_write` writes beside the target under a hidden temporary name, sets its mode,
flushes it to the disk, renames it over the target (atomic on POSIX) and flushes the folder, so
that a crash at any point leaves the old file or the new one, never a part of either; a failure
removes the temporary file. It imports nothing heavy: the service and the sample set's writers
use it too.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from matchkit.errors import StorageError

__all__ = ["atomic_write"]


def atomic_write(
    path: str | os.PathLike[str],
    data: bytes | Callable[[Path], object],
    *,
    mode: int = 0o644,
    fsync: bool = True,
    error: type[StorageError] = StorageError,
) -> None:
    """Replace ``path`` with ``data``, atomically.

    Args:
        path: the file to write (its folder must exist).
        data: the bytes, or a function that writes the file at the path it is given (a
            temporary one beside ``path``: Parquet, SQLite or gzip writers open it themselves).
        mode: the file's permissions (a temporary file is made owner-only; the written file
            is shared as other files are).
        fsync: flush the file and its folder to the disk before returning (a crash after it
            keeps the new file). Off only for files that are rebuilt when lost.
        error: the StorageError raised when the file system refuses (``ArchiveError`` for an
            archive's files).

    Raises:
        StorageError: (or ``error``) the file system refused the write; nothing was changed.
            What ``data`` raises passes as it is (after the temporary file is removed).
    """
    target = Path(path)
    try:
        handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as failure:
        raise _refused(error, target, failure) from None
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as out:
            if isinstance(data, bytes | bytearray | memoryview):
                out.write(data)
        if not isinstance(data, bytes | bytearray | memoryview):
            data(temporary)
        os.chmod(temporary, mode)
        if fsync:
            _flush(temporary)
        os.replace(temporary, target)
        if fsync:
            _flush(target.parent)
    except BaseException as failure:
        with contextlib.suppress(OSError):
            temporary.unlink()
        if isinstance(failure, OSError):
            raise _refused(error, target, failure) from None
        raise


def _flush(path: Path) -> None:
    """Flush a file's (or a folder's: its entries') data to the disk."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _refused(error: type[StorageError], target: Path, failure: OSError) -> StorageError:
    return error(
        f"cannot write {target}: {failure.strerror or failure}; nothing was changed", path=target
    )

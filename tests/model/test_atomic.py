"""The one atomic write of a file (:func:`matchkit.model.atomic.atomic_write`): the old file or
the new one, never a part; the mode asked; no temporary file left; a refusal is a StorageError
naming the file."""

from __future__ import annotations

import gzip
import os
import sqlite3
from pathlib import Path

import pytest

from matchkit.errors import ArchiveError, StorageError
from matchkit.model.atomic import atomic_write


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


def test_bytes_replace_the_file_with_the_mode_asked(tmp_path: Path) -> None:
    target = tmp_path / "file.json"
    target.write_bytes(b"old")
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o644  # shared, though a temporary file is not
    atomic_write(target, b"private", mode=0o600, fsync=False)
    assert target.stat().st_mode & 0o777 == 0o600
    assert leftovers(tmp_path) == []


def test_a_writer_is_given_a_path_to_open_itself(tmp_path: Path) -> None:
    def gzipped(path: Path) -> None:
        with gzip.open(path, "wb") as out:
            out.write(b"lines\n")

    def database(path: Path) -> None:
        with sqlite3.connect(path) as connection:
            connection.execute("CREATE TABLE t (x)")
        connection.close()

    atomic_write(tmp_path / "a.gz", gzipped)
    atomic_write(tmp_path / "a.sqlite", database)
    assert gzip.decompress((tmp_path / "a.gz").read_bytes()) == b"lines\n"
    with sqlite3.connect(tmp_path / "a.sqlite") as connection:
        assert connection.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]
    connection.close()
    assert leftovers(tmp_path) == []


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_bytes(b"old")

    def half(path: Path) -> None:
        path.write_bytes(b"half of the n")
        raise RuntimeError("killed half-way")

    with pytest.raises(RuntimeError, match="half-way"):
        atomic_write(target, half)
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_a_refusal_of_the_file_system_is_a_storage_error_naming_the_file(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_bytes(b"")
    with pytest.raises(StorageError, match=r"cannot write .*not-a-folder/file") as caught:
        atomic_write(blocker / "file", b"x")
    assert caught.value.path == blocker / "file"

    def full(path: Path) -> None:
        raise OSError(28, os.strerror(28))  # no space left on the device

    with pytest.raises(ArchiveError, match="No space left") as caught:
        atomic_write(tmp_path / "archive.json", full, error=ArchiveError)
    assert caught.value.path == tmp_path / "archive.json"
    assert leftovers(tmp_path) == []

"""Issue 11, item 15: a damaged or unusable HTTP cache broke the client.

``Client()`` raised raw ``sqlite3.DatabaseError``/``OperationalError`` (garbage or truncated
file, read-only folder), so ``clear_cache()`` could not even be reached; a flipped byte in a
stored body gave ``DocumentError`` instead of a refetch; a changed digit gave wrong data; a held
write lock made requests-cache spin forever. Now: errors are CacheErrors naming the file and the
way out, a damaged entry is a miss that is fetched again, offline reads a read-only cache, and a
held lock is waited for a bounded time, then reported.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from matchkit import Client, InvalidArgumentError
from matchkit.client.cache import CACHE_FILE, cache_info, clear_cache, create_session
from matchkit.errors import CacheError

BODY = json.dumps({"data": [{"type": "match", "id": "m-12345", "attributes": {"duration": 1234}}]})
NOBODY = 65534


@pytest.fixture
def served(httpserver: HTTPServer) -> str:
    httpserver.expect_request("/page").respond_with_data(BODY, content_type="application/json")
    return httpserver.url_for("/page")


def _filled(folder: Path, url: str, pages: int = 1) -> None:
    session = create_session(folder)
    for n in range(pages):
        session.get(url, params={"n": str(n)} if n else None, expire_after=-1)
    session.close()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda path: path.write_bytes(b"garbage, not SQLite " * 300), id="garbage"),
        pytest.param(lambda path: path.write_bytes(path.read_bytes()[:5000]), id="truncated"),
    ],
)
def test_a_damaged_file_names_itself_and_clear_cache_is_reachable(
    served: str, tmp_path: Path, damage: Callable[[Path], Any], httpserver: HTTPServer
) -> None:
    _filled(tmp_path, served, pages=40)
    path = tmp_path / CACHE_FILE
    damage(path)
    with Client("http://127.0.0.1:9", cache_dir=tmp_path, progress=False) as client:
        with pytest.raises(CacheError, match="is damaged") as raised:
            client.cache_info()
        message = str(raised.value)
        assert str(path) in message
        assert "clear_cache()" in message
        assert "delete" in message
        assert raised.value.path == path
        client.clear_cache()
        assert client.cache_info().responses == 0
    session = create_session(tmp_path)  # the file is usable again
    requests_before = len(httpserver.log)
    assert session.get(served, expire_after=-1).json() == json.loads(BODY)
    assert session.get(served, expire_after=-1).from_cache
    assert len(httpserver.log) == requests_before + 1
    session.close()


def _stored_entry(path: Path) -> tuple[str, bytes]:
    connection = sqlite3.connect(path)
    try:
        key, value = connection.execute("SELECT key, value FROM responses").fetchone()
    finally:
        connection.close()
    return key, bytes(value)


def _replace_entry(path: Path, key: str, value: bytes) -> None:
    connection = sqlite3.connect(path)
    try:
        with connection:
            connection.execute("UPDATE responses SET value = ? WHERE key = ?", (value, key))
    finally:
        connection.close()


def test_a_changed_byte_or_digit_in_an_entry_is_refetched_never_data(
    served: str, tmp_path: Path, httpserver: HTTPServer
) -> None:
    _filled(tmp_path, served)
    path = tmp_path / CACHE_FILE
    key, original = _stored_entry(path)
    _, _, rest = original.partition(b"\n")
    length, _, data = rest.partition(b"\n")
    assert json.loads(data[: int(length)])["status_code"] == 200
    changes = [
        original.replace(b'"status_code":200', b'"status_code":201'),  # a digit of the status
        original.replace(b'"duration": 1234', b'"duration": 1235'),  # a digit of the body
        original.replace(b"m-12345", b"m-12346"),  # a digit of an id
        original.replace(rest[: len(length)], str(int(length) + 1).encode(), 1),  # the length
    ]
    # And a flipped bit at offsets across the whole entry, digest and header included.
    for offset in range(0, len(original), max(1, len(original) // 25)):
        changes.append(
            original[:offset] + bytes([original[offset] ^ 0x04]) + original[offset + 1 :]
        )
    assert all(changed != original for changed in changes)
    assert len(changes) > 25
    for n, changed in enumerate(changes):
        _replace_entry(path, key, changed)
        session = create_session(tmp_path)
        requests_before = len(httpserver.log)
        response = session.get(served, expire_after=-1)
        assert response.json() == json.loads(BODY), n  # the true page, whatever was changed
        assert not response.from_cache, n
        assert len(httpserver.log) == requests_before + 1, n
        session.close()
        assert _stored_entry(path)[1] != changed, n  # stored again, intact:
        again = create_session(tmp_path)
        assert again.get(served, expire_after=-1).from_cache, n
        again.close()


def test_cache_info_skips_a_damaged_entry_and_offline_it_is_a_miss(
    served: str, tmp_path: Path
) -> None:
    _filled(tmp_path, served, pages=3)
    path = tmp_path / CACHE_FILE
    key, original = _stored_entry(path)
    _replace_entry(path, key, original.replace(b"200", b"299", 1))
    session = create_session(tmp_path, offline=True)
    assert cache_info(session).responses == 2
    assert session.get(served, expire_after=-1).status_code == 504  # a miss, not a 299
    session.close()


def _as_unprivileged(folder: Path, check: Callable[[], str]) -> str:
    """Run ``check`` where ``folder`` and its files are read-only to it.

    As root (which writes anyway) ``check`` runs in a forked child that gives up root for
    ``nobody``; otherwise the permissions are taken away for the call.
    """
    paths = [folder, *folder.iterdir()]
    if os.geteuid() != 0:
        for path in paths:
            path.chmod(0o500 if path.is_dir() else 0o400)
        try:
            return check()
        finally:
            for path in paths:
                path.chmod(0o700 if path.is_dir() else 0o600)
    for path in paths:
        os.chown(path, NOBODY, NOBODY)
        path.chmod(0o500 if path.is_dir() else 0o400)
    os.chmod(folder.parent, 0o755)
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's result travels through the pipe
        try:
            signal.alarm(60)  # a child that hangs ends, and the parent reads no result
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            result = check()
        except BaseException as error:  # reported to the parent
            result = f"{type(error).__name__}: {error}"
        os.write(write_end, result.encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        result = pipe.read().decode()
    os.waitpid(child, 0)
    return result


def test_offline_reads_a_read_only_cache_and_online_says_what_to_do(
    served: str, tmp_path: Path, httpserver: HTTPServer
) -> None:
    # A folder another user can reach (pytest's own are private to their owner).
    base = Path(tempfile.mkdtemp(prefix="matchkit-read-only-"))
    base.chmod(0o755)
    try:
        _offline_reads_a_read_only_cache(served, tmp_path, base / "cache", httpserver)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _offline_reads_a_read_only_cache(
    served: str, tmp_path: Path, folder: Path, httpserver: HTTPServer
) -> None:
    _filled(folder, served)
    # Warm up every import the child needs (it may not read the interpreter's files).
    warm = create_session(tmp_path / "warm", offline=True)
    warm.get(served, expire_after=-1)
    warm.close()
    with pytest.raises(InvalidArgumentError):
        create_session(tmp_path / "warm" / CACHE_FILE / "x")
    before = sorted((path.name, path.stat().st_mtime_ns) for path in folder.iterdir())

    def check() -> str:
        session = create_session(folder, offline=True)
        response = session.get(served, expire_after=-1)
        missing = session.get(served + "?other=1", expire_after=-1)
        session.close()
        try:
            create_session(folder)
        except InvalidArgumentError as error:
            refused = str(error)
        else:
            refused = "online opened a read-only cache"
        return json.dumps([response.from_cache, response.json(), missing.status_code, refused])

    requests_before = len(httpserver.log)
    from_cache, body, missing, refused = json.loads(_as_unprivileged(folder, check))
    assert (from_cache, body, missing) == (True, json.loads(BODY), 504)
    assert "cannot be written" in refused
    assert "offline=True" in refused
    assert len(httpserver.log) == requests_before
    assert sorted((path.name, path.stat().st_mtime_ns) for path in folder.iterdir()) == before


def test_a_held_write_lock_is_waited_for_then_reported(served: str, tmp_path: Path) -> None:
    _filled(tmp_path, served)
    holder = sqlite3.connect(tmp_path / CACHE_FILE, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing, and not letting go
    try:
        session = create_session(tmp_path, lock_timeout=0.5)
        assert session.get(served, expire_after=-1).from_cache  # reading still works (WAL)
        started = time.monotonic()
        with pytest.raises(CacheError, match=r"locked by another process; waited 0\.5 s") as raised:
            session.get(served, params={"new": "1"}, expire_after=-1)
        waited = time.monotonic() - started
        assert 0.4 <= waited < 5
        assert raised.value.path == tmp_path / CACHE_FILE
        with pytest.raises(CacheError, match="locked"):
            clear_cache(session)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert session.get(served, params={"new": "1"}, expire_after=-1).status_code == 200
    assert clear_cache(session) == 2  # once the lock is gone, everything works
    session.close()

"""Issue 11, item 14: the HTTP cache was pickled, so a payload planted in it ran on the next fetch.

Entries are now sealed JSON (nothing in them can run code), the file is owner-only, and a cache
of the old (pickled) format is refused whole, with the way out, and never unpickled.
"""

from __future__ import annotations

import json
import pickle
import sqlite3
import stat
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from matchkit import Client
from matchkit.client.cache import CACHE_FILE, CacheKeys, clear_cache, create_session
from matchkit.client.cachefile import FORMAT_VERSION
from matchkit.errors import CacheError

BODY = json.dumps({"data": [], "links": {}})


class _Planted:
    """Unpickling this creates ``marker``: proof that planted code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def _plant(path: Path, key: str, marker: Path, *, version: int) -> None:
    """A cache file holding a pickle under ``key``, as requests-cache's pickle backend laid it."""
    with sqlite3.connect(path) as connection:
        for table in ("responses", "redirects"):
            connection.execute(
                f"CREATE TABLE IF NOT EXISTS {table} "
                "(key TEXT PRIMARY KEY, value BLOB, expires INTEGER)"
            )
        connection.execute(
            "INSERT OR REPLACE INTO responses VALUES (?, ?, NULL)",
            (key, pickle.dumps(_Planted(marker))),
        )
        connection.execute(f"PRAGMA user_version={version}")
    connection.close()


@pytest.fixture
def served(httpserver: HTTPServer) -> str:
    httpserver.expect_request("/page").respond_with_data(BODY, content_type="application/json")
    return httpserver.url_for("/page")


def test_an_old_pickled_cache_is_refused_never_loaded(
    served: str, tmp_path: Path, httpserver: HTTPServer
) -> None:
    marker = tmp_path / "planted-code-ran"
    cache = tmp_path / "cache"
    cache.mkdir()
    _plant(cache / CACHE_FILE, CacheKeys().key("GET", served), marker, version=0)
    session = create_session(cache)  # constructing works: clear_cache must be reachable
    with pytest.raises(
        CacheError, match=r"not its sealed JSON.*clear_cache\(\) or delete"
    ) as raised:
        session.get(served, expire_after=-1)
    assert raised.value.path == cache / CACHE_FILE
    assert str(cache / CACHE_FILE) in str(raised.value)
    assert not marker.exists()
    assert len(httpserver.log) == 0  # nothing was fetched past a refused cache either
    assert clear_cache(session) == 1
    response = session.get(served, expire_after=-1)
    assert response.json() == json.loads(BODY)
    assert session.get(served, expire_after=-1).from_cache
    session.close()
    assert not marker.exists()


def test_client_clear_cache_is_the_way_out_of_a_pickled_cache(served: str, tmp_path: Path) -> None:
    marker = tmp_path / "planted-code-ran"
    cache = tmp_path / "cache"
    cache.mkdir()
    _plant(cache / CACHE_FILE, "some-key", marker, version=0)
    with Client("http://127.0.0.1:9", cache_dir=cache, progress=False) as client:
        with pytest.raises(CacheError, match="not its sealed JSON"):
            client.cache_info()
        assert client.clear_cache() == 1
        assert client.cache_info().responses == 0
    assert not marker.exists()


def test_a_pickle_planted_in_a_current_cache_is_a_miss_not_code(
    served: str, tmp_path: Path, httpserver: HTTPServer
) -> None:
    marker = tmp_path / "planted-code-ran"
    session = create_session(tmp_path)
    session.get(served, expire_after=-1)
    session.close()
    _plant(tmp_path / CACHE_FILE, CacheKeys().key("GET", served), marker, version=FORMAT_VERSION)
    session = create_session(tmp_path)
    response = session.get(served, expire_after=-1)
    assert not response.from_cache  # the planted entry was dropped and the page fetched again
    assert response.json() == json.loads(BODY)
    assert len(httpserver.log) == 2
    assert session.get(served, expire_after=-1).from_cache  # and stored again, as JSON
    session.close()
    assert not marker.exists()


def test_entries_are_json_and_the_files_owner_only(served: str, tmp_path: Path) -> None:
    cache = tmp_path / "new" / "cache"
    session = create_session(cache)
    session.get(served, expire_after=-1)
    files = sorted(cache.iterdir())
    assert {path.name for path in files} >= {CACHE_FILE, f"{CACHE_FILE}-wal"}
    for path in files:  # the database and its WAL files
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    for folder in (cache, cache.parent):  # both created here
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    with sqlite3.connect(f"file:{cache / CACHE_FILE}?mode=ro", uri=True) as connection:
        (value,) = connection.execute("SELECT value FROM responses").fetchone()
    connection.close()
    header, _, rest = bytes(value).partition(b"\n")
    assert header.startswith(b"matchkit-cache/2 sha256:")
    length, _, data = rest.partition(b"\n")
    assert json.loads(data[: int(length)])["status_code"] == 200  # the response, as JSON
    assert data[int(length) :] == BODY.encode()  # then its body, as it came
    assert not bytes(value).startswith(b"\x80")  # not a pickle
    session.close()


def test_an_existing_folder_keeps_its_mode_and_an_old_file_is_tightened(
    served: str, tmp_path: Path
) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / CACHE_FILE).touch(mode=0o644)
    (tmp_path / CACHE_FILE).chmod(0o644)
    session = create_session(tmp_path)
    session.get(served, expire_after=-1)
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / CACHE_FILE).stat().st_mode) == 0o600
    session.close()

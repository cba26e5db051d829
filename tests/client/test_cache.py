"""The cache: expiry policy under an injected now, storage, the API key kept out, housekeeping."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import platformdirs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer
from requests_cache import DO_NOT_CACHE, NEVER_EXPIRE

from matchkit.cachedir import user_cache_root
from matchkit.client.cache import (
    CACHE_FILE,
    PAGE_RETENTION,
    RECENT_PAGE_EXPIRY,
    CacheKeys,
    cache_info,
    cached_response,
    clear_cache,
    create_session,
    page_expiry,
    resolve_cache_dir,
)
from matchkit.client.cacheentry import SERIALIZER
from matchkit.errors import CacheError, InvalidArgumentError
from matchkit.rules.windows import SETTLE
from tests.client.conftest import API_KEY

NOW = datetime(2026, 10, 31, tzinfo=UTC)
BODY = json.dumps({"data": [], "links": {}})


def test_a_page_whose_window_ended_over_the_settle_period_ago_is_kept_for_the_retention() -> None:
    assert page_expiry(NOW - SETTLE, now=NOW) == PAGE_RETENTION == timedelta(days=120)
    assert page_expiry("2026-07-31T00:00:00Z", now=NOW) == PAGE_RETENTION


def test_a_page_reaching_into_the_settle_period_expires_after_a_minute() -> None:
    assert page_expiry(NOW - SETTLE + timedelta(seconds=1), now=NOW) == timedelta(minutes=1)
    assert page_expiry(NOW, now=NOW) == RECENT_PAGE_EXPIRY


def test_the_same_window_becomes_final_as_the_injected_clock_moves_on() -> None:
    window_end = NOW
    assert page_expiry(window_end, now=NOW) == RECENT_PAGE_EXPIRY
    assert page_expiry(window_end, now=NOW + timedelta(hours=5, minutes=59)) == (RECENT_PAGE_EXPIRY)
    assert page_expiry(window_end, now=NOW + timedelta(hours=6)) == PAGE_RETENTION


@settings(max_examples=50, deadline=None)
@given(offset_seconds=st.integers(min_value=-200 * 86400, max_value=200 * 86400))
def test_expiry_is_one_of_two_values_split_at_the_settle_period(offset_seconds: int) -> None:
    window_end = NOW + timedelta(seconds=offset_seconds)
    expiry = page_expiry(window_end, now=NOW)
    if window_end <= NOW - SETTLE:
        assert expiry == PAGE_RETENTION
    else:
        assert expiry == RECENT_PAGE_EXPIRY


def test_cache_dir_precedence_is_argument_then_environment_then_platform(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MATCHKIT_CACHE_DIR", str(tmp_path / "from-env"))
    assert resolve_cache_dir(tmp_path / "arg") == tmp_path / "arg"
    assert resolve_cache_dir(None) == tmp_path / "from-env"
    monkeypatch.delenv("MATCHKIT_CACHE_DIR")
    assert resolve_cache_dir(None) == user_cache_root()
    assert user_cache_root() == Path(platformdirs.user_cache_dir("matchkit"))


def _serve_json(httpserver: HTTPServer, path: str = "/page") -> None:
    httpserver.expect_request(path).respond_with_data(BODY, content_type="application/json")


def test_each_request_states_its_own_expiry(httpserver: HTTPServer, tmp_path: Path) -> None:
    _serve_json(httpserver)
    session = create_session(tmp_path)
    url = httpserver.url_for("/page")
    session.get(url, params={"a": "kept"}, expire_after=NEVER_EXPIRE)
    session.get(url, params={"a": "minute"}, expire_after=timedelta(minutes=1))
    session.get(url, params={"a": "status"}, expire_after=DO_NOT_CACHE)
    assert len(httpserver.log) == 3
    kept = session.get(url, params={"a": "kept"}, expire_after=NEVER_EXPIRE)
    minute = session.get(url, params={"a": "minute"}, expire_after=timedelta(minutes=1))
    status = session.get(url, params={"a": "status"}, expire_after=DO_NOT_CACHE)
    assert (kept.from_cache, minute.from_cache, status.from_cache) == (True, True, False)
    assert kept.expires is None
    assert timedelta(seconds=50) < minute.expires - datetime.now(UTC) <= timedelta(minutes=1)
    assert len(httpserver.log) == 4
    session.close()


def test_the_api_key_is_neither_in_the_cache_key_nor_in_the_file(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    _serve_json(httpserver)
    session = create_session(tmp_path)
    url = httpserver.url_for("/page")
    first = session.get(url, headers={"Authorization": f"Bearer {API_KEY}"}, expire_after=-1)
    other_key = session.get(url, headers={"Authorization": "Bearer another"}, expire_after=-1)
    assert not first.from_cache
    assert other_key.from_cache  # the key is not part of the cache key
    stored_header = other_key.request.headers.get("Authorization", "")
    assert API_KEY not in stored_header
    assert "Bearer" not in stored_header
    session.close()
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())  # file, WAL, journal
    assert b"/page" in stored  # the file does hold the request, so the search is meaningful
    assert API_KEY.encode() not in stored
    assert b"Bearer" not in stored


def test_offline_answers_stale_entries_and_504s_a_miss(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    _serve_json(httpserver)
    online = create_session(tmp_path)
    url = httpserver.url_for("/page")
    response = online.get(url, expire_after=timedelta(minutes=1))
    # Age the entry: requests-cache keeps its own wall clock, so move the expiry instead.
    key = response.cache_key
    cached = online.cache.get_response(key)
    online.cache.save_response(cached, key, expires=datetime.now(UTC) - timedelta(days=1))
    online.close()
    requests_before = len(httpserver.log)
    offline = create_session(tmp_path, offline=True)
    stale = offline.get(url, expire_after=timedelta(minutes=1))
    assert stale.from_cache
    assert stale.status_code == 200
    assert stale.json() == json.loads(BODY)
    missing = offline.get(httpserver.url_for("/elsewhere"), expire_after=timedelta(minutes=1))
    assert missing.status_code == 504
    assert len(httpserver.log) == requests_before
    offline.close()


def test_cache_origin_files_two_addresses_of_one_service_together(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    _serve_json(httpserver)
    base = httpserver.url_for("/").rstrip("/")
    first = create_session(tmp_path, keys=CacheKeys("http://embedded-abc"))
    first.get(base + "/page", expire_after=-1)
    first.close()
    # The same service under another address (the embedded one moves port each run).
    alias = base.replace("localhost", "127.0.0.1")
    assert alias != base
    second = create_session(tmp_path, keys=CacheKeys("http://embedded-abc"))
    assert second.get(alias + "/page", expire_after=-1).from_cache
    second.close()
    third = create_session(tmp_path, keys=CacheKeys("http://embedded-other"))
    assert not third.get(alias + "/page", expire_after=-1).from_cache
    third.close()


def test_cache_info_and_clear_cache(httpserver: HTTPServer, tmp_path: Path) -> None:
    _serve_json(httpserver)
    session = create_session(tmp_path)
    empty = cache_info(session)
    assert (empty.responses, empty.oldest, empty.newest) == (0, None, None)
    before = datetime.now(UTC) - timedelta(seconds=1)
    for n in range(3):
        session.get(httpserver.url_for("/page"), params={"n": str(n)}, expire_after=-1)
    info = cache_info(session)
    assert info.responses == 3
    assert info.size_bytes > 0
    assert info.path == tmp_path / CACHE_FILE
    assert before <= info.oldest <= info.newest <= datetime.now(UTC) + timedelta(seconds=1)
    assert "3 responses" in str(info)
    assert clear_cache(session, older_than=timedelta(days=1)) == 0
    assert clear_cache(session) == 3
    assert cache_info(session).responses == 0
    with pytest.raises(InvalidArgumentError, match="older_than"):
        clear_cache(session, older_than=5)  # type: ignore[arg-type]
    session.close()


def test_a_live_request_and_its_stored_copy_have_one_key(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    _serve_json(httpserver)
    keys = CacheKeys()
    session = create_session(tmp_path, keys=keys)
    url = httpserver.url_for("/page")
    params = {"filter[createdAt-start]": "2026-10-01T00:00:00Z", "page[offset]": "5"}
    response = session.get(url, params=params, expire_after=-1)
    # The same key from the parts, from the live request, and from the stored request
    # (requests-cache stores it with sorted parameters and a redacted Authorization).
    key = keys.key("GET", url, params.items())
    assert response.cache_key == key
    stored = cached_response(session, key)
    assert stored is not None
    assert keys.for_request(stored.request) == key
    # Parameter order, the key's header and api_key-like parameters do not change it.
    reordered = dict(reversed(list(params.items())))
    assert keys.key("GET", url, reordered.items()) == key
    assert keys.key("GET", url, [*params.items(), ("api_key", API_KEY)]) == key
    assert keys.key("GET", url, {**params, "page[offset]": "10"}.items()) != key
    assert CacheKeys("http://embedded-x").key("GET", url, params.items()) != key
    session.close()


def test_cached_response_is_fresh_only_unless_stale_is_allowed(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    _serve_json(httpserver)
    session = create_session(tmp_path)
    response = session.get(httpserver.url_for("/page"), expire_after=timedelta(minutes=1))
    key = response.cache_key
    assert cached_response(session, key) is not None
    stored = session.cache.get_response(key)
    session.cache.save_response(stored, key, expires=datetime.now(UTC) - timedelta(seconds=1))
    assert cached_response(session, key) is None
    assert cached_response(session, key, allow_stale=True) is not None
    assert cached_response(session, "no-such-key", allow_stale=True) is None
    session.close()


def test_entries_are_sealed_json_and_a_changed_byte_does_not_load(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    _serve_json(httpserver)
    session = create_session(tmp_path)
    response = session.get(httpserver.url_for("/page"), expire_after=-1)
    stored = SERIALIZER.dumps(session.cache.get_response(response.cache_key))
    assert isinstance(stored, bytes)
    assert SERIALIZER.loads(stored).content == BODY.encode()
    for offset in (len(stored) // 3, len(stored) - 2):
        changed = stored[:offset] + bytes([stored[offset] ^ 1]) + stored[offset + 1 :]
        with pytest.raises(ValueError, match="checksum mismatch"):
            SERIALIZER.loads(changed)
    with pytest.raises(ValueError, match="not a matchkit cache entry"):
        SERIALIZER.loads(b"\x80\x04pickled")
    session.close()


def test_a_damaged_file_can_only_be_cleared_whole(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE).write_bytes(b"not SQLite at all" * 100)
    session = create_session(tmp_path)
    assert session.cache.problem is not None
    with pytest.raises(CacheError, match="is damaged"):
        clear_cache(session, older_than=timedelta(days=1))
    with pytest.raises(CacheError, match="is damaged"):
        cache_info(session)
    assert clear_cache(session) == 0
    assert cache_info(session).responses == 0
    assert session.cache.problem is None
    session.close()


def test_a_cache_path_that_sqlite_cannot_open_is_refused_at_once(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE).mkdir()  # a folder where the file should be
    with pytest.raises(CacheError, match="unable to open") as raised:
        create_session(tmp_path)
    assert raised.value.path == tmp_path / CACHE_FILE
    assert (tmp_path / CACHE_FILE).is_dir()  # nothing deleted

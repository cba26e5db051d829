"""The client's HTTP cache: requests-cache on SQLite, its expiry policy, and its housekeeping.

Policy (pure functions, ``now`` injected) is kept apart from storage:

- a single match never expires (records are read-only): :data:`MATCH_EXPIRY`;
- a list page whose window ended more than the settle period before now
  (:data:`matchkit.rules.windows.SETTLE`, 6 hours: matches are listed late, decision 20) is final
  and kept for the retention period; a page whose window reaches into that provisional period
  expires after a minute: :func:`page_expiry`;
- the status resource is never cached: :data:`STATUS_EXPIRY`.

The API key travels in the ``Authorization`` header, which requests-cache leaves out of the
cache key and redacts from the stored request (its ``ignored_parameters``); nothing else the
client sends holds it.

The file itself (entries as checksummed JSON, owner-only permissions, damaged and locked files
as :class:`matchkit.errors.CacheError`) is :mod:`matchkit.client.cachefile`'s.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeAlias, cast
from urllib.parse import parse_qsl, unquote, urlsplit

from requests import PreparedRequest
from requests_cache import DO_NOT_CACHE, NEVER_EXPIRE, CachedResponse, CachedSession
from requests_cache.cache_keys import get_matched_headers, normalize_headers
from requests_cache.policy.settings import DEFAULT_IGNORED_PARAMS

from matchkit.cachedir import cache_root
from matchkit.client.cachefile import LOCK_TIMEOUT, CacheFile, prepare_folder, writable
from matchkit.errors import CacheError, InvalidArgumentError
from matchkit.rules.windows import RETENTION, SETTLE, parse_time

__all__ = [
    "CACHE_FILE",
    "MATCH_EXPIRY",
    "PAGE_RETENTION",
    "RECENT_PAGE_EXPIRY",
    "STATUS_EXPIRY",
    "CacheInfo",
    "CacheKeys",
    "CachingSession",
    "cache_info",
    "cached_response",
    "clear_cache",
    "create_session",
    "page_expiry",
    "resolve_cache_dir",
]

CACHE_FILE = "http_cache.sqlite"
RECENT_PAGE_EXPIRY = timedelta(minutes=1)
PAGE_RETENTION = RETENTION
MATCH_EXPIRY = NEVER_EXPIRE
STATUS_EXPIRY = DO_NOT_CACHE


def page_expiry(
    window_end: str | datetime, *, now: str | datetime, settle: timedelta = SETTLE
) -> timedelta:
    """How long a list page of the window ending at ``window_end`` stays fresh: the retention
    once the window is final (it ended ``settle`` or more before now), a minute before.

    Example:
        >>> page_expiry("2026-10-01T00:00:00Z", now="2026-10-31T00:00:00Z").days
        120
        >>> page_expiry("2026-10-30T20:00:00Z", now="2026-10-31T00:00:00Z").seconds
        60
    """
    end = parse_time(window_end, parameter="window_end")
    if end <= parse_time(now, parameter="now") - settle:
        return PAGE_RETENTION
    return RECENT_PAGE_EXPIRY


def resolve_cache_dir(cache_dir: str | os.PathLike[str] | None) -> Path:
    """Argument > ``MATCHKIT_CACHE_DIR`` > the platform's user cache folder."""
    if cache_dir is not None:
        if not isinstance(cache_dir, str | os.PathLike) or isinstance(os.fspath(cache_dir), bytes):
            raise InvalidArgumentError(
                f"cache_dir must be a folder path (str or pathlib.Path), "
                f"not {type(cache_dir).__name__}",
                parameter="cache_dir",
            )
        return Path(cache_dir)
    return cache_root()


CachingSession: TypeAlias = CachedSession
"""The client's one session (:func:`create_session`): cached, with matchkit's cache file."""


@dataclass(frozen=True)
class CacheKeys:
    """How requests are keyed in the cache; the same key for a live and a stored request.

    A key digests the method, the URL without its query, the query's (name, value) pairs in
    sorted order, the body and, where a response's ``Vary`` asks, those request headers. It
    never includes an ignored parameter (requests-cache's ``ignored_parameters``: the
    ``Authorization`` header and ``api_key``-like query values). Unlike requests-cache's own
    key it does not normalize the URL (which costs more than reading a cached response): the
    client builds every URL itself.

    Attributes:
        origin: a stable name that replaces the scheme and address in keys, or ``None`` to key
            by the address itself. The embedded service listens on a new port each time; keying
            its responses by the data set it serves lets a later session reuse them.
    """

    origin: str | None = None

    def key(
        self,
        method: str,
        url: str,
        params: Iterable[tuple[str, str]] = (),
        *,
        body: bytes | str | None = None,
        headers: Iterable[str] = (),
        ignored: Iterable[str] = DEFAULT_IGNORED_PARAMS,
    ) -> str:
        """The key of ``method url?params`` (``url`` may carry a query of its own)."""
        parts = urlsplit(url)
        skip = {name.lower() for name in ignored}
        pairs = [*parse_qsl(parts.query, keep_blank_values=True), *params]
        query = sorted((name, value) for name, value in pairs if name.lower() not in skip)
        where = self.origin or f"{parts.scheme.lower()}://{parts.netloc.lower()}"
        digest = hashlib.blake2b(digest_size=8)
        for part in (
            method.upper(),
            where + unquote(parts.path),
            *(f"{name}={value}" for name, value in query),
            body or "",
            *headers,
        ):
            digest.update(part if isinstance(part, bytes) else str(part).encode())
            digest.update(b"\0")
        return digest.hexdigest()

    def for_request(
        self,
        request: PreparedRequest,
        ignored_parameters: Iterable[str] | None = None,
        match_headers: Iterable[str] | bool | None = None,
        **kwargs: Any,
    ) -> str:
        """The key of a prepared (or stored) request: requests-cache's ``key_fn``."""
        ignored = tuple(ignored_parameters or ())
        headers: list[str] = []
        if match_headers:
            names = list(request.headers) if match_headers is True else list(match_headers)
            skip = {name.lower() for name in ignored}
            # requests types header values str | bytes; matchkit's are text (Transport's).
            text_headers = cast("MutableMapping[str, str]", request.headers)
            kept = normalize_headers(text_headers, ignored)
            headers = get_matched_headers(kept, [n for n in names if n.lower() not in skip])
        return self.key(
            request.method or "GET",
            request.url or "",
            # A prepared GET's body: None, or bytes / text (never a stream: it is not sent).
            body=cast("bytes | str | None", request.body),
            headers=headers,
            ignored=ignored,
        )


def cached_response(
    session: CachingSession, key: str, *, allow_stale: bool = False
) -> CachedResponse | None:
    """The stored response under ``key`` if it is fresh (or ``allow_stale``), else ``None``.

    The client's fast path for a cache hit: requests-cache's full path (preparing the request,
    cache directives, ``Vary`` checks) costs several times what reading the entry does, and a
    fresh entry needs none of it. Anything else (a miss, a stale entry) goes through the session.
    """
    response = session.cache.get_response(key)
    if response is None or (response.is_expired and not allow_stale):
        return None
    return response


def create_session(
    cache_dir: Path,
    *,
    keys: CacheKeys | None = None,
    offline: bool = False,
    lock_timeout: float = LOCK_TIMEOUT,
) -> CachingSession:
    """The client's session, cached on ``cache_dir/http_cache.sqlite``.

    The client's rate limit is not the session's: the request path applies it, to the requests
    that reach the service (:class:`matchkit.client.throttle.Throttle`).

    Args:
        cache_dir: the folder of the SQLite file (created, owner-only, if missing).
        keys: how requests are keyed (default: by their own address).
        offline: answer only from the cache, stale entries included (a miss is a 504 response);
            a cache that cannot be written is then opened read-only.
        lock_timeout: seconds to wait for another process's write lock on the file.

    Raises:
        InvalidArgumentError: ``cache_dir`` cannot be created, or (online) the cache cannot be
            written there.

    A damaged file or one of another format does not raise here: the session's every use of
    the cache raises :class:`matchkit.errors.CacheError`, and :func:`clear_cache` clears it.
    """
    keys = keys or CacheKeys()
    prepare_folder(cache_dir)
    path = cache_dir / CACHE_FILE
    read_only = not writable(path)
    if read_only and not offline:
        raise InvalidArgumentError(
            f"cache_dir={str(cache_dir)!r} cannot hold the HTTP cache ({path} cannot be "
            "written); pass offline=True to read the cache as it is, or a writable folder as "
            "cache_dir= or MATCHKIT_CACHE_DIR",
            parameter="cache_dir",
        )
    backend = CacheFile(path, read_only=read_only, lock_timeout=lock_timeout)
    options: dict[str, Any] = {
        "backend": backend,
        "expire_after": DO_NOT_CACHE,  # every request states its own expiry
        "allowable_codes": (200,),
        "allowable_methods": ("GET",),
        "ignored_parameters": DEFAULT_IGNORED_PARAMS,
        "match_headers": False,
        "only_if_cached": offline,
        "stale_if_error": offline,
    }
    options["key_fn"] = keys.for_request
    return CachedSession(**options)


@dataclass(frozen=True)
class CacheInfo:
    """What the cache holds.

    Attributes:
        path: the SQLite file.
        responses: number of cached responses.
        size_bytes: the file's size.
        oldest, newest: when the oldest and newest responses were stored (UTC), or ``None``.
    """

    path: Path
    responses: int
    size_bytes: int
    oldest: datetime | None
    newest: datetime | None

    def __str__(self) -> str:
        span = ""
        if self.oldest is not None and self.newest is not None:
            span = f", stored {self.oldest:%Y-%m-%d %H:%M} to {self.newest:%Y-%m-%d %H:%M} UTC"
        return f"{self.responses} responses, {self.size_bytes / 1e6:.1f} MB in {self.path}{span}"


def cache_info(session: CachingSession) -> CacheInfo:
    """Count the cached responses of ``session`` and find the oldest and newest."""
    backend = session.cache
    path = Path(backend.db_path)
    created = [
        parse_time(response.created_at, parameter="created_at")
        for response in backend.filter(valid=True, expired=True)
    ]
    return CacheInfo(
        path=path,
        responses=len(created),
        size_bytes=path.stat().st_size if path.exists() else 0,
        oldest=min(created, default=None),
        newest=max(created, default=None),
    )


def clear_cache(session: CachingSession, older_than: timedelta | None = None) -> int:
    """Remove cached responses: all of them, or those stored more than ``older_than`` ago.

    Clearing everything is also the way out of a damaged cache file, or of one written in a
    format matchkit does not load (an older matchkit's pickles): the file is deleted and
    created anew, without reading what it held.

    Returns:
        The number of responses removed (a damaged file counts what it could still tell).

    Raises:
        InvalidArgumentError: ``older_than`` is not a non-negative timedelta.
        CacheError: the cache cannot be written (read-only, locked past the wait), or
            ``older_than`` was given for a file that can only be cleared whole.
    """
    if older_than is not None and (
        not isinstance(older_than, timedelta) or older_than < timedelta(0)
    ):
        raise InvalidArgumentError(
            f"older_than={older_than!r} must be a timedelta >= 0, or None to clear everything",
            parameter="older_than",
        )
    backend = session.cache
    try:
        before = len(backend.responses)
    except CacheError:
        if older_than is not None or not isinstance(backend, CacheFile) or backend.problem is None:
            raise
        before = backend.stored_rows
    if older_than is None:
        backend.clear()
        return before
    backend.delete(older_than=older_than)
    return before - len(backend.responses)

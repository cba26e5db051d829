"""One GET against the service: retries, rate-limit waits, error mapping and request logging.

:class:`Transport` wraps the cached (and throttled) session of :mod:`matchkit.client.cache`. It
retries 500, 502, 503, 504, dropped connections and timeouts with bounded exponential backoff and
jitter; on 429 it waits what the service asked (``Retry-After`` in seconds or as an HTTP date,
else ``X-RateLimit-Reset`` in nanoseconds) and tries again. When the retries run out it raises a
typed error carrying the status, the URL and the JSON:API ``errors``: never a partial result,
never the API key (which travels only in the ``Authorization`` header).
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, Literal
from urllib.parse import urlencode

import msgspec
import orjson
import requests
from requests_cache import CachedSession, ExpirationTime

from matchkit.client.cache import CacheKeys, cached_response
from matchkit.errors import (
    AuthError,
    CacheMissError,
    NotFoundError,
    RateLimitError,
    ServiceError,
)

__all__ = [
    "RETRY_STATUSES",
    "Fetched",
    "RequestKind",
    "RetryPolicy",
    "Transport",
    "error_objects",
    "rate_limit_wait",
]

logger = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({500, 502, 503, 504})
RequestKind = Literal["list", "match", "status"]
_TRANSIENT_ERRORS = (
    requests.ConnectionError,
    requests.Timeout,
    requests.exceptions.ChunkedEncodingError,
    requests.exceptions.ContentDecodingError,
)
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    Attributes:
        attempts: tries per request for 5xx, dropped connections and timeouts (first included).
        rate_limit_attempts: tries per request while the service answers 429.
        backoff: the first backoff in seconds; doubled each retry, up to ``max_backoff``.
        jitter: fraction of each backoff taken off at random (spreads retries of many clients).
        max_rate_limit_wait: the longest single wait a 429 may ask for before giving up.
        sleep: waits (injected in tests so they never really wait).
        wall_clock: seconds since the epoch, for ``Retry-After`` dates and absolute resets.
        random: a number in [0, 1) for the jitter.
    """

    attempts: int = 5
    rate_limit_attempts: int = 10
    backoff: float = 0.5
    max_backoff: float = 30.0
    jitter: float = 0.5
    max_rate_limit_wait: float = 300.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    wall_clock: Callable[[], float] = field(default=time.time, repr=False)
    random: Callable[[], float] = field(default=random.random, repr=False)

    def backoff_seconds(self, retry: int) -> float:
        """The wait before retry number ``retry`` (0 for the first retry)."""
        ceiling = min(self.max_backoff, self.backoff * 2.0**retry)
        return ceiling * (1.0 - self.jitter * self.random())


def rate_limit_wait(headers: Mapping[str, str], *, wall_clock: float) -> float | None:
    """Seconds a 429 response asks the client to wait, or ``None`` when it does not say.

    ``Retry-After`` (seconds or an HTTP date) wins; else ``X-RateLimit-Reset``, which the real
    service sent as nanoseconds until the bucket is full again (a value that only makes sense as
    an absolute epoch time in nanoseconds is read as one).
    """
    retry_after = headers.get("Retry-After")
    if retry_after is not None:
        text = retry_after.strip()
        try:
            return max(0.0, float(text))
        except ValueError:
            pass
        try:
            moment = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            moment = None
        if moment is not None and moment.tzinfo is not None:
            return max(0.0, moment.timestamp() - wall_clock)
    reset = headers.get("X-RateLimit-Reset")
    if reset is not None:
        try:
            seconds = float(reset.strip()) / 1e9
        except ValueError:
            return None
        if seconds > 1e9:  # an absolute time (after 2001), not a duration
            seconds -= wall_clock
        return max(0.0, seconds)
    return None


def error_objects(response: requests.Response) -> list[dict[str, Any]]:
    """The JSON:API ``errors`` of an error response, whatever shape the service used.

    Accepts ``{"errors": [...]}``, a single error object, top-level ``title`` / ``detail`` /
    ``description`` / ``message``, and bodies that are not JSON at all (a gateway's HTML page),
    whose text is kept, shortened, as the ``detail``.
    """
    status = str(response.status_code)
    try:
        body = orjson.loads(response.content)
    except orjson.JSONDecodeError:
        body = None
    if isinstance(body, dict):
        errors = body.get("errors")
        if isinstance(errors, dict):
            errors = [errors]
        if isinstance(errors, list) and errors:
            return [item if isinstance(item, dict) else {"detail": str(item)} for item in errors]
        found = {
            key: body[key]
            for key in ("title", "detail", "description", "message", "error")
            if key in body
        }
        if found:
            return [{"status": status, **found}]
    text = _SPACE.sub(" ", _TAG.sub(" ", response.text or "")).strip()
    error: dict[str, Any] = {"status": status, "title": response.reason or ""}
    if text:
        error["detail"] = text[:300]
    return [error]


def _display_url(url: str, params: Mapping[str, str] | None) -> str:
    return f"{url}?{urlencode(params)}" if params else url


def _describe(errors: list[dict[str, Any]]) -> str:
    parts = []
    for error in errors:
        words = [
            str(error[key])
            for key in ("title", "detail", "description", "message", "error")
            if error.get(key)
        ]
        if words:
            parts.append(": ".join(dict.fromkeys(words)))
    return "; ".join(parts) or "no details"


@dataclass(frozen=True)
class Fetched:
    """A successful response: its body, checked to be a JSON object, and what paging reads.

    Attributes:
        body: the raw JSON body (``None`` for a list request answered 404, i.e. empty);
            :func:`matchkit.to_frames` reads it as it is, on its fast path.
        head: the body's ``data`` and ``links`` (``None`` when ``body`` is).
        url: the request URL.
        status: the HTTP status.
        from_cache: whether the cache answered.
    """

    body: bytes | None
    head: dict[str, Any] | None
    url: str
    status: int
    from_cache: bool

    @property
    def document(self) -> dict[str, Any] | None:
        """The whole body, parsed (``None`` for an empty list)."""
        return None if self.body is None else orjson.loads(self.body)


class _Head(msgspec.Struct):
    data: Any = None
    links: Any = None


_HEAD = msgspec.json.Decoder(_Head)


def read_head(body: bytes) -> dict[str, Any] | None:
    """A body's ``data`` and ``links``, or ``None`` when the body is not a JSON object.

    Only these two members are built; the others are skipped, their syntax checked (and the
    body's UTF-8, which the skipping does not check). The whole page is parsed once, by the
    normalizer: with paging parsing whole pages and the normalizer reading them as dicts, a warm
    re-run took 0.94 s; now 0.68 s (benchmarks/bench_client.py).
    """
    try:
        head = _HEAD.decode(body)
        body.decode("utf-8")
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None
    return {"data": head.data, "links": head.links}


class Transport:
    """GET requests to one service through a cached session, with retries and typed errors.

    Attributes:
        retry: the retry policy (replace it to inject ``sleep`` in tests).
        network_requests: requests that reached the service (retries included).
        cache_hits: requests the cache answered.
    """

    def __init__(
        self,
        session: CachedSession,
        *,
        base_url: str,
        api_key: str | None,
        timeout: float,
        offline: bool,
        retry: RetryPolicy | None = None,
        keys: CacheKeys | None = None,
    ) -> None:
        self.session = session
        self.keys = keys or CacheKeys()
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self.timeout = timeout
        self.offline = offline
        self.retry = retry or RetryPolicy()
        self.network_requests = 0
        self.cache_hits = 0

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"Transport({self.base_url!r}, api_key={key}, offline={self.offline})"

    def get(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        expire_after: ExpirationTime,
    ) -> Fetched:
        """GET ``base_url + path``; the body must be a JSON object.

        Raises:
            CacheMissError: offline and the cache does not hold the request.
            AuthError: 401 or 403.
            NotFoundError: 404 on a single match or the status.
            RateLimitError: still 429 after the policy's waits.
            ServiceError: any other error status, a body that is not JSON, or a transport
                failure that outlasted the retries.
        """
        url = self.base_url + path
        if kind != "status":
            hit = self._fresh_hit(url, params)
            if hit is not None:
                return hit
        headers = {"Accept": "application/vnd.api+json"}
        if self._api_key and kind != "status":
            headers["Authorization"] = f"Bearer {self._api_key}"
        faults = 0
        refusals = 0
        while True:
            started = time.perf_counter()
            try:
                response = self.session.get(
                    url,
                    params=params,
                    headers=headers,
                    timeout=self.timeout,
                    expire_after=expire_after,
                )
            except _TRANSIENT_ERRORS as error:
                self.network_requests += 1
                faults += 1
                shown = requests.Request("GET", url, params=params).prepare().url or url
                logger.debug("GET %s failed: %s", shown, type(error).__name__)
                if faults >= self.retry.attempts:
                    raise ServiceError(
                        f"GET {shown} failed {faults} times ({type(error).__name__}); the "
                        "service is unreachable or dropping connections, try again later",
                        url=shown,
                    ) from error
                self.retry.sleep(self.retry.backoff_seconds(faults - 1))
                continue
            from_cache = bool(getattr(response, "from_cache", False))
            shown = response.url or url
            self._count(from_cache)
            logger.debug(
                "GET %s -> %s%s in %.1f ms",
                shown,
                response.status_code,
                " (cache)" if from_cache else "",
                (time.perf_counter() - started) * 1e3,
            )
            status = response.status_code
            if self.offline and status == 504 and from_cache:
                raise CacheMissError(
                    f"offline: GET {shown} is not in the cache; run the same call once online "
                    "(offline=False) to fill it",
                    url=shown,
                )
            if status == 200:
                body = response.content
                head = read_head(body)
                if head is not None:
                    return Fetched(body, head, shown, status, from_cache)
                self._forget(response)
                faults += 1
                if faults >= self.retry.attempts or from_cache:
                    raise ServiceError(
                        f"GET {shown} answered 200 with a body that is not a JSON object",
                        status=status,
                        url=shown,
                        errors=error_objects(response),
                    )
                self.retry.sleep(self.retry.backoff_seconds(faults - 1))
                continue
            if status == 404 and kind == "list":
                # The real Vainglory service answered an empty list with 404.
                return Fetched(None, None, shown, status, from_cache)
            if status == 429:
                refusals += 1
                wait = rate_limit_wait(response.headers, wall_clock=self.retry.wall_clock())
                if wait is None:
                    wait = self.retry.backoff_seconds(refusals - 1)
                if (
                    refusals >= self.retry.rate_limit_attempts
                    or wait > self.retry.max_rate_limit_wait
                ):
                    raise RateLimitError(
                        f"GET {shown} was refused by the service's rate limit {refusals} times "
                        f"(it asks to wait {wait:.1f} s); lower rate_limit= or wait and retry",
                        retry_after=wait,
                        status=status,
                        url=shown,
                        errors=error_objects(response),
                    )
                logger.debug("rate limited by the service; waiting %.2f s", wait)
                self.retry.sleep(wait)
                continue
            if status in RETRY_STATUSES:
                faults += 1
                if faults < self.retry.attempts:
                    self.retry.sleep(self.retry.backoff_seconds(faults - 1))
                    continue
            raise self._error(response, shown, kind, faults)

    def _fresh_hit(self, url: str, params: Mapping[str, str] | None) -> Fetched | None:
        """A fresh cached answer (any cached answer when offline), without preparing a request."""
        key = self.keys.key("GET", url, (params or {}).items())
        response = cached_response(self.session, key, allow_stale=self.offline)
        if response is None:
            return None
        body = response.content
        head = read_head(body)
        if head is None:
            self.session.cache.delete(key)  # unreadable: fetch it again
            return None
        self.cache_hits += 1
        shown = _display_url(url, params)
        logger.debug("GET %s -> %s (cache)", shown, response.status_code)
        return Fetched(body, head, shown, response.status_code, True)

    def _count(self, from_cache: bool) -> None:
        if from_cache:
            self.cache_hits += 1
        else:
            self.network_requests += 1

    def _forget(self, response: requests.Response) -> None:
        key = getattr(response, "cache_key", None)
        if key:
            self.session.cache.delete(key)

    def _error(
        self, response: requests.Response, url: str, kind: RequestKind, faults: int
    ) -> ServiceError:
        status = response.status_code
        errors = error_objects(response)
        detail = _describe(errors)
        options: dict[str, Any] = {"status": status, "url": url, "errors": errors}
        if status in (401, 403):
            hint = (
                "pass api_key= or set MATCHKIT_API_KEY"
                if not self._api_key
                else "check the API key (api_key= or MATCHKIT_API_KEY)"
            )
            return AuthError(f"{status} from GET {url}: {detail}; {hint}", **options)
        if status == 404:
            what = "match" if kind == "match" else "resource"
            return NotFoundError(
                f"404 from GET {url}: {detail}; no such {what} on this service", **options
            )
        if status in RETRY_STATUSES:
            return ServiceError(
                f"{status} from GET {url} after {faults} attempts: {detail}; the service is "
                "failing, try again later",
                **options,
            )
        return ServiceError(f"{status} from GET {url}: {detail}", **options)

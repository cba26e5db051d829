"""One GET against the service: cache lookup, retries, rate-limit waits, typed errors.

:class:`Transport` wraps the cached (and throttled) session of :mod:`matchkit.client.cache`.
A GET takes these steps, each one method:

1. :meth:`Transport.lookup`: the one cache lookup (a fresh entry; any entry when offline). A hit
   is checked like a new answer; a miss offline is a :class:`~matchkit.errors.CacheMissError`.
2. :meth:`Transport.confirm_service`: before the first list request that reaches the network,
   ``GET /status`` once (decision 11), so that a wrong base URL is an error naming it, never
   "no matches"; only then does a list 404 count as an empty list.
3. :meth:`Transport._send`: the request, with the headers of its kind (the key on match
   requests only), through the session without its own cache reading or writing.
4. The answer: a 200 is checked (:func:`~matchkit.client.answers.check_body`) and only then
   stored; a bad 200, 500, 502, 503, 504, a dropped connection or a timeout is retried with
   bounded exponential backoff and jitter (:meth:`RetryPolicy.backoff_seconds`); a 429 waits
   what the service asked (:meth:`Transport._rate_limit_wait`); the rest is mapped to a typed
   error (:meth:`Transport._error`) carrying the status, the URL and the JSON:API ``errors``.

Never a partial result, and never the API key: it travels only in the ``Authorization`` header,
and no error raised here holds it (a failed request's exception, which holds the request, is
replaced by a bare one of the same type).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import orjson
import requests
from requests_cache import DO_NOT_CACHE, CachedResponse, CachedSession, ExpirationTime
from requests_cache.policy.expiration import get_expiration_datetime

from matchkit.client.answers import (
    BadAnswerError,
    RequestKind,
    check_body,
    error_objects,
    rate_limit_wait,
    read_head,
    read_rate_limit_wait,
)
from matchkit.client.cache import CacheKeys, cached_response
from matchkit.errors import (
    AuthError,
    CacheMissError,
    NotFoundError,
    RateLimitError,
    ServiceError,
)
from matchkit.rules.jsonapi import describe_errors

__all__ = [
    "RETRY_STATUSES",
    "Fetched",
    "RequestKind",
    "RetryPolicy",
    "Transport",
    # Read from the answers (matchkit.client.answers), named here too for callers of before.
    "error_objects",
    "rate_limit_wait",
    "read_head",
]

logger = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({500, 502, 503, 504})
_TRANSIENT_ERRORS = (
    requests.ConnectionError,
    requests.Timeout,
    requests.exceptions.ChunkedEncodingError,
    requests.exceptions.ContentDecodingError,
)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    Attributes:
        attempts: tries per request for 5xx, bad 200s, dropped connections and timeouts.
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


@dataclass(frozen=True)
class Fetched:
    """A successful answer: its body, checked to be what was asked for, and what paging reads.

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


@dataclass
class _Tries:
    """The failures of one GET so far."""

    faults: int = 0
    refusals: int = 0


class Transport:
    """GET requests to one service through a cached session, with retries and typed errors.

    Attributes:
        retry: the retry policy (replace it to inject ``sleep`` in tests).
        network_requests: requests that reached the service (retries included).
        cache_hits: requests the cache answered.
        confirmed: whether ``GET /status`` has confirmed the service at ``base_url``.
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
        self.confirmed = False

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"Transport({self.base_url!r}, api_key={key}, offline={self.offline})"

    # -- the steps ---------------------------------------------------------------------------

    def get(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        expire_after: ExpirationTime,
    ) -> Fetched:
        """GET ``base_url + path``: from the cache, else from the service, checked.

        Raises:
            CacheMissError: offline and the cache does not hold the request.
            AuthError: 401 or 403.
            NotFoundError: 404 on a single match or the status.
            RateLimitError: still 429 after the policy's waits.
            ServiceError: any other error status, a 200 that is not what was asked for, a
                transport failure that outlasted the retries, or (before a list request) no
                service at the base URL.
        """
        url = self.base_url + path
        shown = _display_url(url, params)
        key = self.keys.key("GET", url, (params or {}).items())
        if kind != "status":
            hit = self._from_cache(key, kind, shown)
            if hit is not None:
                return hit
        if self.offline:
            raise CacheMissError(
                f"offline: GET {shown} is not in the cache; run the same call once online "
                "(offline=False) to fill it",
                url=shown,
            )
        if kind == "list":
            self.confirm_service()
        return self._fetch(url, params, kind=kind, key=key, expire_after=expire_after)

    def lookup(self, path: str, params: Mapping[str, str] | None = None) -> CachedResponse | None:
        """The cached answer to ``GET base_url + path?params``: fresh, or any when offline."""
        key = self.keys.key("GET", self.base_url + path, (params or {}).items())
        return cached_response(self.session, key, allow_stale=self.offline)

    def confirm_service(self) -> None:
        """Ask ``GET /status`` once, so that a wrong base URL is an error naming it.

        Raises:
            ServiceError: the base URL does not answer ``/status`` with a status resource.
        """
        if self.confirmed:
            return
        failure: ServiceError | None = None
        try:
            self._fetch(self.base_url + "/status", None, kind="status", key="", expire_after=None)
        except ServiceError as error:
            failure = error
        if failure is not None:
            raise ServiceError(
                f"no match-data service answers at base_url={self.base_url!r}: {failure}; check "
                "the base URL (the address before /shards, e.g. 'https://api.example.com')",
                status=failure.status,
                url=failure.url,
                errors=failure.errors,
            ) from failure
        self.confirmed = True

    def _from_cache(self, key: str, kind: RequestKind, shown: str) -> Fetched | None:
        response = cached_response(self.session, key, allow_stale=self.offline)
        if response is None:
            return None
        try:
            head = check_body(kind, response.content)
        except BadAnswerError:
            self.session.cache.delete(key)  # not what a fresh answer may be: fetch it again
            return None
        self.cache_hits += 1
        logger.debug("GET %s -> %s (cache)", shown, response.status_code)
        return Fetched(response.content, head, shown, response.status_code, True)

    def _fetch(
        self,
        url: str,
        params: Mapping[str, str] | None,
        *,
        kind: RequestKind,
        key: str,
        expire_after: ExpirationTime,
    ) -> Fetched:
        """Send until an answer is final: checked and stored, empty, or an error."""
        tries = _Tries()
        shown = _display_url(url, params)
        while True:
            response = self._send(url, params, kind=kind, shown=shown, tries=tries)
            if response is None:
                continue  # a transport failure, waited out
            shown = response.url or shown
            status = response.status_code
            if status == 200:
                try:
                    head = check_body(kind, response.content)
                except BadAnswerError as bad:
                    self._retry_or_raise(response, shown, kind, tries, f"answered 200 with {bad}")
                    continue
                self._store(response, key, expire_after)
                return Fetched(response.content, head, shown, status, False)
            if status == 404 and kind == "list":
                # The real Vainglory service answered an empty list with 404; the service is
                # confirmed (GET /status) before any list request reaches it.
                return Fetched(None, None, shown, status, False)
            if status == 429:
                self._rate_limit_wait(response, shown, tries)
            elif status in RETRY_STATUSES:
                self._retry_or_raise(response, shown, kind, tries, None)
            else:
                raise self._error(response, shown, kind, tries.faults)

    def _headers(self, kind: RequestKind) -> dict[str, str]:
        headers = {"Accept": "application/vnd.api+json"}
        if self._api_key and kind != "status":
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _send(
        self,
        url: str,
        params: Mapping[str, str] | None,
        *,
        kind: RequestKind,
        shown: str,
        tries: _Tries,
    ) -> requests.Response | None:
        """One request to the service; ``None`` after a transport failure that was waited out.

        The session neither reads nor writes its cache here (``DO_NOT_CACHE``): the lookup came
        before, and only a checked answer is stored.
        """
        started = time.perf_counter()
        failure: requests.RequestException | None = None
        try:
            response = self.session.get(
                url,
                params=params,
                headers=self._headers(kind),
                timeout=self.timeout,
                expire_after=DO_NOT_CACHE,
            )
        except requests.RequestException as error:
            # A bare copy: the original holds the request, and with it the key.
            failure = type(error)(self._scrubbed_text(str(error)))
            transient = isinstance(error, _TRANSIENT_ERRORS)
        self.network_requests += 1
        if failure is None:
            logger.debug(
                "GET %s -> %s in %.1f ms",
                response.url or shown,
                response.status_code,
                (time.perf_counter() - started) * 1e3,
            )
            return response
        name = type(failure).__name__
        logger.debug("GET %s failed: %s", shown, name)
        tries.faults += 1
        if not transient or tries.faults >= self.retry.attempts:
            raise ServiceError(
                f"GET {shown} failed {tries.faults} times ({name}); the service is unreachable "
                "or dropping connections, try again later",
                url=shown,
            ) from failure
        self.retry.sleep(self.retry.backoff_seconds(tries.faults - 1))
        return None

    def _retry_or_raise(
        self,
        response: requests.Response,
        shown: str,
        kind: RequestKind,
        tries: _Tries,
        bad_answer: str | None,
    ) -> None:
        """Wait before the next try of a failing answer, or raise once the tries are spent."""
        tries.faults += 1
        if tries.faults < self.retry.attempts:
            self.retry.sleep(self.retry.backoff_seconds(tries.faults - 1))
            return
        if bad_answer is None:
            raise self._error(response, shown, kind, tries.faults)
        raise ServiceError(
            f"GET {shown} {bad_answer} ({tries.faults} attempts); a proxy or the service is "
            "answering something else, try again later",
            status=response.status_code,
            url=shown,
            errors=self._scrubbed(error_objects(response)),
        )

    def _rate_limit_wait(self, response: requests.Response, shown: str, tries: _Tries) -> None:
        """Wait what a 429 asks (never longer), or raise when it asks too much or too often."""
        tries.refusals += 1
        wait = read_rate_limit_wait(response.headers, wall_clock=self.retry.wall_clock())
        seconds = wait.seconds if wait is not None and wait.seconds > 0 else None
        if seconds is None:
            seconds = self.retry.backoff_seconds(tries.refusals - 1)
        reason = "no wait given: backing off" if wait is None else wait.reason
        if tries.refusals >= self.retry.rate_limit_attempts or (
            seconds > self.retry.max_rate_limit_wait
        ):
            raise RateLimitError(
                f"GET {shown} was refused by the service's rate limit {tries.refusals} times "
                f"(it asks to wait {seconds:.1f} s: {reason}); lower rate_limit= or wait and "
                "retry",
                retry_after=seconds,
                status=response.status_code,
                url=shown,
                errors=self._scrubbed(error_objects(response)),
            )
        logger.info("rate limited by the service; waiting %.1f s (%s)", seconds, reason)
        self.retry.sleep(seconds)

    def _store(self, response: requests.Response, key: str, expire_after: ExpirationTime) -> None:
        if not key or expire_after is None or expire_after == DO_NOT_CACHE:
            return
        expires = get_expiration_datetime(expire_after)
        self.session.cache.save_response(response, cache_key=key, expires=expires)

    def _error(
        self, response: requests.Response, url: str, kind: RequestKind, faults: int
    ) -> ServiceError:
        """The typed error of a final error answer."""
        status = response.status_code
        errors = self._scrubbed(error_objects(response))
        detail = describe_errors(errors)
        options: dict[str, Any] = {"status": status, "url": url, "errors": errors}
        if status in (401, 403):
            hint = (
                "pass api_key= or set MATCHKIT_API_KEY"
                if not self._api_key
                else "check the API key (api_key= or MATCHKIT_API_KEY)"
            )
            return AuthError(f"{status} from GET {url}: {detail}; {hint}", **options)
        if status == 404:
            what = {"match": "match", "status": "status resource"}.get(kind, "resource")
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

    def _scrubbed(self, errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``errors`` with the key blanked out, should a service or proxy echo it back."""
        key = self._api_key
        if not key or key not in repr(errors):
            return errors
        return orjson.loads(orjson.dumps(errors).replace(orjson.dumps(key)[1:-1], b"[api key]"))

    def _scrubbed_text(self, text: str) -> str:
        return text.replace(self._api_key, "[api key]") if self._api_key else text


def _display_url(url: str, params: Mapping[str, str] | None) -> str:
    return f"{url}?{urlencode(params)}" if params else url

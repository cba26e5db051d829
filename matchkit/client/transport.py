"""One GET against the service: cache lookup, retries, rate-limit waits, typed errors.

:class:`Transport` wraps the cached (and throttled) session of :mod:`matchkit.client.cache`.
A GET takes these steps, each one method:

1. :meth:`Transport.lookup`: the one cache lookup (a fresh entry; any entry when offline). A hit
   is checked like a new answer; a miss offline is a :class:`matchkit.errors.CacheMissError`.
2. :meth:`Transport.confirm_service`: before the first list request that reaches the network,
   ``GET /status`` once (decision 11), so that a wrong base URL is an error naming it, never
   "no matches"; only then does a list 404 count as an empty list.
3. :meth:`Transport._fetch`: the request, with the headers of its kind (the key on match
   requests only), through the session without its own cache reading or writing, sent until
   its answer is final by :class:`matchkit.client.retrying.Retrying`, which owns the retry
   rules (5xx, bad 200s, dropped connections and timeouts backed off; a 429 waited out; the
   errors of spent tries).
4. The answer: a 200 is checked (:func:`matchkit.client.answers.check_body`) and only then
   stored (a bad one is retried); a list 404 is an empty list; the rest is mapped to a typed
   error (:meth:`Transport._error`) carrying the status, the URL and the JSON:API ``errors``.

Never a partial result, and never the API key: it travels only in the ``Authorization`` header,
and no error raised here holds it (its :class:`matchkit.client.retrying.Scrubber` blanks it out
of messages and error objects; a failed request's exception, which holds the request, is
replaced by a bare one of the same type).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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
)
from matchkit.client.cache import CacheKeys, cached_response
from matchkit.client.retrying import RETRY_STATUSES, Retrying, RetryPolicy, Scrubber
from matchkit.errors import AuthError, CacheMissError, NotFoundError, ServiceError
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
        self._scrub = Scrubber(api_key)
        self.timeout = timeout
        self.offline = offline
        self.retry = retry or RetryPolicy()
        self.network_requests = 0
        self.cache_hits = 0
        self.confirmed = False
        self.on_wait: Callable[[float, str], None] | None = None  # told of 429 waits

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
        check: Callable[[Fetched], None] | None = None,
        fresh: bool = False,
    ) -> Fetched:
        """GET ``base_url + path``: from the cache, else from the service, checked.

        ``check`` checks an answer against its request (e.g.
        :func:`matchkit.client.checks.list_page_check`) after the body's shape, before it is
        used or stored: a :class:`BadAnswerError` it raises is retried like a 5xx, never
        cached, and a cached answer it refuses is dropped and fetched again. ``fresh`` asks the
        service even when the cache holds the answer (online; the new answer replaces it): the
        pager's, once a window's list has moved under it.

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
        if kind != "status" and not (fresh and not self.offline):
            hit = self._from_cache(key, kind, shown, check)
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
        return self._fetch(
            url, params, kind=kind, key=key, expire_after=expire_after, answer_check=check
        )

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

    def _from_cache(
        self,
        key: str,
        kind: RequestKind,
        shown: str,
        check: Callable[[Fetched], None] | None = None,
    ) -> Fetched | None:
        response = cached_response(self.session, key, allow_stale=self.offline)
        if response is None:
            return None
        try:
            head = check_body(kind, response.content)
            fetched = Fetched(response.content, head, shown, response.status_code, True)
            if check is not None:
                check(fetched)
        except BadAnswerError:
            self.session.cache.delete(key)  # not what a fresh answer may be: fetch it again
            return None
        self.cache_hits += 1
        logger.debug("GET %s -> %s (cache)", shown, response.status_code)
        return fetched

    def _fetch(
        self,
        url: str,
        params: Mapping[str, str] | None,
        *,
        kind: RequestKind,
        key: str,
        expire_after: ExpirationTime,
        answer_check: Callable[[Fetched], None] | None = None,
    ) -> Fetched:
        """Send until an answer is final (:class:`Retrying`): checked and stored, empty, or an
        error.

        The session neither reads nor writes its cache here (``DO_NOT_CACHE``): the lookup came
        before, and only a checked answer is stored.
        """
        shown = _display_url(url, params)
        headers = self._headers(kind)

        def send() -> requests.Response:
            started = time.perf_counter()
            try:
                response = self.session.get(
                    url,
                    params=params,
                    headers=headers,
                    timeout=self.timeout,
                    expire_after=DO_NOT_CACHE,
                )
            finally:
                self.network_requests += 1
            elapsed = (time.perf_counter() - started) * 1e3
            logger.debug(
                "GET %s -> %s in %.1f ms", response.url or shown, response.status_code, elapsed
            )
            return response

        def check(response: requests.Response) -> Fetched:
            answered, status = response.url or shown, response.status_code
            if status == 200:
                head = check_body(kind, response.content)  # a BadAnswerError is retried
                fetched = Fetched(response.content, head, answered, status, False)
                if answer_check is not None:
                    answer_check(fetched)  # against the request; retried too
                self._store(response, key, expire_after)
                return fetched
            if status == 404 and kind == "list":
                # The real Vainglory service answered an empty list with 404; the service is
                # confirmed (GET /status) before any list request reaches it.
                return Fetched(None, None, answered, status, False)
            raise self._error(response, answered, kind)

        retrying = Retrying(
            self.retry,
            logger,
            advice="lower rate_limit= or wait and retry",
            scrub=self._scrub,
            on_wait=self.on_wait,
        )
        return retrying.run(send, check, url=shown)

    def _headers(self, kind: RequestKind) -> dict[str, str]:
        headers = {"Accept": "application/vnd.api+json"}
        if self._api_key and kind != "status":
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _store(self, response: requests.Response, key: str, expire_after: ExpirationTime) -> None:
        if not key or expire_after is None or expire_after == DO_NOT_CACHE:
            return
        expires = get_expiration_datetime(expire_after)
        self.session.cache.save_response(response, cache_key=key, expires=expires)

    def _error(self, response: requests.Response, url: str, kind: RequestKind) -> ServiceError:
        """The typed error of a final error answer (not a 429 or a 5xx: :class:`Retrying`'s)."""
        status = response.status_code
        errors = self._scrub.errors(error_objects(response))
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
        return ServiceError(f"{status} from GET {url}: {detail}", **options)


def _display_url(url: str, params: Mapping[str, str] | None) -> str:
    return f"{url}?{urlencode(params)}" if params else url

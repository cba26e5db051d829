"""One GET against the service: cache lookup, the service's rules, and the one request path.

:class:`Transport` wraps the cached (and throttled) session of :mod:`matchkit.client.cache`.
A GET takes these steps:

1. :meth:`Transport.lookup`: the one cache lookup (a fresh entry; any entry when offline). A hit
   is checked like a new answer (its kind, then the caller's check); a hit that fails is dropped
   and fetched again; a miss offline is a :class:`matchkit.errors.CacheMissError`.
2. :meth:`Transport.confirm_service`: before the first list request that reaches the network,
   ``GET /status`` once (decision 11), so that a wrong base URL is an error naming it, never
   "no matches".
3. The request, with the headers of its kind (the key on match requests only), through the one
   request path (:class:`matchkit.client.request.RequestPath`: URL check, deadline, cap on body
   size, status-to-error mapping, retries). A 200 is read by its kind
   (:func:`matchkit.client.responses.check_body`), then given to the caller's ``check`` hook (see
   :data:`matchkit.client.request.Check`), and only then stored; a refused answer is retried,
   never stored.
4. A 404 on a list is an empty window only when it can mean that (:func:`_empty_list`): the
   service's own JSON:API error document, at the first page of a window (offset 0), not at the
   end of a redirect. Any other 404 on a list is retried like a 5xx, then an error.

Never a partial result, and never the API key: it travels only in the ``Authorization`` header,
never to another host, and no error raised here holds it (the path's
:class:`matchkit.client.retrying.Scrubber` blanks it out of messages and error objects).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import orjson
import requests
from requests_cache import DO_NOT_CACHE, CachedResponse, ExpirationTime
from requests_cache.policy.expiration import get_expiration_datetime

from matchkit.client.cache import CacheKeys, CachingSession, cached_response
from matchkit.client.request import Check, Fetched, Limits, RequestPath, display_url
from matchkit.client.responses import (
    BadAnswerError,
    RequestKind,
    check_body,
)
from matchkit.client.retrying import RETRY_STATUSES, RetryPolicy, Scrubber
from matchkit.errors import CacheMissError, ServiceError

__all__ = [
    "RETRY_STATUSES",
    "Check",
    "Fetched",
    "RequestKind",
    "RetryPolicy",
    "Transport",
]

logger = logging.getLogger(__name__)

_OFFSET = "page[offset]"


class Transport:
    """GET requests to one service through a cached session and the one request path.

    Attributes:
        path: the request path (:class:`matchkit.client.request.RequestPath`).
        retry: the retry policy (replace it to inject ``sleep`` in tests).
        limits: the deadline and the cap on body size of each request.
        network_requests: requests that reached the service (retries included).
        cache_hits: requests the cache answered.
        confirmed: whether ``GET /status`` has confirmed the service at ``base_url``.
    """

    def __init__(
        self,
        session: CachingSession,
        *,
        base_url: str,
        api_key: str | None,
        timeout: float,
        offline: bool,
        retry: RetryPolicy | None = None,
        keys: CacheKeys | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.session = session
        self.keys = keys or CacheKeys()
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self.offline = offline
        self.path = RequestPath(
            session,
            limits=limits or Limits(timeout=timeout),
            retry=retry,
            advice="lower rate_limit= or wait and retry",
            scrub=Scrubber(api_key),
            logger=logger,
        )
        self.cache_hits = 0
        self.confirmed = False

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"Transport({self.base_url!r}, api_key={key}, offline={self.offline})"

    # -- what the path holds -----------------------------------------------------------------

    @property
    def retry(self) -> RetryPolicy:
        return self.path.retry

    @retry.setter
    def retry(self, policy: RetryPolicy) -> None:
        self.path.retry = policy

    @property
    def limits(self) -> Limits:
        return self.path.limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        self.path.limits = limits

    @property
    def timeout(self) -> float:
        return self.path.limits.timeout

    @property
    def network_requests(self) -> int:
        return self.path.network_requests

    @property
    def on_wait(self) -> Callable[[float, str], None] | None:
        """Told of 429 waits (seconds, what is waited for)."""
        return self.path.on_wait

    @on_wait.setter
    def on_wait(self, listener: Callable[[float, str], None] | None) -> None:
        self.path.on_wait = listener

    # -- the steps ---------------------------------------------------------------------------

    def get(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        expire_after: ExpirationTime,
        check: Check | None = None,
        fresh: bool = False,
    ) -> Fetched:
        """GET ``base_url + path``: from the cache, else from the service, checked.

        Args:
            kind: what is asked for (``"list"``, ``"match"``, ``"status"``): the shape a 200
                must have, and the headers sent.
            expire_after: how long the answer is kept (``DO_NOT_CACHE``: not at all).
            check: the request's check hook (:data:`matchkit.client.request.Check`), run on
                every answer of this request, cached or new, before it is used or stored; a
                :class:`matchkit.client.responses.BadAnswerError` from it means "retry like a
                5xx, never cache, then a ServiceError saying what disagreed"; a cached answer it
                refuses is dropped and fetched again.
            fresh: ask the service even when the cache holds the answer (online; the new
                answer replaces it): the pager's, once a window's list has moved under it.

        Raises:
            CacheMissError: offline and the cache does not hold the request.
            AuthError: 401 or 403.
            NotFoundError: 404 on a single match or the status.
            RateLimitError: still 429 after the policy's waits.
            ServiceError: any other error status, a 200 that is not what was asked for (its
                kind, or the check), a 404 on a list that cannot mean "empty", a transport
                failure that outlasted the retries, an answer over the cap on body size, or
                (before a list request) no service at the base URL.
        """
        url = self.base_url + path
        shown = display_url(url, params)
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
        return self._fetch(url, params, kind=kind, key=key, expire_after=expire_after, check=check)

    def cached(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        check: Check | None = None,
    ) -> Fetched | None:
        """The cached answer to ``GET base_url + path?params``, checked as :meth:`get` checks
        it, or ``None`` (nothing is sent)."""
        url = self.base_url + path
        key = self.keys.key("GET", url, (params or {}).items())
        return self._from_cache(key, kind, display_url(url, params), check)

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
        self, key: str, kind: RequestKind, shown: str, check: Check | None
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
        check: Check | None = None,
    ) -> Fetched:
        """Send through the path until an answer is final: checked and stored, empty, or an
        error. Only a checked answer is stored."""

        def store(response: requests.Response) -> None:
            self._store(response, key, expire_after)

        def empty(response: requests.Response, redirected: bool) -> bool:
            return kind == "list" and _empty_list(response, params, redirected=redirected)

        return self.path.get(
            url,
            params,
            headers=self._headers(kind),
            read=lambda body: check_body(kind, body),  # a BadAnswerError is retried
            check=check,
            store=store,
            empty=empty,
            hints=self._hints(kind),
        )

    def _headers(self, kind: RequestKind) -> dict[str, str]:
        headers: dict[str, str] = {"Accept": "application/vnd.api+json"}
        if self._api_key and kind != "status":
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _hints(self, kind: RequestKind) -> dict[int, str]:
        auth = (
            "pass api_key= or set MATCHKIT_API_KEY"
            if not self._api_key
            else "check the API key (api_key= or MATCHKIT_API_KEY)"
        )
        what = {"match": "match", "status": "status resource"}.get(kind, "resource")
        return {401: auth, 403: auth, 404: f"no such {what} on this service"}

    def _store(self, response: requests.Response, key: str, expire_after: ExpirationTime) -> None:
        if not key or expire_after is None or expire_after == DO_NOT_CACHE:
            return
        expires = get_expiration_datetime(expire_after)
        self.session.cache.save_response(response, cache_key=key, expires=expires)


def _empty_list(
    response: requests.Response, params: Mapping[str, str] | None, *, redirected: bool
) -> bool:
    """Whether a list request's final error answer means "no matches" (decision 11).

    The real Vainglory service answered an empty list with 404, and the service is confirmed
    (``GET /status``) before any list request reaches it. But a 404 can mean "empty" only as
    that service sent it: its own JSON:API error document, at the first page of a window
    (``page[offset]`` 0: a window's later pages exist because an earlier one said so), and not
    at the end of a redirect (another host's "not found"). Any other 404 on a list (a gateway's
    HTML page, one in the middle of a window, one after a redirect) cannot be trusted: it is
    retried like a 5xx, then a ServiceError. Any other status is an error of its own.

    Raises:
        BadAnswerError: a 404 that cannot mean "empty".
    """
    if response.status_code != 404:
        return False
    offset = (params or {}).get(_OFFSET, "0")
    if redirected:
        raise BadAnswerError("a 404 at the end of a redirect, where a list page was asked")
    if str(offset).strip() not in ("", "0"):
        raise BadAnswerError(
            f"a 404 at page[offset]={offset}, in the middle of a window whose earlier pages "
            "said more matches follow"
        )
    if not _is_error_document(response.content):
        raise BadAnswerError("a 404 that is not the service's JSON:API error document")
    return True


def _is_error_document(body: bytes) -> bool:
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        return False
    if not isinstance(document, dict):
        return False
    errors = document.get("errors")
    return isinstance(errors, list) and bool(errors) and all(isinstance(e, dict) for e in errors)

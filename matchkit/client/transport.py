"""One GET of the client: the cache, the rules of each kind of request, and the one request path.

:class:`Transport` is the client's only way out: one per client, over the client's one cached
session and one :class:`matchkit.client.request.RequestPath`. A GET takes these steps:

1. The kind of request (:data:`KINDS`) decides who answers (the service or the asset host),
   whether the API key is sent (only to the service, only for match data), the ``Accept``
   header, and the shape a 200 must have (:func:`matchkit.client.responses.check_body` for the
   service's JSON:API answers).
2. The one cache lookup (a fresh entry; any entry when offline). A hit is read like a new
   answer (its shape, then the caller's ``parse``); a hit that fails is dropped and fetched
   again; a miss offline is a :class:`matchkit.errors.CacheMissError`.
3. :meth:`Transport.confirm_service`: before the first list request that reaches the network,
   ``GET /status`` once (decision 11), so that a wrong base URL is an error naming it, never
   "no matches".
4. The request, through the one request path (URL check, client rate limit, deadline, cap on
   body size, status-to-error mapping, retries). A 200 is read by its kind, then given to the
   caller's ``parse`` hook (:data:`matchkit.client.request.Parse`), and only then stored; a
   refused answer is retried, never stored. What ``parse`` returns is what :meth:`get` returns.
5. A 404 on a list is an empty window only when it can mean that
   (:func:`matchkit.client.responses.empty_list`).

Never a partial result, and never the API key: it travels only in the ``Authorization`` header,
never to another host, and no error raised here holds it (the path's
:class:`matchkit.client.retrying.Scrubber` blanks it out of messages and error objects).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar, overload

import requests
from requests_cache import DO_NOT_CACHE, NEVER_EXPIRE, CachedResponse, ExpirationTime
from requests_cache.policy.expiration import get_expiration_datetime

from matchkit.client.cache import CacheKeys, CachingSession, cached_response
from matchkit.client.request import ASSET_HOST, SERVICE, Fetched, Parse, Peer, RequestPath
from matchkit.client.responses import (
    BadAnswerError,
    RequestKind,
    check_body,
    empty_list,
    no_players_found,
)
from matchkit.client.retrying import RETRY_STATUSES, RetryPolicy
from matchkit.client.sending import Limits
from matchkit.client.urls import display_url, url_problem
from matchkit.errors import CacheMissError, DocumentError, MatchkitError, ServiceError
from matchkit.rules.profiles import GAMELOCKER, Profile

__all__ = [
    "KINDS",
    "RETRY_STATUSES",
    "Fetched",
    "Kind",
    "RequestKind",
    "RetryPolicy",
    "Transport",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")
_JSON_API = "application/vnd.api+json"


@dataclass(frozen=True)
class Kind:
    """The rules of one kind of request.

    Attributes:
        peer: who answers it.
        endpoint: the profile's name of the endpoint it asks (``Profile.endpoints``): whether
            the client's rate limit applies is whether the profile lists it in
            ``rate_limited``.
        keyed: whether the API key is sent (match data only; never to the asset host).
        accept: the ``Accept`` header.
        shaped: whether a 200 must be a JSON:API document of this kind
            (:func:`matchkit.client.responses.check_body`); otherwise the caller's ``parse``
            alone reads it.
        bad_answer_error: the error of an answer still refused when the tries are spent.
        missing: what a 404 means, told to the user.
    """

    peer: Peer
    endpoint: str
    keyed: bool
    accept: str = _JSON_API
    shaped: bool = True
    bad_answer_error: type[MatchkitError] = ServiceError
    missing: str = "no such resource on this service"


KINDS: Mapping[str, Kind] = {
    "list": Kind(SERVICE, "matches", keyed=True),
    "match": Kind(SERVICE, "match", keyed=True, missing="no such match on this service"),
    "players": Kind(SERVICE, "players", keyed=True),
    "player": Kind(
        SERVICE,
        "player",
        keyed=True,
        missing="no such player on this shard; look an id up by name with "
        "client.players(names=[...])",
    ),
    "samples": Kind(SERVICE, "samples", keyed=True, missing="no sample of that day on this shard"),
    "seasons": Kind(SERVICE, "seasons", keyed=True),
    "status": Kind(
        SERVICE, "status", keyed=False, missing="no such status resource on this service"
    ),
    "catalogue": Kind(
        SERVICE,
        "catalogue",
        keyed=False,
        accept="application/json",
        shaped=False,
        bad_answer_error=DocumentError,
        missing="this service has no catalogue of names; ids stay ids unless you pass a "
        "mapping to matchkit.names.load_names",
    ),
    "telemetry": Kind(
        ASSET_HOST,
        "telemetry",
        keyed=False,
        accept="application/json",
        shaped=False,
        bad_answer_error=DocumentError,
        missing="no such file on its host",
    ),
    "dictionary": Kind(
        ASSET_HOST,
        "dictionary",
        keyed=False,
        accept="application/json",
        shaped=False,
        bad_answer_error=DocumentError,
        missing="no such dictionary of names at its host",
    ),
}
"""The kinds of request, by name (:data:`matchkit.client.responses.RequestKind`)."""


def _as_is(fetched: Fetched) -> Fetched:
    return fetched


class Transport:
    """GET requests through the client's cached session and its one request path.

    Args:
        session: the client's cached session.
        path: the client's request path over that session.
        base_url: the service.
        api_key: sent to the service with match-data requests, never elsewhere.
        offline: answer only from the cache.
        keys: how requests are keyed in the cache.
        profile: the service's rules: the endpoints its rate limit applies to (the client's
            own limit applies to those only: PUBG's matches are free), and what a players
            request answers when it finds none.

    Attributes:
        path: the request path (:class:`matchkit.client.request.RequestPath`).
        cache_hits: requests the cache answered.
        confirmed: whether ``GET /status`` has confirmed the service at ``base_url``.
    """

    def __init__(
        self,
        session: CachingSession,
        path: RequestPath,
        *,
        base_url: str,
        api_key: str | None,
        offline: bool,
        keys: CacheKeys | None = None,
        profile: Profile = GAMELOCKER,
    ) -> None:
        self.session = session
        self.profile = profile
        self.path = path
        self.keys = keys or CacheKeys()
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self.offline = offline
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

    @property
    def network_requests(self) -> int:
        return self.path.network_requests

    @property
    def on_wait(self) -> Callable[[float, str], None] | None:
        """Told of rate-limit waits (seconds, what is waited for)."""
        return self.path.on_wait

    @on_wait.setter
    def on_wait(self, listener: Callable[[float, str], None] | None) -> None:
        self.path.on_wait = listener

    # -- the steps ---------------------------------------------------------------------------

    @overload
    def get(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        expire_after: ExpirationTime,
        parse: None = None,
        fresh: bool = False,
    ) -> Fetched: ...

    @overload
    def get(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        expire_after: ExpirationTime,
        parse: Parse[T],
        fresh: bool = False,
    ) -> T: ...

    def get(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        expire_after: ExpirationTime,
        parse: Parse[Any] | None = None,
        fresh: bool = False,
    ) -> Any:
        """GET ``base_url + path`` of the service: from the cache, else from the service.

        Args:
            kind: what is asked for (:data:`KINDS`): the shape a 200 must have, the headers.
            expire_after: how long the answer is kept (``DO_NOT_CACHE``: not at all).
            parse: the request's parse hook (:data:`matchkit.client.request.Parse`), run on
                every answer of this request, cached or new, before it is used or stored; what
                it returns is returned (the checked :class:`Fetched` when it is ``None``).
            fresh: ask the service even when the cache holds the answer (online; the new
                answer replaces it): the pager's, once a window's list has moved under it.

        Raises:
            CacheMissError: offline and the cache does not hold the request.
            AuthError: 401 or 403.
            NotFoundError: 404 on anything but a list.
            RateLimitError: still 429 after the policy's waits.
            ServiceError: any other error status, a 200 that is not what was asked for (its
                kind, or ``parse``), a 404 on a list that cannot mean "empty", a transport
                failure that outlasted the retries, an answer over the cap on body size, or
                (before a list request) no service at the base URL.
        """
        request = self._request(self.base_url + path, params, kind)
        return self._get(request, parse or _as_is, expire_after=expire_after, fresh=fresh)

    def download(
        self,
        url: str,
        *,
        what: str,
        parse: Parse[T],
        fresh: bool = False,
        kind: RequestKind = "telemetry",
        expire_after: ExpirationTime = NEVER_EXPIRE,
    ) -> T:
        """GET a file at ``url`` on an asset host (a telemetry file, or a ``dictionary`` of
        names): from the cache, else from its host, never with the API key and never rate
        limited; kept (forever, unless ``expire_after``) once ``parse`` took it. ``fresh``: the
        caller found it not cached (:meth:`cached_download`): ask its host.

        Raises:
            CacheMissError: offline and not cached.
            NotFoundError: the URL answered 404.
            DocumentError: ``parse`` kept refusing the file (after the retries).
            RateLimitError, ServiceError: the host kept refusing or failing, or ``url`` cannot
                be requested.
        """
        request = self._request(url, None, kind, what=what)
        return self._get(request, parse, expire_after=expire_after, fresh=fresh)

    def cached(
        self,
        path: str,
        params: Mapping[str, str] | None = None,
        *,
        kind: RequestKind,
        parse: Parse[T] | None = None,
    ) -> T | None:
        """The cached answer to ``GET base_url + path?params``, read as :meth:`get` reads it,
        or ``None`` (nothing is sent)."""
        request = self._request(self.base_url + path, params, kind)
        if parse is None:
            return self._from_cache(request, _as_is)  # type: ignore[return-value]
        return self._from_cache(request, parse)

    def cached_download(self, url: str, *, what: str, parse: Parse[T]) -> T | None:
        """The cached telemetry file at ``url``, read as :meth:`download` reads it, or ``None``
        (nothing is sent).

        Raises:
            ServiceError: ``url`` cannot be requested.
        """
        return self._from_cache(self._request(url, None, "telemetry", what=what), parse)

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
            self._fetch(self._request(self.base_url + "/status", None, "status"), _as_is, None)
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

    # -- internals ---------------------------------------------------------------------------

    def _request(
        self, url: str, params: Mapping[str, str] | None, kind: RequestKind, *, what: str = ""
    ) -> _Request:
        """The request, once its URL can be sent (a URL the service gave may not be one).

        Raises:
            ServiceError: the URL cannot be requested; nothing is sent, nor looked up.
        """
        shown = display_url(url, params) if isinstance(url, str) else repr(url)
        problem = url_problem(url)
        if problem is not None:
            raise ServiceError(
                f"GET {shown}{f' ({what})' if what else ''} cannot be sent: {problem}; the "
                "service gave a URL that cannot be requested",
                url=shown if isinstance(url, str) else None,
            )
        key = self.keys.key("GET", url, (params or {}).items())
        return _Request(url, params, kind, KINDS[kind], key, shown, what)

    def _get(
        self, request: _Request, parse: Parse[T], *, expire_after: ExpirationTime, fresh: bool
    ) -> T:
        if request.kind != "status" and not (fresh and not self.offline):
            hit = self._from_cache(request, parse)
            if hit is not None:
                return hit
        if self.offline:
            raise CacheMissError(
                f"offline: GET {request.shown}{f' ({request.what})' if request.what else ''} is "
                "not in the cache; run the same call once online (offline=False) to fill it",
                url=request.shown,
            )
        if request.kind == "list":
            self.confirm_service()
        return self._fetch(request, parse, expire_after)

    def _from_cache(self, request: _Request, parse: Parse[T]) -> T | None:
        # A telemetry file never expires; any other entry counts when fresh, or offline.
        allow_stale = self.offline or request.kind == "telemetry"
        response = cached_response(self.session, request.key, allow_stale=allow_stale)
        if response is None:
            return None
        try:
            fetched = _read(request, Fetched(response.content, None, request.shown, 200, True))
            value = parse(fetched)
        except BadAnswerError:
            self.session.cache.delete(request.key)  # not what a fresh answer may be: fetch again
            return None
        self.cache_hits += 1
        logger.debug("GET %s -> %s (cache)", request.shown, response.status_code)
        return value

    def _fetch(self, request: _Request, parse: Parse[T], expire_after: ExpirationTime) -> T:
        """Send through the path until an answer is final: parsed and stored, empty, or an
        error. Only an answer ``parse`` took is stored."""

        def store(response: requests.Response) -> None:
            if expire_after is None or expire_after == DO_NOT_CACHE:
                return
            expires = get_expiration_datetime(expire_after)
            self.session.cache.save_response(response, cache_key=request.key, expires=expires)

        def empty(response: requests.Response, redirected: bool) -> bool:
            if request.kind == "players" and self.profile.no_players_found == "404":
                return no_players_found(response, redirected=redirected)
            if request.kind != "list":
                return False
            return empty_list(response, request.params, redirected=redirected)

        rules = request.rules
        return self.path.get(
            request.url,
            request.params,
            peer=rules.peer,
            headers=self._headers(rules),
            parse=lambda fetched: parse(_read(request, fetched)),
            what=request.what,
            store=store,
            empty=empty,
            hints=self._hints(rules),
            bad_answer_error=rules.bad_answer_error,
            limited=rules.endpoint in self.profile.rate_limited,
        )

    def _headers(self, rules: Kind) -> dict[str, str]:
        headers: dict[str, str] = {"Accept": rules.accept}
        if self._api_key and rules.keyed:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _hints(self, rules: Kind) -> dict[int, str]:
        if rules.peer is not SERVICE:
            return {404: rules.missing}
        auth = (
            "pass api_key= or set MATCHKIT_API_KEY"
            if not self._api_key
            else "check the API key (api_key= or MATCHKIT_API_KEY)"
        )
        return {401: auth, 403: auth, 404: rules.missing}


@dataclass(frozen=True)
class _Request:
    """One request as the transport handles it: where, what kind, its cache key, how shown."""

    url: str
    params: Mapping[str, str] | None
    kind: RequestKind
    rules: Kind
    key: str
    shown: str
    what: str


def _read(request: _Request, fetched: Fetched) -> Fetched:
    """``fetched`` with its head, once its body has the shape its kind asks for (an empty
    list's 404 has none to check).

    Raises:
        BadAnswerError: it has not (:func:`matchkit.client.responses.check_body`).
    """
    if fetched.body is None or not request.rules.shaped:
        return fetched
    return replace(fetched, head=check_body(request.kind, fetched.body))

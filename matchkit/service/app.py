"""The ASGI application of the reference service (Starlette): routes and the rules of each request.

Checks run in this order: method (405), ``Accept`` (406), API key (401), rate limit (429),
shard (404), parameters (400), match (404). Every response carries the CORS headers; every
match response the ``X-RateLimit-*`` headers when rate limiting is on.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path
from typing import Any, TypedDict
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route

from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import SHARDS
from matchkit.rules.windows import RETENTION, TimeWindow, parse_time
from matchkit.service.auth import ApiKeys, generate_api_key
from matchkit.service.catalogue import CATALOGUE_PATH, catalogue_endpoint
from matchkit.service.documents import (
    error_body,
    list_body,
    page_links,
    single_body,
    status_body,
)
from matchkit.service.faults import FaultInjector, FaultMiddleware, Faults
from matchkit.service.params import list_query, query_items
from matchkit.service.players import FILTERS as PLAYER_FILTERS
from matchkit.service.players import player_body, players_body, players_filter
from matchkit.service.ratelimit import DEFAULT_RATE_LIMIT, RateLimit, RateLimiter
from matchkit.service.requestlog import RequestLog, RequestLogMiddleware
from matchkit.service.responses import (
    JSON,
    PREFLIGHT_HEADERS,
    RawResponse,
    accepts_gzip,
    negotiate,
    respond,
)
from matchkit.service.store import MatchStore
from matchkit.service.telemetry import TELEMETRY_ROUTE, TelemetryEndpoint, TelemetryFiles

__all__ = ["SERVICE_NAME", "DataOptions", "Service", "create_app"]

log = logging.getLogger(__name__)

SERVICE_NAME = "matchkit"
MATCH_METHODS = "GET, HEAD, OPTIONS"
_HOST = re.compile(r"(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
Handler = Callable[[Request], Awaitable[RawResponse]]


class Service:
    """The state one app serves from: store, keys, rate limiter and the notion of now.

    Build it with :func:`create_app`; ``app.state.service`` holds it.
    """

    def __init__(
        self,
        *,
        store: MatchStore,
        api_keys: ApiKeys,
        now: datetime | None,
        rate_limiter: RateLimiter | None,
    ) -> None:
        self.store = store
        self.api_keys = api_keys
        self.fixed_now = now
        self.rate_limiter = rate_limiter
        self.released_at = (
            store.as_of or store.latest_created_at() or datetime(1970, 1, 1, tzinfo=UTC)
        )
        try:
            self.version = metadata.version("matchkit")
        except metadata.PackageNotFoundError:
            self.version = "0+unknown"

    def now(self) -> datetime:
        """The moment the time rules apply at: the fixed now, else the wall clock."""
        return self.fixed_now if self.fixed_now is not None else datetime.now(UTC)


def _resolve_now(now: str | datetime | None, store: MatchStore) -> datetime | None:
    if isinstance(now, str) and now.strip().lower() == "wall":
        return None
    if now is not None:
        return parse_time(now, parameter="now")
    if store.as_of is not None:
        return store.as_of
    latest = store.latest_created_at()
    # A folder of fetched pages has no as_of: serve it as of just after its last match.
    return None if latest is None else latest + timedelta(seconds=1)


class DataOptions(TypedDict, total=False):
    """What the service serves and how (the options of :func:`create_app` that
    :func:`matchkit.service.server.serve` passes on as they are)."""

    data: str | Path | None
    now: str | datetime | None
    rate_limit: str | RateLimit | None
    faults: str | Faults | None
    store_dir: str | Path | None


def create_app(
    *,
    data: str | Path | None = None,
    api_keys: list[str] | tuple[str, ...] | None = None,
    now: str | datetime | None = None,
    rate_limit: str | RateLimit | None = DEFAULT_RATE_LIMIT,
    faults: str | Faults | None = None,
    store_dir: str | Path | None = None,
    clock: Callable[[], float] | None = None,
    request_log: RequestLog | None = None,
) -> Starlette:
    """The service as an ASGI app.

    Args:
        data: a data set folder or a folder of JSON:API documents (default: the sample set).
        api_keys: the keys accepted (default: one generated key, see
            ``app.state.service.api_keys.first``).
        now: an ISO time or datetime taken as now, ``"wall"`` for the clock (default: the data
            set's as_of, so the sample is always fresh).
        rate_limit: ``"off"`` or ``"N/minute"`` per key (default ``"10/minute"``, decision 14).
        faults: fault injection into the match endpoints: a spec string such as
            ``"500=0.05,drop=0.02,slow=0.01,seed=7"`` or a :class:`matchkit.service.faults.Faults`
            (see :mod:`matchkit.service.faults`); ``None`` or ``"off"`` for none. The injector
            (its counts of injected faults) is ``app.state.fault_injector``.
        store_dir: where the SQLite store is built (default: the user cache folder).
        clock: monotonic seconds for the rate limiter (injected by tests).
        request_log: records each request (method, path, status) when given.

    Raises:
        InvalidArgumentError: an option is not valid.
        MatchkitError: the data folder cannot be read.
    """
    limit = RateLimit.parse(rate_limit)
    fault_spec = Faults.parse(faults)
    keys = ApiKeys(api_keys if api_keys is not None else [generate_api_key()])
    store = MatchStore.open(data, store_dir=Path(store_dir) if store_dir else None)
    service = Service(
        store=store,
        api_keys=keys,
        now=_resolve_now(now, store),
        rate_limiter=None if limit is None else RateLimiter(limit, clock=clock),
    )
    # Endpoints are ASGI apps rather than functions so that Starlette passes every method to
    # them: they answer OPTIONS, 405 and HEAD themselves, with JSON:API bodies.
    routes = [
        Route("/status", _AsgiEndpoint(_endpoint(service, _status, authenticated=False))),
        Route(CATALOGUE_PATH, catalogue_endpoint(data)),
        Route("/shards/{shard}/matches", _AsgiEndpoint(_endpoint(service, _list_matches))),
        Route(
            "/shards/{shard}/matches/{match_id}",
            _AsgiEndpoint(_endpoint(service, _get_match)),
        ),
        Route("/shards/{shard}/players", _AsgiEndpoint(_endpoint(service, _list_players))),
        Route(
            "/shards/{shard}/players/{player_id}",
            _AsgiEndpoint(_endpoint(service, _get_player)),
        ),
        Route(TELEMETRY_ROUTE, TelemetryEndpoint(TelemetryFiles(store))),  # no key, no rate limit
        Route("/{path:path}", _AsgiEndpoint(_not_found)),
    ]
    app = _ServiceApp(routes=routes)
    # Paths no route pattern matches (one holding a newline, say) get the JSON:API 404 too.
    app.router.default = _AsgiEndpoint(_not_found)
    app.state.service = service
    app.state.fault_injector = None
    if fault_spec is not None:
        injector = FaultInjector(fault_spec)
        # A fault's 429 names the service's limit, or the default one when limiting is off.
        refusal = limit or RateLimit.parse(DEFAULT_RATE_LIMIT)
        assert refusal is not None  # DEFAULT_RATE_LIMIT is a rate, never "off"
        refusal_limit = refusal.requests
        app.state.fault_injector = injector
        app.outermost = lambda inner: FaultMiddleware(
            inner, injector=injector, rate_limit=refusal_limit, request_log=request_log
        )
    if request_log is not None:
        app.add_middleware(RequestLogMiddleware, log=request_log)
    return app


class _ServiceApp(Starlette):
    """Starlette with an optional layer outside all of its middleware (fault injection needs the
    server's own ``send``, which Starlette's error middleware would otherwise wrap)."""

    outermost: Callable[[Any], Any] | None = None

    def build_middleware_stack(self) -> Any:
        stack = super().build_middleware_stack()
        return stack if self.outermost is None else self.outermost(stack)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await super().__call__(_without_trailing_slash(scope), receive, send)


def _without_trailing_slash(scope: Any) -> Any:
    """Decision 7: ``/shards/na/matches/`` is ``/shards/na/matches`` (real clients asked for it
    with the slash), for every endpoint. One slash is dropped, so a path ending in ``//`` stays
    unknown; links are built from the path without it."""
    path = scope.get("path", "")
    if scope["type"] != "http" or len(path) < 2 or not path.endswith("/"):
        return scope
    raw_path = scope.get("raw_path")
    if raw_path is not None and raw_path.endswith(b"/"):
        raw_path = raw_path[:-1]
    return {**scope, "path": path[:-1], "raw_path": raw_path}


class _AsgiEndpoint:
    """Adapts ``async (Request) -> RawResponse`` to an ASGI app."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        response = await self.handler(Request(scope, receive))
        await response(scope, receive, send)


class _Context:
    """What the checks found out about one request."""

    __slots__ = ("content_type", "gzip", "headers")

    def __init__(self, content_type: str, gzip: bool) -> None:
        self.content_type = content_type
        self.gzip = gzip
        self.headers: list[tuple[bytes, bytes]] = []

    def answer(self, status: int, body: bytes) -> RawResponse:
        return respond(
            status,
            body,
            content_type=self.content_type,
            gzip=self.gzip,
            extra_headers=self.headers,
        )

    def error(self, status: int, detail: str, *, parameter: str | None = None) -> RawResponse:
        return self.answer(status, error_body(status, detail, parameter=parameter))


def _preflight() -> RawResponse:
    return RawResponse(200, list(PREFLIGHT_HEADERS), b"")


def _endpoint(
    service: Service,
    handler: Callable[[Service, Request, _Context], Awaitable[RawResponse]],
    *,
    authenticated: bool = True,
) -> Handler:
    async def endpoint(request: Request) -> RawResponse:
        method = request.method
        gzip = accepts_gzip(request.headers.get("accept-encoding"))
        if method == "OPTIONS":
            return _preflight()
        if method not in ("GET", "HEAD"):
            context = _Context(JSON, gzip)
            context.headers.append((b"allow", MATCH_METHODS.encode()))
            return context.error(405, f"{method} is not allowed here; use GET")
        content_type = negotiate(request.headers.get("accept"))
        if content_type is None:
            return _Context(JSON, gzip).error(
                406,
                "the Accept header asks for no format this service writes; "
                "send Accept: application/vnd.api+json or application/json",
            )
        context = _Context(content_type, gzip)
        if authenticated:
            key = service.api_keys.authenticate(request.headers.get("authorization"))
            if key is None:
                context.headers.append((b"www-authenticate", b"Bearer"))
                return context.error(
                    401,
                    "a valid API key is required: send the header Authorization: Bearer <key>",
                )
            if service.rate_limiter is not None:
                decision = service.rate_limiter.take(key)
                context.headers.extend(decision.headers())
                if not decision.allowed:
                    return context.error(
                        429,
                        f"rate limit of {decision.limit} requests exceeded for this key; "
                        f"retry after {decision.retry_after_seconds} s",
                    )
        shard = request.path_params.get("shard")
        if shard is not None and shard not in SHARDS:
            return _shard_error(context, shard)
        try:
            return await handler(service, request, context)
        except InvalidArgumentError as error:
            return context.error(400, str(error), parameter=error.parameter)
        except Exception:
            log.exception("internal error answering %s %s", method, request.scope["path"])
            return context.error(500, "internal error of the service; the log has the details")

    return endpoint


async def _not_found(request: Request) -> RawResponse:
    if request.method == "OPTIONS":
        return _preflight()
    gzip = accepts_gzip(request.headers.get("accept-encoding"))
    return _Context(JSON, gzip).error(
        404,
        f"no such endpoint: {request.scope['path']}; the service answers /status, "
        "/shards/{shard}/matches, /shards/{shard}/matches/{id}, /shards/{shard}/players "
        "and /shards/{shard}/players/{id}",
    )


def _base_url(request: Request) -> str:
    """The base of the links: the ``Host`` the client used, if it is a host name or address
    (with a port); else the address the request arrived at, so no sent text lands in a link."""
    scope = request.scope
    host = request.headers.get("host", "")
    if not _HOST.fullmatch(host):
        server = scope.get("server") or ("127.0.0.1", 80)
        address = f"[{server[0]}]" if ":" in str(server[0]) else str(server[0])
        host = address if server[1] is None else f"{address}:{server[1]}"
    return f"{scope.get('scheme', 'http')}://{host}{scope.get('root_path', '')}".rstrip("/")


def _refuse_query(request: Request, what: str) -> None:
    """Raise unless the request has no query parameters (``what`` takes none)."""
    params = query_items(request.scope["query_string"])
    if params:
        raise InvalidArgumentError(
            f"{what} takes no query parameters; remove {params[0][0]!r}",
            parameter=params[0][0],
        )


def _shard_error(context: _Context, shard: str) -> RawResponse:
    return context.error(
        404, f"unknown shard {shard!r}; this service serves the shards {', '.join(SHARDS)}"
    )


async def _status(service: Service, request: Request, context: _Context) -> RawResponse:
    _refuse_query(request, "/status")
    body = status_body(name=SERVICE_NAME, version=service.version, released_at=service.released_at)
    return context.answer(200, body)


async def _list_matches(service: Service, request: Request, context: _Context) -> RawResponse:
    shard = request.path_params["shard"]
    params = query_items(request.scope["query_string"])
    query = list_query(shard, params)
    window = query.window(now=service.now())
    matches = service.store.list_matches(query, window)
    base_url = _base_url(request)
    links = page_links(
        base_url + request.scope["path"], params, limit=query.limit, offset=query.offset
    )
    return context.answer(200, list_body(matches, links=links, base_url=base_url))


async def _get_match(service: Service, request: Request, context: _Context) -> RawResponse:
    shard = request.path_params["shard"]
    _refuse_query(request, "a single match")
    match_id = request.path_params["match_id"]
    now = service.now()
    match = service.store.get_match(shard, match_id, window=TimeWindow(now - RETENTION, now))
    if match is None:
        return context.error(
            404,
            f"no match {match_id!r} on shard {shard} (matches are kept {RETENTION.days} days)",
        )
    base_url = _base_url(request)
    body = single_body(
        match,
        as_list=shard == "global",
        self_link=f"{base_url}{request.scope['path']}",
        base_url=base_url,
    )
    return context.answer(200, body)


async def _list_players(service: Service, request: Request, context: _Context) -> RawResponse:
    shard = request.path_params["shard"]
    key, values = players_filter(query_items(request.scope["query_string"]))
    kind = PLAYER_FILTERS[key]
    found = service.store.players(shard, before=service.now(), **{kind: values})
    base_url = _base_url(request)
    query = urlencode({key: ",".join(values)}, safe="[],")
    self_link = f"{base_url}{request.scope['path']}?{query}"
    body = players_body(
        found, values, kind=kind, shard=shard, base_url=base_url, self_link=self_link
    )
    return context.answer(200, body)


async def _get_player(service: Service, request: Request, context: _Context) -> RawResponse:
    shard = request.path_params["shard"]
    _refuse_query(request, "a single player")
    player_id = request.path_params["player_id"]
    found = service.store.players(shard, before=service.now(), ids=[player_id])
    if player_id not in found:
        return context.error(404, f"no player {player_id!r} on shard {shard}")
    base_url = _base_url(request)
    body = player_body(
        found[player_id],
        shard=shard,
        base_url=base_url,
        self_link=f"{base_url}{request.scope['path']}",
    )
    return context.answer(200, body)

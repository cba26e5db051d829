"""The ASGI application of the reference service (Starlette): :func:`create_app` wires the routes,
the checks every request passes (:mod:`matchkit.service.endpoint`), what each endpoint answers
(:mod:`matchkit.service.handlers`) and the layers around them (fault injection, the request
log).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypedDict

from starlette.applications import Starlette
from starlette.routing import Route

from matchkit.service import handlers
from matchkit.service.auth import ApiKeys, generate_api_key
from matchkit.service.catalogue import CATALOGUE_PATH, catalogue_endpoint
from matchkit.service.clock import DateMiddleware
from matchkit.service.endpoint import AsgiEndpoint, endpoint, not_found
from matchkit.service.faultlayer import FaultMiddleware
from matchkit.service.faults import FaultInjector, Faults
from matchkit.service.ingestion import IngestionDelay
from matchkit.service.ratelimit import DEFAULT_RATE_LIMIT, RateLimit, RateLimiter
from matchkit.service.requestlog import RequestLog, RequestLogMiddleware
from matchkit.service.state import SERVICE_NAME, Service, resolve_now
from matchkit.service.store import MatchStore
from matchkit.service.telemetry import TELEMETRY_ROUTE, TelemetryEndpoint, TelemetryFiles

__all__ = ["SERVICE_NAME", "DataOptions", "Service", "create_app"]


class DataOptions(TypedDict, total=False):
    """What the service serves and how (the options of :func:`create_app` that
    :func:`matchkit.service.server.serve` passes on as they are)."""

    data: str | Path | None
    now: str | datetime | None
    rate_limit: str | RateLimit | None
    faults: str | Faults | None
    store_dir: str | Path | None
    ingestion_delay: str | float | timedelta | IngestionDelay | None


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
    ingestion_delay: str | float | timedelta | IngestionDelay | None = None,
) -> Starlette:
    """The service as an ASGI app.

    Args:
        data: a data set folder or a folder of JSON:API documents (default: the sample set).
        api_keys: the keys accepted (default: one generated key, see
            ``app.state.service.api_keys.first``).
        now: an ISO time or datetime taken as now, ``"wall"`` for the clock (default: the data
            set's as_of, so the sample is always fresh). Every answer carries it in its
            ``Date`` header (:mod:`matchkit.service.clock`): clients take their now from it.
        rate_limit: ``"off"`` or ``"N/minute"`` per key (default ``"10/minute"``, decision 14).
        faults: fault injection into the match endpoints: a spec string such as
            ``"500=0.05,drop=0.02,slow=0.01,seed=7"`` or a :class:`matchkit.service.faults.Faults`
            (see :mod:`matchkit.service.faults`); ``None`` or ``"off"`` for none. The injector
            (its counts of injected faults) is ``app.state.fault_injector``.
        store_dir: where the SQLite store is built (default: the user cache folder).
        clock: monotonic seconds for the rate limiter (injected by tests).
        request_log: records each request (method, path, status) when given.
        ingestion_delay: how long after its end a match is listed (decision 20,
            :mod:`matchkit.service.ingestion`): ``None`` or ``"default"`` (minutes, with a
            long tail of hours), ``"off"`` (listed from ``createdAt``), ``0`` (once ended), a
            fixed delay (``"90s"``, ``"10m"``, ``"2h"``, seconds) or an ``IngestionDelay``.

    Raises:
        InvalidArgumentError: an option is not valid.
        MatchkitError: the data folder cannot be read.
    """
    limit = RateLimit.parse(rate_limit)
    fault_spec = Faults.parse(faults)
    ingestion = IngestionDelay.parse(ingestion_delay)
    keys = ApiKeys(api_keys if api_keys is not None else [generate_api_key()])
    store = MatchStore.open(data, store_dir=Path(store_dir) if store_dir else None)
    service = Service(
        store=store,
        api_keys=keys,
        now=resolve_now(now, store),
        rate_limiter=None if limit is None else RateLimiter(limit, clock=clock),
        ingestion=ingestion,
    )
    routes = [
        Route("/status", AsgiEndpoint(endpoint(service, handlers.status, authenticated=False))),
        Route(CATALOGUE_PATH, catalogue_endpoint(data)),
        Route("/shards/{shard}/matches", AsgiEndpoint(endpoint(service, handlers.list_matches))),
        Route(
            "/shards/{shard}/matches/{match_id}",
            AsgiEndpoint(endpoint(service, handlers.get_match)),
        ),
        Route("/shards/{shard}/players", AsgiEndpoint(endpoint(service, handlers.list_players))),
        Route(
            "/shards/{shard}/players/{player_id}",
            AsgiEndpoint(endpoint(service, handlers.get_player)),
        ),
        Route(TELEMETRY_ROUTE, TelemetryEndpoint(TelemetryFiles(store))),  # no key, no rate limit
        Route("/{path:path}", AsgiEndpoint(not_found)),
    ]
    app = _ServiceApp(routes=routes)
    # Paths no route pattern matches (one holding a newline, say) get the JSON:API 404 too.
    app.router.default = AsgiEndpoint(not_found)
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
            inner,
            injector=injector,
            rate_limit=refusal_limit,
            request_log=request_log,
            now=service.now,
        )
    app.add_middleware(DateMiddleware, now=service.now)  # every answer says the service's time
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

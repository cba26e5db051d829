"""The PUBG double's API (Starlette): the state it serves from and the checks of each request.

It follows the PUBG profile (:data:`matchkit.rules.profiles.PUBG`, decision 21) field by field:
the profile's shards, its endpoints, its player batch, its samples rule, its retention, the
endpoints its rate limit applies to and those that need no key. Checks run in this order:
method (405), ``Accept`` (415), API key (401, except on the keyless endpoints), rate limit
(429, only on the limited endpoints, with ``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset``
in UNIX seconds), shard (404), then the endpoint's own (400 for parameters, 404 for what is not
there). Every answer carries a ``Date`` header from the service's clock. The telemetry files are
on another host (:mod:`matchkit.service.pubg.cdn`); the asset URLs name it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from importlib import metadata
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route

from matchkit.errors import InvalidArgumentError
from matchkit.rules.profiles import PUBG, Profile
from matchkit.rules.ratelimit import RateLimit
from matchkit.rules.windows import parse_time
from matchkit.sampledata.pubg import PubgSampleSet
from matchkit.service.auth import ApiKeys, generate_api_key
from matchkit.service.pubg.bodies import date_header, error_body
from matchkit.service.ratelimit import RateLimiter
from matchkit.service.requestlog import RequestLog, RequestLogMiddleware
from matchkit.service.responses import (
    JSON,
    PREFLIGHT_HEADERS,
    VND_API_JSON,
    RawResponse,
    accepts_gzip,
    negotiate,
    respond,
)

__all__ = ["Context", "PubgService", "create_app"]

log = logging.getLogger(__name__)

DEFAULT_TELEMETRY_URL = "http://127.0.0.1:8001"
"""Where asset URLs point when no CDN address is given (``serve`` and ``running`` give the
address of the CDN listener they start)."""

Handler = Callable[["PubgService", Request, "Context"], Awaitable[RawResponse]]


class PubgService:
    """What one PUBG app serves from.

    Attributes:
        profile: the profile it follows.
        sample_set: the drawn sample set.
        api_keys: the keys it accepts.
        fixed_now: the moment taken as now, or ``None`` for the wall clock.
        rate_limiter: the limiter of the limited endpoints, or ``None`` (off).
        telemetry_url: the CDN's base URL, which asset URLs name.
    """

    def __init__(
        self,
        *,
        profile: Profile,
        sample_set: PubgSampleSet,
        api_keys: ApiKeys,
        now: datetime | None,
        rate_limiter: RateLimiter | None,
        telemetry_url: str,
    ) -> None:
        self.profile = profile
        self.sample_set = sample_set
        self.api_keys = api_keys
        self.fixed_now = now
        self.rate_limiter = rate_limiter
        self.telemetry_url = telemetry_url
        self.released_at = sample_set.as_of
        try:
            self.version = metadata.version("matchkit")
        except metadata.PackageNotFoundError:
            self.version = "0+unknown"

    def now(self) -> datetime:
        """The service's clock: the fixed now, else the wall clock."""
        return self.fixed_now if self.fixed_now is not None else datetime.now(UTC)


class Context:
    """One request's answer in the making: its content type, gzip, and headers so far."""

    __slots__ = ("content_type", "gzip", "headers")

    def __init__(self, content_type: str, gzip: bool, now: datetime) -> None:
        self.content_type = content_type
        self.gzip = gzip
        self.headers: list[tuple[bytes, bytes]] = [date_header(now)]

    def answer(self, status: int, body: bytes) -> RawResponse:
        return respond(
            status, body, content_type=self.content_type, gzip=self.gzip, extra_headers=self.headers
        )

    def error(self, status: int, description: str) -> RawResponse:
        return self.answer(status, error_body(status, description))


def create_app(
    *,
    api_keys: list[str] | tuple[str, ...] | None = None,
    now: str | datetime | None = None,
    rate_limit: str | RateLimit | None = None,
    telemetry_url: str = DEFAULT_TELEMETRY_URL,
    seed: int | None = None,
    clock: Callable[[], float] | None = None,
    request_log: RequestLog | None = None,
    sample_set: PubgSampleSet | None = None,
) -> Starlette:
    """The PUBG double as an ASGI app (``app.state.service`` holds its :class:`PubgService`).

    Args:
        api_keys: the keys accepted (default: one generated key).
        now: an ISO time or datetime taken as now, ``"wall"`` for the clock (default: the
            sample set's end, so that it is always fresh).
        rate_limit: ``"off"``, ``"N/minute"``, or ``None`` for the profile's default (10 a
            minute), per key, on the limited endpoints only.
        telemetry_url: the CDN's base URL, which the matches' asset URLs name.
        seed: the sample set's seed (default: the documented set's).
        clock: monotonic seconds for the rate limiter (injected by tests).
        request_log: records each request (method, path, status) when given.
        sample_set: a set already drawn (shared with the CDN app).

    Raises:
        InvalidArgumentError: an option is not valid.
    """
    profile = PUBG
    limit = RateLimit.parse(profile.default_rate_limit if rate_limit is None else rate_limit)
    keys = ApiKeys(api_keys if api_keys is not None else [generate_api_key()])
    if sample_set is None:
        sample_set = (
            PubgSampleSet.build(retention=profile.retention)
            if seed is None
            else PubgSampleSet.build(seed=seed, retention=profile.retention)
        )
    service = PubgService(
        profile=profile,
        sample_set=sample_set,
        api_keys=keys,
        now=_resolve_now(now, sample_set),
        rate_limiter=None if limit is None else RateLimiter(limit, clock=clock),
        telemetry_url=telemetry_url.rstrip("/"),
    )
    from matchkit.service.pubg.handlers import HANDLERS, not_found

    routes = [
        Route(path, _Endpoint(service, name, HANDLERS[name]))
        for name, path in profile.endpoints.items()
        if name in HANDLERS
    ]
    routes.append(Route("/{path:path}", _Endpoint(service, "", not_found)))
    app = Starlette(routes=routes)
    app.router.default = _Endpoint(service, "", not_found)
    app.state.service = service
    if request_log is not None:
        app.add_middleware(RequestLogMiddleware, log=request_log)
    return app


def _resolve_now(now: str | datetime | None, sample_set: PubgSampleSet) -> datetime | None:
    if isinstance(now, str) and now.strip().lower() == "wall":
        return None
    if now is not None:
        return parse_time(now, parameter="now")
    return sample_set.as_of


class _Endpoint:
    """An ASGI app for one endpoint: the checks, then its handler."""

    def __init__(self, service: PubgService, name: str, handler: Handler) -> None:
        self.service = service
        self.name = name
        self.handler = handler

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        response = await self.answer(Request(scope, receive))
        await response(scope, receive, send)

    async def answer(self, request: Request) -> RawResponse:
        service, profile = self.service, self.service.profile
        now = service.now()
        gzip = accepts_gzip(request.headers.get("accept-encoding"))
        if request.method == "OPTIONS":
            return RawResponse(200, [date_header(now), *PREFLIGHT_HEADERS], b"")
        if request.method not in ("GET", "HEAD"):
            context = Context(VND_API_JSON, gzip, now)
            context.headers.append((b"allow", b"GET, HEAD, OPTIONS"))
            return context.error(405, f"{request.method} is not allowed here; use GET")
        content_type = negotiate(request.headers.get("accept"))
        if content_type is None:
            return Context(VND_API_JSON, gzip, now).error(
                415,
                "the Accept header asks for no format this service writes; send "
                "Accept: application/vnd.api+json",
            )
        context = Context(VND_API_JSON if content_type == JSON else content_type, gzip, now)
        if self.name and self.name not in profile.keyless:
            key = service.api_keys.authenticate(request.headers.get("authorization"))
            if key is None:
                return context.error(
                    401, "API key invalid or missing: send Authorization: Bearer <your key>"
                )
            if self.name in profile.rate_limited:
                refused = _rate_limit(service, key, now, context)
                if refused is not None:
                    return refused
        shard = request.path_params.get("shard")
        if shard is not None and shard not in profile.shards:
            return context.error(
                404, f"unknown shard {shard!r}; the shards are {', '.join(profile.shards)}"
            )
        try:
            return await self.handler(service, request, context)
        except InvalidArgumentError as error:
            return context.error(400, str(error))
        except Exception:
            log.exception("internal error answering %s", request.scope["path"])
            return context.error(500, "internal error of the service; the log has the details")


def _rate_limit(
    service: PubgService, key: str, now: datetime, context: Context
) -> RawResponse | None:
    """Spend one request of ``key``'s allowance; the 429 when none is left, else ``None``.

    The ``X-RateLimit-*`` headers go on every answer of a limited endpoint, the reset in UNIX
    seconds on the service's clock (a client takes it from the ``Date`` header: chicken-dinner
    does). With limiting off they still go, always full (the profile's default allowance, reset
    now): PUBG always sends them, and its clients read them on every answer.
    """
    limiter = service.rate_limiter
    if limiter is None:
        full = RateLimit.parse(service.profile.default_rate_limit)
        capacity = 1 if full is None else full.capacity
        context.headers += _limit_headers(capacity, capacity, now)
        return None
    decision = limiter.take(key)
    reset = now + timedelta(seconds=math.ceil(decision.reset_nanoseconds / 1e9))
    context.headers += _limit_headers(decision.limit, decision.remaining, reset)
    if decision.allowed:
        return None
    return context.error(
        429,
        f"rate limit of {decision.limit} requests a minute exceeded for this key; wait until "
        f"X-RateLimit-Reset ({int(reset.timestamp())})",
    )


def _limit_headers(limit: int, remaining: int, reset: datetime) -> list[tuple[bytes, bytes]]:
    return [
        (b"x-ratelimit-limit", str(limit).encode()),
        (b"x-ratelimit-remaining", str(remaining).encode()),
        (b"x-ratelimit-reset", str(int(reset.timestamp())).encode()),
    ]

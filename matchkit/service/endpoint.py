"""One request's way through the service's checks, in order: method (405), ``Accept`` (406),
API key (401), rate limit (429), shard (404); then the endpoint's handler
(:mod:`matchkit.service.handlers`), whose bad parameters are a 400 and whose failures a 500.

Every response carries the CORS headers; every match response the ``X-RateLimit-*`` headers when
rate limiting is on. Endpoints are ASGI apps (:class:`AsgiEndpoint`) rather than functions so
that Starlette passes every method to them: they answer OPTIONS, 405 and HEAD themselves, with
JSON:API bodies.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request

from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import SHARDS
from matchkit.service.documents import error_body
from matchkit.service.params import query_items
from matchkit.service.responses import (
    JSON,
    PREFLIGHT_HEADERS,
    RawResponse,
    accepts_gzip,
    negotiate,
    respond,
)
from matchkit.service.state import Service

__all__ = [
    "MATCH_METHODS",
    "AsgiEndpoint",
    "Context",
    "Handler",
    "base_url_of",
    "endpoint",
    "not_found",
    "refuse_query",
]

log = logging.getLogger(__name__)

MATCH_METHODS = "GET, HEAD, OPTIONS"
_HOST = re.compile(r"(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
Handler = Callable[[Request], Awaitable[RawResponse]]


class AsgiEndpoint:
    """Adapts ``async (Request) -> RawResponse`` to an ASGI app."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        response = await self.handler(Request(scope, receive))
        await response(scope, receive, send)


class Context:
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


def endpoint(
    service: Service,
    handler: Callable[[Service, Request, Context], Awaitable[RawResponse]],
    *,
    authenticated: bool = True,
) -> Handler:
    async def checked(request: Request) -> RawResponse:
        method = request.method
        gzip = accepts_gzip(request.headers.get("accept-encoding"))
        if method == "OPTIONS":
            return _preflight()
        if method not in ("GET", "HEAD"):
            context = Context(JSON, gzip)
            context.headers.append((b"allow", MATCH_METHODS.encode()))
            return context.error(405, f"{method} is not allowed here; use GET")
        content_type = negotiate(request.headers.get("accept"))
        if content_type is None:
            return Context(JSON, gzip).error(
                406,
                "the Accept header asks for no format this service writes; "
                "send Accept: application/vnd.api+json or application/json",
            )
        context = Context(content_type, gzip)
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

    return checked


async def not_found(request: Request) -> RawResponse:
    if request.method == "OPTIONS":
        return _preflight()
    gzip = accepts_gzip(request.headers.get("accept-encoding"))
    return Context(JSON, gzip).error(
        404,
        f"no such endpoint: {request.scope['path']}; the service answers /status, "
        "/shards/{shard}/matches, /shards/{shard}/matches/{id}, /shards/{shard}/players "
        "and /shards/{shard}/players/{id}",
    )


def base_url_of(request: Request) -> str:
    """The base of the links: the ``Host`` the client used, if it is a host name or address
    (with a port); else the address the request arrived at, so no sent text lands in a link."""
    scope = request.scope
    host = request.headers.get("host", "")
    if not _HOST.fullmatch(host):
        server = scope.get("server") or ("127.0.0.1", 80)
        address = f"[{server[0]}]" if ":" in str(server[0]) else str(server[0])
        host = address if server[1] is None else f"{address}:{server[1]}"
    return f"{scope.get('scheme', 'http')}://{host}{scope.get('root_path', '')}".rstrip("/")


def refuse_query(request: Request, what: str) -> None:
    """Raise unless the request has no query parameters (``what`` takes none)."""
    params = query_items(request.scope["query_string"])
    if params:
        raise InvalidArgumentError(
            f"{what} takes no query parameters; remove {params[0][0]!r}",
            parameter=params[0][0],
        )


def _shard_error(context: Context, shard: str) -> RawResponse:
    return context.error(
        404, f"unknown shard {shard!r}; this service serves the shards {', '.join(SHARDS)}"
    )

"""The fault layer: an ASGI middleware that serves the faults a :class:`FaultInjector` draws.

What each fault kind of :mod:`matchkit.service.faults` does on the wire: an error status with a
JSON:API document or a gateway's HTML page, a 429 with ``Retry-After`` and the
``X-RateLimit-*`` headers, a connection closed without a response, a response held back, a
body cut short under its full ``Content-Length``. Only match endpoints (``/shards/...``) are
faulted; ``/status`` and unknown paths never are.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any

from matchkit.service.clock import http_date
from matchkit.service.documents import error_body
from matchkit.service.faults import NO_RESPONSE_STATUS, FaultInjector
from matchkit.service.requestlog import LoggedRequest, RequestLog
from matchkit.service.responses import CORS_HEADERS, JSON

__all__ = ["FaultMiddleware"]

_FAULTED_PREFIX = "/shards/"

_GATEWAY_PAGE = (
    "<html>\r\n<head><title>{status} {phrase}</title></head>\r\n<body>\r\n"
    "<center><h1>{status} {phrase}</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
_PHRASES = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Time-out",
}


class FaultMiddleware:
    """ASGI middleware injecting the faults of a :class:`FaultInjector` into match requests.

    It must wrap the app directly under the server: dropping a connection needs the server's
    transport, reached through the server's ``send`` (uvicorn's). Under a server that does not
    expose it, ``drop`` and ``truncate`` fall back to raising, which makes the server close the
    connection (after a 500 when nothing was sent yet).
    """

    def __init__(
        self,
        app: Any,
        *,
        injector: FaultInjector,
        rate_limit: float = 10,
        request_log: RequestLog | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.app = app
        self.injector = injector
        self.rate_limit = rate_limit
        self.request_log = request_log
        self.now = now

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(_FAULTED_PREFIX):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "OPTIONS":
            await self.app(scope, receive, send)
            return
        kind = self.injector.draw()
        if kind is None:
            await self.app(scope, receive, send)
        elif kind == "slow":
            await self._slow(scope, receive, send)
        elif kind == "truncate":
            truncating = _TruncatingSend(send)
            await self.app(scope, receive, truncating)
            if truncating.cut:
                await _until_disconnect(receive)
        elif kind == "drop":
            self._record(scope, NO_RESPONSE_STATUS)
            await _close_connection(send, receive)
        else:
            status = int(kind)
            self._record(scope, status)
            await _send_all(send, status, *self._error(status))

    def _error(self, status: int) -> tuple[list[tuple[bytes, bytes]], bytes]:
        headers = list(CORS_HEADERS)
        if self.now is not None:  # a gateway's answer has a date too
            headers.append((b"date", http_date(self.now())))
        if status in (502, 504):
            phrase = _PHRASES[status]
            body = _GATEWAY_PAGE.format(status=status, phrase=phrase).encode()
            return [(b"content-type", b"text/html"), *headers], body
        headers.insert(0, (b"content-type", JSON.encode()))
        if status == 429:
            wait = self.injector.faults.retry_after
            headers.extend(
                [
                    (b"x-ratelimit-limit", str(self.rate_limit).encode()),
                    (b"x-ratelimit-remaining", b"0"),
                    (b"x-ratelimit-reset", str(wait * 1_000_000_000).encode()),
                    (b"retry-after", str(wait).encode()),
                ]
            )
            detail = (
                f"rate limit of {self.rate_limit} requests exceeded for this key; "
                f"retry after {wait} s"
            )
        elif status == 503:
            detail = "the service is briefly unavailable; retry shortly"
        else:
            detail = "internal error of the service; the log has the details"
        return headers, error_body(status, detail)

    async def _slow(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        received: list[dict[str, Any]] = []

        async def until_disconnect() -> None:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                received.append(message)

        try:
            await asyncio.wait_for(until_disconnect(), timeout=self.injector.faults.slow_seconds)
        except TimeoutError:
            pass
        else:
            self._record(scope, NO_RESPONSE_STATUS)  # the client gave up waiting
            return

        async def replay() -> dict[str, Any]:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)

    def _record(self, scope: dict[str, Any], status: int) -> None:
        if self.request_log is not None:
            self.request_log.record(LoggedRequest.of(scope, status))


class _FaultRaisedError(Exception):
    """Raised to make a server without a reachable transport close the connection."""


def _transport(send: Any) -> asyncio.BaseTransport | None:
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    return transport if isinstance(transport, asyncio.BaseTransport) else None


async def _close_connection(send: Any, receive: Any) -> None:
    transport = _transport(send)
    if transport is None:
        raise _FaultRaisedError("injected fault: connection dropped")
    transport.close()
    await _until_disconnect(receive)


async def _until_disconnect(receive: Any) -> None:
    """Wait until the server has seen the connection go, so it does not answer in our place."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _send_all(
    send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes
) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _TruncatingSend:
    """Passes the response start on, then about half of the body, then closes the connection."""

    def __init__(self, send: Any) -> None:
        self.send = send
        self.cut = False

    async def __call__(self, message: dict[str, Any]) -> None:
        if self.cut:
            return
        if message["type"] != "http.response.body":
            await self.send(message)
            return
        body = message.get("body", b"")
        self.cut = True
        half = {"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True}
        await self.send(half)
        transport = _transport(self.send)
        if transport is None:
            raise _FaultRaisedError("injected fault: body truncated")
        transport.close()

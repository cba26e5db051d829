"""Small HTTP pieces of the service: the raw ASGI response, content negotiation, gzip, CORS.

The match endpoints and the benchmark's fixed endpoint answer through :func:`respond`, so they
share one code path for headers and compression.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

__all__ = [
    "CORS_HEADERS",
    "JSON",
    "PREFLIGHT_HEADERS",
    "VND_API_JSON",
    "RawResponse",
    "accepts_gzip",
    "negotiate",
    "respond",
]

JSON = "application/json"
VND_API_JSON = "application/vnd.api+json"
GZIP_LEVEL = 6

CORS_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"access-control-allow-origin", b"*"),
    (b"access-control-expose-headers", b"Content-Length"),
)
PREFLIGHT_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"access-control-allow-headers", b"Origin,X-Title-Id,Authorization"),
    (b"access-control-allow-methods", b"GET,POST,OPTIONS"),
    (b"access-control-allow-origin", b"*"),
    (b"access-control-max-age", b"86400"),
    (b"access-control-expose-headers", b"Content-Length"),
)
_VARY = (b"vary", b"Accept, Accept-Encoding")


class RawResponse:
    """An ASGI response from prepared header pairs and body bytes (no re-encoding).

    For ``HEAD`` the body is left out and ``Content-Length`` still tells its size.
    """

    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        headers = [*self.headers, (b"content-length", str(len(self.body)).encode())]
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        body = b"" if scope.get("method") == "HEAD" else self.body
        await send({"type": "http.response.body", "body": body})


def _media_ranges(header: str) -> list[tuple[str, float]]:
    ranges = []
    for part in header.split(","):
        media, *parameters = (piece.strip() for piece in part.split(";"))
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if media:
            ranges.append((media.lower(), quality))
    return ranges


def negotiate(accept: str | None) -> str | None:
    """The response Content-Type for an ``Accept`` header, or None when nothing fits (406).

    ``application/vnd.api+json`` when asked for; ``application/json`` for it, ``*/*``,
    ``application/*`` or no header (decision 5).
    """
    if accept is None or not accept.strip():
        return JSON
    best: tuple[float, str] | None = None
    for media, quality in _media_ranges(accept):
        if quality <= 0:
            continue
        if media == VND_API_JSON:
            answer = VND_API_JSON
        elif media in (JSON, "*/*", "application/*"):
            answer = JSON
        else:
            continue
        if best is None or quality > best[0]:
            best = (quality, answer)
    return None if best is None else best[1]


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (``gzip`` or ``*`` with q > 0)."""
    if not accept_encoding:
        return False
    ranges = dict(_media_ranges(accept_encoding))
    if "gzip" in ranges:
        return ranges["gzip"] > 0
    return ranges.get("*", 0.0) > 0


def respond(
    status: int,
    body: bytes,
    *,
    content_type: str,
    gzip: bool,
    extra_headers: Sequence[tuple[bytes, bytes]] = (),
) -> RawResponse:
    """A response with the CORS headers, ``Vary``, and the body gzip-compressed when asked."""
    headers = [(b"content-type", content_type.encode()), *CORS_HEADERS, _VARY, *extra_headers]
    if gzip:
        body = zlib.compress(body, GZIP_LEVEL, wbits=31)
        headers.append((b"content-encoding", b"gzip"))
    return RawResponse(status, headers, body)

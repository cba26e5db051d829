"""The service's clock on every answer: the ``Date`` header (decision 20).

Every answer of the service carries its time in ``Date``: its now, pinned (``now=``, by default
the data set's as-of) or the wall clock's (``now="wall"``). A client takes "now", retention and
windows from it (:mod:`matchkit.client.clock`), so that a client whose own clock is off still
asks for what the service has. uvicorn's own ``Date`` (the machine's clock) is turned off
(:func:`matchkit.service.protocol.uvicorn_config`); :class:`DateMiddleware` writes the service's
on every response of the app, and the fault layer on the faults it answers itself.

Example:
    >>> from datetime import datetime, timezone
    >>> http_date(datetime(2026, 10, 31, tzinfo=timezone.utc))
    b'Sat, 31 Oct 2026 00:00:00 GMT'
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from email.utils import format_datetime
from typing import Any

__all__ = ["DateMiddleware", "http_date"]


def http_date(moment: datetime) -> bytes:
    """``moment`` as an HTTP date (RFC 9110: ``Sat, 31 Oct 2026 00:00:00 GMT``)."""
    return format_datetime(moment, usegmt=True).encode("ascii")


class DateMiddleware:
    """ASGI middleware: each response's ``Date`` is the service's now (any other is replaced).

    Args:
        app: the app it wraps.
        now: the service's now.
    """

    def __init__(self, app: Any, *, now: Callable[[], datetime]) -> None:
        self.app = app
        self.now = now

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def dated(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"date"]
                headers.append((b"date", http_date(self.now())))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, dated)

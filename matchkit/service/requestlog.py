"""A thread-safe log of the requests a service received, so tests can count them.

It records method, path, query string and status only: never headers, so never an API key.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["LoggedRequest", "RequestLog", "RequestLogMiddleware"]


@dataclass(frozen=True)
class LoggedRequest:
    """One request: ``method``, ``path``, ``query`` (raw query string) and response ``status``."""

    method: str
    path: str
    query: str
    status: int

    @classmethod
    def of(cls, scope: dict[str, Any], status: int) -> LoggedRequest:
        """The entry of the ASGI HTTP request ``scope`` answered with ``status``."""
        query = scope.get("query_string", b"").decode("latin-1")
        return cls(method=scope["method"], path=scope["path"], query=query, status=status)


class RequestLog:
    """The requests a running service answered, in order.

    Example:
        >>> log = RequestLog()
        >>> len(log)
        0
    """

    def __init__(self) -> None:
        self._entries: list[LoggedRequest] = []
        self._lock = threading.Lock()

    def record(self, entry: LoggedRequest) -> None:
        with self._lock:
            self._entries.append(entry)

    @property
    def entries(self) -> list[LoggedRequest]:
        """A copy of the entries so far."""
        with self._lock:
            return list(self._entries)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __iter__(self) -> Iterator[LoggedRequest]:
        return iter(self.entries)

    def count(self, *, path_prefix: str = "", method: str | None = None) -> int:
        """How many requests had a path starting with ``path_prefix`` (and ``method``)."""
        return sum(
            1
            for entry in self.entries
            if entry.path.startswith(path_prefix) and (method is None or entry.method == method)
        )

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __repr__(self) -> str:
        return f"RequestLog({len(self)} requests)"


class RequestLogMiddleware:
    """Pure ASGI middleware recording each HTTP request's line and status into a RequestLog."""

    def __init__(self, app: Any, *, log: RequestLog) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        recorded = False

        def record(status: int) -> None:
            self.log.record(LoggedRequest.of(scope, status))

        async def recording_send(message: dict[str, Any]) -> None:
            nonlocal recorded
            if message["type"] == "http.response.start" and not recorded:
                # Recorded before the response leaves, so a client that has it sees the entry.
                recorded = True
                record(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            if not recorded:
                record(500)

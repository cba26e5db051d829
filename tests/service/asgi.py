"""Requests through the service's ASGI interface, in-process, and the invariants of every answer.

Used by the service's fuzzing (``tests/service/test_fuzz.py``) and by the regression tests of what
it found (``tests/regressions/``): an ASGI call reaches the application with what an HTTP parser
would not let through (raw bytes in a query, newlines in a path, any Host header).
"""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

import orjson

KEY = "fuzz-key-3b8d0c"
"""The API key the in-process application is created with."""
ALLOWED_STATUSES = {200, 400, 401, 404, 405, 406}
"""Every status the service may answer a request with: never a 500."""


@contextmanager
def event_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop of its own to run the application on, closed afterwards."""
    loop = asyncio.new_event_loop()
    try:
        yield loop
    finally:
        loop.close()


def call(
    loop: asyncio.AbstractEventLoop,
    app: Any,
    *,
    method: str,
    path: str,
    query: bytes,
    headers: list[tuple[str, str]],
) -> tuple[int, dict[str, str], bytes]:
    """One request through the ASGI interface; returns status, headers and body."""
    messages: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": quote(path, safe="/").encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent_body = False

    async def receive() -> dict[str, Any]:
        nonlocal sent_body
        if not sent_body:
            sent_body = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    loop.run_until_complete(app(scope, receive, send))
    start = messages[0]
    assert start["type"] == "http.response.start"
    response_headers = {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in start["headers"]
    }
    body = b"".join(message.get("body", b"") for message in messages[1:])
    return start["status"], response_headers, body


def check_answer(method: str, status: int, headers: dict[str, str], body: bytes) -> None:
    """The invariants of every answer."""
    assert status in ALLOWED_STATUSES, (status, body[:300])
    assert headers["access-control-allow-origin"] == "*"
    if method == "HEAD":
        return  # no body to read
    assert headers["content-type"] in ("application/json", "application/vnd.api+json")
    if headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    document = orjson.loads(body)
    if status == 200:
        assert "data" in document
        return
    errors = document["errors"]
    assert len(errors) == 1
    assert errors[0]["status"] == str(status)
    assert errors[0]["title"]
    assert errors[0]["detail"]


def list_matches(
    loop: asyncio.AbstractEventLoop,
    app: Any,
    *,
    query: bytes,
    headers: list[tuple[str, str]] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """``GET /shards/global/matches`` with :data:`KEY`, and any other ``headers``."""
    return call(
        loop,
        app,
        method="GET",
        path="/shards/global/matches",
        query=query,
        headers=[("authorization", f"Bearer {KEY}"), *(headers or [])],
    )

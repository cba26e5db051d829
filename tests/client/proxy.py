"""A small proxy on loopback in front of the reference service, to replay real services' quirks.

pytest-httpserver listens; every request is forwarded over real HTTP to a running reference
service (``matchkit.service.running``), and a ``quirk`` may answer instead or rewrite the
request first. The client under test talks to the proxy's address.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.service import running
from tests.client.conftest import FakeClock

LIST = "/shards/global/matches"
WINDOW = ("2026-10-20T00:00:00Z", "2026-10-22T00:00:00Z")  # two days: about 70 matches

Quirk = Callable[[Request, "Proxy"], Response | None]
"""Answers a request itself (a Response), or lets it through (None)."""


@dataclass
class Proxy:
    """The proxy's state: where it forwards, and what it saw.

    Attributes:
        service: the running reference service behind it.
        url: the proxy's own base URL (what a client is given).
        seen: the path and query of every request that reached the proxy.
        params: per request, replacement query parameters to forward instead (set by a quirk).
    """

    service: Any
    url: str
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)

    def forward(self, request: Request, *, drop: tuple[str, ...] = (), **replace: str) -> Response:
        """Send ``request`` on to the reference service (with ``replace``d query parameters,
        and without those it should ``drop``)."""
        params = {**request.args.to_dict(), **replace}
        for name in drop:
            params.pop(name, None)
        headers = {
            name: value
            for name, value in request.headers.items()
            if name in ("Authorization", "Accept")
        }
        # The path as sent (still percent-encoded), not werkzeug's decoded one.
        raw_path = request.environ.get("RAW_URI", request.path).split("?", 1)[0]
        upstream = requests.get(
            self.service.base_url + raw_path, params=params, headers=headers, timeout=30
        )
        kept = {
            name: value
            for name, value in upstream.headers.items()
            if name.lower() in ("content-type", "retry-after") or name.lower().startswith("x-")
        }
        return Response(upstream.content, status=upstream.status_code, headers=kept)

    def lists(self) -> list[dict[str, str]]:
        """The query parameters of every list request that reached the proxy."""
        return [params for path, params in self.seen if path == LIST]


def reference_service() -> Iterator[Any]:
    """A reference service on the sample data set: ``yield from`` it in a module's fixture."""
    with running() as service:
        yield service


def proxied_service(httpserver: HTTPServer, service: Any, quirk: Quirk | None = None) -> Proxy:
    """A proxy in front of ``service`` that applies ``quirk`` (for the test's duration)."""
    proxy = Proxy(service=service, url=httpserver.url_for("/").rstrip("/"))

    def handle(request: Request) -> Response:
        proxy.seen.append((request.path, request.args.to_dict()))
        answer = quirk(request, proxy) if quirk is not None else None
        return answer if answer is not None else proxy.forward(request)

    httpserver.expect_request(re.compile(".*")).respond_with_handler(handle)
    return proxy


@contextmanager
def clients(proxy: Proxy, cache_dir: Path, clock: FakeClock | None = None) -> Iterator[Any]:
    """``connect(base_url=None, **options)``: clients of the proxy (or ``base_url``) whose
    retries sleep on ``clock``, closed at the end."""
    made: list[Client] = []
    clock = clock or FakeClock()

    def connect(base_url: str | None = None, **options: Any) -> Client:
        options.setdefault("api_key", proxy.service.api_key)
        options.setdefault("cache_dir", cache_dir)
        options.setdefault("now", proxy.service.now)
        options.setdefault("progress", False)
        options.setdefault("rate_limit", "off")
        client = Client(base_url or proxy.url, **options)
        client.retry_policy = RetryPolicy(sleep=clock.sleep, random=lambda: 0.5)
        made.append(client)
        return client

    try:
        yield connect
    finally:
        for client in made:
            client.close()


def match_ids(frames: Any) -> list[str]:
    """The match ids of a MatchFrames, in its order."""
    return list(frames.matches["match_id"])

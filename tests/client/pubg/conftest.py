"""Fixtures of the PUBG client tests: one PUBG double per module, clients of it, and a CDN
proxy that records what reaches the telemetry host."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
import requests
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client.client import Client
from matchkit.model.frames import MatchFrames
from matchkit.service import RunningService, running

NOW = "2026-11-20T00:00:00Z"
"""The double's now (the sample set's as-of), pinned in the clients: this machine's clock is
not the service's."""


@pytest.fixture(scope="module")
def pubg_service() -> Iterator[RunningService]:
    """The PUBG double (its now the sample set's as-of, rate limit off)."""
    with running(profile="pubg") as service:
        yield service


@pytest.fixture
def pubg_client(pubg_service: RunningService, tmp_path: Path) -> Callable[..., Client]:
    """Clients of the module's PUBG double over loopback, on a fresh cache (closed after)."""
    opened: list[Client] = []

    def connect(**options: Any) -> Client:
        options = {
            "api_key": pubg_service.api_key,
            "profile": "pubg",
            "cache_dir": tmp_path / "cache",
            "progress": False,
            "now": NOW,
            **options,
        }
        client = Client(pubg_service.base_url, **options)
        opened.append(client)
        return client

    yield connect
    for client in opened:
        client.close()


def paths(service: RunningService) -> list[str]:
    """The paths of the requests the double received, in order."""
    return [entry.path for entry in service.requests.entries]


@dataclass
class CdnProxy:
    """A telemetry host in front of the double's: records each request's headers, forwards it,
    or answers with ``body`` when set."""

    upstream: str
    url: str
    headers: list[dict[str, str]] = field(default_factory=list)
    body: bytes | None = None

    def handle(self, request: Request) -> Response:
        self.headers.append(dict(request.headers.items()))
        if self.body is not None:
            return Response(self.body, status=200, content_type="application/json")
        answer = requests.get(self.upstream + request.path, timeout=30)
        return Response(answer.content, status=answer.status_code, content_type="application/json")


@pytest.fixture
def cdn_proxy(httpserver: HTTPServer, pubg_service: RunningService) -> CdnProxy:
    assert pubg_service.telemetry_url is not None
    proxy = CdnProxy(pubg_service.telemetry_url, httpserver.url_for("").rstrip("/"))
    httpserver.expect_request(re.compile(".*")).respond_with_handler(proxy.handle)
    return proxy


def through(frames: MatchFrames, proxy: CdnProxy) -> MatchFrames:
    """``frames`` with their telemetry asset URLs on the proxy's host."""
    assets = frames.assets
    urls = assets["url"].astype("string").str.replace(r"^http://[^/]+", proxy.url, regex=True)
    return replace(frames, assets=assets.assign(url=urls.astype(assets["url"].dtype)))

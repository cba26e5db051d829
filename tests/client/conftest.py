"""Fixtures of the client tests: an injected clock, and clients bound to a test HTTP server."""

from __future__ import annotations

import functools
import socket
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.model.frames import MatchFrames
from matchkit.model.schema import TABLES
from matchkit.rules.windows import parse_time
from matchkit.sampledata.dataset import open_dataset
from matchkit.sampledata.telemetry import ASSET_URL_PREFIX
from matchkit.service import RunningService, running

NOW = "2026-10-31T00:00:00Z"
API_KEY = "planted-key-7f3a9c1e5b2d4f60"


# The service serves generated telemetry itself: it gives the asset URL on its own address
# (telemetry.md). Compared here as the stored URL; tests/service/test_telemetry_http.py checks it.
_SERVED_TELEMETRY = r"^http://[^/]+/telemetry/global/"


@functools.cache
def _sample_documents(shard: str) -> tuple[tuple[datetime, bytes], ...]:
    """The sample set's single-match documents of ``shard`` as (``createdAt``, its JSON), read
    once per process."""
    created = []
    for line in open_dataset().iter_lines(shard):
        moment = orjson.loads(line)["data"]["attributes"]["createdAt"]
        created.append((parse_time(moment), line))
    return tuple(created)


def sample_documents(
    shard: str, start: datetime | None = None, end: datetime | None = None
) -> list[bytes]:
    """The sample set's documents of ``shard`` created in ``[start, end)``, as JSON, for
    :func:`matchkit.to_frames`: the ground truth of a fetch, normalized from the files.

    Each test normalizes only the documents it compares; parsing the whole shard into dicts
    again for each one cost a second or two, most of it garbage collection of the dicts.
    """
    return [
        line
        for moment, line in _sample_documents(shard)
        if (start is None or moment >= start) and (end is None or moment < end)
    ]


def stored_asset_urls(table: pd.DataFrame, name: str) -> pd.DataFrame:
    """The ``assets`` table with served telemetry URLs written back as the data set stores them."""
    if name != "assets" or "url" not in table:
        return table
    stored = table["url"].str.replace(_SERVED_TELEMETRY, ASSET_URL_PREFIX, regex=True)
    return table.assign(url=stored.astype(table["url"].dtype))


def assert_same_frames(actual: MatchFrames, expected: MatchFrames) -> None:
    """Every table holds the same rows (compared in key order) with the same dtypes."""
    for name, schema in TABLES.items():
        key = list(schema.key)
        left = actual.tables[name].sort_values(key, kind="stable").reset_index(drop=True)
        right = expected.tables[name].sort_values(key, kind="stable").reset_index(drop=True)
        left, right = stored_asset_urls(left, name), stored_asset_urls(right, name)
        pd.testing.assert_frame_equal(left, right, check_like=True, obj=name)
    assert problems_without_counts(actual.problems) == problems_without_counts(expected.problems)


def problems_without_counts(problems: tuple[str, ...]) -> set[str]:
    """The problems, with the count of players (teams) whose copies differ left out: how many
    differing copies arrive depends on how matches were paged (a page carries one copy of a
    player it shares between matches; decision 17)."""
    return {
        problem.split(" ", 1)[1] if "arrived with differing attributes" in problem else problem
        for problem in problems
    }


class FakeClock:
    """A monotonic clock that only moves when something sleeps on it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


# -- handlers of pytest-httpserver that play a faulty service --------------------------------


def in_turn(*steps: Callable[[Request], Response]) -> Callable[[Request], Response]:
    """A handler answering with each step in turn, then with the last one."""
    calls = {"n": 0}

    def handler(request: Request) -> Response:
        step = steps[min(calls["n"], len(steps) - 1)]
        calls["n"] += 1
        return step(request)

    return handler


def status_answer(code: int, body: str = "", **headers: str) -> Callable[[Request], Response]:
    """A handler answering ``code`` with ``body`` (HTML when it starts with ``<``)."""
    content_type = "text/html" if body.startswith("<") else "application/vnd.api+json"
    return lambda request: Response(body, status=code, headers=headers, content_type=content_type)


def drop_connection(request: Request) -> Response:
    """A handler closing the connection without an answer (a connection reset).

    The server records the request only after this returns, so the client may see the reset
    before the request is in ``httpserver.log``: count such requests with :func:`logged`."""
    connection = request.environ["werkzeug.socket"]
    connection.shutdown(socket.SHUT_RDWR)
    connection.close()
    return Response("", status=500)


STATUS = {"data": {"type": "status", "id": "test", "attributes": {"version": "v1"}}}


def logged(httpserver: HTTPServer, expected: int, *, timeout: float = 5.0) -> int:
    """How many requests ``httpserver`` recorded, once it has recorded ``expected`` (or after
    ``timeout`` seconds): a handler that drops the connection is recorded after the client
    has seen the drop."""
    deadline = time.monotonic() + timeout
    while len(httpserver.log) < expected and time.monotonic() < deadline:
        time.sleep(0.005)
    return len(httpserver.log)


def sent(httpserver: HTTPServer) -> int:
    """How many requests other than ``GET /status`` reached ``httpserver``."""
    return sum(request.path != "/status" for request, _response in httpserver.log)


def serve_status(httpserver: HTTPServer) -> None:
    """Let ``httpserver`` answer ``GET /status`` as a match-data service does (decision 11)."""
    httpserver.expect_request("/status").respond_with_json(
        STATUS, content_type="application/vnd.api+json"
    )


@pytest.fixture
def make_client(
    httpserver: HTTPServer, tmp_path: Path, clock: FakeClock
) -> Iterator[Callable[..., Client]]:
    """Build clients for ``httpserver`` (which answers ``/status``) whose retries sleep on the
    fake clock."""
    clients: list[Client] = []
    serve_status(httpserver)

    def build(**options: Any) -> Client:
        options.setdefault("api_key", API_KEY)
        options.setdefault("cache_dir", tmp_path / "cache")
        options.setdefault("rate_limit", "off")
        options.setdefault("now", NOW)
        options.setdefault("progress", False)
        client = Client(httpserver.url_for("/").rstrip("/"), **options)
        client.retry_policy = RetryPolicy(
            sleep=clock.sleep, wall_clock=lambda: 1_800_000_000.0, random=lambda: 0.5
        )
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()


@pytest.fixture(scope="module")
def service() -> Iterator[RunningService]:
    """The sample set served on loopback by the reference service, for one test module."""
    with running() as handle:
        yield handle


def service_client(service: RunningService, cache_dir: Path, **options: Any) -> Client:
    """A client of the reference service ``service`` (its key and ``now``), with no rate limit
    and no progress bar unless ``options`` say otherwise."""
    defaults = {
        "api_key": service.api_key,
        "now": service.now,
        "rate_limit": "off",
        "progress": False,
    }
    return Client(service.base_url, cache_dir=cache_dir, **(defaults | options))

"""Client-side rate limiting: the setting, and a limiter that only requests to the service pay for
(never a cache hit, never the asset host)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from matchkit.client.client import Client
from matchkit.client.throttle import RateLimit, Throttle, parse_rate_limit
from matchkit.errors import InvalidArgumentError
from tests.client.conftest import FakeClock, serve_status


@pytest.mark.parametrize(
    ("value", "remote", "expected"),
    [
        (None, True, RateLimit(10.0)),
        (None, False, None),
        ("off", True, None),
        ("OFF", False, None),
        ("30/minute", True, RateLimit(30.0)),
        ("30/minute", False, RateLimit(30.0)),
        ("1/second", True, RateLimit(1, 1.0)),
        ("120/hour", True, RateLimit(120, 3600.0)),
        ("0.5/second", True, RateLimit(0.5, 1.0)),
        ("2/Minutes", True, RateLimit(2.0)),
        (12, True, RateLimit(12.0)),
        (0.5, True, RateLimit(0.5)),
    ],
)
def test_parse_rate_limit(value: object, remote: bool, expected: RateLimit | None) -> None:
    assert parse_rate_limit(value, remote=remote) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["fast", "10 per minute", "0/minute", 0, -3, True, [10]])
def test_unusable_rate_limits_are_refused(value: object) -> None:
    with pytest.raises(InvalidArgumentError, match="rate_limit") as raised:
        parse_rate_limit(value, remote=True)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)


def test_seconds_per_request() -> None:
    assert RateLimit(10).seconds_per_request == 6.0
    assert str(RateLimit(30)) == "30/minute"
    assert RateLimit(1, 1.0).per_minute == 60.0
    assert RateLimit(120, 3600.0).seconds_per_request == 30.0
    assert str(RateLimit(0.5, 1.0)) == "0.5/second"


def test_client_and_service_share_one_rate_limit() -> None:
    from matchkit.rules import ratelimit
    from matchkit.service import ratelimit as service_ratelimit

    assert service_ratelimit.RateLimit is RateLimit is ratelimit.RateLimit
    assert service_ratelimit.RateLimit.parse("0.5/second") == parse_rate_limit(
        "0.5/second", remote=True
    )


def _limited_client(httpserver: HTTPServer, tmp_path: Path, clock: FakeClock, per_minute: int):
    """A client of ``httpserver`` whose own rate limit waits on the fake clock."""
    serve_status(httpserver)
    httpserver.expect_request("/shards/global/players").respond_with_data(
        json.dumps({"data": []}), content_type="application/vnd.api+json"
    )
    client = Client(
        httpserver.url_for("/").rstrip("/"),
        api_key="k",
        cache_dir=tmp_path,
        rate_limit=per_minute,
        now="2026-10-31",
        progress=False,
    )
    client.transport.path.throttle = Throttle(RateLimit(per_minute), clock=clock, sleep=clock.sleep)
    return client


@pytest.mark.filterwarnings("ignore::matchkit.client.warnings.PlayerNotFoundWarning")
def test_the_limiter_waits_once_the_allowance_is_used(
    httpserver: HTTPServer, tmp_path: Path, clock: FakeClock
) -> None:
    with _limited_client(httpserver, tmp_path, clock, per_minute=2) as client:
        for n in range(3):
            client.players(ids=[f"p{n}"])
    assert len(httpserver.log) == 3
    assert len(clock.sleeps) >= 1
    assert sum(clock.sleeps) == pytest.approx(60.0, abs=0.01)


@pytest.mark.filterwarnings("ignore::matchkit.client.warnings.PlayerNotFoundWarning")
def test_cache_hits_cost_no_token(httpserver: HTTPServer, tmp_path: Path, clock: FakeClock) -> None:
    with _limited_client(httpserver, tmp_path, clock, per_minute=2) as client:
        for _ in range(20):
            client.players(ids=["p0"])
            client.players(ids=["p1"])
    assert len(httpserver.log) == 2
    assert clock.sleeps == []


def test_the_asset_host_is_not_rate_limited(
    httpserver: HTTPServer, tmp_path: Path, clock: FakeClock
) -> None:
    """Telemetry files go through the same path, but the client's limit is the service's only."""
    file = json.dumps([{"type": "x"}])
    httpserver.expect_request("/telemetry/a").respond_with_data(
        file, content_type="application/json"
    )
    with _limited_client(httpserver, tmp_path, clock, per_minute=1) as client:
        for n in range(3):
            url = httpserver.url_for(f"/telemetry/a?n={n}")
            client.transport.download(url, what="a file", parse=lambda fetched: fetched.body)
    assert len(httpserver.log) == 3
    assert clock.sleeps == []

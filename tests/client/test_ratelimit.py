"""Client-side rate limiting: the setting, and a limiter that only cache misses pay for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from matchkit.client.cache import create_session
from matchkit.client.throttle import RateLimit, parse_rate_limit
from matchkit.errors import InvalidArgumentError
from tests.client.conftest import FakeClock


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


def _limited_session(httpserver: HTTPServer, tmp_path: Path, clock: FakeClock, per_minute: int):
    httpserver.expect_request("/page").respond_with_data(
        json.dumps({"data": []}), content_type="application/json"
    )
    return create_session(
        tmp_path,
        rate_limit=RateLimit(per_minute),
        clock=clock,
        sleep=clock.sleep,
    )


def test_the_limiter_waits_once_the_allowance_is_used(
    httpserver: HTTPServer, tmp_path: Path, clock: FakeClock
) -> None:
    session = _limited_session(httpserver, tmp_path, clock, per_minute=2)
    for n in range(3):
        session.get(httpserver.url_for("/page"), params={"n": str(n)}, expire_after=-1)
    assert len(httpserver.log) == 3
    assert len(clock.sleeps) >= 1
    assert sum(clock.sleeps) == pytest.approx(60.0, abs=0.01)
    session.close()


def test_cache_hits_cost_no_token(httpserver: HTTPServer, tmp_path: Path, clock: FakeClock) -> None:
    session = _limited_session(httpserver, tmp_path, clock, per_minute=2)
    url = httpserver.url_for("/page")
    for _ in range(20):
        session.get(url, params={"n": "0"}, expire_after=-1)
        session.get(url, params={"n": "1"}, expire_after=-1)
    assert len(httpserver.log) == 2
    assert clock.sleeps == []
    session.close()

"""Rate limiting (decision 14): the token bucket under an injected clock, and over HTTP."""

from __future__ import annotations

import pytest
import requests

from matchkit.errors import InvalidArgumentError
from matchkit.service import create_app, running
from matchkit.service.ratelimit import RateLimit, RateLimiter
from tests.service.conftest import FakeClock, error_of

LIST = "/shards/global/matches"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("10/minute", RateLimit(10, 60.0)),
        ("3/second", RateLimit(3, 1.0)),
        (" 100 / hour ", RateLimit(100, 3600.0)),
        ("off", None),
        ("OFF", None),
    ],
)
def test_parse_rate_limit(spec, expected):
    assert RateLimit.parse(spec) == expected


@pytest.mark.parametrize("spec", ["0/minute", "ten/minute", "10", "10/day", ""])
def test_bad_rate_limit_is_an_invalid_argument(spec):
    with pytest.raises(InvalidArgumentError, match="rate_limit"):
        RateLimit.parse(spec)


def test_bucket_spends_refills_one_token_every_period_over_n():
    clock = FakeClock()
    limiter = RateLimiter(RateLimit(10, 60.0), clock=clock)
    decisions = [limiter.take("k") for _ in range(11)]
    assert [d.allowed for d in decisions] == [True] * 10 + [False]
    assert [d.remaining for d in decisions[:10]] == list(range(9, -1, -1))
    assert decisions[0].reset_nanoseconds == 6_000_000_000
    assert decisions[9].reset_nanoseconds == 60_000_000_000
    assert decisions[10].retry_after_seconds == 6
    clock.advance(5.9)
    assert not limiter.take("k").allowed
    clock.advance(0.1)
    assert limiter.take("k").allowed
    clock.advance(3600)
    assert limiter.take("k").remaining == 9  # never more than the capacity


def test_buckets_are_per_key():
    limiter = RateLimiter(RateLimit(1, 60.0), clock=FakeClock())
    assert limiter.take("a").allowed
    assert not limiter.take("a").allowed
    assert limiter.take("b").allowed


def test_create_app_limits_10_a_minute_by_default(dataset_dir, store_dir):
    app = create_app(data=dataset_dir, store_dir=store_dir)
    assert app.state.service.rate_limiter.limit == RateLimit(10, 60.0)
    app.state.service.store.close()


def test_running_is_unlimited_by_default(api):
    response = api.get(LIST)
    assert "X-RateLimit-Limit" not in response.headers
    assert all(api.get(LIST, {"page[limit]": 1}).status_code == 200 for _ in range(12))


def test_rate_limit_over_http(dataset_dir, store_dir):
    clock = FakeClock()
    keys = ["first-key", "second-key"]
    with running(
        data=dataset_dir, store_dir=store_dir, rate_limit="3/minute", clock=clock, api_keys=keys
    ) as service:
        url = service.base_url + LIST
        first = {"Authorization": "Bearer first-key"}
        answers = [requests.get(url, headers=first, timeout=30) for _ in range(3)]
        assert [r.status_code for r in answers] == [200, 200, 200]
        assert [r.headers["X-RateLimit-Limit"] for r in answers] == ["3", "3", "3"]
        assert [r.headers["X-RateLimit-Remaining"] for r in answers] == ["2", "1", "0"]
        assert [r.headers["X-RateLimit-Reset"] for r in answers] == [
            "20000000000",
            "40000000000",
            "60000000000",
        ]
        refused = requests.get(url, headers=first, timeout=30)
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "20"
        assert refused.headers["X-RateLimit-Remaining"] == "0"
        assert refused.headers["Access-Control-Allow-Origin"] == "*"
        assert error_of(refused)["title"] == "Too Many Requests"
        other = requests.get(url, headers={"Authorization": "second-key"}, timeout=30)
        assert other.status_code == 200
        assert requests.get(f"{service.base_url}/status", timeout=30).status_code == 200
        clock.advance(20)
        again = requests.get(url, headers=first, timeout=30)
        assert again.status_code == 200
        assert again.headers["X-RateLimit-Remaining"] == "0"
        # Bad requests still spend a token (they cost the service work).
        clock.advance(20)
        assert requests.get(url + "?sort=x", headers=first, timeout=30).status_code == 400
        assert requests.get(url, headers=first, timeout=30).status_code == 429
        assert service.requests.count(path_prefix=LIST) == 8

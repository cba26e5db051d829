"""Issue 11 item 4: ``X-RateLimit-Reset`` in epoch seconds was read as nanoseconds.

A later service of the same platform sent a UNIX time in seconds (e.g. 1529052065): read as
nanoseconds that is a 1.5 s wait instead of the minute asked, then hammering. The header is
now read by plausibility against the clock (decision 14), ``Retry-After`` first, and the wait
is logged at INFO.
"""

from __future__ import annotations

import logging

import pytest
from werkzeug import Request, Response

from matchkit.client import RetryPolicy
from matchkit.client.responses import rate_limit_wait
from tests.client.conftest import FakeClock
from tests.client.proxy import (
    LIST,
    WINDOW,
    Proxy,
    clients,
    match_ids,
    proxied_service,
)

WALL = 1529052005.0  # a minute before the recorded reset


def _refuse_once(request: Request, proxy: Proxy) -> Response | None:
    if request.path == LIST and len(proxy.lists()) == 1:
        return Response(
            '{"errors": [{"status": "429", "title": "Too Many Requests"}]}',
            status=429,
            headers={"X-RateLimit-Reset": "1529052065", "X-RateLimit-Remaining": "0"},
            content_type="application/json",
        )
    return None


def test_an_epoch_reset_waits_the_minute_it_asks(reference, httpserver, tmp_path, caplog) -> None:
    proxy = proxied_service(httpserver, reference, _refuse_once)
    clock = FakeClock()
    with clients(proxy, tmp_path / "cache", clock) as connect:
        client = connect()
        client.retry_policy = RetryPolicy(sleep=clock.sleep, wall_clock=lambda: WALL)
        with caplog.at_level(logging.INFO, logger="matchkit.client.transport"):
            found = client.matches(*WINDOW)
        direct = connect(reference.base_url, cache_dir=tmp_path / "direct").matches(*WINDOW)
    assert clock.sleeps == [60.0]
    assert match_ids(found) == match_ids(direct)
    (line,) = [r.getMessage() for r in caplog.records if "rate limited" in r.getMessage()]
    assert "waiting 60.0 s" in line
    assert "UNIX time in seconds" in line


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"X-RateLimit-Reset": "1529052065"}, 60.0),  # epoch seconds
        ({"X-RateLimit-Reset": "1529052065000"}, 60.0),  # epoch milliseconds
        ({"X-RateLimit-Reset": "1529052065000000000"}, 60.0),  # epoch nanoseconds
        ({"X-RateLimit-Reset": "6000000000"}, 6.0),  # a duration in nanoseconds (reference)
        ({"X-RateLimit-Reset": "30"}, 30.0),  # a duration in seconds
        ({"X-RateLimit-Reset": "1529052065", "Retry-After": "7"}, 7.0),  # Retry-After wins
    ],
)
def test_the_reset_is_read_by_plausibility(headers: dict, seconds: float) -> None:
    assert rate_limit_wait(headers, wall_clock=WALL) == pytest.approx(seconds)

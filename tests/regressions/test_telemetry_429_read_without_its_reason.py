"""The telemetry downloader read a 429 by a second, older rule than the client's transport.

It took the bare seconds of the answer's headers, without the header that said so: the wait was
never logged (the transport logs it at INFO with its reason), a ``Retry-After: 0`` was a
hammering loop of zero-second waits (the transport backs off), and the error of a lasting 429
said only "(429)". Both now run through one attempt loop (:mod:`matchkit.client.retrying`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client import RetryPolicy
from matchkit.client.cache import CacheKeys
from matchkit.client.downloads import TelemetryDownloader
from matchkit.errors import RateLimitError
from matchkit.telemetry.download import TelemetryRequest
from tests.client.conftest import FakeClock
from tests.conftest import shared_path

MATCH_ID = "4810AA4CC2C34FDCBA34C7E8915EAFD4"
PATH = f"/cdn/{MATCH_ID}-telemetry.json"
WALL = 1529052005.0  # a minute before the reset
REFUSED = {"X-RateLimit-Reset": "1529052065", "X-RateLimit-Remaining": "0"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def downloader(tmp_path: Path, clock: FakeClock) -> Iterator[TelemetryDownloader]:
    policy = RetryPolicy(sleep=clock.sleep, wall_clock=lambda: WALL, random=lambda: 0.5)
    opened = TelemetryDownloader(
        tmp_path / "cache", keys=CacheKeys(), offline=False, timeout=5, retry=policy,
        trust_env=False,
    )  # fmt: skip
    yield opened
    opened.close()


def _refused_then(*answers: Callable[[], Response]) -> Callable[[Request], Response]:
    given = iter(answers)
    return lambda request: next(given)()


def test_an_epoch_reset_is_waited_and_logged_with_its_reason(
    httpserver: HTTPServer,
    downloader: TelemetryDownloader,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    telemetry = shared_path("telemetry", f"telemetry-{MATCH_ID}.json").read_bytes()
    httpserver.expect_request(PATH).respond_with_handler(
        _refused_then(
            lambda: Response("", status=429, headers=REFUSED),
            lambda: Response(telemetry, content_type="application/json"),
        )
    )
    with caplog.at_level(logging.INFO, logger="matchkit.client.downloads"):
        parsed = downloader.fetch(TelemetryRequest(MATCH_ID, httpserver.url_for(PATH)))
    assert parsed.match_id == MATCH_ID
    assert len(httpserver.log) == 2
    assert clock.sleeps == [60.0]
    (line,) = [r.getMessage() for r in caplog.records if "rate limited" in r.getMessage()]
    assert "waiting 60.0 s" in line
    assert "X-RateLimit-Reset 1529052065 read as a UNIX time in seconds" in line
    (record,) = [r for r in caplog.records if "rate limited" in r.getMessage()]
    assert record.levelno == logging.INFO


def test_a_zero_wait_backs_off_instead_of_hammering(
    httpserver: HTTPServer, downloader: TelemetryDownloader, clock: FakeClock
) -> None:
    httpserver.expect_request(PATH).respond_with_data("", status=429, headers={"Retry-After": "0"})
    with pytest.raises(RateLimitError) as raised:
        downloader.fetch(TelemetryRequest(MATCH_ID, httpserver.url_for(PATH)))
    attempts = downloader.retry.rate_limit_attempts
    assert len(httpserver.log) == attempts
    assert len(clock.sleeps) == attempts - 1
    assert all(seconds > 0 for seconds in clock.sleeps), clock.sleeps
    message = str(raised.value)
    assert f"the telemetry of match {MATCH_ID}" in message
    assert "Retry-After: 0" in message, "the error says which header asked what"

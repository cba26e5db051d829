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
from matchkit.client.client import Client
from matchkit.client.downloads import telemetry_parser
from matchkit.errors import RateLimitError
from matchkit.telemetry.parse import ParsedFile
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
def downloader(
    httpserver: HTTPServer, tmp_path: Path, clock: FakeClock
) -> Iterator[Callable[[], ParsedFile]]:
    """Downloads the file at PATH through a client's transport, as Client.telemetry does."""
    policy = RetryPolicy(sleep=clock.sleep, wall_clock=lambda: WALL, random=lambda: 0.5)
    base_url = httpserver.url_for("/").rstrip("/")
    with Client(base_url, cache_dir=tmp_path / "cache", now="2018-06-15", progress=False) as client:
        client.retry_policy = policy
        yield lambda: client.transport.download(
            httpserver.url_for(PATH),
            what=f"the telemetry of match {MATCH_ID}",
            parse=telemetry_parser(MATCH_ID),
        )


def _refused_then(*answers: Callable[[], Response]) -> Callable[[Request], Response]:
    given = iter(answers)
    return lambda request: next(given)()


def test_an_epoch_reset_is_waited_and_logged_with_its_reason(
    httpserver: HTTPServer,
    downloader: Callable[[], ParsedFile],
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
    with caplog.at_level(logging.INFO, logger="matchkit.client.transport"):
        parsed = downloader()
    assert parsed.match_id == MATCH_ID
    assert len(httpserver.log) == 2
    assert clock.sleeps == [60.0]
    (line,) = [r.getMessage() for r in caplog.records if "rate limited" in r.getMessage()]
    assert "waiting 60.0 s" in line
    assert "X-RateLimit-Reset 1529052065 read as a UNIX time in seconds" in line
    (record,) = [r for r in caplog.records if "rate limited" in r.getMessage()]
    assert record.levelno == logging.INFO


def test_a_zero_wait_backs_off_instead_of_hammering(
    httpserver: HTTPServer, downloader: Callable[[], ParsedFile], clock: FakeClock
) -> None:
    httpserver.expect_request(PATH).respond_with_data("", status=429, headers={"Retry-After": "0"})
    with pytest.raises(RateLimitError) as raised:
        downloader()
    attempts = RetryPolicy().rate_limit_attempts
    assert len(httpserver.log) == attempts
    assert len(clock.sleeps) == attempts - 1
    assert all(seconds > 0 for seconds in clock.sleeps), clock.sleeps
    message = str(raised.value)
    assert f"the telemetry of match {MATCH_ID}" in message
    assert "Retry-After: 0" in message, "the error says which header asked what"

"""The attempt loop (matchkit.client.retrying) over real HTTP on loopback (pytest-httpserver).

Each test counts the requests the server saw, the waits asked of the injected sleep, and the
error raised once the tries are spent.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator

import pytest
import requests
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client import RetryPolicy
from matchkit.client.responses import BadAnswerError
from matchkit.client.retrying import Retrying, Scrubber
from matchkit.errors import DocumentError, NotFoundError, RateLimitError, ServiceError
from tests.client.conftest import FakeClock, drop_connection, in_turn, logged, status_answer

PATH = "/files/one.json"
SECRET = "planted-secret-3c9e"
WALL = 1529052005.0  # a minute before the reset below
LOGGER = logging.getLogger("tests.retrying")


@pytest.fixture
def session() -> Iterator[requests.Session]:
    with requests.Session() as opened:
        opened.trust_env = False
        yield opened


def _retrying(clock: FakeClock, **options: object) -> Retrying:
    policy = RetryPolicy(
        attempts=3,
        rate_limit_attempts=3,
        sleep=clock.sleep,
        random=lambda: 0.5,
        wall_clock=lambda: WALL,
    )
    return Retrying(policy, LOGGER, **options)  # type: ignore[arg-type]


def _good(request: Request) -> Response:
    return Response('{"good": true}', content_type="application/json")


def _check(response: requests.Response) -> dict:
    """The caller's check: a 200 must be ``{"good": true}``; a 404 is its own typed error."""
    if response.status_code == 404:
        raise NotFoundError("404 from the test server", status=404, url=response.url)
    if response.status_code != 200:
        raise ServiceError(f"{response.status_code} from the test server")
    body = response.json() if response.content.startswith(b"{") else None
    if body != {"good": True}:
        raise BadAnswerError(f"a body of {len(response.content)} bytes that is not the good one")
    return body


def _run(retrying: Retrying, session: requests.Session, url: str, what: str = "") -> dict:
    return retrying.run(lambda: session.get(url, timeout=5), _check, url=url, what=what)


def test_a_429_waits_what_retry_after_says_and_logs_why(
    httpserver: HTTPServer, session: requests.Session, caplog: pytest.LogCaptureFixture
) -> None:
    httpserver.expect_request(PATH).respond_with_handler(
        in_turn(status_answer(429, "{}", **{"Retry-After": "7"}), _good)
    )
    clock, told = FakeClock(), []
    retrying = _retrying(clock, on_wait=lambda seconds, why: told.append((seconds, why)))
    with caplog.at_level(logging.INFO, logger=LOGGER.name):
        assert _run(retrying, session, httpserver.url_for(PATH)) == {"good": True}
    assert len(httpserver.log) == 2
    assert clock.sleeps == [7.0]
    assert told == [(7.0, "the service's rate limit")]
    (line,) = [r.getMessage() for r in caplog.records if r.name == LOGGER.name]
    assert line == "rate limited by the service; waiting 7.0 s (Retry-After: 7)"


def test_a_429_with_an_epoch_reset_waits_until_the_reset(
    httpserver: HTTPServer, session: requests.Session, caplog: pytest.LogCaptureFixture
) -> None:
    httpserver.expect_request(PATH).respond_with_handler(
        in_turn(status_answer(429, "{}", **{"X-RateLimit-Reset": "1529052065"}), _good)
    )
    clock = FakeClock()
    with caplog.at_level(logging.INFO, logger=LOGGER.name):
        _run(_retrying(clock, host="host"), session, httpserver.url_for(PATH))
    assert len(httpserver.log) == 2
    assert clock.sleeps == [60.0]
    (line,) = [r.getMessage() for r in caplog.records if r.name == LOGGER.name]
    assert "rate limited by the host; waiting 60.0 s" in line
    assert "X-RateLimit-Reset 1529052065 read as a UNIX time in seconds" in line


def test_a_429_that_gives_no_wait_or_zero_backs_off(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    httpserver.expect_request(PATH).respond_with_handler(
        in_turn(status_answer(429), status_answer(429, **{"Retry-After": "0"}), _good)
    )
    clock = FakeClock()
    _run(_retrying(clock), session, httpserver.url_for(PATH))
    assert len(httpserver.log) == 3
    assert clock.sleeps == [0.375, 0.75]  # the backoff (0.5 s, then 1 s) less a quarter of jitter


def test_a_lasting_429_raises_a_rate_limit_error_saying_why(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    body = json.dumps({"errors": [{"status": "429", "title": "Too Many Requests"}]})
    httpserver.expect_request(PATH).respond_with_handler(
        status_answer(429, body, **{"Retry-After": "6"})
    )
    clock, url = FakeClock(), httpserver.url_for(PATH)
    with pytest.raises(RateLimitError) as raised:
        _run(_retrying(clock, host="host"), session, url, "the file of test 1")
    assert len(httpserver.log) == 3  # rate_limit_attempts
    assert clock.sleeps == [6.0, 6.0]
    error = raised.value
    assert str(error) == (
        f"GET {url} (the file of test 1) was refused by the host's rate limit 3 times (it asks "
        "to wait 6.0 s: Retry-After: 6); wait and retry"
    )
    assert (error.status, error.url, error.retry_after) == (429, url, 6.0)
    assert error.errors == [{"status": "429", "title": "Too Many Requests"}]


def test_a_429_asking_too_long_a_wait_raises_at_once(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    httpserver.expect_request(PATH).respond_with_handler(
        status_answer(429, **{"Retry-After": "3600"})
    )
    clock = FakeClock()
    with pytest.raises(RateLimitError, match="3600") as raised:
        _run(
            _retrying(clock, advice="lower rate_limit= or wait"), session, httpserver.url_for(PATH)
        )
    assert len(httpserver.log) == 1
    assert clock.sleeps == []
    assert str(raised.value).endswith("; lower rate_limit= or wait")


def test_a_connection_reset_is_retried(httpserver: HTTPServer, session: requests.Session) -> None:
    httpserver.expect_request(PATH).respond_with_handler(in_turn(drop_connection, _good))
    clock = FakeClock()
    assert _run(_retrying(clock), session, httpserver.url_for(PATH)) == {"good": True}
    assert len(httpserver.log) == 2
    assert clock.sleeps == [0.375]


def test_lasting_connection_resets_raise_a_service_error(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    httpserver.expect_request(PATH).respond_with_handler(drop_connection)
    clock, url = FakeClock(), httpserver.url_for(PATH)
    with pytest.raises(ServiceError) as raised:
        _run(_retrying(clock, host="host"), session, url, "the file of test 2")
    assert logged(httpserver, 3) == 3
    assert clock.sleeps == [0.375, 0.75]
    assert str(raised.value) == (
        f"GET {url} (the file of test 2) failed 3 times (ConnectionError); the host is "
        "unreachable or dropping connections, try again later"
    )
    assert (raised.value.status, raised.value.url) == (None, url)
    assert type(raised.value.__cause__) is requests.ConnectionError


def test_a_failed_request_is_replaced_by_a_bare_scrubbed_copy(session: requests.Session) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/{SECRET}/file.json"
    clock = FakeClock()
    with pytest.raises(ServiceError, match="failed 3 times") as raised:
        _run(_retrying(clock, scrub=Scrubber(SECRET)), session, url)
    cause = raised.value.__cause__
    assert isinstance(cause, requests.ConnectionError)
    assert cause.request is None  # the original held the request, and with it the headers
    assert "[api key]" in str(cause)
    assert SECRET not in str(cause)
    assert len(clock.sleeps) == 2


def test_a_transport_failure_that_is_not_transient_is_not_retried(
    session: requests.Session,
) -> None:
    clock = FakeClock()
    with pytest.raises(ServiceError, match=r"failed 1 times \(InvalidURL\)"):
        _run(_retrying(clock), session, "http://[not-a-host/file.json")
    assert clock.sleeps == []


def test_a_bad_200_is_retried_like_a_5xx(httpserver: HTTPServer, session: requests.Session) -> None:
    html = lambda request: Response("<html>maintenance</html>", content_type="text/html")  # noqa: E731
    httpserver.expect_request(PATH).respond_with_handler(in_turn(html, _good))
    clock = FakeClock()
    assert _run(_retrying(clock), session, httpserver.url_for(PATH)) == {"good": True}
    assert len(httpserver.log) == 2
    assert clock.sleeps == [0.375]


@pytest.mark.parametrize("error_type", [ServiceError, DocumentError])
def test_a_lasting_bad_200_raises_the_callers_error_type(
    httpserver: HTTPServer, session: requests.Session, error_type: type[Exception]
) -> None:
    httpserver.expect_request(PATH).respond_with_data('{"message": "maintenance"}')
    clock, url = FakeClock(), httpserver.url_for(PATH)
    with pytest.raises(error_type) as raised:
        _run(_retrying(clock, bad_answer_error=error_type), session, url)
    assert type(raised.value) is error_type
    assert len(httpserver.log) == 3
    assert clock.sleeps == [0.375, 0.75]
    assert str(raised.value) == (
        f"GET {url} answered 200 with a body of 26 bytes that is not the good one (3 attempts); "
        "a proxy or the service is answering something else, try again later"
    )
    if isinstance(raised.value, ServiceError):
        assert (raised.value.status, raised.value.url) == (200, url)


def test_a_lasting_5xx_raises_a_service_error_after_the_attempts(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    body = json.dumps({"errors": [{"status": "503", "title": "Busy", "detail": f"key {SECRET}"}]})
    httpserver.expect_request(PATH).respond_with_handler(status_answer(503, body))
    clock, url = FakeClock(), httpserver.url_for(PATH)
    with pytest.raises(ServiceError) as raised:
        _run(_retrying(clock, host="host", scrub=Scrubber(SECRET)), session, url, "file 3")
    assert len(httpserver.log) == 3
    assert clock.sleeps == [0.375, 0.75]
    error = raised.value
    assert str(error) == (
        f"503 from GET {url} (file 3) after 3 attempts: 503 Busy key [api key]; the host is "
        "failing, try again later"
    )
    assert (error.status, error.url) == (503, url)
    assert error.errors == [{"status": "503", "title": "Busy", "detail": "key [api key]"}]


def test_the_callers_error_of_a_final_status_is_raised_at_once(
    httpserver: HTTPServer, session: requests.Session
) -> None:
    httpserver.expect_request(PATH).respond_with_handler(status_answer(404))
    clock = FakeClock()
    with pytest.raises(NotFoundError):
        _run(_retrying(clock), session, httpserver.url_for(PATH))
    assert len(httpserver.log) == 1
    assert clock.sleeps == []


def test_a_scrubber_never_shows_its_secret() -> None:
    scrubber = Scrubber(SECRET)
    assert SECRET not in repr(scrubber)
    assert SECRET not in repr(Retrying(RetryPolicy(), LOGGER, scrub=scrubber))
    assert scrubber.text(f"a {SECRET} b") == "a [api key] b"
    quoted = Scrubber('k"ey')
    assert quoted.errors([{"detail": 'the k"ey'}]) == [{"detail": "the [api key]"}]
    assert Scrubber().errors([{"detail": "x"}]) == [{"detail": "x"}]

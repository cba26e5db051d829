"""Retries, rate-limit waits and typed errors, over real HTTP against pytest-httpserver."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client.client import Client
from matchkit.client.responses import error_objects, rate_limit_wait
from matchkit.errors import (
    AuthError,
    CacheMissError,
    InvalidArgumentError,
    MatchkitError,
    NotFoundError,
    RateLimitError,
    ServiceError,
)
from tests.client.conftest import (
    API_KEY,
    FakeClock,
    drop_connection,
    in_turn,
    sent,
    serve_status,
    status_answer,
)

LIST = "/shards/global/matches"
EMPTY_PAGE = json.dumps({"data": [], "links": {}})


def _page() -> Response:
    return Response(EMPTY_PAGE, content_type="application/vnd.api+json")


def _fetch(client: Client) -> list[dict]:
    return list(client.iter_pages("2026-10-10", "2026-10-20"))


def test_5xx_is_retried_with_growing_backoff(
    httpserver: HTTPServer, make_client: Callable[..., Client], clock: FakeClock
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(
        in_turn(status_answer(503), status_answer(500), status_answer(504), lambda r: _page())
    )
    pages = _fetch(make_client())
    assert pages == [json.loads(EMPTY_PAGE)]
    assert sent(httpserver) == 4
    assert len(clock.sleeps) == 3
    assert clock.sleeps[0] < clock.sleeps[1] < clock.sleeps[2]


def test_a_dropped_connection_is_retried(
    httpserver: HTTPServer, make_client: Callable[..., Client], clock: FakeClock
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(
        in_turn(drop_connection, drop_connection, lambda r: _page())
    )
    assert _fetch(make_client()) == [json.loads(EMPTY_PAGE)]
    assert len(clock.sleeps) == 2


@pytest.fixture
def release() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


def test_a_timeout_is_retried(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    clock: FakeClock,
    release: threading.Event,
) -> None:
    def stall(request: Request) -> Response:
        release.wait(timeout=2)  # held until the client has given up on this request
        return _page()

    httpserver.expect_request(LIST).respond_with_handler(in_turn(stall, lambda r: _page()))
    client = make_client(timeout=0.2)
    original_sleep = clock.sleep

    def sleep_and_release(seconds: float) -> None:
        release.set()
        original_sleep(seconds)

    client.retry_policy = type(client.retry_policy)(sleep=sleep_and_release, random=lambda: 0.5)
    assert _fetch(client) == [json.loads(EMPTY_PAGE)]
    assert len(clock.sleeps) == 1


def test_exhausted_5xx_raises_a_service_error_with_status_url_and_errors(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    body = json.dumps({"errors": [{"status": "503", "title": "Service Unavailable"}]})
    httpserver.expect_request(LIST).respond_with_handler(status_answer(503, body))
    with pytest.raises(ServiceError) as raised:
        _fetch(make_client())
    error = raised.value
    assert error.status == 503
    assert error.url.startswith(httpserver.url_for(LIST))
    assert error.errors == [{"status": "503", "title": "Service Unavailable"}]
    assert sent(httpserver) == 5  # the policy's attempts
    assert "5 attempts" in str(error)


def test_a_gateway_html_page_becomes_readable_errors(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    html = "<html><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>"
    httpserver.expect_request(LIST).respond_with_handler(status_answer(502, html))
    with pytest.raises(ServiceError) as raised:
        _fetch(make_client())
    assert raised.value.status == 502
    (error,) = raised.value.errors
    assert error["status"] == "502"
    assert error["detail"] == "502 Bad Gateway nginx"
    assert "<" not in str(raised.value)


def test_exhausted_connection_failures_raise_a_service_error(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(drop_connection)
    with pytest.raises(ServiceError, match="failed 5 times") as raised:
        _fetch(make_client())
    assert raised.value.status is None
    assert isinstance(raised.value.__cause__, requests.RequestException)


def test_429_waits_what_retry_after_says(
    httpserver: HTTPServer, make_client: Callable[..., Client], clock: FakeClock
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(
        in_turn(status_answer(429, "{}", **{"Retry-After": "7"}), lambda r: _page())
    )
    assert _fetch(make_client()) == [json.loads(EMPTY_PAGE)]
    assert clock.sleeps == [7.0]


def test_429_without_retry_after_waits_for_the_reset_in_nanoseconds(
    httpserver: HTTPServer, make_client: Callable[..., Client], clock: FakeClock
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(
        in_turn(status_answer(429, "{}", **{"X-RateLimit-Reset": "2500000000"}), lambda r: _page())
    )
    assert _fetch(make_client()) == [json.loads(EMPTY_PAGE)]
    assert clock.sleeps == [2.5]


def test_a_429_that_never_ends_raises_rate_limit_error(
    httpserver: HTTPServer, make_client: Callable[..., Client], clock: FakeClock
) -> None:
    body = json.dumps({"errors": [{"status": "429", "title": "Too Many Requests"}]})
    httpserver.expect_request(LIST).respond_with_handler(
        status_answer(429, body, **{"Retry-After": "6"})
    )
    with pytest.raises(RateLimitError) as raised:
        _fetch(make_client())
    assert raised.value.status == 429
    assert raised.value.retry_after == 6.0
    assert raised.value.errors[0]["title"] == "Too Many Requests"
    assert sent(httpserver) == 10
    assert clock.sleeps == [6.0] * 9


def test_a_429_asking_for_too_long_a_wait_raises_at_once(
    httpserver: HTTPServer, make_client: Callable[..., Client], clock: FakeClock
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(
        status_answer(429, "{}", **{"Retry-After": "3600"})
    )
    with pytest.raises(RateLimitError, match="3600"):
        _fetch(make_client())
    assert clock.sleeps == []


@pytest.mark.parametrize("code", [401, 403])
def test_a_refused_key_raises_auth_error_without_the_key(
    httpserver: HTTPServer, make_client: Callable[..., Client], code: int
) -> None:
    body = json.dumps({"errors": [{"title": "Unauthorized", "detail": "unknown API key"}]})
    httpserver.expect_request(LIST).respond_with_handler(status_answer(code, body))
    with pytest.raises(AuthError) as raised:
        _fetch(make_client())
    assert raised.value.status == code
    assert "unknown API key" in str(raised.value)
    assert API_KEY not in str(raised.value)
    assert API_KEY not in repr(raised.value.errors)
    assert sent(httpserver) == 1


def test_the_key_travels_as_a_bearer_header_only(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    httpserver.expect_request(
        LIST, headers={"Authorization": f"Bearer {API_KEY}", "Accept": "application/vnd.api+json"}
    ).respond_with_handler(lambda r: _page())
    _fetch(make_client())
    (status, _), (request, _response) = httpserver.log
    assert status.path == "/status"
    assert "Authorization" not in status.headers  # the status needs no key (decision 12)
    assert API_KEY not in request.url


def test_a_404_list_is_empty_and_a_404_match_is_not_found(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    missing = json.dumps({"errors": [{"title": "Not Found", "detail": "no match"}]})
    httpserver.expect_request(LIST).respond_with_handler(status_answer(404, missing))
    httpserver.expect_request(f"{LIST}/ABC").respond_with_handler(status_answer(404, missing))
    client = make_client()
    assert _fetch(client) == []
    with pytest.raises(NotFoundError) as raised:
        client.get_match("ABC")
    assert raised.value.status == 404
    assert raised.value.url == httpserver.url_for(f"{LIST}/ABC")


def test_a_400_carries_the_parameter_at_fault(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    body = json.dumps(
        {
            "errors": [
                {
                    "status": "400",
                    "title": "Bad Request",
                    "detail": "page[limit]=9 is out of range",
                    "source": {"parameter": "page[limit]"},
                }
            ]
        }
    )
    httpserver.expect_request(LIST).respond_with_handler(status_answer(400, body))
    with pytest.raises(ServiceError) as raised:
        _fetch(make_client())
    assert raised.value.errors[0]["source"] == {"parameter": "page[limit]"}
    assert "page[limit]=9 is out of range" in str(raised.value)
    assert sent(httpserver) == 1


def test_a_200_that_is_not_json_is_retried_and_never_cached(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(
        in_turn(
            lambda r: Response("<html>oops</html>", content_type="text/html"), lambda r: _page()
        )
    )
    client = make_client()
    assert _fetch(client) == [json.loads(EMPTY_PAGE)]
    assert client.cache_info().responses == 1
    assert _fetch(client) == [json.loads(EMPTY_PAGE)]
    assert sent(httpserver) == 2


def test_offline_answers_from_the_cache_and_names_a_miss(
    httpserver: HTTPServer, make_client: Callable[..., Client], tmp_path: Path
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(lambda r: _page())
    _fetch(make_client())
    served = sent(httpserver)
    offline = make_client(offline=True)
    assert _fetch(offline) == [json.loads(EMPTY_PAGE)]
    with pytest.raises(CacheMissError) as raised:
        list(offline.iter_pages("2026-09-01", "2026-09-02"))
    assert "2026-09-01" in raised.value.url
    assert "offline" in str(raised.value)
    with pytest.raises(CacheMissError):
        offline.status()
    assert sent(httpserver) == served


def test_request_logs_at_debug_never_hold_the_key(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    caplog: pytest.LogCaptureFixture,
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(
        in_turn(status_answer(503), drop_connection, lambda r: _page())
    )
    client = make_client()
    with caplog.at_level(logging.DEBUG):
        _fetch(client)
        _fetch(client)
    requests_logged = [r for r in caplog.records if r.name == "matchkit.client.transport"]
    assert any("-> 200" in r.getMessage() for r in requests_logged)
    assert any("(cache)" in r.getMessage() for r in requests_logged)
    assert all(API_KEY not in record.getMessage() for record in caplog.records)
    assert API_KEY not in caplog.text
    assert API_KEY not in repr(client)
    assert API_KEY not in repr(client.transport)


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        ({"start": "yesterday"}, "start"),
        ({"start": "2026-10-20", "end": "2026-10-10"}, "start"),
        ({"server_types": ["QUICK-4V4"]}, "server_types"),
        ({"player_ids": []}, "player_ids"),
        ({"ranking_type": "CASUAL"}, "ranking_type"),
        ({"player_names": ["x"]}, "player_names"),
        ({"page_limit": 6}, "page_limit"),
        ({"page_limit": 0}, "page_limit"),
        ({"sort": "duration"}, "sort"),
        ({"max_matches": 0}, "max_matches"),
    ],
)
def test_arguments_are_checked_before_any_request(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    arguments: dict,
    parameter: str,
) -> None:
    client = make_client()
    for call in (client.matches, client.iter_pages, client.plan):
        with pytest.raises(InvalidArgumentError) as raised:
            call(**arguments)
        assert isinstance(raised.value, ValueError)
        assert raised.value.parameter == parameter
    assert sent(httpserver) == 0


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"shard": "eu"}, "shard"),
        ({"rate_limit": "lots"}, "rate_limit"),
        ({"now": "not a time"}, "now"),
        ({"timeout": 0}, "timeout"),
    ],
)
def test_constructor_arguments_are_checked(
    make_client: Callable[..., Client], options: dict, parameter: str
) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        make_client(**options)
    assert raised.value.parameter == parameter
    assert isinstance(raised.value, ValueError | MatchkitError)


def test_a_base_url_must_be_http(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="http://"):
        Client("ftp://example.org", cache_dir=tmp_path)


def test_rate_limit_wait_reads_the_headers() -> None:
    wall = 1_800_000_000.0
    assert rate_limit_wait({"Retry-After": "3"}, wall_clock=wall) == 3.0
    assert rate_limit_wait({"Retry-After": "3", "X-RateLimit-Reset": "9e9"}, wall_clock=wall) == 3
    assert rate_limit_wait({"X-RateLimit-Reset": "6000000000"}, wall_clock=wall) == 6.0
    absolute = str(int((wall + 4) * 1e9))
    assert rate_limit_wait({"X-RateLimit-Reset": absolute}, wall_clock=wall) == pytest.approx(4)
    date = "Fri, 15 Jan 2027 08:00:10 GMT"  # 1_800_000_010 seconds after the epoch
    assert rate_limit_wait({"Retry-After": date}, wall_clock=wall) == pytest.approx(10)
    assert rate_limit_wait({}, wall_clock=wall) is None
    assert rate_limit_wait({"X-RateLimit-Reset": "soon"}, wall_clock=wall) is None


def _response(code: int, body: str, reason: str = "") -> requests.Response:
    response = requests.Response()
    response.status_code = code
    response._content = body.encode()
    response.reason = reason
    return response


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('{"errors": [{"title": "Bad"}]}', [{"title": "Bad"}]),
        ('{"errors": {"title": "Bad"}}', [{"title": "Bad"}]),
        ('{"errors": ["text"]}', [{"detail": "text"}]),
        (
            '{"title": "Bad", "description": "why"}',
            [{"status": "418", "title": "Bad", "description": "why"}],
        ),
        ("", [{"status": "418", "title": "Teapot"}]),
        ("plain words", [{"status": "418", "title": "Teapot", "detail": "plain words"}]),
    ],
)
def test_error_objects_accepts_every_shape(body: str, expected: list) -> None:
    assert error_objects(_response(418, body, "Teapot")) == expected


@pytest.mark.parametrize("progress", [True, False])
def test_the_progress_bar_counts_pages_and_can_be_turned_off(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    capsys: pytest.CaptureFixture[str],
    progress: bool,
) -> None:
    httpserver.expect_request(LIST).respond_with_handler(lambda r: _page())
    client = make_client(progress=progress)
    client.matches("2026-07-10", "2026-10-01")  # 3 windows, one empty page each
    shown = capsys.readouterr().err
    if progress:
        final = shown.replace("\r", "\n").strip().splitlines()[-1]
        assert final.startswith("matchkit global 2026-07-10..2026-10-01: 3page ")
        assert final.endswith("0 matches in 3 windows]")
    else:
        assert shown == ""


@pytest.mark.parametrize(
    "body",
    [
        b'{"data": [], "included": [1,, 2]}',  # malformed where paging does not look
        b'{"data": [], "included": ["\xff"]}',  # not UTF-8 where paging does not look
        b"[]",  # not an object
    ],
    ids=["malformed", "not-utf-8", "a-list"],
)
def test_a_200_whose_body_is_not_a_json_object_is_retried_then_refused(
    httpserver: HTTPServer, make_client: Callable[..., Client], tmp_path: Path, body: bytes
) -> None:
    bad = Response(body, content_type="application/vnd.api+json")
    httpserver.expect_request(LIST).respond_with_handler(in_turn(lambda r: bad, lambda r: _page()))
    assert _fetch(make_client()) == [json.loads(EMPTY_PAGE)]
    assert sent(httpserver) == 2
    httpserver.clear()
    serve_status(httpserver)
    httpserver.expect_request(LIST).respond_with_handler(lambda r: bad)
    with pytest.raises(ServiceError, match="not a JSON object"):
        _fetch(make_client(cache_dir=tmp_path / "another-cache"))

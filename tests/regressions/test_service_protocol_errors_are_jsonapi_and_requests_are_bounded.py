"""Issue 11 item 12: a request line or header with raw non-ASCII bytes, or over ~100 KB, got
uvicorn's plain-text 400 (no CORS, no JSON:API body), and connections that never finished a
request were never closed (1,100 stayed open). Now what can be answered is a JSON:API error with
the CORS headers, heads are bounded, and an unfinished request is closed after a timeout.

Raw sockets on loopback; every read has a timeout and every loop a bound.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator

import pytest

from matchkit.service import RunningService
from matchkit.service.protocol import ConnectionLimits
from tests.service.raw_http import closed_by_server, connect, exchange, read_response
from tests.service.small import small_service

REQUEST_TIMEOUT = 0.5
STATUS = b"GET /status HTTP/1.1\r\nHost: localhost\r\n\r\n"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    limits = ConnectionLimits(request_timeout=REQUEST_TIMEOUT, max_connections=600)
    with small_service(tmp_path_factory.mktemp("protocol"), limits=limits) as handle:
        yield handle


def _assert_jsonapi_error(response, status):
    assert response.status == status, response.body[:200]
    assert response.headers["content-type"] == "application/json"
    assert response.headers["access-control-allow-origin"] == "*"
    error = response.error()
    assert error["status"] == str(status)
    assert error["detail"]
    assert response.closed, "the connection is closed after a protocol error"


@pytest.mark.parametrize(
    "payload",
    [
        b"GET /shards/global/matches?filter[playerNames]=caf\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /shards/\xff/matches HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /status HTTP/1.1\r\nHost: x\r\nX-Caf\xc3\xa9: 1\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(32)) + b"\r\n\r\n",
        b"GET /status HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
    ],
    ids=["non-ASCII query", "non-ASCII path", "non-ASCII header name", "TLS hello", "bad header"],
)
def test_unreadable_request_is_a_jsonapi_400(service, payload):
    _assert_jsonapi_error(exchange(service.base_url, payload), 400)


def test_request_line_over_the_limit_is_a_jsonapi_414(service):
    payload = b"GET /shards/global/matches?filter[playerIds]=" + b"1" * 100_000 + b" HTTP/1.1\r\n"
    _assert_jsonapi_error(exchange(service.base_url, payload + b"Host: x\r\n\r\n"), 414)


def test_header_over_the_limit_is_a_jsonapi_431(service):
    payload = b"GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n"
    _assert_jsonapi_error(exchange(service.base_url, payload), 431)


def test_non_ascii_header_value_is_answered_by_the_service(service):
    """Bytes above 0x7F are allowed in a header value (obs-text): the app answers it."""
    response = exchange(
        service.base_url, b"GET /status HTTP/1.1\r\nHost: x\r\nX-Title-Id: caf\xe9\r\n\r\n"
    )
    assert response.status == 200
    assert response.headers["access-control-allow-origin"] == "*"


def test_connection_that_sends_nothing_is_closed(service):
    with connect(service.base_url) as connection:
        started = time.monotonic()
        assert closed_by_server(connection, within=REQUEST_TIMEOUT + 3)
        assert time.monotonic() - started >= REQUEST_TIMEOUT * 0.8


def test_unfinished_request_head_is_a_jsonapi_408(service):
    with connect(service.base_url) as connection:
        connection.sendall(b"GET /status HTTP/1.1\r\nHost: x\r\n")
        response = read_response(connection)
    _assert_jsonapi_error(response, 408)


def test_trickling_a_head_does_not_keep_the_connection(service):
    """Slowloris: a byte every 0.1 s never completes the head; the timeout is not restarted."""
    with connect(service.base_url) as connection:
        started = time.monotonic()
        for _ in range(60):  # 6 s at most, far beyond the timeout
            readable, _, _ = select.select([connection], [], [], 0.1)
            if readable:
                break
            connection.sendall(b"X-Slow: 1\r\n"[:1])
        response = read_response(connection)
        elapsed = time.monotonic() - started
    _assert_jsonapi_error(response, 408)
    assert elapsed < REQUEST_TIMEOUT + 2


def test_many_idle_connections_are_all_closed(service):
    connections = [connect(service.base_url) for _ in range(300)]
    try:
        deadline = time.monotonic() + REQUEST_TIMEOUT + 5
        still_open = [
            connection
            for connection in connections
            if not closed_by_server(connection, within=max(deadline - time.monotonic(), 0.05))
        ]
        assert still_open == []
    finally:
        for connection in connections:
            connection.close()


def test_keep_alive_requests_are_still_served(service):
    with connect(service.base_url) as connection:
        for _ in range(3):
            connection.sendall(STATUS)
            assert read_response(connection).status == 200
            time.sleep(REQUEST_TIMEOUT / 5)  # idle between requests, well within the limits


def test_connections_above_the_limit_get_a_jsonapi_503(tmp_path):
    limits = ConnectionLimits(request_timeout=5, max_connections=3)
    with small_service(tmp_path, limits=limits) as service:
        idle = [connect(service.base_url) for _ in range(3)]
        try:
            time.sleep(0.2)  # let the server accept them
            response = exchange(service.base_url, STATUS)
            _assert_jsonapi_error(response, 503)
            assert response.headers["retry-after"] == "1"
        finally:
            for connection in idle:
                connection.shutdown(socket.SHUT_RDWR)
                connection.close()
        for _ in range(50):  # the server sees the closes within moments
            if exchange(service.base_url, STATUS).status == 200:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the service kept refusing after the idle connections closed")


def test_websocket_upgrade_is_served_as_plain_http(service):
    payload = (
        b"GET /status HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    response = exchange(service.base_url, payload)
    assert response.status == 200
    assert response.headers["content-type"] == "application/json"

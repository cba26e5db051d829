"""The connection limits' values and the responses written below the app (issue 11 item 12;
the behaviour over raw sockets is in tests/regressions/
test_service_protocol_errors_are_jsonapi_and_requests_are_bounded.py)."""

from __future__ import annotations

import math

import orjson
import pytest

from matchkit.errors import InvalidArgumentError
from matchkit.service.protocol import ConnectionLimits, error_bytes, uvicorn_config


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("max_head_bytes", 0),
        ("max_head_bytes", 1.5),
        ("max_head_bytes", True),
        ("request_timeout", -1),
        ("request_timeout", math.inf),
        ("request_timeout", math.nan),
        ("keep_alive", "5"),
        ("max_connections", 0),
    ],
)
def test_bad_limit_is_refused_naming_it(name, value):
    with pytest.raises(InvalidArgumentError) as raised:
        ConnectionLimits(**{name: value})
    assert raised.value.parameter == f"limits.{name}"


def test_uvicorn_config_carries_the_limits():
    limits = ConnectionLimits(max_head_bytes=4096, keep_alive=2.5)
    config = uvicorn_config(object(), limits=limits, log_level="warning")
    assert config.h11_max_incomplete_event_size == 4096
    assert config.timeout_keep_alive == 2.5
    assert config.limit_concurrency is None  # its 503 is plain text; ours is JSON:API
    assert config.ws == "none"
    assert config.http.keywords == {"limits": limits}


def test_error_bytes_is_a_whole_response_with_a_jsonapi_body():
    raw = error_bytes(431, "too long")
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"HTTP/1.1 431 Request Header Fields Too Large"
    headers = dict(line.split(b": ", 1) for line in lines[1:])
    assert headers[b"content-length"] == str(len(body)).encode()
    assert headers[b"connection"] == b"close"
    assert headers[b"access-control-allow-origin"] == b"*"
    assert orjson.loads(body)["errors"][0] == {
        "status": "431",
        "title": "Request Header Fields Too Large",
        "detail": "too long",
    }

"""Issue 26 item A8: ``timeout=`` bounded each socket read, not the request.

A body that trickles in (a byte every tenth of a second) kept every read under the timeout, and
held the client for as long as the body lasted. The request path now gives each request one
deadline, from sending it to the last byte of its body.
"""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler

import pytest

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.errors import ServiceError
from tests.client.raw_server import raw_server

TRICKLE_SECONDS = 6.0


def _trickle(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/vnd.api+json")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    ends = time.monotonic() + TRICKLE_SECONDS
    while time.monotonic() < ends:
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(0.1)


def test_a_trickling_body_ends_at_the_deadline(tmp_path) -> None:
    with raw_server(_trickle) as (url, seen):
        client = Client(
            url,
            api_key="k",
            cache_dir=tmp_path / "cache",
            rate_limit="off",
            progress=False,
            timeout=0.5,
            now="2026-10-31T00:00:00Z",
        )
        client.retry_policy = RetryPolicy(attempts=2, sleep=lambda _: None)
        started = time.monotonic()
        with client, pytest.raises(ServiceError) as raised:
            client.get_match("M1")
        elapsed = time.monotonic() - started
    assert elapsed < 2.5, f"held {elapsed:.1f} s by a trickling body (timeout=0.5, 2 attempts)"
    assert "Timeout" in str(raised.value)
    assert len(seen) == 2

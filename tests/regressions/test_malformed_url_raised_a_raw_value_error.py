"""Issue 26 item A7: a malformed URL from the service raised a raw ``ValueError``.

A redirect's ``Location`` of ``http://[::1/x`` or with a port of 99999, and a telemetry asset
URL that cannot be parsed, ended in a ValueError from deep inside requests or urllib. Every URL
is now checked once, in the request path: a typed MatchkitError naming the URL.
"""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import orjson
import pytest

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.errors import MatchkitError, ServiceError
from tests.client.raw_server import raw_server, send
from tests.conftest import shared_path
from tests.telemetry.test_download import MATCH_ID, frames_with_url

BAD = ["http://[::1/x", "http://127.0.0.1:99999/x"]


def _client(url: str, tmp_path) -> Client:
    client = Client(
        url,
        api_key="k",
        cache_dir=tmp_path / "cache",
        rate_limit="off",
        progress=False,
        now="2026-10-31T00:00:00Z",
    )
    client.retry_policy = RetryPolicy(attempts=2, sleep=lambda _: None)
    return client


@pytest.mark.parametrize("location", BAD)
def test_a_redirect_to_a_malformed_url_is_a_service_error(tmp_path, location: str) -> None:
    def redirect(handler: BaseHTTPRequestHandler) -> None:
        send(handler, 302, Location=location)

    with (
        raw_server(redirect) as (url, seen),
        _client(url, tmp_path) as client,
        pytest.raises(MatchkitError) as raised,
    ):
        client.get_match("M1")
    assert isinstance(raised.value, ServiceError)
    assert "redirect" in str(raised.value)
    assert len(seen) == 2  # retried like a 5xx: a proxy's passing fault


@pytest.mark.parametrize("asset_url", BAD)
def test_a_malformed_telemetry_asset_url_is_a_typed_error(tmp_path, asset_url: str) -> None:
    document = orjson.loads(
        shared_path("telemetry", f"match-response-{MATCH_ID}.json").read_bytes()
    )
    frames = frames_with_url(document, asset_url)
    with (
        raw_server(lambda handler: send(handler, 404)) as (url, seen),
        _client(url, tmp_path) as client,
        pytest.raises(MatchkitError) as raised,
    ):
        client.telemetry(frames)
    assert isinstance(raised.value, ServiceError)
    assert MATCH_ID in str(raised.value)
    assert seen == []

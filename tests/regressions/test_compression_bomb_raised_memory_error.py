"""Issue 26 item A6: no limit on body size.

A small gzip body that inflates to gigabytes was read whole (a raw ``MemoryError`` on a smaller
machine), on list pages and telemetry alike. The request path now reads every body a slice at a
time under one cap (``max_body_bytes``, on the wire and decoded, 256 MiB by default): a larger
answer is a ServiceError, found before it is all in memory.
"""

from __future__ import annotations

import zlib
from http.server import BaseHTTPRequestHandler

import orjson
import pytest

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.errors import InvalidArgumentError, ServiceError
from tests.client.raw_server import raw_server, send
from tests.conftest import shared_path
from tests.telemetry.test_download import MATCH_ID, frames_with_url


def _gzip_of_zeros(mebibytes: int) -> bytes:
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    zeros = bytes(2**20)
    return b"".join([*(packer.compress(zeros) for _ in range(mebibytes)), packer.flush()])


def _bomb(mebibytes: int):
    body = _gzip_of_zeros(mebibytes)

    def answer(handler: BaseHTTPRequestHandler) -> None:
        send(handler, 200, body, Content_Type="application/json", Content_Encoding="gzip")

    return answer


def _client(url: str, tmp_path, **options) -> Client:
    client = Client(
        url,
        api_key="k",
        cache_dir=tmp_path / "cache",
        rate_limit="off",
        progress=False,
        now="2026-10-31T00:00:00Z",
        **options,
    )
    client.retry_policy = RetryPolicy(sleep=lambda _: None)
    return client


def test_a_match_that_inflates_past_the_cap_is_a_service_error(tmp_path) -> None:
    cap = pytest.raises(ServiceError, match="max_body_bytes=1,048,576")
    with (
        raw_server(_bomb(64)) as (url, seen),
        _client(url, tmp_path, max_body_bytes=2**20) as client,
        cap as raised,
    ):
        client.get_match("M1")
    assert len(seen) == 1  # not retried: the answer is what it is
    assert raised.value.status == 200


def test_a_telemetry_bomb_meets_the_default_cap(tmp_path) -> None:
    document = orjson.loads(
        shared_path("telemetry", f"match-response-{MATCH_ID}.json").read_bytes()
    )
    with raw_server(_bomb(300)) as (url, seen), _client(url, tmp_path) as client:
        frames = frames_with_url(document, f"{url}/cdn/{MATCH_ID}.json")
        with pytest.raises(ServiceError, match="larger than max_body_bytes=268,435,456"):
            client.telemetry(frames)
    assert len(seen) == 1


def test_the_cap_is_checked_before_any_request(tmp_path) -> None:
    with pytest.raises(InvalidArgumentError, match="max_body_bytes"):
        _client("http://127.0.0.1:9", tmp_path, max_body_bytes=0)

"""Issue 26 item A5 (third bullet): a telemetry file that failed its match check was cached
forever, so the error persisted after the host was fixed.

The downloader stored a file once it was a list of events, and only the tables found that its
events named another match: every later call read the same wrong file from the cache. The
download's check hook now reads the file against its match before anything is stored: a file of
another match is retried like a 5xx, never stored, then a DocumentError naming the match.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.errors import DocumentError
from tests.conftest import shared_path
from tests.telemetry.test_download import MATCH_ID, frames_with_url


def _of_match(events: list[dict[str, Any]], match_id: str) -> bytes:
    copied = orjson.loads(orjson.dumps(events))
    for event in copied:
        for key in ("matchID", "matchId"):
            if key in event["dataObject"]:
                event["dataObject"][key] = match_id
    return orjson.dumps(copied)


def test_a_file_of_another_match_is_never_cached(httpserver: HTTPServer, tmp_path) -> None:
    events = orjson.loads(shared_path("telemetry", f"telemetry-{MATCH_ID}.json").read_bytes())
    document = orjson.loads(
        shared_path("telemetry", f"match-response-{MATCH_ID}.json").read_bytes()
    )
    fixed = {"host": False}

    def answer(request: Request) -> Response:
        match_id = MATCH_ID if fixed["host"] else "0123456789ABCDEF0123456789ABCDEF"
        return Response(_of_match(events, match_id), content_type="application/json")

    path = f"/cdn/{MATCH_ID}-telemetry.json"
    httpserver.expect_request(path).respond_with_handler(answer)
    frames = frames_with_url(document, httpserver.url_for(path))
    options: dict[str, Any] = {
        "api_key": "k",
        "cache_dir": tmp_path / "cache",
        "rate_limit": "off",
        "progress": False,
    }
    with Client(httpserver.url_for("/").rstrip("/"), **options) as client:
        client.retry_policy = RetryPolicy(sleep=lambda _: None)
        with pytest.raises(DocumentError, match="another match"):
            client.telemetry(frames)
        wrong = len(httpserver.log)
        fixed["host"] = True
        telemetry = client.telemetry(frames)
    assert telemetry.match_ids == [MATCH_ID]
    assert len(telemetry.round_player_stats) > 0
    assert len(httpserver.log) == wrong + 1  # fetched again: the wrong file was never stored

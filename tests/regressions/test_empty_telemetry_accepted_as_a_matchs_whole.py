"""Issue 26, A5: an empty telemetry file (``[]``) was accepted as a match's whole telemetry: the
client returned TelemetryFrames with no event for the match and said nothing. A real file holds
at least its match's MatchStart; an empty one is not the file of the match, and is refused (a
DocumentError naming the match, after the retries of a bad answer, and never cached)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from matchkit.client.client import Client
from matchkit.errors import DocumentError
from matchkit.telemetry import to_telemetry_frames
from matchkit.telemetry.parse import check_against_match, check_events
from tests.telemetry.test_download import (  # noqa: F401 (fixtures)
    MATCH_ID,
    frames_with_url,
    make_client,
    match_document,
    telemetry_requests,
)


def test_an_empty_file_fails_the_check_against_its_match() -> None:
    with pytest.raises(DocumentError, match=f"telemetry of match {MATCH_ID} holds no events"):
        check_against_match(check_events(b"[]"), match_id=MATCH_ID)
    with pytest.raises(DocumentError, match="holds no events"):
        to_telemetry_frames({MATCH_ID: b"[]"})


def test_an_empty_file_served_for_a_match_is_refused_and_not_cached(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],  # noqa: F811
    match_document: dict[str, Any],  # noqa: F811
) -> None:
    path = "/cdn/empty-telemetry.json"
    httpserver.expect_request(path).respond_with_data(b"[]", content_type="application/json")
    frames = frames_with_url(match_document, httpserver.url_for(path))
    client = make_client()
    with pytest.raises(DocumentError, match=f"{MATCH_ID}.*no events"):
        client.telemetry(frames)
    skipped = client.telemetry(frames, on_error="skip")
    assert skipped.match_ids == []
    assert MATCH_ID in skipped.problems[0]
    attempts = len(telemetry_requests(httpserver))
    with pytest.raises(DocumentError):
        make_client().telemetry(frames)  # asked again: the empty file was never stored
    assert len(telemetry_requests(httpserver)) > attempts

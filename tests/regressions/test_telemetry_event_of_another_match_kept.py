"""Issue 26, A5: an event naming another match was kept without a word. The match check ran per
table, on the event types the tables know, after the file had been accepted (and cached): an
event of a type the tables do not know (kept in ``other_events``) was never checked. The check
is now one function on the whole file, every event, as the file is read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest
from pytest_httpserver import HTTPServer

from matchkit.client.client import Client
from matchkit.errors import DocumentError
from matchkit.telemetry import to_telemetry_frames
from matchkit.telemetry.parse import check_against_match, check_events
from tests.conftest import shared_path
from tests.telemetry.test_download import (  # noqa: F401 (fixtures)
    MATCH_ID,
    frames_with_url,
    make_client,
    match_document,
)


def _real_file_with(extra: dict[str, Any]) -> bytes:
    path = shared_path("telemetry", f"telemetry-{MATCH_ID}.json")
    return orjson.dumps([*orjson.loads(path.read_bytes()), extra])


STRAY = {"cursor": 7, "type": "Structures.SomethingNew", "dataObject": {"matchID": "B" * 32}}


@pytest.mark.parametrize("key", ["matchID", "matchId"])
def test_an_event_of_any_type_naming_another_match_fails_the_check(key: str) -> None:
    stray = {**STRAY, "dataObject": {key: "B" * 32}}
    events = check_events(_real_file_with(stray))
    with pytest.raises(DocumentError, match=f"holds an event of match '{'B' * 32}' .cursor 7"):
        check_against_match(events, match_id=MATCH_ID)
    with pytest.raises(DocumentError, match="belongs to another match"):
        to_telemetry_frames({MATCH_ID: _real_file_with(stray)})


def test_the_real_file_passes_the_check() -> None:
    path = shared_path("telemetry", f"telemetry-{MATCH_ID}.json")
    check_against_match(check_events(path.read_bytes()), match_id=MATCH_ID)


def test_a_served_file_with_an_event_of_another_match_is_refused(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],  # noqa: F811
    match_document: dict[str, Any],  # noqa: F811
) -> None:
    path = "/cdn/mixed-telemetry.json"
    httpserver.expect_request(path).respond_with_data(_real_file_with(STRAY))
    frames = frames_with_url(match_document, httpserver.url_for(path))
    with pytest.raises(DocumentError, match=f"telemetry of match {MATCH_ID} holds an event of"):
        make_client().telemetry(frames)

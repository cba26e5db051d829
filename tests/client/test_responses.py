"""Reading answers: a 200's body checked by request kind, and messages kept as details."""

from __future__ import annotations

import json

import pytest
import requests

from matchkit.client.responses import BadAnswerError, check_body, error_objects
from matchkit.rules.jsonapi import describe_errors

MATCH = {"type": "match", "id": "M1"}


@pytest.mark.parametrize(
    ("kind", "document"),
    [
        ("list", {"data": []}),
        ("list", {"data": [MATCH, MATCH], "links": {"next": "x"}}),
        ("match", {"data": [MATCH]}),
        ("match", {"data": MATCH}),
        ("status", {"data": {"type": "status", "id": "gamelocker"}}),
        ("status", {"data": [{"type": "status", "id": "gamelocker"}]}),
    ],
)
def test_answers_that_are_what_was_asked_for(kind: str, document: dict) -> None:
    head = check_body(kind, json.dumps(document).encode())  # type: ignore[arg-type]
    assert head["data"] == document["data"]


@pytest.mark.parametrize(
    ("kind", "body", "words"),
    [
        ("list", b'{"message": "maintenance"}', "data is null"),
        ("list", b'{"data": null}', "data is null"),
        ("list", b'{"data": {"type": "match", "id": "M1"}}', "not a list of matches"),
        ("list", b'{"data": [{"type": "player", "id": "p"}]}', "type 'player'"),
        ("list", b"<html>maintenance</html>", "not a JSON object"),
        ("match", b'{"data": []}', "not one match"),
        ("match", b'{"data": [{"type": "match"}, {"type": "match"}]}', "not one match"),
        ("status", b'{"data": [{"type": "match", "id": "M1"}]}', "where a status belongs"),
        ("status", b'{"errors": [{"title": "Not Found"}]}', "null"),
    ],
)
def test_answers_that_are_not(kind: str, body: bytes, words: str) -> None:
    with pytest.raises(BadAnswerError, match=words):
        check_body(kind, body)  # type: ignore[arg-type]


def test_a_message_without_a_detail_is_kept_as_the_detail() -> None:
    response = requests.Response()
    response.status_code = 503
    response._content = b'{"message": "maintenance"}'
    (error,) = error_objects(response)
    assert error == {"status": "503", "message": "maintenance", "detail": "maintenance"}
    assert "maintenance" in describe_errors([error])

"""The service fuzzing (tests/service/test_fuzz.py) found: a raw byte 0x80 in the query string
answered 500 (Starlette's URL decoding failed inside the handler)."""

from __future__ import annotations

from tests.service.asgi import call, check_answer, list_matches


def test_query_string_not_utf8_is_not_a_500(app, loop):
    # A raw byte 0x80 in the query made Starlette's URL decoding fail inside the handler.
    status, headers, body = call(loop, app, method="GET", path="/status", query=b"\x80", headers=[])
    check_answer("GET", status, headers, body)
    assert status == 400
    status, _, _ = list_matches(loop, app, query=b"page[limit]=\xff")
    assert status == 400

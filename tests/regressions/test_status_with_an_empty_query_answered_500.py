"""The service fuzzing (tests/service/test_fuzz.py) found: ``/status?&`` (a query string without
parameters) answered 500: indexing the first parameter failed."""

from __future__ import annotations

from tests.service.asgi import call, check_answer


def test_status_with_an_empty_query_is_not_a_500(app, loop):
    # "/status?&" has a query string but no parameters: indexing the first one failed.
    status, headers, body = call(loop, app, method="GET", path="/status", query=b"&", headers=[])
    check_answer("GET", status, headers, body)
    assert status == 200

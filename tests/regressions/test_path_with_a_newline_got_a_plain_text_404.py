"""The service fuzzing (tests/service/test_fuzz.py) found: a path holding a newline matched no route
pattern, and Starlette answered a plain-text 404 instead of a JSON:API one."""

from __future__ import annotations

import pytest

from tests.service.asgi import call, check_answer


@pytest.mark.parametrize("path", ["/\n", "/x\ny", "/shards\n"])
def test_path_with_a_newline_gets_a_json_api_404(app, loop, path):
    # No route pattern matched a newline, and Starlette answered a plain-text 404.
    status, headers, body = call(loop, app, method="GET", path=path, query=b"", headers=[])
    check_answer("GET", status, headers, body)
    assert status == 404

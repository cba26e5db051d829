"""Issue 11 item 9: a key with non-Latin-1 characters failed at the first request with a raw
``UnicodeEncodeError`` whose ``.object`` held ``"Bearer <key>"``.

The key is now checked up front (an ``InvalidArgumentError`` that does not show it), and no
exception matchkit raises carries the key: not in its message, ``args`` or attributes, nor in
its ``__cause__`` or ``__context__`` (a failed request's exception holds the request, and with
it the ``Authorization`` header).
"""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from werkzeug import Request, Response

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.errors import AuthError, InvalidArgumentError, MatchkitError, ServiceError
from tests.client.conftest import FakeClock

KEY = "planted-key-9d41c7"


def holders(value: Any, secret: str, *, path: str = "error", depth: int = 0, seen=None) -> list:
    """Where in ``value`` (an exception and all it refers to) ``secret`` appears."""
    seen = set() if seen is None else seen
    if id(value) in seen or depth > 8:
        return []
    seen.add(id(value))
    if isinstance(value, str | bytes | bytearray):
        text = value if isinstance(value, str) else bytes(value).decode("latin-1")
        return [path] if secret in text else []
    found = []
    if isinstance(value, BaseException):
        if secret in str(value):
            found.append(f"str({path})")
        found += holders(value.args, secret, path=f"{path}.args", depth=depth + 1, seen=seen)
        for link in ("__cause__", "__context__"):
            found += holders(
                getattr(value, link), secret, path=f"{path}.{link}", depth=depth + 1, seen=seen
            )
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list | tuple | set | frozenset):
        items = list(enumerate(value))
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        items = list(vars(value).items())
    else:
        return found
    for name, item in items:
        found += holders(item, secret, path=f"{path}.{name}", depth=depth + 1, seen=seen)
        if isinstance(name, str) and secret in name:
            found.append(f"{path}[key]")
    return found


@pytest.mark.parametrize(
    "key",
    ["clé-ключ-" + KEY, KEY + "\u2028", " " + KEY, KEY + "\n", KEY + "\x7f", "密钥" + KEY],
)
def test_an_unsendable_key_is_refused_up_front_without_showing_it(tmp_path, key: str) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Client("http://127.0.0.1:9", api_key=key, cache_dir=tmp_path, progress=False)
    assert raised.value.parameter == "api_key"
    assert "Latin-1" in str(raised.value)
    assert holders(raised.value, KEY) == []


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _client(base_url: str, tmp_path) -> Client:
    client = Client(base_url, api_key=KEY, cache_dir=tmp_path, progress=False, rate_limit="off")
    client.retry_policy = RetryPolicy(attempts=2, sleep=FakeClock().sleep)
    return client


def test_a_failed_request_does_not_carry_the_key(tmp_path) -> None:
    with _client(f"http://127.0.0.1:{_closed_port()}", tmp_path) as client:
        for call in (
            lambda: client.matches("2026-10-01", "2026-10-02"),
            lambda: client.get_match("X"),
        ):
            with pytest.raises(ServiceError) as raised:
                call()
            assert holders(raised.value, KEY) == []
            assert raised.value.__cause__ is not None  # what failed is still said


def test_a_service_echoing_the_key_does_not_put_it_in_an_error(httpserver, tmp_path) -> None:
    def echo(request: Request) -> Response:
        said = {"errors": [{"title": "Unauthorized", "detail": request.headers["Authorization"]}]}
        return Response(json.dumps(said), status=401, content_type="application/json")

    httpserver.expect_request("/shards/global/matches/X").respond_with_handler(echo)
    with (
        _client(httpserver.url_for("/").rstrip("/"), tmp_path) as client,
        pytest.raises(AuthError) as raised,
    ):
        client.get_match("X")
    assert isinstance(raised.value, MatchkitError)
    assert "Unauthorized" in str(raised.value)
    assert holders(raised.value, KEY) == []

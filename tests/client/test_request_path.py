"""The one request path (matchkit.client.request): what the code holds, and what it sends.

The imports hold no circle between ``client/`` and ``telemetry/``; the status-to-error mapping
appears once; a client opens one session and one request path, which every request goes
through (telemetry files and the names catalogue too); a parse hook's result is what the path
returns; the key never follows a redirect to another host.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import requests
from pytest_httpserver import HTTPServer
from werkzeug import Response

from matchkit.client.request import SERVICE, Fetched, Limits, RequestPath
from matchkit.client.responses import BadAnswerError
from matchkit.client.retrying import RetryPolicy
from matchkit.client.urls import url_problem
from matchkit.errors import ServiceError

PACKAGE = Path(__file__).resolve().parents[2] / "matchkit"


def _imports(folder: str) -> dict[str, set[str]]:
    """Module -> every matchkit module it imports, at any level (functions and
    ``TYPE_CHECKING`` blocks included)."""
    found: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        found[str(path.relative_to(PACKAGE.parent))] = {
            n for n in names if n.startswith("matchkit")
        }
    return found


def test_the_imports_hold_no_circle_between_client_and_telemetry() -> None:
    telemetry_to_client = {
        module: sorted(name for name in names if name.startswith("matchkit.client"))
        for module, names in _imports("telemetry").items()
    }
    assert {module: names for module, names in telemetry_to_client.items() if names} == {}
    # The one direction: the client downloads telemetry, through its own request path.
    client_to_telemetry = {
        name
        for names in _imports("client").values()
        for name in names
        if name.startswith("matchkit.telemetry")
    }
    assert client_to_telemetry  # the check above is not vacuous


def _status_mappings() -> list[str]:
    """Where a typed error is made of a status: AuthError or NotFoundError constructed, or a
    status code compared with a number outside the request path's own rules."""
    places = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent.name == "service" or path.name == "errors.py":
            continue  # the service side answers statuses; errors.py declares the types
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("AuthError", "NotFoundError")
            ):
                places.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return places


def test_the_status_to_error_mapping_appears_once() -> None:
    places = _status_mappings()
    assert {place.split(":")[0] for place in places} == {"matchkit/client/retrying.py"}
    source = (PACKAGE / "client" / "retrying.py").read_text(encoding="utf-8")
    function = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "status_error"
    )
    assert all(
        function.lineno <= int(place.split(":")[1]) <= function.end_lineno for place in places
    )


def test_the_key_never_follows_a_redirect_to_another_host(httpserver: HTTPServer) -> None:
    """Another origin is another port on loopback: the key goes to the first, not the second."""
    other = HTTPServer(host="127.0.0.1", port=0)
    other.start()
    try:
        other.expect_request("/file").respond_with_data("{}", content_type="application/json")
        httpserver.expect_request("/moved").respond_with_handler(
            lambda request: Response("", status=302, headers={"Location": "/here"})
        )
        httpserver.expect_request("/here").respond_with_handler(
            lambda request: Response("", status=307, headers={"Location": other.url_for("/file")})
        )
        with requests.Session() as session:
            path = RequestPath(session, limits=Limits(timeout=5), retry=RetryPolicy())
            fetched = path.get(
                httpserver.url_for("/moved"),
                peer=SERVICE,
                headers={"Authorization": "Bearer secret-key-9f2a"},
                parse=_as_is,
            )
        assert fetched.redirected
        assert fetched.url == other.url_for("/file")
        seen_here = [request for request, _ in httpserver.log]
        assert [r.headers.get("Authorization") for r in seen_here] == ["Bearer secret-key-9f2a"] * 2
        ((request, _),) = other.log
        assert "Authorization" not in request.headers
    finally:
        other.clear()
        if other.is_running():
            other.stop()


def test_too_many_redirects_are_a_service_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/loop").respond_with_handler(
        lambda request: Response("", status=302, headers={"Location": "/loop"})
    )
    with requests.Session() as session:
        path = RequestPath(
            session,
            limits=Limits(timeout=5, max_redirects=3),
            retry=RetryPolicy(attempts=2, sleep=lambda _: None),
        )
        with pytest.raises(ServiceError, match="more than 3 redirects"):
            path.get(httpserver.url_for("/loop"), peer=SERVICE, headers={}, parse=_as_is)
    assert len(httpserver.log) == 2 * 4  # each attempt: the request and 3 redirects


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://[::1/x", "is not a URL"),
        ("http://127.0.0.1:99999/x", "port out of range"),
        ("ftp://example.com/x", "not an http"),
        ("http:///x", "names no host"),
        ("http://example.com/a b", "spaces or control characters"),
        ("https://example.com:8443/x?y=1", None),
    ],
)
def test_the_url_check(url: str, problem: str | None) -> None:
    found = url_problem(url)
    assert (found is None) if problem is None else (problem in str(found))


def test_a_url_that_cannot_be_sent_is_refused_before_any_request() -> None:
    with requests.Session() as session:
        path = RequestPath(session, limits=Limits(timeout=5))
        with pytest.raises(ServiceError, match="cannot be sent") as raised:
            path.get("http://[::1/x", peer=SERVICE, headers={}, parse=_as_is)
    assert path.network_requests == 0
    assert raised.value.url == "http://[::1/x"


def test_a_parse_refusal_is_retried_never_stored_and_a_parse_result_is_returned(
    httpserver: HTTPServer,
) -> None:
    answers = iter(['{"n": 1}', '{"n": 2}'])
    httpserver.expect_request("/n").respond_with_handler(
        lambda request: Response(next(answers), content_type="application/json")
    )
    stored: list[bytes] = []

    def parse(fetched: Fetched) -> int:
        if fetched.body != b'{"n": 2}':
            raise BadAnswerError(f"n is not 2 in {fetched.body!r}")
        return 2

    with requests.Session() as session:
        path = RequestPath(
            session, limits=Limits(timeout=5), retry=RetryPolicy(sleep=lambda _: None)
        )
        value = path.get(
            httpserver.url_for("/n"),
            peer=SERVICE,
            headers={},
            parse=parse,
            store=lambda response: stored.append(response.content),
        )
    assert value == 2  # what the parse hook read, not the answer it read it from
    assert stored == [b'{"n": 2}']
    assert len(httpserver.log) == 2


def _constructions(names: set[str]) -> list[str]:
    """Where the package calls one of ``names`` (a session or request path being made)."""
    places = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name in names:
                    places.append(str(path.relative_to(PACKAGE.parent)))
    return places


def test_a_client_opens_one_session_and_one_request_path() -> None:
    """No second session on the cache file, no second sender: one place makes each."""
    sessions = _constructions({"Session", "CachedSession", "create_session"})
    assert sessions == ["matchkit/client/cache.py", "matchkit/client/connection.py"]
    assert _constructions({"RequestPath"}) == ["matchkit/client/connection.py"]
    assert _constructions({"Transport"}) == ["matchkit/client/connection.py"]


def _as_is(fetched: Fetched) -> Fetched:
    return fetched

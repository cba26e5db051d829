"""The service fed arbitrary paths, query strings, methods and headers (hypothesis).

Whatever arrives, the service never answers 500: it answers 200 with a JSON:API document, or a
JSON:API error document with one error whose ``status`` equals the HTTP status, and the status
follows the order of the checks (405, 406, 401, 404, 400). Most examples run in-process through
the ASGI interface (fast, and beyond what an HTTP parser would let through); a smaller set goes
over real loopback HTTP, through uvicorn.
"""

from __future__ import annotations

import asyncio
import gzip
import string
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlencode

import orjson
import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit.service import create_app, running
from matchkit.service.auth import ApiKeys
from matchkit.service.responses import negotiate
from tests.sessions import pooled_session

KEY = "fuzz-key-3b8d0c"
ALLOWED_STATUSES = {200, 400, 401, 404, 405, 406}
WIRE_NAMES = [
    "page[limit]",
    "page[offset]",
    "sort",
    "filter[createdAt-start]",
    "filter[createdAt-end]",
    "filter[playerIds]",
    "filter[patchVersion]",
    "filter[serverType]",
    "filter[rankingType]",
    "filter[playerNames]",
    "filter[teamNames]",
    "filter[gameMode]",
]
PLAUSIBLE_VALUES = [
    "0",
    "1",
    "5",
    "50",
    "-1",
    "1e3",
    "９",
    # Paging values that were 500s (issue 11 item 10): a double sign, beyond 2^63-1, beyond
    # Python's int-str limit of 4,300 digits.
    "--5",
    str(2**63),
    "9" * 4301,
    "0" * 4400 + "1",
    "LEAGUE2V2",
    ",".join(str(number) for number in range(7)),
    "2026-10-01T00:00:00Z",
    "2026-10-01T00:00:00 0100",
    "2026-13-45T99:99:99Z",
    "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "createdAt",
    "-createdAt",
    "QUICK3v3",
    "RANKED",
    ",,,",
    "",
    "\x00",
    "%",
    "a" * 3000,
]

text = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40
)  # no lone surrogates: they cannot be encoded at all
header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=60)
shard = st.sampled_from(["global", "na", "GLOBAL", "eu", "", "..", "%2e%2e"]) | text
match_id = st.sampled_from(["..", "../..", "%2F", "x" * 500, "\u202e", "1"]) | text
path = st.one_of(
    st.builds(lambda s: f"/shards/{s}/matches", shard),
    st.builds(lambda s, m: f"/shards/{s}/matches/{m}", shard, match_id),
    st.sampled_from(["/status", "/", "/shards", "/shards/global", "/shards/global/matches/"]),
    st.builds(lambda t: "/" + t, text),
)
pairs = st.lists(
    st.tuples(st.sampled_from(WIRE_NAMES) | text, st.sampled_from(PLAUSIBLE_VALUES) | text),
    max_size=5,
)
query_string = st.one_of(
    pairs.map(lambda items: urlencode(items).encode()),
    st.binary(max_size=80),
    st.text(alphabet=string.printable, max_size=80).map(str.encode),
)
method = st.sampled_from(["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"])
accept = st.sampled_from(
    [
        None,
        "application/vnd.api+json",
        "application/json",
        "*/*",
        "text/html",
        "application/json;q=0",
        "application/json;q=abc",
        ";;;,,",
    ]
) | st.one_of(header_text)
authorization = st.sampled_from(
    [None, f"Bearer {KEY}", KEY, f"bearer   {KEY}  ", "Bearer", "Bearer wrong", ""]
) | st.one_of(header_text)
other_headers = st.lists(
    st.tuples(
        st.sampled_from(["host", "accept-encoding", "x-title-id", "origin", "content-length"])
        | st.text(alphabet=string.ascii_lowercase + "-", min_size=1, max_size=20),
        header_text,
    ),
    max_size=4,
)


@pytest.fixture(scope="module")
def app(dataset_dir, store_dir):
    return create_app(data=dataset_dir, store_dir=store_dir, api_keys=[KEY], rate_limit="off")


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    event_loop = asyncio.new_event_loop()
    yield event_loop
    event_loop.close()


def call(loop, app, *, method, path, query, headers) -> tuple[int, dict[str, str], bytes]:
    """One request through the ASGI interface; returns status, headers and body."""
    messages: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": quote(path, safe="/").encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent_body = False

    async def receive() -> dict[str, Any]:
        nonlocal sent_body
        if not sent_body:
            sent_body = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    loop.run_until_complete(app(scope, receive, send))
    start = messages[0]
    assert start["type"] == "http.response.start"
    response_headers = {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in start["headers"]
    }
    body = b"".join(message.get("body", b"") for message in messages[1:])
    return start["status"], response_headers, body


def check_answer(method: str, status: int, headers: dict[str, str], body: bytes) -> None:
    """The invariants of every answer."""
    assert status in ALLOWED_STATUSES, (status, body[:300])
    assert headers["access-control-allow-origin"] == "*"
    if method == "HEAD":
        return  # no body to read
    assert headers["content-type"] in ("application/json", "application/vnd.api+json")
    if headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    document = orjson.loads(body)
    if status == 200:
        assert "data" in document
        return
    errors = document["errors"]
    assert len(errors) == 1
    assert errors[0]["status"] == str(status)
    assert errors[0]["title"]
    assert errors[0]["detail"]


def expected_status(method, path, accept_ok, authorized) -> int | None:
    """The status the order of checks fixes, where it is fixed without reading the data."""
    parts = path.split("/")
    is_match_endpoint = (
        len(parts) in (4, 5)
        and parts[1] == "shards"
        and parts[3] == "matches"
        and all(parts[2:])  # an empty shard or id is no route
    )
    if not is_match_endpoint:
        return None
    if method not in ("GET", "HEAD"):
        return 405
    if not accept_ok:
        return 406
    if not authorized:
        return 401
    if parts[2] not in ("global", "na"):
        return 404
    return None


@settings(
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    method=method,
    path=path,
    query=query_string,
    accept=accept,
    authorization=authorization,
    extra=other_headers,
)
def test_any_request_gets_a_json_api_answer_never_a_500(
    app, loop, method, path, query, accept, authorization, extra
):
    headers = list(extra)
    if accept is not None:
        headers.append(("accept", accept))
    if authorization is not None:
        headers.append(("authorization", authorization))
    status, response_headers, body = call(
        loop, app, method=method, path=path, query=query, headers=headers
    )
    check_answer(method, status, response_headers, body)
    # Where the request carries at most one of each header, the status is predictable.
    accepts = [value for name, value in headers if name == "accept"]
    auths = [value for name, value in headers if name == "authorization"]
    if len(accepts) <= 1 and len(auths) <= 1:
        accept_ok = negotiate(accepts[0] if accepts else None) is not None
        authorized = ApiKeys([KEY]).authenticate(auths[0] if auths else None) is not None
        expected = expected_status(method, path, accept_ok, authorized)
        if expected is not None:
            assert status == expected, (status, body[:300])


@settings(max_examples=100, deadline=None)
@given(path=path, query=pairs, accept=accept)
def test_over_http_no_request_gets_a_500(live, path, query, accept):
    headers = {"Authorization": f"Bearer {KEY}"}
    if accept is not None:
        headers["Accept"] = accept
    url = live.base_url + quote(path, safe="/%")
    try:
        response = live.session.get(url, params=query, headers=headers, timeout=30)
    except (requests.exceptions.InvalidURL, requests.exceptions.InvalidHeader):
        return  # requests refuses to send it: nothing reached the service
    assert response.status_code != 500
    body = response.content
    if response.status_code == 400 and not response.headers.get("content-type", "").endswith(
        "json"
    ):
        # uvicorn's own answer to a request line it cannot parse (never reaches the app).
        assert body == b"Invalid HTTP request received."
        return
    check_answer(
        "GET",
        response.status_code,
        # requests has already undone the gzip encoding of the body.
        {
            name.lower(): value
            for name, value in response.headers.items()
            if name.lower() != "content-encoding"
        },
        body,
    )


class _Live:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.session = pooled_session()


@pytest.fixture(scope="module")
def live(dataset_dir, store_dir) -> Iterator[_Live]:
    with running(data=dataset_dir, store_dir=store_dir, api_keys=[KEY]) as service:
        yield _Live(service.base_url)


# -- regressions found by the fuzzing above ----------------------------------------------------


def test_regression_query_string_not_utf8_is_not_a_500(app, loop):
    # A raw byte 0x80 in the query made Starlette's URL decoding fail inside the handler.
    status, headers, body = call(loop, app, method="GET", path="/status", query=b"\x80", headers=[])
    check_answer("GET", status, headers, body)
    assert status == 400
    status, _, _ = call(
        loop,
        app,
        method="GET",
        path="/shards/global/matches",
        query=b"page[limit]=\xff",
        headers=[("authorization", f"Bearer {KEY}")],
    )
    assert status == 400


def test_regression_status_with_an_empty_query_is_not_a_500(app, loop):
    # "/status?&" has a query string but no parameters: indexing the first one failed.
    status, headers, body = call(loop, app, method="GET", path="/status", query=b"&", headers=[])
    check_answer("GET", status, headers, body)
    assert status == 200


@pytest.mark.parametrize("host", ['evil"host', "a b", "x/y?z", "", "[zz]:1", "h:99999999"])
def test_regression_host_header_text_never_lands_in_links(app, loop, host):
    # The Host header went unchecked into the links (and a '"' broke the JSON body).
    status, _, body = call(
        loop,
        app,
        method="GET",
        path="/shards/global/matches",
        query=b"page[limit]=1",
        headers=[("authorization", f"Bearer {KEY}"), ("host", host)],
    )
    assert status == 200
    document = orjson.loads(body)
    for link in document["links"].values():
        assert link.startswith("http://127.0.0.1:8000/shards/global/matches?")
    assert all(
        resource["links"]["self"].startswith("http://127.0.0.1:8000/")
        for resource in document["data"]
    )


def test_a_proper_host_header_is_used_in_links(app, loop):
    status, _, body = call(
        loop,
        app,
        method="GET",
        path="/shards/global/matches",
        query=b"page[limit]=1",
        headers=[("authorization", f"Bearer {KEY}"), ("host", "api.example.org:8443")],
    )
    assert status == 200
    assert orjson.loads(body)["links"]["self"].startswith("http://api.example.org:8443/")


@pytest.mark.parametrize("path", ["/\n", "/x\ny", "/shards\n"])
def test_regression_path_with_a_newline_gets_a_json_api_404(app, loop, path):
    # No route pattern matched a newline, and Starlette answered a plain-text 404.
    status, headers, body = call(loop, app, method="GET", path=path, query=b"", headers=[])
    check_answer("GET", status, headers, body)
    assert status == 404

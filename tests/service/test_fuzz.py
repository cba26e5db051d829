"""The service fed arbitrary paths, query strings, methods and headers (hypothesis).

Whatever arrives, the service never answers 500: it answers 200 with a JSON:API document, or a
JSON:API error document with one error whose ``status`` equals the HTTP status, and the status
follows the order of the checks (405, 406, 401, 404, 400). Most examples run in-process through
the ASGI interface (fast, and beyond what an HTTP parser would let through); a smaller set goes
over real loopback HTTP, through uvicorn.
"""

from __future__ import annotations

import asyncio
import string
from collections.abc import Iterator
from urllib.parse import quote, urlencode

import orjson
import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit.service import create_app, running
from matchkit.service.auth import ApiKeys
from matchkit.service.responses import negotiate
from tests.service.asgi import KEY, call, check_answer, event_loop, list_matches
from tests.sessions import pooled_session

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
    with event_loop() as running_loop:
        yield running_loop


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


def test_a_proper_host_header_is_used_in_links(app, loop):
    host = ("host", "api.example.org:8443")
    status, _, body = list_matches(loop, app, query=b"page[limit]=1", headers=[host])
    assert status == 200
    assert orjson.loads(body)["links"]["self"].startswith("http://api.example.org:8443/")

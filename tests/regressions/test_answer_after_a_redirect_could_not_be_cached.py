"""Found by the chaos suite (tests/chaos, entries redirect_within and redirect_elsewhere): an
answer that arrives at the end of a redirect could not be stored in the cache: a telemetry
file, a single match, a list page alike.

The CDN answers ``GET /telemetry/a.json`` with a 302 to ``/moved/telemetry/a.json``, which
answers the file. requests follows the redirect; the response then carries the redirect in its
``history``, whose body (``b""``) the cache's serializer (``matchkit/client/cachefile.py``,
``_seal``) passed to ``orjson.dumps``: ``Client.telemetry`` raised a raw
``TypeError: Type is not JSON serializable: bytes`` instead of returning the telemetry
(``Client.get_match`` and ``Client.matches`` the same, through ``Transport._store``).

Fixed by the one request path (``matchkit/client/request.py`` follows redirects itself, so
a stored answer carries no redirect history).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_httpserver import HTTPServer

from matchkit.client.client import Client
from tests.telemetry.test_download import (  # noqa: F401 (fixtures)
    MATCH_ID,
    frames_with_url,
    make_client,
    match_document,
    telemetry_bytes,
)


def test_telemetry_answered_after_a_redirect_is_returned_and_cached(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],  # noqa: F811
    match_document: dict[str, Any],  # noqa: F811
    telemetry_bytes: bytes,  # noqa: F811
) -> None:
    httpserver.expect_request("/telemetry/a.json").respond_with_data(
        "", status=302, headers={"Location": httpserver.url_for("/moved/telemetry/a.json")}
    )
    httpserver.expect_request("/moved/telemetry/a.json").respond_with_data(
        telemetry_bytes, content_type="application/json"
    )
    frames = frames_with_url(match_document, httpserver.url_for("/telemetry/a.json"))
    client = make_client()
    telemetry = client.telemetry(frames)
    assert telemetry.files["match_id"].tolist() == [MATCH_ID]
    served = len(httpserver.log)
    again = make_client(offline=True).telemetry(frames)  # from the cache alone
    assert len(httpserver.log) == served
    assert again.files["events"].tolist() == telemetry.files["events"].tolist()


def test_match_answered_after_a_redirect_is_returned_and_cached(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],  # noqa: F811
    match_document: dict[str, Any],  # noqa: F811
) -> None:
    path = f"/shards/global/matches/{MATCH_ID}"
    httpserver.expect_request(path).respond_with_data(
        "", status=301, headers={"Location": httpserver.url_for("/moved" + path)}
    )
    httpserver.expect_request("/moved" + path).respond_with_json(
        match_document, content_type="application/vnd.api+json"
    )
    match = make_client().get_match(MATCH_ID)
    assert match.matches["match_id"].tolist() == [MATCH_ID]
    again = make_client(offline=True).get_match(MATCH_ID)  # from the cache alone
    assert again.matches["match_id"].tolist() == [MATCH_ID]

"""Request conventions over HTTP: content negotiation, gzip, CORS, methods, 404s, authentication
and status (interface.md "Request conventions", "Authentication", "Limits"; decisions 5-7,
10, 12, 13)."""

from __future__ import annotations

import gzip

import pytest
import requests

from matchkit.service import running
from tests.service.conftest import VND, error_of

LIST = "/shards/global/matches"
PREFLIGHT = {
    "access-control-allow-headers": "Origin,X-Title-Id,Authorization",
    "access-control-allow-methods": "GET,POST,OPTIONS",
    "access-control-allow-origin": "*",
    "access-control-max-age": "86400",
}


@pytest.mark.parametrize(
    ("accept", "content_type"),
    [
        (VND, VND),
        ("application/json", "application/json"),
        ("*/*", "application/json"),
        (None, "application/json"),
        ("text/html, application/vnd.api+json;q=0.5", VND),
    ],
)
def test_content_type_mirrors_the_requested_format(api, accept, content_type):
    headers = {} if accept is None else {"Accept": accept}
    if accept is None:
        # requests sends "Accept: */*" unless the header is removed.
        headers["Accept"] = None
    response = api.get(LIST, headers=headers)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == content_type


@pytest.mark.parametrize("accept", ["text/html", "application/xml", "application/json;q=0"])
def test_unacceptable_format_is_406(api, accept):
    response = api.get(LIST, headers={"Accept": accept})
    assert response.status_code == 406
    assert error_of(response)["title"] == "Not Acceptable"


def test_errors_mirror_the_requested_format_too(api):
    response = api.get(LIST, {"page[limit]": "0"}, headers={"Accept": VND})
    assert response.status_code == 400
    assert response.headers["Content-Type"] == VND


@pytest.mark.parametrize("path", [LIST, f"{LIST}?page[limit]=0", "/status", "/nowhere"])
def test_gzip_when_asked_and_the_body_decompresses(api, path):
    response = api.session.get(
        api.base_url + path,
        headers={**api.auth(), "Accept-Encoding": "gzip"},
        stream=True,
        timeout=30,
    )
    assert response.headers["Content-Encoding"] == "gzip"
    raw = response.raw.read(decode_content=False)
    assert int(response.headers["Content-Length"]) == len(raw)
    document = gzip.decompress(raw)
    assert document.startswith(b'{"')


def test_no_compression_without_gzip_in_accept_encoding(api):
    response = api.get(LIST, headers={"Accept-Encoding": "identity"}, stream=True)
    assert "Content-Encoding" not in response.headers
    raw = response.raw.read(decode_content=False)
    assert raw.startswith(b'{"data":')


def test_gzip_refused_with_q_zero(api):
    response = api.get(LIST, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in response.headers


@pytest.mark.parametrize(
    "path", [LIST, "/status", "/shards/global/matches/NOPE", "/nowhere", f"{LIST}?sort=x"]
)
def test_cors_headers_on_every_response(api, path):
    response = api.session.get(api.base_url + path, headers=api.auth(), timeout=30)
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.headers["Access-Control-Expose-Headers"] == "Content-Length"


@pytest.mark.parametrize("path", [LIST, "/status", "/shards/na/matches/x", "/anything/else"])
def test_preflight_answers_200_with_the_exact_headers(api, path):
    response = api.session.options(
        api.base_url + path,
        headers={
            "Origin": "https://notebook.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "Authorization,X-Title-Id",
        },
        timeout=30,
    )
    assert response.status_code == 200
    for name, value in PREFLIGHT.items():
        assert response.headers[name] == value


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", [LIST, "/status", "/shards/global/matches/ABC"])
def test_other_methods_are_405_with_allow(api, method, path):
    response = api.session.request(method, api.base_url + path, headers=api.auth(), timeout=30)
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"
    assert error_of(response)["title"] == "Method Not Allowed"


def test_head_has_the_headers_of_get_and_no_body(api):
    get = api.get(LIST, headers={"Accept-Encoding": "identity"})
    head = api.session.head(
        api.base_url + LIST, headers={**api.auth(), "Accept-Encoding": "identity"}, timeout=30
    )
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["Content-Length"] == str(len(get.content))
    assert head.headers["Content-Type"] == get.headers["Content-Type"]


def test_unknown_shard_is_404(api):
    response = api.get("/shards/eu/matches")
    assert response.status_code == 404
    assert "eu" in error_of(response)["detail"]
    assert api.get("/shards/eu/matches/ABC").status_code == 404


def test_unknown_match_is_404(api):
    response = api.get("/shards/global/matches/0000000000000000000000000000FFFF")
    assert response.status_code == 404
    assert error_of(response)["title"] == "Not Found"


def test_match_of_the_other_shard_is_404(api, oracle):
    global_id = oracle.matches["global"][-1].id
    assert api.get(f"/shards/na/matches/{global_id}").status_code == 404


@pytest.mark.parametrize("path", ["/", "/matches", "/shards/global", "/shards/global/teams"])
def test_undocumented_endpoints_are_404_json_api(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert error_of(response)["status"] == "404"


def test_unknown_parameter_is_400_naming_it(api):
    response = api.get(LIST, {"filter[playerId]": "1"})
    assert response.status_code == 400
    error = error_of(response)
    assert error["source"] == {"parameter": "filter[playerId]"}
    assert "filter[playerId]" in error["detail"]


def test_repeated_parameter_is_400(api):
    response = api.session.get(
        f"{api.base_url}{LIST}?page[limit]=2&page[limit]=3", headers=api.auth(), timeout=30
    )
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "page[limit]"}


def test_single_match_takes_no_parameters(api, oracle):
    match_id = oracle.matches["global"][-1].id
    response = api.get(f"/shards/global/matches/{match_id}", {"page[limit]": "1"})
    assert response.status_code == 400


def test_missing_key_is_401(api):
    response = api.session.get(api.base_url + LIST, timeout=30)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert error_of(response)["title"] == "Unauthorized"


@pytest.mark.parametrize("header", ["Bearer wrong-key", "wrong-key", "Bearer", "Basic abc"])
def test_unknown_key_is_401_and_not_echoed(api, header):
    response = api.session.get(api.base_url + LIST, headers={"Authorization": header}, timeout=30)
    assert response.status_code == 401
    assert "wrong-key" not in response.text
    assert "abc" not in response.text


def test_bare_key_and_lower_case_scheme_are_accepted(api, service):
    for header in (service.api_key, f"bearer {service.api_key}"):
        response = api.session.get(
            api.base_url + LIST, headers={"Authorization": header}, timeout=30
        )
        assert response.status_code == 200


def test_x_title_id_is_optional_and_ignored(api):
    plain = api.get(LIST).json()
    titled = api.get(LIST, headers={"X-Title-Id": "anything"}).json()
    assert titled["data"] == plain["data"]


def test_match_endpoints_need_a_key_but_status_does_not(api, service):
    response = requests.get(f"{service.base_url}/status", timeout=30)
    assert response.status_code == 200
    status = response.json()["data"]
    assert status["type"] == "status"
    assert status["id"] == "matchkit"
    assert set(status["attributes"]) == {"releasedAt", "version"}
    assert status["attributes"]["releasedAt"] == "2026-10-31T00:00:00Z"
    single = requests.get(f"{service.base_url}/shards/global/matches/X", timeout=30)
    assert single.status_code == 401


def test_request_log_counts_requests_without_headers(service):
    before = len(service.requests)
    requests.get(f"{service.base_url}/status", headers={"Authorization": "secret"}, timeout=30)
    entries = service.requests.entries
    assert len(entries) == before + 1
    assert entries[-1].path == "/status"
    assert entries[-1].status == 200
    assert "secret" not in repr(entries[-1])


def test_api_key_is_not_in_the_handle_repr(service):
    assert service.api_key not in repr(service)
    assert service.api_key not in repr(service.app.state.service.api_keys)


def test_internal_error_is_a_json_api_500(dataset_dir, store_dir):
    with running(data=dataset_dir, store_dir=store_dir) as service:
        store = service.app.state.service.store

        def broken(*args, **kwargs):
            raise RuntimeError("disk on fire")

        store.list_matches = broken
        response = requests.get(
            f"{service.base_url}{LIST}",
            headers={"Authorization": f"Bearer {service.api_key}"},
            timeout=30,
        )
        assert response.status_code == 500
        error = error_of(response)
        assert error["title"] == "Internal Server Error"
        assert "disk on fire" not in error["detail"]

"""The service's telemetry files over real HTTP on loopback (telemetry.md, "What matchkit decides").

A generated data set (the generator's documents, whose assets the service serves) behind the
embedded service; requests plays the clients, old and new.
"""

from __future__ import annotations

import gzip
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import requests

from matchkit.sampledata.dataset import open_dataset
from matchkit.sampledata.telemetry import telemetry_bytes
from matchkit.service import RunningService, running
from matchkit.synth import write_dataset
from tests.builders.consistency import mismatches_of, telemetry_mismatches
from tests.sessions import pooled_session

URL_SHAPE = re.compile(
    r"(?P<base>http://127\.0\.0\.1:\d+)/telemetry/global/"
    r"(?P<time>\d{4}/\d{2}/\d{2}/\d{2}/\d{2})/(?P<id>[0-9a-f-]{36})-telemetry\.json"
)
KEY = "telemetry-test-key-5f0c1d"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("telemetry-data")
    write_dataset(folder, matches=60, na_matches=4)
    return folder


@pytest.fixture(scope="module")
def documents(data_dir: Path) -> dict[str, dict[str, Any]]:
    return {doc["data"]["id"]: doc for doc in open_dataset(data_dir).iter_documents("global")}


@pytest.fixture(scope="module")
def served(data_dir: Path, tmp_path_factory) -> Iterator[RunningService]:
    store = tmp_path_factory.mktemp("telemetry-store")
    with running(data=data_dir, store_dir=store, api_keys=[KEY], rate_limit="1/minute") as handle:
        yield handle


@pytest.fixture(scope="module")
def assets(served: RunningService, documents) -> dict[str, tuple[str, dict[str, Any]]]:
    """match id -> (the asset URL the API gives, the asset resource), for every global match."""
    found = {}
    for match_id in documents:  # one key, one token a minute: spend it on the first only
        response = requests.get(
            f"{served.base_url}/shards/global/matches/{match_id}",
            headers={"Authorization": f"Bearer {KEY}"},
            timeout=30,
        )
        if response.status_code == 429:
            break
        assert response.status_code == 200, response.text
        asset = next(i for i in response.json()["included"] if i["type"] == "asset")
        found[match_id] = (asset["attributes"]["URL"], asset)
    assert len(found) == 1
    for match_id, document in documents.items():
        if match_id in found:
            continue
        asset = next(i for i in document["included"] if i["type"] == "asset")
        url = asset["attributes"]["URL"].replace(
            "https://cdn.example.com/example-studio-arena", f"{served.base_url}/telemetry"
        )
        found[match_id] = (url, asset)
    return found


def _first(assets) -> tuple[str, str]:
    match_id, (url, _) = next(iter(assets.items()))
    return match_id, url


def test_asset_urls_are_absolute_on_the_service_with_the_real_path_shape(served, assets):
    match_id, url = _first(assets)
    shape = URL_SHAPE.fullmatch(url)
    assert shape is not None, url
    assert shape["base"] == served.base_url
    asset = assets[match_id][1]
    assert shape["id"] == asset["id"]
    created = asset["attributes"]["createdAt"]  # YYYY-MM-DDTHH:MM:SSZ
    assert (
        shape["time"]
        == f"{created[:4]}/{created[5:7]}/{created[8:10]}/{created[11:13]}/" + (created[14:16])
    )


def test_an_old_client_gets_the_file_without_a_key(served, assets, documents):
    match_id, url = _first(assets)
    response = requests.get(url, headers={"Accept": "application/json"}, timeout=30)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.content == telemetry_bytes(documents[match_id])
    assert telemetry_mismatches(documents[match_id], response.json()) == []


def test_every_match_of_the_data_set_is_served_consistently(served, assets, documents):
    session = pooled_session()
    files = []
    for match_id, (url, _) in assets.items():
        response = session.get(url, timeout=30)
        assert response.status_code == 200, (match_id, response.text[:200])
        files.append(orjson.loads(response.content))
    assert mismatches_of([documents[match_id] for match_id in assets], files) == []


def test_a_key_sent_anyway_is_ignored_and_never_logged(served, assets, caplog):
    caplog.set_level(logging.DEBUG)
    _, url = _first(assets)
    secret = "not-a-valid-key-but-secret-9d8e7f"
    for key in (secret, KEY):
        response = requests.get(url, headers={"Authorization": f"Bearer {key}"}, timeout=30)
        assert response.status_code == 200
        assert key.encode() not in response.content
        assert all(key not in value for value in response.headers.values())
        assert key not in caplog.text
        assert all(key not in repr(entry) for entry in served.requests.entries)


def test_gzip_when_asked(served, assets):
    _, url = _first(assets)
    plain = requests.get(url, headers={"Accept-Encoding": "identity"}, timeout=30)
    packed = requests.get(url, headers={"Accept-Encoding": "gzip"}, stream=True, timeout=30)
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    raw = packed.raw.read(decode_content=False)
    assert int(packed.headers["content-length"]) == len(raw) < len(plain.content) / 4
    assert gzip.decompress(raw) == plain.content
    assert "Accept-Encoding" in packed.headers["vary"]


def test_etag_and_304(served, assets):
    _, url = _first(assets)
    first = requests.get(url, headers={"Accept-Encoding": "identity"}, timeout=30)
    etag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    again = requests.get(
        url, headers={"If-None-Match": etag, "Accept-Encoding": "identity"}, timeout=30
    )
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    assert again.headers["cache-control"] == first.headers["cache-control"]
    zipped = requests.get(url, headers={"Accept-Encoding": "gzip"}, timeout=30)
    assert zipped.headers["etag"] not in (etag, "")  # another representation, another tag
    other = requests.get(url, headers={"If-None-Match": '"0000"'}, timeout=30)
    assert other.status_code == 200


def test_cache_control_immutable_and_last_modified(served, assets):
    match_id, url = _first(assets)
    response = requests.get(url, timeout=30)
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    created = assets[match_id][1]["attributes"]["createdAt"]
    from email.utils import parsedate_to_datetime

    moment = parsedate_to_datetime(response.headers["last-modified"])
    assert moment.strftime("%Y-%m-%dT%H:%M:%SZ") == created


def test_cors_like_the_api(served, assets):
    _, url = _first(assets)
    response = requests.get(url, headers={"Origin": "https://notebook.example"}, timeout=30)
    assert response.headers["access-control-allow-origin"] == "*"
    preflight = requests.options(url, headers={"Origin": "https://notebook.example"}, timeout=30)
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "GET" in preflight.headers["access-control-allow-methods"]
    api = requests.options(f"{served.base_url}/shards/global/matches", timeout=30)
    for name in ("access-control-allow-methods", "access-control-allow-headers"):
        assert preflight.headers[name] == api.headers[name]


def test_head_tells_the_size_without_the_body(served, assets):
    _, url = _first(assets)
    full = requests.get(url, headers={"Accept-Encoding": "identity"}, timeout=30)
    head = requests.head(url, headers={"Accept-Encoding": "identity"}, timeout=30)
    assert head.status_code == 200
    assert head.content == b""
    assert int(head.headers["content-length"]) == len(full.content)
    assert head.headers["etag"] == full.headers["etag"]


def _json_api_404(response: requests.Response) -> str:
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert response.headers["access-control-allow-origin"] == "*"
    (error,) = response.json()["errors"]
    assert error["status"] == "404"
    assert error["title"] == "Not Found"
    return error["detail"]


def test_unknown_assets_and_wrong_times_are_json_api_404s(served, assets):
    _, url = _first(assets)
    shape = URL_SHAPE.fullmatch(url)
    unknown = url.replace(shape["id"], "00000000-0000-4000-8000-000000000000")
    assert "no telemetry file" in _json_api_404(requests.get(unknown, timeout=30))
    minute = int(shape["time"][-2:])
    moved = url.replace(f"{shape['time']}/", f"{shape['time'][:-2]}{(minute + 1) % 60:02d}/")
    assert moved != url
    _json_api_404(requests.get(moved, timeout=30))
    for path in ("/telemetry/global/", "/telemetry/global/2026/x.json", "/telemetry/na/a.json"):
        _json_api_404(requests.get(f"{served.base_url}{path}", timeout=30))
    head = requests.head(unknown, timeout=30)
    assert head.status_code == 404
    assert head.headers["content-type"] == "application/json"
    assert int(head.headers["content-length"]) > 0


def test_other_methods_are_refused(served, assets):
    _, url = _first(assets)
    response = requests.post(url, data=b"{}", timeout=30)
    assert response.status_code == 405
    assert response.json()["errors"][0]["status"] == "405"
    assert "GET" in response.headers["allow"]


def test_not_rate_limited(served, assets):
    """The service allows one API request a minute here; telemetry is not counted."""
    api = requests.get(
        f"{served.base_url}/shards/global/matches",
        headers={"Authorization": f"Bearer {KEY}"},
        timeout=30,
    )
    assert api.status_code == 429  # the limit is live (the fixture spent the token)
    session = pooled_session()
    urls = [url for url, _ in assets.values()][:10]
    statuses = [
        session.get(url, headers={"Authorization": f"Bearer {KEY}"}, timeout=30).status_code
        for url in urls * 5
    ]
    assert statuses == [200] * len(statuses)
    assert all(
        "x-ratelimit-remaining" not in session.get(urls[0], timeout=30).headers for _ in "ab"
    )


def test_files_of_other_sources_are_not_made_up(service, api):
    """The factory data set's assets point elsewhere: not rewritten, not served."""
    response = api.get("/shards/global/matches", {"page[limit]": 5})
    assert response.status_code == 200
    asset = next(i for i in response.json()["included"] if i["type"] == "asset")
    assert asset["attributes"]["URL"].startswith("https://cdn.example.invalid/")
    created = asset["attributes"]["createdAt"]
    folder = f"{created[:4]}/{created[5:7]}/{created[8:10]}/{created[11:13]}/{created[14:16]}"
    path = f"/telemetry/global/{folder}/{asset['id']}-telemetry.json"
    assert "no telemetry file" in _json_api_404(requests.get(service.base_url + path, timeout=30))

"""Client.names() against the reference service over loopback: GET /catalogue, with no key,
through the client's one request path (names.py sends no request)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from pytest_httpserver import HTTPServer

from matchkit.client.client import Client
from matchkit.client.retrying import RetryPolicy
from matchkit.errors import DocumentError, NotFoundError, ServiceError
from matchkit.names import Names, sample_names
from matchkit.service import running
from matchkit.synth.names import write_catalogue
from tests.builders.datasets import build_dataset


@pytest.fixture(scope="module")
def data_folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    named = tmp_path_factory.mktemp("named")
    build_dataset(named, global_matches=20, na_matches=5)
    write_catalogue(named)
    bare = tmp_path_factory.mktemp("bare")
    build_dataset(bare, global_matches=20, na_matches=5)
    return named, bare


def fetch_names(base_url: str, cache_dir: Path, **options: Any) -> Names:
    """The catalogue at ``base_url``, as a client of it reads it (retries never wait)."""
    options.setdefault("api_key", "secret-key-0123456789")
    with Client(
        base_url, cache_dir=cache_dir, now="2026-10-31", progress=False, **options
    ) as client:
        client.retry_policy = RetryPolicy(attempts=3, sleep=lambda _: None)
        return client.names()


@pytest.fixture(scope="module")
def named_service(data_folders, tmp_path_factory) -> Iterator[str]:
    store = tmp_path_factory.mktemp("store-named")
    with running(data=data_folders[0], store_dir=store, api_keys=["k" * 32]) as service:
        yield service.base_url


def test_the_service_serves_its_catalogue_without_a_key(named_service, tmp_path):
    names = fetch_names(named_service, tmp_path)
    assert names.names == sample_names().names
    assert names.source == f"{named_service}/catalogue"
    response = requests.get(f"{named_service}/catalogue", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["access-control-allow-origin"] == "*"
    assert response.headers["content-encoding"] == "gzip"  # asked for by requests
    plain = {"Accept-Encoding": "identity"}
    head = requests.head(f"{named_service}/catalogue", headers=plain, timeout=10)
    assert head.status_code == 200
    assert head.content == b""
    assert int(head.headers["content-length"]) == len(response.content)


def test_the_catalogue_answers_other_methods_as_the_service_does(named_service):
    assert requests.options(f"{named_service}/catalogue", timeout=10).status_code == 200
    refused = requests.post(f"{named_service}/catalogue", timeout=10)
    assert refused.status_code == 405
    assert refused.json()["errors"][0]["status"] == "405"


def test_a_data_set_without_a_catalogue_is_a_404_not_empty_names(data_folders, tmp_path):
    with running(data=data_folders[1], store_dir=tmp_path) as service:
        response = requests.get(f"{service.base_url}/catalogue", timeout=10)
        assert response.status_code == 404
        assert "no catalogue" in response.json()["errors"][0]["detail"]
        with pytest.raises(NotFoundError, match="ids stay ids") as raised:
            fetch_names(service.base_url, tmp_path / "cache")
    assert raised.value.status == 404


def test_the_api_key_is_not_sent_and_the_catalogue_is_not_cached(
    httpserver: HTTPServer, tmp_path: Path
):
    httpserver.expect_request("/catalogue").respond_with_json({"names": {"map": {"A": "Bay"}}})
    base_url = httpserver.url_for("/").rstrip("/")
    names = fetch_names(base_url, tmp_path)
    assert names.name("map", "A") == "Bay"
    assert names.source == f"{base_url}/catalogue"
    assert fetch_names(base_url, tmp_path).names == names.names
    assert [request.path for request, _ in httpserver.log] == ["/catalogue"] * 2  # not cached
    assert all("Authorization" not in request.headers for request, _ in httpserver.log)


def test_answers_that_are_not_a_catalogue_are_errors(httpserver: HTTPServer, tmp_path: Path):
    httpserver.expect_request("/a/catalogue").respond_with_data("<html>", status=200)
    httpserver.expect_request("/b/catalogue").respond_with_json({"data": []})
    httpserver.expect_request("/c/catalogue").respond_with_data("busy", status=503)
    with pytest.raises(DocumentError, match="a body that is not JSON"):
        fetch_names(httpserver.url_for("/a"), tmp_path)
    with pytest.raises(DocumentError, match="a catalogue is an object with a 'names' object"):
        fetch_names(httpserver.url_for("/b"), tmp_path)
    with pytest.raises(ServiceError, match="503 from GET") as raised:
        fetch_names(httpserver.url_for("/c"), tmp_path)
    assert raised.value.status == 503


def test_an_unreachable_service_is_a_service_error(tmp_path: Path):
    with pytest.raises(ServiceError, match="unreachable"):
        fetch_names("http://127.0.0.1:9", tmp_path, timeout=2)


def test_names_py_sends_no_request():
    """names.py reads catalogues; the client fetches them (no import of the client, no HTTP)."""
    import ast

    import matchkit.names

    source = Path(matchkit.names.__file__).read_text(encoding="utf-8")
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not {
        name for name in imported if name and name.startswith(("matchkit.client", "requests"))
    }

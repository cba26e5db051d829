"""fetch_names against the reference service over loopback: GET /catalogue, with no key."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from pytest_httpserver import HTTPServer

from matchkit.errors import DocumentError, NotFoundError, ServiceError
from matchkit.names import fetch_names, sample_names
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


@pytest.fixture(scope="module")
def named_service(data_folders, tmp_path_factory) -> Iterator[str]:
    store = tmp_path_factory.mktemp("store-named")
    with running(data=data_folders[0], store_dir=store, api_keys=["k" * 32]) as service:
        yield service.base_url


def test_the_service_serves_its_catalogue_without_a_key(named_service):
    names = fetch_names(named_service)
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
            fetch_names(service.base_url)
    assert raised.value.status == 404


def test_the_api_key_of_a_session_is_not_sent(httpserver: HTTPServer):
    httpserver.expect_request("/catalogue").respond_with_json({"names": {"map": {"A": "Bay"}}})
    session = requests.Session()
    session.headers["Authorization"] = "Bearer secret-key-0123456789"
    names = fetch_names(httpserver.url_for("/"), session=session)
    assert names.name("map", "A") == "Bay"
    (request, _response), *_ = httpserver.log
    assert "Authorization" not in request.headers
    assert session.headers["Authorization"] == "Bearer secret-key-0123456789"  # left alone


def test_answers_that_are_not_a_catalogue_are_errors(httpserver: HTTPServer):
    httpserver.expect_request("/a/catalogue").respond_with_data("<html>", status=200)
    httpserver.expect_request("/b/catalogue").respond_with_json({"data": []})
    httpserver.expect_request("/c/catalogue").respond_with_data("busy", status=503)
    with pytest.raises(DocumentError, match="a body that is not JSON"):
        fetch_names(httpserver.url_for("/a"))
    with pytest.raises(DocumentError, match="no 'names' object"):
        fetch_names(httpserver.url_for("/b"))
    with pytest.raises(ServiceError, match="503 from GET") as raised:
        fetch_names(httpserver.url_for("/c"))
    assert raised.value.status == 503


def test_an_unreachable_service_is_a_service_error():
    with pytest.raises(ServiceError, match="unreachable"):
        fetch_names("http://127.0.0.1:9", timeout=2)

"""Issue 11 item 11: ``/shards/na/matches/`` answered 404, while real clients (python-gamelocker,
madglory-ezl) requested it. A trailing slash is the same endpoint (decision 7), for the list,
a single match and the status."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from matchkit.service import RunningService
from tests.service.small import get, small_service


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with small_service(tmp_path_factory.mktemp("trailing-slash")) as handle:
        yield handle


@pytest.mark.parametrize("shard", ["global", "na"])
def test_list_with_a_trailing_slash_is_the_list(service, shard):
    params = {"page[limit]": "2"}
    if shard == "na":
        params["filter[createdAt-start]"] = "2026-10-29T00:00:00Z"
    plain = get(service, f"/shards/{shard}/matches", params=params)
    slashed = get(service, f"/shards/{shard}/matches/", params=params)
    assert plain.status_code == 200, plain.text[:200]
    assert slashed.status_code == 200, slashed.text[:200]
    assert len(slashed.json()["data"]) == 2
    # Links are built from the endpoint's path, so the bodies are the same bytes.
    assert slashed.content == plain.content


def test_single_match_with_a_trailing_slash_is_the_match(service):
    match_id = get(service, "/shards/global/matches").json()["data"][0]["id"]
    plain = get(service, f"/shards/global/matches/{match_id}")
    slashed = get(service, f"/shards/global/matches/{match_id}/")
    assert slashed.status_code == 200, slashed.text[:200]
    assert slashed.content == plain.content


def test_status_with_a_trailing_slash_is_the_status(service):
    plain = requests.get(f"{service.base_url}/status", timeout=30)
    slashed = requests.get(f"{service.base_url}/status/", timeout=30)
    assert slashed.status_code == 200
    assert slashed.json() == plain.json()


def test_slash_keeps_the_rules_of_the_endpoint(service):
    assert get(service, "/shards/global/matches/", params={"page[limit]": "9"}).status_code == 400
    unauthenticated = requests.get(f"{service.base_url}/shards/global/matches/", timeout=30)
    assert unauthenticated.status_code == 401
    preflight = requests.options(f"{service.base_url}/shards/na/matches/", timeout=30)
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("path", ["/shards/global/matches//", "/shards/global/", "/nowhere/"])
def test_other_paths_stay_unknown(service, path):
    response = get(service, path)
    assert response.status_code == 404
    assert response.json()["errors"][0]["status"] == "404"

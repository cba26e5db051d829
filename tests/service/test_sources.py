"""What the service serves: the committed sample set, and folders of recorded JSON:API pages."""

from __future__ import annotations

from datetime import timedelta

import orjson
import pytest
import requests

from matchkit.rules.windows import format_time
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import running
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def sample_service():
    with running() as service:
        yield service


def _get(service, path, params=None):
    headers = {"Authorization": f"Bearer {service.api_key}"}
    return requests.get(service.base_url + path, params=params, headers=headers, timeout=30)


def test_default_is_the_committed_sample_set_as_of_its_as_of(sample_service):
    dataset = open_dataset()
    assert sample_service.now == dataset.as_of
    store = sample_service.app.state.service.store
    assert store.count("global") == dataset.match_count("global")
    assert store.count("na") == dataset.match_count("na")
    assert len(_get(sample_service, "/shards/global/matches").json()["data"]) == 5


def test_sample_royale_matches_keep_the_royale_invariants(sample_service):
    body = _get(
        sample_service,
        "/shards/global/matches",
        {"filter[serverType]": "ROYALRUMBLESOLO,ROYALRUMBLEDUO", "sort": "-createdAt"},
    ).json()
    assert body["data"]
    included = {(item["type"], item["id"]): item for item in body["included"]}
    for match in body["data"]:
        assert match["attributes"]["stats"]["game"] == "Royale"
        assert match["relationships"]["rounds"]["data"] == []
        rosters = [included[("roster", r["id"])] for r in match["relationships"]["rosters"]["data"]]
        assert sum(roster["attributes"]["won"] == "true" for roster in rosters) == 1


def test_sample_na_matches_have_the_older_shape(sample_service):
    body = _get(
        sample_service, "/shards/na/matches", {"filter[createdAt-start]": "2026-10-20T00:00:00Z"}
    ).json()
    assert body["data"]
    for match in body["data"]:
        assert isinstance(match["attributes"]["stats"], str)
        assert set(match["relationships"]) == {"rosters"}


def _recorded_match_ids(folder):
    ids = set()
    for path in folder.glob("*.json"):
        data = orjson.loads(path.read_bytes()).get("data")
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, dict) and item.get("type") == "match":
                ids.add(item["id"])
    return ids


def test_folder_of_recorded_pages_is_served(tmp_path):
    folder = shared_path("samples", "battlerite")
    with running(data=folder, store_dir=tmp_path) as service:
        store = service.app.state.service.store
        assert store.count("global") == len(_recorded_match_ids(folder))
        # A folder without a manifest is served as of one second after its last match.
        assert service.now == store.latest_created_at() + timedelta(seconds=1)
        response = _get(service, "/shards/global/matches/8C48FE62140248D89DF5E3F334933EBD")
        assert response.status_code == 200
        body = response.json()
        assert body["data"][0]["attributes"]["createdAt"] == "2017-11-29T18:39:49Z"
        assert {item["type"] for item in body["included"]} >= {"roster", "participant", "player"}


def test_folder_of_older_variant_pages_is_served_on_na(tmp_path):
    folder = shared_path("samples", "vainglory")
    with running(data=folder, store_dir=tmp_path) as service:
        store = service.app.state.service.store
        assert store.count("na") == len(_recorded_match_ids(folder))
        start = format_time(service.now - timedelta(days=28))
        response = _get(service, "/shards/na/matches", {"filter[createdAt-start]": start})
        assert response.status_code == 200
        assert response.json()["data"]


def test_wall_clock_now(dataset_dir, store_dir):
    with running(data=dataset_dir, store_dir=store_dir, now="wall") as service:
        assert service.now is None
        # The factory's matches all lie before 2026-10-31; by the wall clock of this machine
        # they are either in the past (served) or the future (not yet): both answer 200.
        headers = {"Authorization": f"Bearer {service.api_key}"}
        response = requests.get(
            f"{service.base_url}/shards/global/matches", headers=headers, timeout=30
        )
        assert response.status_code == 200

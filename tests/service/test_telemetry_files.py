"""The service's telemetry file index and cache (TelemetryFiles), on a built store."""

from __future__ import annotations

import pytest

from matchkit.sampledata.dataset import open_dataset
from matchkit.sampledata.telemetry import telemetry_bytes
from matchkit.service.store import MatchStore
from matchkit.service.telemetry import TelemetryFiles
from matchkit.synth import write_dataset


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[MatchStore, list[dict]]:
    folder = tmp_path_factory.mktemp("files-data")
    write_dataset(folder, matches=8, na_matches=2)
    store = MatchStore.open(folder, store_dir=tmp_path_factory.mktemp("files-store"))
    yield store, list(open_dataset(folder).iter_documents("global"))
    store.close()


def _asset(document: dict) -> tuple[str, str]:
    asset = next(item for item in document["included"] if item["type"] == "asset")
    created = asset["attributes"]["createdAt"]
    folder = f"{created[:4]}/{created[5:7]}/{created[8:10]}/{created[11:13]}/{created[14:16]}"
    return folder, asset["id"]


def test_every_asset_is_found_only_under_its_own_time(built):
    store, documents = built
    files = TelemetryFiles(store)
    for document in documents:
        folder, asset_id = _asset(document)
        assert files.find(folder, asset_id) == document["data"]["id"]
        assert (
            files.find(folder.replace("/", "-", 1).replace("-", "/", 1)[:-2] + "99", asset_id)
            is None
        )
    assert files.find("2026/01/01/00/00", "00000000-0000-4000-8000-000000000000") is None


def test_the_cache_keeps_a_few_files_and_gives_the_generators_bytes(built):
    store, documents = built
    files = TelemetryFiles(store, cache_size=2)
    made = []
    for document in documents[:4]:
        folder, asset_id = _asset(document)
        one = files.file(asset_id, files.find(folder, asset_id))
        assert one.body == telemetry_bytes(document)
        assert len(files.cached) <= 2
        made.append((asset_id, document, one))
    asset_id, document, first = made[0]
    again = files.file(asset_id, document["data"]["id"])  # evicted: generated again
    assert again is not first
    assert again == first
    assert files.file(made[-1][0], made[-1][1]["data"]["id"]) is made[-1][2]  # still cached


def test_a_match_gone_from_the_store_gives_no_file(built):
    store, _ = built
    assert TelemetryFiles(store).file("00000000-0000-4000-8000-000000000000", "NO-SUCH") is None

"""The SQLite store: built once, reused, rebuilt when the source changes; indexes in place."""

from __future__ import annotations

import gzip
import os
import shutil

import orjson
import pytest

from matchkit.errors import MatchkitError
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import TimeWindow
from matchkit.sampledata.dataset import MANIFEST, write_shard_file
from matchkit.service.store import MatchStore, default_store_dir
from tests.builders.datasets import build_dataset
from tests.service.conftest import NOW


@pytest.fixture
def small_dataset(tmp_path):
    folder = tmp_path / "data"
    build_dataset(folder, global_matches=30, na_matches=10, seed=3)
    return folder


def test_store_is_built_once_and_reused(small_dataset, tmp_path):
    store = MatchStore.open(small_dataset, store_dir=tmp_path / "stores")
    built = store.path.stat().st_mtime_ns
    store.close()
    again = MatchStore.open(small_dataset, store_dir=tmp_path / "stores")
    assert again.path == store.path
    assert again.path.stat().st_mtime_ns == built
    assert again.count("global") == 30
    assert again.count("na") == 10
    assert again.as_of == NOW
    again.close()
    assert [path.name for path in (tmp_path / "stores").iterdir()] == [store.path.name]


def test_store_is_rebuilt_when_the_source_changes(small_dataset, tmp_path):
    first = MatchStore.open(small_dataset, store_dir=tmp_path / "stores")
    first.close()
    build_dataset(small_dataset, global_matches=12, na_matches=4, seed=4)
    second = MatchStore.open(small_dataset, store_dir=tmp_path / "stores")
    assert second.path != first.path
    assert second.count("global") == 12
    assert list((tmp_path / "stores").iterdir()) == [second.path], "the stale build is removed"
    second.close()


def test_store_has_an_index_for_each_filter_and_the_order(small_dataset, tmp_path):
    store = MatchStore.open(small_dataset, store_dir=tmp_path / "stores")
    connection = store._connection
    indexed = {
        row[0]
        for row in connection.execute("SELECT sql FROM sqlite_master WHERE type='index'")
        if row[0]
    }
    text = " ".join(indexed)
    for column in ("created_at, id", "server_type", "ranking_type", "patch_version", "game_mode"):
        assert column in text
    assert "match_values (kind, value, match)" in text
    plan = connection.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM matches WHERE shard = 'global' AND created_at >= 0 "
        "ORDER BY created_at, id LIMIT 5"
    ).fetchall()
    assert "matches_order" in str(plan)
    store.close()


def test_list_matches_applies_window_and_paging(small_dataset, tmp_path):
    store = MatchStore.open(small_dataset, store_dir=tmp_path / "stores")
    window = TimeWindow(NOW.replace(year=2025), NOW)
    every = store.list_matches(MatchQuery.create(limit=5), window)
    second = store.list_matches(MatchQuery.create(limit=5, offset=5), window)
    assert len(every) == 5
    assert not {m.resource for m in every} & {m.resource for m in second}
    store.close()


def test_duplicate_matches_keep_the_first_copy(tmp_path):
    folder = tmp_path / "data"
    build_dataset(folder, global_matches=5, na_matches=2, seed=5)
    path = folder / "global.jsonl.gz"
    documents = [orjson.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    # A data set written with the first match twice (its manifest says so: the shard is checked).
    manifest = orjson.loads((folder / MANIFEST).read_bytes())
    manifest["shards"]["global"] = write_shard_file(path, [*documents, documents[0]])
    (folder / MANIFEST).write_bytes(orjson.dumps(manifest))
    store = MatchStore.open(folder, store_dir=tmp_path / "stores")
    assert store.count("global") == 5
    store.close()


def test_source_that_is_not_a_folder_is_an_error(tmp_path):
    with pytest.raises(MatchkitError, match="not a folder"):
        MatchStore.open(tmp_path / "missing", store_dir=tmp_path / "stores")


def test_folder_without_documents_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(MatchkitError, match="neither"):
        MatchStore.open(tmp_path / "empty", store_dir=tmp_path / "stores")


def test_failed_build_leaves_no_store(tmp_path):
    folder = tmp_path / "data"
    build_dataset(folder, global_matches=3, na_matches=1, seed=6)
    path = folder / "global.jsonl.gz"
    broken = orjson.dumps({"data": {"type": "match", "id": "X", "attributes": {}}})
    path.write_bytes(gzip.compress(broken + b"\n"))
    with pytest.raises(MatchkitError):
        MatchStore.open(folder, store_dir=tmp_path / "stores")
    assert list((tmp_path / "stores").iterdir()) == []


def test_default_store_dir_follows_matchkit_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MATCHKIT_CACHE_DIR", str(tmp_path))
    assert default_store_dir() == tmp_path / "service"
    monkeypatch.delenv("MATCHKIT_CACHE_DIR")
    assert default_store_dir().name == "service"
    assert str(tmp_path) not in str(default_store_dir())


def test_copied_data_set_builds_its_own_store(small_dataset, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(small_dataset, copy)
    os.utime(copy / "global.jsonl.gz", ns=(1, 1))
    first = MatchStore.open(small_dataset, store_dir=tmp_path / "stores")
    second = MatchStore.open(copy, store_dir=tmp_path / "stores")
    assert first.path != second.path
    first.close()
    second.close()

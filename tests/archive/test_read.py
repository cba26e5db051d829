"""Reading an archive: dtypes, slices, pinned versions, damaged files, compaction, and other
readers (pandas, polars, DuckDB through the file list, Dask on a LocalCluster) that agree."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pandas as pd
import pytest

import matchkit.archive as archive
from matchkit.archive.manifest import read_manifest
from matchkit.errors import ArchiveError
from matchkit.model.schema import TABLES
from matchkit.rules.windows import parse_time
from tests.archive.conftest import NOW_A, client_of

START = parse_time(NOW_A) - timedelta(days=3)


@pytest.fixture(scope="module")
def synced(service_a, tmp_path_factory: pytest.TempPathFactory):
    """An archive of the last three days before NOW_A in three batches, and the same days
    fetched directly."""
    root = tmp_path_factory.mktemp("synced")
    with client_of(service_a, root / "cache") as client:
        archive.sync(client, root / "archive", start=START, window=timedelta(days=1))
        frames = client.matches(START, NOW_A)
    return root / "archive", frames


def copy_of(folder: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(folder, target)
    return target


def test_tables_have_the_columns_of_matchframes_with_text_as_text(synced) -> None:
    folder, frames = synced
    opened = archive.open(folder)
    for name in ("matches", "rosters", "participants", "rounds", "assets", "players", "teams"):
        table = getattr(opened, name)
        assert list(table.columns) == list(frames.tables[name].columns), name
        for column in TABLES[name].columns:
            dtype = table[column.name].dtype
            if column.kind == "category":
                assert dtype == pd.StringDtype(), (name, column.name)
            else:
                assert dtype == frames.tables[name][column.name].dtype, (name, column.name)
    assert len(opened.matches) == len(frames)
    # The archive keeps the match tables (TABLES), not MatchFrames' listing tables.
    assert list(opened.tables) == [name for name in frames.tables if name in TABLES]
    notes = read_manifest(folder).problems  # the normalizer's, batch by batch
    assert set(opened.problems) == {note for batch in notes.values() for note in batch}
    assert set(archive.open(folder, version=1).problems) == set(notes.get(1, ()))
    # decision 17: one row per player, the snapshot of its latest match
    players = opened.players.compute()
    assert players["player_id"].is_unique
    assert set(players["player_id"]) == set(frames.players["player_id"])


def test_with_categories_reads_text_as_categoricals_of_the_same_values(synced) -> None:
    folder, _ = synced
    opened = archive.open(folder)
    chosen = ("actor", "kind", "shard_id")
    # Not text (kills) and no table's column (nothing): left as they are.
    categorized = opened.with_categories(*chosen, "kills", "nothing")
    assert (categorized.path, categorized.version) == (opened.path, opened.version)
    for name in ("participants", "rosters", "matches"):
        plain, read = getattr(opened, name), getattr(categorized, name)
        texts = [column for column in chosen if column in plain.columns]
        assert texts, name
        for column in plain.columns:
            dtype = read[column].dtype
            if column in texts:
                assert isinstance(dtype, pd.CategoricalDtype), (name, column)
            else:
                assert dtype == plain[column].dtype, (name, column)
        values, expected = read.compute(), plain.compute()
        assert all(isinstance(values[column].dtype, pd.CategoricalDtype) for column in texts)
        as_text = values.astype({column: expected[column].dtype for column in texts})
        pd.testing.assert_frame_equal(as_text, expected)


def test_to_frames_of_the_whole_range_equals_the_fetch(synced) -> None:
    folder, frames = synced
    sliced = archive.open(folder).to_frames(START, NOW_A)
    for name in ("matches", "rosters", "participants", "rounds", "round_participants", "assets"):
        key = TABLES[name].key
        got = sliced.tables[name].sort_values(list(key)).reset_index(drop=True)
        want = frames.tables[name].sort_values(list(key)).reset_index(drop=True)
        pd.testing.assert_frame_equal(got, want, check_categorical=False, obj=name)
    narrow = archive.open(folder).to_frames(START, NOW_A, server_types=["QUICK3V3"])
    assert len(narrow) == (frames.matches["server_type"] == "QUICK3V3").sum() > 0
    assert set(narrow.participants["match_id"]) == set(narrow.matches["match_id"])


def test_a_pinned_version_reads_what_that_batch_had(synced, tmp_path: Path) -> None:
    folder, frames = synced
    first = archive.open(folder, version=1)
    assert first.version == 1
    ids = first.matches["match_id"].compute()
    assert set(ids) == set(
        frames.matches.loc[frames.matches["created_at"] < START + timedelta(days=1), "match_id"]
    )
    with pytest.raises(ArchiveError, match="no version 99"):
        archive.open(folder, version=99)
    # Compaction keeps the rows (and pinned versions within the retention).
    copy = copy_of(folder, tmp_path)
    before = archive.open(copy).matches.compute().sort_values("match_id", ignore_index=True)
    result = archive.compact(copy)
    assert result.rewritten["matches"][0] == 3
    after = archive.open(copy).matches.compute().sort_values("match_id", ignore_index=True)
    pd.testing.assert_frame_equal(after, before)
    assert len(archive.open(copy, version=1).matches) == len(ids)
    assert len(archive.open(copy).files("matches")) == 1


@pytest.mark.parametrize("damage", ["missing", "truncated", "overwritten"])
def test_a_damaged_data_file_is_a_typed_error_naming_it(synced, tmp_path: Path, damage) -> None:
    folder = copy_of(synced[0], tmp_path)
    victim = Path(archive.open(folder).files("participants")[1])
    if damage == "missing":
        victim.unlink()
    elif damage == "truncated":
        victim.write_bytes(victim.read_bytes()[:100])
    else:  # same size, other bytes: found when read
        data = bytearray(victim.read_bytes())
        data[4 : len(data) - 8] = b"\x00" * (len(data) - 12)
        victim.write_bytes(bytes(data))
    with pytest.raises(ArchiveError) as caught:
        archive.open(folder).participants.compute()
    assert str(victim) in str(caught.value)
    assert Path(str(caught.value.path)) == victim
    with pytest.raises(ArchiveError, match=victim.name):
        archive.open(folder).to_frames()


def test_polars_and_duckdb_read_the_same_tables(synced) -> None:
    import duckdb
    import polars as pl

    folder, _ = synced
    opened = archive.open(folder)
    ours = opened.participants.compute()
    expected = ours.sort_values("participant_id", ignore_index=True)
    by_polars = pl.scan_delta(str(folder / "participants")).collect().to_pandas()
    by_duckdb = duckdb.execute("SELECT * FROM read_parquet(?)", [opened.files("participants")]).df()
    for other in (by_polars, by_duckdb):
        other = other.sort_values("participant_id", ignore_index=True)
        assert list(other["participant_id"]) == list(expected["participant_id"])
        assert list(other["kills"].astype("Int64")) == list(expected["kills"])
        assert list(other["actor"].astype(str)) == list(expected["actor"].astype(str))
    # The same aggregate, three ways.
    rates = ours.groupby("actor")["kills"].sum().sort_index()
    sql = "SELECT actor, sum(kills) AS kills FROM read_parquet(?) GROUP BY actor ORDER BY actor"
    by_sql = duckdb.execute(sql, [opened.files("participants")]).df().set_index("actor")
    assert list(by_sql["kills"].astype(int)) == list(rates.astype(int))


def test_dask_reads_it_on_a_local_cluster_of_processes(synced) -> None:
    from distributed import Client, LocalCluster

    folder, frames = synced
    opened = archive.open(folder)
    with (
        LocalCluster(
            n_workers=1, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        counts = opened.matches.groupby("server_type").size().compute()
        players = len(opened.players)
    expected = frames.matches["server_type"].astype(str).value_counts()
    assert counts.sort_index().to_dict() == expected.sort_index().to_dict()
    assert players == len(frames.players)


def test_info_and_not_an_archive(synced, tmp_path: Path) -> None:
    folder, frames = synced
    info = archive.info(folder)
    assert info.batch == 3
    assert info.tables["matches"].rows == len(frames)
    assert info.first_match == frames.matches["created_at"].min()
    assert "matches" in str(info)
    with pytest.raises(ArchiveError, match="not an archive"):
        archive.open(tmp_path)


def test_compact_removes_only_delta_data_files_no_version_uses(synced, tmp_path: Path) -> None:
    import uuid

    folder = copy_of(synced[0], tmp_path)
    before = archive.open(folder).matches.compute().sort_values("match_id", ignore_index=True)
    first = Path(archive.open(folder, version=1).files("matches")[0])
    # what a killed sync leaves: a data file no commit names; and a file of the user's
    orphan = first.parent / f"part-00000-{uuid.uuid4()}-c000.snappy.parquet"
    orphan.write_bytes(first.read_bytes())
    note = folder / "matches" / "README.txt"
    note.write_text("mine")
    result = archive.compact(folder, retention_hours=0)
    assert result.removed["matches"] == 4  # three files compacted away, and the orphan
    assert not orphan.exists()
    assert note.read_text() == "mine"
    after = archive.open(folder).matches.compute().sort_values("match_id", ignore_index=True)
    pd.testing.assert_frame_equal(after, before)
    with pytest.raises(ArchiveError, match="missing") as caught:
        archive.open(folder, version=1)
    missing = Path(str(caught.value.path))  # the first of the version's removed files
    assert str(missing) in str(caught.value)
    assert folder in missing.parents
    assert not missing.exists()


def test_a_batch_being_committed_is_not_seen_half(service_a, synced, tmp_path: Path) -> None:
    from deltalake import DeltaTable

    from matchkit.archive.writer import commit_batch, prepare_batch

    folder = copy_of(synced[0], tmp_path)
    rosters = len(archive.open(folder).rosters)
    with client_of(service_a, tmp_path / "cache") as client:
        earlier = client.matches(START - timedelta(days=1), START)
    prepared = prepare_batch(earlier.tables)
    del prepared["matches"]  # a sync killed (or still at work) before its last commit
    batch = read_manifest(folder).batch + 1
    commit_batch(folder, batch, prepared)
    assert len(DeltaTable(str(folder / "rosters")).to_pandas()) > rosters  # in the table...
    assert len(archive.open(folder).rosters) == rosters  # ... not in the archive yet

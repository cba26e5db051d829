"""The order of an archive's rows within its data files (issue 37): each table looked up by a
column is written in that column's order, in row groups of at most ``ROW_GROUP_ROWS`` rows, by
a sync, by ``synth --archive`` and by a compaction, so that a lookup's row groups are chosen by
their statistics; and a lookup by partition reads only those partitions."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

import matchkit.archive
from matchkit.archive.layout import ROW_GROUP_ROWS, sort_column
from matchkit.archive.reader import _groups_holding, where
from matchkit.archive.writer import _in_order
from matchkit.client.client import Client
from matchkit.errors import InvalidArgumentError
from matchkit.synth.archive import write_synthetic_archive

START, NOW = "2026-10-10T00:00:00Z", "2026-10-31T00:00:00Z"
LOOKED_UP = ("matches", "rosters", "participants", "players")


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of the sample service, synced day by day and then compacted."""
    root = tmp_path_factory.mktemp("order")
    with Client(cache_dir=root / "cache", progress=False, rate_limit="off") as client:
        for now in ("2026-10-20T00:00:00Z", "2026-10-25T00:00:00Z", NOW):
            matchkit.archive.sync(client, root / "archive", start=START, now=now, progress=False)
    return root / "archive"


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("order-synthetic") / "archive"
    write_synthetic_archive(folder, matches=60_000, days=60)
    return folder


def _assert_in_lookup_order(folder: Path) -> None:
    archive = matchkit.archive.open(folder)
    for table in LOOKED_UP:
        column = sort_column(table)
        assert column is not None
        for path in archive.files(table):
            handle = pq.ParquetFile(path)
            values = handle.read(columns=[column]).column(column).to_pandas()
            present = values.dropna()
            assert values.iloc[len(present) :].isna().all(), (path, "nulls last")
            assert present.is_monotonic_increasing, (table, path)
            sizes = [handle.metadata.row_group(g).num_rows for g in range(handle.num_row_groups)]
            assert max(sizes) <= ROW_GROUP_ROWS, (table, path, sizes)


def test_a_synced_archive_is_in_lookup_order_before_and_after_compaction(synced: Path) -> None:
    _assert_in_lookup_order(synced)
    before = matchkit.archive.open(synced).to_frames()
    result = matchkit.archive.compact(synced, retention_hours=0)
    assert result.rewritten["participants"][0] > 1  # three syncs' files became fewer
    archive = matchkit.archive.open(synced)
    for table in LOOKED_UP:  # compaction joins files: their row groups keep the bound
        for path in archive.files(table):
            handle = pq.ParquetFile(path)
            sizes = [handle.metadata.row_group(g).num_rows for g in range(handle.num_row_groups)]
            assert max(sizes) <= ROW_GROUP_ROWS
    after = archive.to_frames()
    for table in LOOKED_UP:
        key = {
            "matches": ["match_id"],
            "rosters": ["roster_id"],
            "participants": ["participant_id"],
            "players": ["player_id"],
        }[table]
        pd.testing.assert_frame_equal(
            getattr(after, table).sort_values(key).reset_index(drop=True),
            getattr(before, table).sort_values(key).reset_index(drop=True),
        )


def test_a_synthetic_archive_is_in_lookup_order_in_row_groups(synthetic: Path) -> None:
    _assert_in_lookup_order(synthetic)
    archive = matchkit.archive.open(synthetic)
    groups = [pq.ParquetFile(path).num_row_groups for path in archive.files("participants")]
    assert max(groups) > 1  # the bound cuts the files


def test_rows_matching_a_lazy_column_read_each_partition_for_its_own_values(
    synthetic: Path,
) -> None:
    archive = matchkit.archive.open(synthetic)
    participants = archive.participants.partitions[:2].compute()
    player = participants["player_id"].dropna().iloc[0]
    mine = archive.rows("participants", "player_id", [player])
    lazy = archive.rows("matches", "match_id", mine["match_id"], columns=["match_id", "duration"])
    assert lazy.npartitions == archive.matches.npartitions
    assert lazy.divisions == archive.matches.divisions
    ids = sorted(set(mine["match_id"].compute()))
    plain = archive.rows("matches", "match_id", ids, columns=["match_id", "duration"]).compute()
    got = lazy.compute()
    assert sorted(got["match_id"]) == sorted(plain["match_id"]) == ids
    pd.testing.assert_frame_equal(
        got.sort_values("match_id"), plain.sort_values("match_id"), check_index_type=False
    )
    nobody = archive.rows("participants", "player_id", ["no such player"])
    assert archive.rows("rosters", "match_id", nobody["match_id"]).compute().empty
    with pytest.raises(InvalidArgumentError, match="not a column of this archive's rows"):
        archive.rows("rosters", "match_id", archive.matches["match_id"].partitions[:1])


@given(
    st.lists(
        st.none() | st.tuples(st.text("abc", max_size=3), st.text("abc", max_size=3)),
        max_size=6,
    ),
    st.lists(st.text("abc", max_size=3), max_size=6),
)
def test_row_groups_are_chosen_as_a_search_of_every_value_chooses_them(groups, values) -> None:
    """The bisection over the sorted values admits exactly the row groups whose bounds admit
    one of them (the rule it replaced: one comparison per value and group), and no group of
    nulls only (a bot's participants, last in a file by player id), on a file whose row groups
    have those bounds (None: a group of nulls)."""
    bounds = [None if pair is None else (min(pair), max(pair)) for pair in groups]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "groups.parquet"
        schema = pa.schema([("match_id", pa.string())])
        with pq.ParquetWriter(path, schema) as writer:
            for pair in bounds:
                rows = [None, None] if pair is None else list(pair)
                writer.write_table(pa.table({"match_id": rows}, schema=schema))
        handle = pq.ParquetFile(path)
        _, ordered = where("match_id", values)
        chosen = _groups_holding(handle, "match_id", ordered)
    expected = [
        number
        for number, pair in enumerate(bounds)
        if pair is not None and any(pair[0] <= value <= pair[1] for value in values)
    ]
    assert chosen == expected


@pytest.mark.parametrize(
    ("values", "in_order"),
    [
        (["a", "b", "b", "c"], True),
        (["a", "c", None, None], True),
        ([None], True),
        (["b", "a"], False),
        (["a", None, "b"], False),
        ([None, "a"], False),
    ],
)
def test_a_column_in_order_is_one_a_sort_leaves_as_it_is(values, in_order: bool) -> None:
    column = pa.chunked_array([pa.array(values, pa.string())])
    assert _in_order(column) is in_order
    table = pa.table({"x": column})
    assert (table.sort_by("x").column("x").to_pylist() == values) is in_order

"""The analyses on a real archive (``matchkit.archive.open``): tables partitioned by month, or by
a month's buckets, give the tables of the same archive read as pandas MatchFrames, without a
shuffle (the tables share their divisions, on an index named ``month``)."""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from dask.dataframe.utils import assert_eq

import matchkit.archive as archive
from matchkit.analysis._engine import PARTITION_INDEX, is_lazy
from matchkit.archive.convert import match_months
from matchkit.archive.layout import bucket_of
from matchkit.archive.manifest import read_manifest
from matchkit.model.schema import TABLE_NAMES
from matchkit.synth.archive import write_synthetic_archive
from tests.analysis.test_lazy_equal import case_id, layout_cases

MATCHES = 3_000


BUCKETS = {1: "monthly", 3: "three buckets a month"}


@pytest.fixture(scope="module", params=list(BUCKETS), ids=list(BUCKETS.values()))
def synthetic(request, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _written(request.param, tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def frames(synthetic: Path):
    return _frames(synthetic)


@functools.cache
def _written(buckets: int, root: Path) -> Path:
    """The synthetic archive of ``buckets`` a month, written once for the module's tests (those
    parametrized by the fixture and those naming its value)."""
    folder = root / f"analysed-{buckets}" / "archive"
    write_synthetic_archive(folder, matches=MATCHES, chunk=1_000, days=75, buckets=buckets)
    return folder


@functools.cache
def _frames(folder: Path):
    return archive.open(folder).to_frames()


def test_every_table_shares_the_partitions_of_the_matches(synthetic: Path) -> None:
    opened = archive.open(synthetic)
    buckets = read_manifest(synthetic).buckets
    assert archive.info(synthetic).buckets == buckets
    assert ("buckets a month" in str(archive.info(synthetic))) == (buckets > 1)
    divisions = opened.matches.divisions
    assert opened.matches.npartitions == 3 * buckets  # 75 days: three months
    for name in TABLE_NAMES:
        if name in ("players", "teams"):
            continue
        table = getattr(opened, name)
        assert table.index.name == PARTITION_INDEX
        assert table.divisions == divisions, name
    matches = opened.matches.compute()
    expected = match_months(matches.reset_index(drop=True), buckets)
    assert matches.index.tolist() == expected.loc[matches["match_id"]].tolist()
    rosters = opened.rosters.compute()
    assert rosters.index.tolist() == expected.loc[rosters["match_id"]].tolist()


def test_a_match_keeps_its_bucket_whoever_writes_it() -> None:
    ids = pa.array(["a", "0f3c9e", "x" * 40, "héllo"])
    assert bucket_of(ids, 7).tolist() == [_fnv(i.encode()) % 7 for i in ids.to_pylist()]
    frame = pd.DataFrame(
        {
            "match_id": ["a", "b"],
            "created_at": pd.to_datetime(["2025-01-31", "2025-02-01"], utc=True),
        }
    )
    months = match_months(frame, 12)
    assert months.tolist() == [f"2025-01.{_fnv(b'a') % 12:02d}", f"2025-02.{_fnv(b'b') % 12:02d}"]


def _fnv(data: bytes) -> int:
    value = 2166136261
    for byte in data:
        value = ((value ^ byte) * 16777619) & 0xFFFFFFFF
    return value


def test_to_frames_gives_matchframes_as_before(synthetic: Path, frames) -> None:
    assert len(frames.matches) == MATCHES
    for name, table in frames.tables.items():
        assert isinstance(table.index, pd.RangeIndex), name
        assert PARTITION_INDEX not in table.columns, name


@pytest.mark.parametrize(
    ("synthetic", "call"),
    layout_cases(list(BUCKETS)),
    ids=lambda case: BUCKETS[case] if isinstance(case, int) else case_id(case),
    indirect=["synthetic"],
)
def test_an_archive_gives_the_table_of_its_matchframes(synthetic: Path, frames, call) -> None:
    """Every call on the monthly archive, the first of each function on the bucketed one."""
    function, args, kwargs = call
    result = function(archive.open(synthetic), *args, **kwargs)
    assert not is_lazy(result)
    if function.__name__.startswith(("side", "duration")):  # few cosmetics in a synthetic one
        assert len(result) > 0
    assert_eq(result, function(frames, *args, **kwargs))


def test_a_day_appended_lands_in_the_archives_buckets(tmp_path: Path) -> None:
    from deltalake import DeltaTable

    from matchkit.synth.archive import append_synthetic

    folder = tmp_path / "archive"
    write_synthetic_archive(folder, matches=1_000, days=30, buckets=4)
    before = set(DeltaTable(str(folder / "rosters")).file_uris())
    added = append_synthetic(folder, matches=200, days=1)
    assert added["matches"] == 200
    after = set(DeltaTable(str(folder / "rosters")).file_uris())
    assert before <= after  # nothing rewritten
    opened = archive.open(folder)
    matches = opened.matches.compute()
    assert len(matches) == 1_200
    assert matches["match_id"].is_unique
    assert matches.index.tolist() == match_months(matches.reset_index(drop=True), 4).tolist()
    assert opened.rosters.divisions == opened.matches.divisions


def test_a_slice_of_a_bucketed_archive_reads_its_months(synthetic: Path, frames) -> None:
    matches = frames.matches
    middle = matches["created_at"].sort_values().iloc[len(matches) // 2]
    sliced = archive.open(synthetic).to_frames(end=middle.floor("D"))
    expected = matches.loc[matches["created_at"] < middle.floor("D"), "match_id"]
    assert set(sliced.matches["match_id"]) == set(expected)
    assert 0 < len(sliced.matches) < len(matches)
    assert set(sliced.rosters["match_id"]) == set(expected)

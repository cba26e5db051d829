"""``Archive.telemetry_rows``: one table's rows of some matches, reading only the partitions
that hold them and, in those, only the row groups whose ``match_id`` statistics admit them.

The archive spans two months (the sample set's last October day and the first of November),
so that a match's rows lie in one of two partitions; the proofs of pruning damage what must not
be read after the archive is opened, and the read still succeeds.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import matchkit.archive as archive
from matchkit.archive.reader import read_files, where
from matchkit.errors import ArchiveError, InvalidArgumentError
from tests.analysis.pubg import archived

COLUMNS = ["match_id", "player_id", "time", "player_x", "player_y"]


@pytest.fixture(scope="module")
def two_months(tmp_path_factory) -> Path:
    """The double's console matches of 2026-10-31 and 2026-11-01 with telemetry (synced once
    per process: tests/analysis/pubg/archived.py)."""
    return archived.two_months(tmp_path_factory.mktemp("two-months")).folder


def _months(matches: pd.DataFrame) -> pd.Series:
    return matches["created_at"].dt.strftime("%Y-%m")


def test_the_rows_of_some_matches_are_the_tables_rows_of_them(two_months: Path) -> None:
    opened = archive.open(two_months)
    matches = opened.to_frames().matches
    assert set(_months(matches)) == {"2026-10", "2026-11"}
    chosen = matches.iloc[::2]
    rows = opened.telemetry_rows("positions", chosen, COLUMNS)
    whole = opened.telemetry.positions.compute()
    expected = whole.loc[whole["match_id"].isin(chosen["match_id"]).to_numpy(), COLUMNS]
    pd.testing.assert_frame_equal(rows.compute(), expected)
    assert list(rows.columns) == COLUMNS
    assert len(expected) > 0
    everything = opened.telemetry_rows("positions", matches)  # all columns, every match
    pd.testing.assert_frame_equal(everything.compute(), whole)


def test_one_months_matches_read_that_partition_only(two_months: Path, tmp_path: Path) -> None:
    copy = tmp_path / "archive"
    _copy(two_months, copy)
    opened = archive.open(copy)
    matches = opened.to_frames().matches
    november = matches[(_months(matches) == "2026-11").to_numpy()]
    expected = opened.telemetry_rows("kills", november, ["match_id", "killer_id"]).compute()
    # October's files go after the archive was opened: a read of November must not touch them
    for path in opened.files("pubg-telemetry/kills"):
        if "month=2026-10" in path:
            Path(path).unlink()
    rows = opened.telemetry_rows("kills", november, ["match_id", "killer_id"])
    assert rows.npartitions == 1
    pd.testing.assert_frame_equal(rows.compute(), expected)
    assert len(expected) > 0
    assert set(expected["match_id"]) <= set(november["match_id"])
    with pytest.raises(ArchiveError, match="missing"):  # and October's read does touch them
        opened.telemetry_rows("kills", matches, ["match_id"]).compute()


def test_a_row_group_ruled_out_by_its_statistics_is_not_read(
    two_months: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "archive"
    _copy(two_months, copy)
    opened = archive.open(copy)
    matches = opened.to_frames().matches
    path = opened.files("pubg-telemetry/positions")[0]
    statistics = pq.ParquetFile(path).metadata.row_group(0).column(0).statistics
    assert pq.ParquetFile(path).schema_arrow.names[0] == "match_id"
    held = pq.read_table(path, columns=["match_id"]).column("match_id").to_pylist()[0]
    month = "2026-10" if "month=2026-10" in path else "2026-11"
    row = matches[(_months(matches) == month).to_numpy()].iloc[:1]
    beyond = row.assign(match_id=statistics.max + "~")  # after every id of the file
    _damage_data_pages(Path(path))
    # the file's data is damaged in place: a read of an id its statistics rule out succeeds...
    assert opened.telemetry_rows("positions", beyond, COLUMNS).compute().empty
    # ...and a read of one of its own matches reads it, and names it
    own = row.assign(match_id=held)
    with pytest.raises(ArchiveError, match="damaged") as error:
        opened.telemetry_rows("positions", own, COLUMNS).compute()
    assert str(error.value.path) == path


def test_bad_arguments_are_refused_with_what_to_pass(two_months: Path) -> None:
    opened = archive.open(two_months)
    matches = opened.to_frames().matches
    with pytest.raises(InvalidArgumentError, match="no telemetry table 'deaths'"):
        opened.telemetry_rows("deaths", matches)
    with pytest.raises(InvalidArgumentError, match="created_at") as error:
        opened.telemetry_rows("kills", matches[["match_id"]])
    assert error.value.parameter == "matches"
    with pytest.raises(InvalidArgumentError, match="no column 'range'") as error:
        opened.telemetry_rows("kills", matches, ["match_id", "range"])
    assert error.value.parameter == "columns"


def test_files_of_two_schemas_read_as_each_file_alone(tmp_path: Path) -> None:
    """A batch may bring a column the table lacked (schema evolution): files of different
    schemas are converted one by one, and give what each gives alone."""
    first, second = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"match_id": ["a", "b"], "x": [1, 2]}), first)
    pq.write_table(pa.table({"match_id": ["c"], "x": [3], "y": ["new"]}), second)
    dtypes = {"match_id": pd.StringDtype(), "x": pd.Int64Dtype(), "y": pd.StringDtype()}
    both = read_files([str(first), str(second)], dtypes)
    assert both["x"].tolist() == [1, 2, 3]
    assert both["y"].isna().tolist() == [True, True, False]
    assert list(both.dtypes) == list(dtypes.values())
    chosen = read_files([str(first), str(second)], dtypes, where("match_id", ["c", "b"]))
    assert chosen["match_id"].tolist() == ["b", "c"]
    newer = read_files([str(first), str(second)], dtypes, where("y", ["new"]))
    assert newer["match_id"].tolist() == ["c"]  # the first file has no y: none of its rows


def _copy(source: Path, target: Path) -> None:
    import shutil

    shutil.copytree(source, target)


def _damage_data_pages(path: Path) -> None:
    """Overwrite the bytes between the file's magic and its footer, keeping its size (the
    footer, which holds the statistics, stays readable)."""
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little")
    end = len(data) - 8 - footer
    data[4:end] = b"\xff" * (end - 4)
    path.write_bytes(bytes(data))


def test_a_filtered_read_keeps_the_rows_of_every_row_group_holding_a_value(tmp_path: Path) -> None:
    """Row groups are chosen by the filter column first: the rows kept are those a plain filter
    of the whole file keeps, whichever groups hold them (none, some, all)."""
    path = tmp_path / "groups.parquet"
    ids = [f"m{number % 37:02d}" for number in range(1_000)]
    for row in (350, 351, 777):  # "m50" in groups 3 and 7 only, within every group's bounds
        ids[row] = "m50"
    ids[0::100] = ["m99"] * 10  # every group's upper bound beyond "m50"
    table = pa.table({"match_id": ids, "x": list(range(1_000))})
    pq.write_table(table, path, row_group_size=100)  # 10 row groups, each of every id
    sorted_path = tmp_path / "sorted.parquet"
    pq.write_table(table.sort_by("match_id"), sorted_path, row_group_size=100)  # ids by group
    dtypes = {"match_id": pd.StringDtype(), "x": pd.Int64Dtype()}
    for file in (path, sorted_path):
        whole = pq.read_table(file).to_pandas()
        for chosen in (
            {"m03"},
            {"m00", "m36"},
            {"m50"},
            {"m50", "m99"},
            {"nope"},
            {"a"},  # below every group's bounds
            {"a", "m17", "zz"},  # one value within, one below and one above them
            set(ids),
        ):
            rows = read_files([str(file)], dtypes, where("match_id", chosen))
            expected = whole[whole["match_id"].isin(chosen)]
            assert rows["x"].tolist() == expected["x"].tolist(), (file.name, chosen)
            assert rows["match_id"].tolist() == expected["match_id"].tolist()

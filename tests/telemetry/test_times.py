"""Event times and the files table's time spans, checked against pandas computed another way.

Times are read in numpy (``columns.timestamps``) and the files table's spans a table at a time
(``build._files_table``); these tests compute the same from the finished tables with pandas
(``pd.to_datetime`` and a groupby over every table), so a mistake in either shows.
"""

from __future__ import annotations

import itertools

import pandas as pd
import pyarrow as pa
import pytest

from matchkit.model.schema import DATETIME_DTYPE
from matchkit.normalize.problems import Problems
from matchkit.telemetry import to_telemetry_frames
from matchkit.telemetry.columns import timestamps
from matchkit.telemetry.schema import MATCH_FINISHED, SHUTDOWN
from tests.telemetry.test_parse import event, small_file
from tests.telemetry.test_typed import generated  # noqa: F401 (a fixture)


@pytest.mark.parametrize(
    "millis",
    [
        [1, None, 1_700_000_000_123, -5, 0],
        [None, None],
        [],
        [8_999_999_999_999_999, -8_999_999_999_999_999],
    ],
)
def test_times_are_those_pandas_reads(millis: list[int | None]) -> None:
    expected = pd.to_datetime(pd.Series(pd.array(millis, dtype="Int64")), unit="ms", utc=True)
    problems = Problems()
    read = timestamps(pa.array(millis, type=pa.int64()), label="t.time", problems=problems)
    assert read.dtype == DATETIME_DTYPE
    pd.testing.assert_extension_array_equal(read, expected.astype(DATETIME_DTYPE).array)
    assert not list(problems.texts())


def test_unfit_times_are_missing_and_reported() -> None:
    problems = Problems()
    read = timestamps(pa.array(["x", "12", None]), label="t.time", problems=problems)
    assert read.isna().tolist() == [True, False, True]
    assert read[1] == pd.Timestamp(12, unit="ms", tz="UTC")
    assert any("t.time" in text for text in problems.texts())


def _spans_by_pandas(frames: object) -> pd.DataFrame:
    tables = [
        table[["match_id", "time"]]
        for table in frames.tables.values()  # type: ignore[attr-defined]
        if len(table) and "time" in table
    ]
    times = pd.concat(tables)
    return times.groupby("match_id", sort=False)["time"].agg(["min", "max"])


def test_file_spans_are_the_earliest_and_latest_event_times(
    generated: dict[str, bytes],  # noqa: F811
) -> None:
    files: dict[str, object] = dict(itertools.islice(generated.items(), 12))
    timeless = small_file("timeless")
    for item in timeless:
        item["dataObject"].pop("time", None)
    files["timeless"] = timeless  # no event has a time: NaT, not an error
    late = small_file("late")
    for position, item in enumerate(late):
        item["dataObject"]["time"] = None if position == 0 else 1_600_000_000_000 + position
    late.append(event(60, SHUTDOWN, matchID="late", time=1_700_000_000_000))
    late.append(event(55, MATCH_FINISHED, matchID="late", time=1_500_000_000_000))
    files["late"] = late  # its span crosses tables, and one time is null
    frames = to_telemetry_frames(files)
    spans = _spans_by_pandas(frames).reindex(frames.files["match_id"])
    table = frames.files.set_index("match_id")
    assert table["started_at"].dtype == DATETIME_DTYPE
    pd.testing.assert_series_equal(
        table["started_at"], spans["min"].astype(DATETIME_DTYPE), check_names=False
    )
    pd.testing.assert_series_equal(
        table["ended_at"], spans["max"].astype(DATETIME_DTYPE), check_names=False
    )
    assert pd.isna(table.loc["timeless", "started_at"])
    assert table.loc["late", "started_at"] == pd.Timestamp(1_500_000_000_000, unit="ms", tz="UTC")
    assert table.loc["late", "ended_at"] == pd.Timestamp(1_700_000_000_000, unit="ms", tz="UTC")

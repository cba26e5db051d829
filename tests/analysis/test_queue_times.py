"""queue_times groups the times in queue as pandas' groupby does (a row with a key missing is in
no group), whatever the keys: text, numbers, booleans, times, several at once, a key without a
value, no rows."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from matchkit.analysis import queue_times
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.builders.telemetry import sample_telemetry_files


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    frames = to_telemetry_frames(sample_telemetry_files(step=10))
    queue = frames.queue_events.copy()
    # Missing keys and times on some rows, and a key that has no value at all.
    queue.loc[queue.index % 7 == 0, "match_region"] = pd.NA
    queue.loc[queue.index % 11 == 0, "time_in_queue"] = np.nan
    queue["nothing"] = pd.array([pd.NA] * len(queue), dtype="Int64")
    return dataclasses.replace(frames, queue_events=queue)


def _by_groupby(queue: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The count, mean and median of each group, by pandas' groupby."""
    timed = queue[queue["time_in_queue"].notna()]
    grouped = timed.groupby(keys, observed=True)["time_in_queue"]
    table = grouped.agg(["size", "mean", "median"]).reset_index()
    return table.rename(columns={"size": "n", "mean": "mean_seconds", "median": "median_seconds"})


@pytest.mark.parametrize(
    "keys",
    [
        ["match_region"],
        ["league"],
        ["match_region", "league", "limit_matchmaking_range"],
        ["user_id"],
        ["time"],
        ["nothing"],
        ["match_region", "nothing"],
    ],
)
def test_the_groups_are_those_of_groupby(telemetry, keys) -> None:
    result = queue_times(telemetry, by=keys)
    expected = _by_groupby(telemetry.queue_events, keys)
    assert len(result) == len(expected)
    columns = [*keys, "n", "mean_seconds", "median_seconds"]
    ours = result[columns].sort_values(keys).reset_index(drop=True)
    theirs = expected[columns].sort_values(keys).reset_index(drop=True)
    pd.testing.assert_frame_equal(ours, theirs, check_dtype=False, rtol=1e-12)
    untimed = int(telemetry.queue_events["time_in_queue"].isna().sum())
    assert result.attrs["excluded"] == {"queue events without timeInQueue": untimed}


def test_no_rows_give_no_groups(telemetry) -> None:
    empty = dataclasses.replace(telemetry, queue_events=telemetry.queue_events.iloc[:0])
    assert len(queue_times(empty, by=["match_region"])) == 0
    assert queue_times(empty, by=None)["n"].tolist() == [0]

"""Regression: ``queue_times(archive, by=["match_id"])`` failed on an archive.

The analysis asked the archive's ``queue_events`` for ``match_id`` (for the matches' start
hours) and then for each key of ``by``: ``match_id`` twice, a table with two columns of that
name, and pandas refused to group by it ("Grouper for 'match_id' not 1-dimensional"). The same
call on TelemetryFrames worked. Each column is now asked for once, and ``match_id`` only when
a key needs it. Found while cutting what ``queue_times`` reads (issue 37)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

import matchkit.archive
from matchkit.analysis import queue_times
from matchkit.synth.archive import write_synthetic_archive
from matchkit.telemetry.frames import TelemetryFrames


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("archive") / "with-telemetry"
    write_synthetic_archive(folder, matches=300, days=60, telemetry=True)
    return matchkit.archive.open(folder)


@pytest.mark.parametrize("by", [["match_id"], ["match_id", "start_hour"], ["start_hour"]])
def test_queue_times_by_match_id_on_an_archive_equal_those_in_memory(archive, by) -> None:
    tables = archive.telemetry
    in_memory = TelemetryFrames(
        **{
            field.name: getattr(tables, field.name).compute().reset_index(drop=True)
            for field in dataclasses.fields(TelemetryFrames)
            if field.name != "problems"
        }
    )
    result = queue_times(archive, by=by)
    assert tables.queue_events.npartitions > 1
    assert result["match_id" if "match_id" in by else "start_hour"].is_unique
    assert result["n"].sum() == in_memory.queue_events["time_in_queue"].notna().sum()
    pd.testing.assert_frame_equal(result, queue_times(in_memory, by=by))

"""Regression: the telemetry analyses read an archive's tables whole, into one worker.

Each telemetry analysis computed the columns it reads in one ``dask.compute``, which joins a
table's partitions in one task on one worker, and then ran in memory. On a synthetic archive of
1M matches with telemetry (14M player-rounds), ``per_minute_rates`` killed its 1 GiB workers
one after the other (``KilledWorker`` on the read of ``round_player_stats``, which it read
whole: every column). Each analysis now runs its per-match part on each partition in the
workers (a match's rows of every table lie in one partition) and combines the small results:
counts, means and summed squared deviations, or the rows a median needs. Found by measuring
the analyses that take an archive (issue 37)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from dask.callbacks import Callback

import matchkit.archive
from matchkit.analysis import battlerite_win_rates, deciding_rounds, per_minute_rates, queue_times
from matchkit.analysis.telemetry import match_deciding_rounds
from matchkit.synth.archive import write_synthetic_archive
from matchkit.telemetry.frames import TelemetryFrames

CALLS = [
    (battlerite_win_rates, {}),
    (per_minute_rates, {}),
    (per_minute_rates, {"by": ["round"], "stats": ["damage_done"]}),
    (per_minute_rates, {"by": None}),
    (queue_times, {"by": ["match_region", "ranking_type"]}),  # synthetic queues have no league
    (queue_times, {"by": ["start_hour"]}),
    (deciding_rounds, {}),
    (match_deciding_rounds, {}),
]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("archive") / "with-telemetry"
    write_synthetic_archive(folder, matches=1_500, days=300, telemetry=True)
    return matchkit.archive.open(folder)


@pytest.fixture(scope="module")
def in_memory(archive) -> TelemetryFrames:
    """The archive's telemetry tables, computed whole (what the analyses used to do)."""
    tables = {
        field.name: getattr(archive.telemetry, field.name).compute().reset_index(drop=True)
        for field in dataclasses.fields(TelemetryFrames)
        if field.name != "problems"
    }
    return TelemetryFrames(**tables)


class _LargestFrame(Callback):
    """The most rows a task of the local scheduler gave as a DataFrame."""

    def __init__(self) -> None:
        super().__init__()
        self.rows = 0

    def _posttask(self, key, result, dsk, state, worker_id) -> None:
        if isinstance(result, pd.DataFrame):
            self.rows = max(self.rows, len(result))


@pytest.mark.parametrize("call", CALLS, ids=lambda call: f"{call[0].__name__}{call[1]}")
def test_each_partition_is_read_on_its_own(archive, in_memory, call) -> None:
    tables = archive.telemetry
    assert tables.rounds.npartitions >= 8
    largest_partition = max(
        max(getattr(tables, name).map_partitions(len).compute())
        for name in ("round_player_stats", "reserved_users", "battlerite_picks", "queue_events")
    )
    function, kwargs = call
    expected = function(in_memory, **kwargs)
    with _LargestFrame() as largest:
        result = function(archive, **kwargs)
    assert 0 < largest.rows <= largest_partition  # no task joined a table's partitions
    assert len(result) > 0
    pd.testing.assert_frame_equal(result, expected, check_exact=False, rtol=1e-9)
    assert result.attrs == expected.attrs

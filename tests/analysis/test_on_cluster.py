"""The analyses of an archive run on a real distributed LocalCluster (worker processes) and give
the tables of MatchFrames; the work is done by the workers, without a shuffle when the tables
are partitioned by month."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from dask.dataframe.utils import assert_eq
from distributed import get_task_stream

import matchkit.archive
from matchkit.analysis import (
    battlerite_win_rates,
    cosmetic_summary,
    cosmetic_win_rates,
    duration_summary,
    per_minute_rates,
    player_history,
    player_summary,
    queue_times,
    side_win_rates,
)
from matchkit.analysis.telemetry import match_deciding_rounds
from matchkit.synth.archive import write_synthetic_archive
from matchkit.telemetry.frames import TelemetryFrames
from tests.analysis.helpers import assert_same_summary, sample_frames
from tests.analysis.lazy import LazyTables, lazy_tables
from tests.analysis.pubg.archived import two_months
from tests.analysis.pubg.test_on_archive import same_tables

pytestmark = pytest.mark.filterwarnings("ignore:Sending large graph:UserWarning")

CALLS = [
    (side_win_rates, ("server_type",), {}),
    (side_win_rates, ("patch_version",), {"level": "round"}),
    (duration_summary, (["server_type", "week"],), {"unit": "minutes"}),
    (cosmetic_summary, (["mount", "outfit"], "actor"), {}),
    (cosmetic_win_rates, ("mount", ["server_type", "actor"]), {"top": 3}),
]


LAYOUTS = [{"npartitions": 7}, {"by_month": True}]


@pytest.fixture(scope="module")
def on_workers(dask_client) -> dict[str, LazyTables]:
    """The sample set's tables in each layout, held by the workers (persisted once for the
    module, as an archive's files are there for every query), by the layout's id."""
    frames, held = sample_frames(), {}
    for layout in LAYOUTS:
        tables = vars(lazy_tables(frames, **layout))
        names = [name for name in tables if len(frames.tables[name])]  # an empty one stays
        persisted = dask_client.persist([tables[name] for name in names])
        held[str(layout)] = LazyTables(**{**tables, **dict(zip(names, persisted, strict=True))})
    return held


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize("call", CALLS, ids=lambda call: call[0].__name__)
def test_the_workers_compute_the_table_of_matchframes(dask_client, on_workers, layout, call):
    function, args, kwargs = call
    lazy = on_workers[str(layout)]
    with get_task_stream(client=dask_client) as tasks:
        result = function(lazy, *args, **kwargs)
    workers = set(dask_client.scheduler_info(n_workers=-1)["workers"])
    assert {task["worker"] for task in tasks.data} <= workers
    assert len(tasks.data) >= lazy.matches.npartitions
    names = {str(task["key"]) for task in tasks.data}
    shuffled = {name for name in names if "shuffle" in name or "hash-join" in name}
    if layout.get("by_month"):  # a match's rows share a partition: joined where they lie
        assert not shuffled
    # (Tables not partitioned by match are computed whole where a function needs whole
    # matches: by_partition; joins shuffle.)
    expected = function(sample_frames(), *args, **kwargs)
    assert_eq(result, expected)
    assert result.attrs == expected.attrs


def test_the_workers_compute_a_players_history_and_summary(dask_client, on_workers):
    frames = sample_frames()
    lazy = on_workers[str({"by_month": True})]
    player_id = str(frames.participants["player_id"].astype(str).value_counts().index[0])
    with get_task_stream(client=dask_client) as tasks:
        history = player_history(lazy, player_id)
        summary = player_summary(lazy, player_id)
    workers = set(dask_client.scheduler_info(n_workers=-1)["workers"])
    assert tasks.data
    assert {task["worker"] for task in tasks.data} <= workers
    expected = player_history(frames, player_id)
    assert len(expected) >= 5
    pd.testing.assert_frame_equal(history.reset_index(drop=True), expected.reset_index(drop=True))
    assert_same_summary(summary, player_summary(frames, player_id))


def test_the_workers_read_a_pubg_archive_and_give_the_tables_in_memory(
    dask_client, tmp_path_factory
):
    archived = two_months(tmp_path_factory.mktemp("pubg-archive"))
    with get_task_stream(client=dask_client) as tasks:
        same_tables(archived)  # every PUBG analysis, the workers reading the archive's files
    workers = set(dask_client.scheduler_info(n_workers=-1)["workers"])
    assert tasks.data
    assert {task["worker"] for task in tasks.data} <= workers


TELEMETRY_CALLS = [
    (per_minute_rates, {}),
    (battlerite_win_rates, {}),
    (queue_times, {"by": ["start_hour"]}),
    (match_deciding_rounds, {}),
]


def test_the_workers_run_the_telemetry_analyses_partition_by_partition(
    dask_client, tmp_path_factory
):
    folder = tmp_path_factory.mktemp("telemetry-archive") / "archive"
    write_synthetic_archive(folder, matches=600, days=120, telemetry=True)
    archive = matchkit.archive.open(folder)
    tables = {
        field.name: getattr(archive.telemetry, field.name).compute().reset_index(drop=True)
        for field in dataclasses.fields(TelemetryFrames)
        if field.name != "problems"
    }
    in_memory = TelemetryFrames(**tables)
    workers = set(dask_client.scheduler_info(n_workers=-1)["workers"])
    for function, kwargs in TELEMETRY_CALLS:
        with get_task_stream(client=dask_client) as tasks:
            result = function(archive, **kwargs)
        assert {task["worker"] for task in tasks.data} <= workers
        # A task a partition: its tables read and the work done in one.
        assert all(str(task["key"]).startswith("('read-") for task in tasks.data)
        assert all("_partition_result" in str(task["key"]) for task in tasks.data)
        assert len(tasks.data) >= 4
        expected = function(in_memory, **kwargs)
        pd.testing.assert_frame_equal(result, expected, check_exact=False, rtol=1e-9)
        assert result.attrs == expected.attrs

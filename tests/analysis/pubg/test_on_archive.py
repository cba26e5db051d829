"""Every PUBG analysis gives of an archive spanning two months the table it gives of the same
matches and files in memory, dtypes included: on Dask's threads, and on a real LocalCluster
(worker processes read the files)."""

from __future__ import annotations

import pandas as pd
import pytest

import matchkit.archive as archive
from tests.analysis.pubg import ANALYSES
from tests.analysis.pubg.archived import Archived, two_months

pytestmark = pytest.mark.filterwarnings("ignore:Sending large graph:UserWarning")


@pytest.fixture(scope="module")
def archived(tmp_path_factory) -> Archived:
    return two_months(tmp_path_factory.mktemp("pubg-archive"))


def _same_tables(archived: Archived) -> None:
    opened = archive.open(archived.folder)
    months = opened.to_frames().matches["created_at"].dt.strftime("%Y-%m")
    assert set(months) == {"2026-10", "2026-11"}
    for analysis in ANALYSES:
        got = analysis(opened)
        expected = analysis(archived.frames, archived.telemetry)
        pd.testing.assert_frame_equal(
            got.reset_index(drop=True), expected.reset_index(drop=True), obj=analysis.__name__
        )
        assert got.attrs == expected.attrs, analysis.__name__


def test_every_analysis_of_the_archive_is_the_analysis_in_memory(archived: Archived) -> None:
    _same_tables(archived)


def test_on_a_cluster_the_workers_read_and_give_the_same_tables(archived, dask_client) -> None:
    from distributed import get_task_stream

    with get_task_stream(client=dask_client) as tasks:
        _same_tables(archived)
    workers = set(dask_client.scheduler_info(n_workers=-1)["workers"])
    assert tasks.data
    assert {task["worker"] for task in tasks.data} <= workers

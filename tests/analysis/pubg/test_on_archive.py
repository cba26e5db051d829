"""Every PUBG analysis gives of an archive spanning two months the table it gives of the same
matches and files in memory, dtypes included, on Dask's threads (on a real LocalCluster:
``tests/analysis/test_on_cluster.py``, beside the other analyses)."""

from __future__ import annotations

import pandas as pd
import pytest

import matchkit.archive as archive
from tests.analysis.pubg import ANALYSES
from tests.analysis.pubg.archived import Archived, two_months


@pytest.fixture(scope="module")
def archived(tmp_path_factory) -> Archived:
    return two_months(tmp_path_factory.mktemp("pubg-archive"))


def same_tables(archived: Archived) -> None:
    """Each analysis of the archive equals it of the same matches and files in memory."""
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
    same_tables(archived)

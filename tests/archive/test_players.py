"""Issue 28: ``player_history`` and ``player_summary`` give the same results on MatchFrames
and on an archive built by a real sync (Delta tables on disk, read lazily through Dask's
threads; the same analyses on a LocalCluster are tests/analysis/test_on_cluster.py's)."""

from __future__ import annotations

import pandas as pd
import pytest

import matchkit.archive
from matchkit.analysis import player_history, player_summary
from matchkit.client.client import Client
from tests.analysis.helpers import assert_same_summary

START, NOW = "2026-10-10T00:00:00Z", "2026-10-31T00:00:00Z"


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("players-archive")
    with Client(cache_dir=root / "cache", progress=False, rate_limit="off") as client:
        frames = client.matches(START, NOW)
        matchkit.archive.sync(client, root / "archive", start=START, now=NOW, progress=False)
    return frames, matchkit.archive.open(root / "archive")


def _busiest_players(frames, count: int) -> list[str]:
    played = frames.participants["player_id"].astype(str).value_counts()
    return list(played.index[:count])


def test_history_and_summary_equal_on_matchframes_and_on_the_archive(synced):
    frames, archive = synced
    players = _busiest_players(frames, 3)
    assert len(players) == 3
    for player_id in players:
        from_frames = player_history(frames, player_id)
        from_archive = player_history(archive, player_id)
        assert len(from_frames) >= 5  # a player with a history worth comparing
        pd.testing.assert_frame_equal(
            from_archive.reset_index(drop=True), from_frames.reset_index(drop=True)
        )
        assert_same_summary(
            player_summary(archive, player_id),
            player_summary(frames, player_id),
            every_snapshot=True,
        )

"""Issue 28: ``player_history`` and ``player_summary`` give the same results on MatchFrames
and on an archive built by a real sync (Delta tables on disk, read lazily through Dask's
threads; the same analyses on a LocalCluster are tests/analysis/test_on_cluster.py's)."""

from __future__ import annotations

import pandas as pd
import pytest

import matchkit.archive
from matchkit.analysis import player_history, player_summary
from matchkit.client.client import Client
from matchkit.errors import InvalidArgumentError
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


def test_rows_gives_the_rows_holding_the_values_as_files_are_read(synced):
    frames, archive = synced
    player = _busiest_players(frames, 1)[0]
    expected = frames.participants[frames.participants["player_id"].astype(str) == player]
    rows = archive.rows("participants", "player_id", [player]).compute()
    assert list(rows.columns) == list(archive.participants.columns)
    assert sorted(rows["participant_id"]) == sorted(expected["participant_id"].astype(str))
    ids = sorted(set(expected["match_id"].astype(str)))[:2]
    some = archive.rows("rosters", "match_id", ids, columns=["match_id", "won"]).compute()
    assert list(some.columns) == ["match_id", "won"]
    assert sorted(set(some["match_id"])) == ids
    assert len(some) == (frames.rosters["match_id"].astype(str).isin(ids)).sum()
    none = archive.rows("matches", "match_id", ["no such match"]).compute()
    assert none.empty
    assert list(none.columns) == list(archive.matches.columns)


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        (("no_such_table", "match_id", ["x"]), "table"),
        (("participants", "kills", ["1"]), "column"),
        (("participants", "no_such_column", ["1"]), "column"),
    ],
)
def test_rows_refuses_what_the_archive_lacks(synced, arguments, parameter):
    _, archive = synced
    with pytest.raises(InvalidArgumentError) as raised:
        archive.rows(*arguments)
    assert raised.value.parameter == parameter


def test_rows_refuses_columns_the_table_lacks(synced):
    _, archive = synced
    with pytest.raises(InvalidArgumentError, match="no column 'nope'"):
        archive.rows("participants", "player_id", ["1"], columns=["match_id", "nope"])

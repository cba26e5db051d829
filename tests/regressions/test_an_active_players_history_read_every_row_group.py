"""Regression: an active player's history read nearly every row of ``participants``, every
column. A data file was one row group, its rows in the order they were drawn, so a file holding
one of the player's rows was read whole: 16.2 s of the 27.6 s ``player_history`` took for a
player of 3,770 matches in a 10M-match archive (6.5x DuckDB's join of the same files). Each
table is now written in the order of the column it is looked up by (``participants`` and the
player snapshots by ``player_id``, ``matches`` and ``rosters`` by ``match_id``), in row groups of
at most ``ROW_GROUP_ROWS`` rows, so that their statistics rule out the rest: 1.5-2.0 s. Found by
measuring the analyses that take an archive beside DuckDB (issue 37)."""

from __future__ import annotations

import pyarrow.parquet as pq

import matchkit.archive
from matchkit.archive.reader import _groups_holding
from matchkit.synth.archive import write_synthetic_archive

MATCHES = 150_000


def test_an_active_players_rows_lie_in_few_row_groups(tmp_path) -> None:
    write_synthetic_archive(tmp_path / "archive", matches=MATCHES, days=60)
    archive = matchkit.archive.open(tmp_path / "archive")
    files = archive.files("participants")
    ids = pq.read_table(files[0], columns=["player_id"]).column("player_id")
    player = ids.drop_null()[0].as_py()  # the first in order: the pool's most active
    read = holding = total = 0
    for path in files:
        handle = pq.ParquetFile(path)
        groups = _groups_holding(handle, "player_id", (player,))
        sizes = [handle.metadata.row_group(group).num_rows for group in groups]
        read += sum(sizes)
        total += handle.metadata.num_rows
        holding += (
            pq.read_table(path, columns=["player_id"]).column("player_id").to_pylist().count(player)
        )
        assert len(groups) <= 2, (path, groups)  # a player's rows are together in a file
    assert holding > len(files)  # an active player: in every file, more than once
    assert read < total / 4, (read, total)  # a few row groups a file, not the files

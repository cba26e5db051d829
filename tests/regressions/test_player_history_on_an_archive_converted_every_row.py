"""Regression: ``player_history`` (and ``player_summary``) on an archive read the whole of
``participants``, ``rosters``, ``matches`` and the player snapshots into pandas, every row of
every column, to keep a player's few: 6.35 s for a player of 4 matches in a 1M-match archive,
22x DuckDB's join of the same files. The archive's rows are now chosen as each file is read
(``Archive.rows``: the filter column first, the other columns of a row group only where it holds
a value): 1.27 s. Found by measuring the analyses that take an archive beside DuckDB (issue 37)."""

from __future__ import annotations

import pytest

import matchkit.archive
from matchkit.analysis import player_history
from matchkit.archive import reader
from matchkit.synth.archive import write_synthetic_archive

MATCHES = 6_000


def test_a_players_history_converts_only_the_rows_of_their_matches(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_synthetic_archive(tmp_path / "archive", matches=MATCHES, days=60)
    archive = matchkit.archive.open(tmp_path / "archive")
    participants = archive.to_frames().participants
    played = participants["player_id"].dropna().astype(str).value_counts()
    player = played.index[len(played) // 2]  # a player of a few matches
    converted: list[int] = []
    to_pandas = reader.to_pandas

    def counting(table, dtypes):
        converted.append(table.num_rows)
        return to_pandas(table, dtypes)

    monkeypatch.setattr(reader, "to_pandas", counting)
    history = player_history(archive, player)
    assert len(history) == played[player]
    # the player's participants, their matches' rosters and matches, their snapshots: a few
    # dozen rows, where the tables hold tens of thousands
    assert sum(converted) < 100, converted
    assert len(participants) > 30_000

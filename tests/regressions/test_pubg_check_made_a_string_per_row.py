"""Regression: the check of a PUBG telemetry file against its match's players read every player
column as Python objects, a string per row (24,696 of them for a 21 MB file's positions alone),
at the end of the read, when every table was held: that was the read's peak of memory, 2.03-2.09x
the file's decompressed size against a target of 2x (``make bench``'s PUBG telemetry section).
Each column is now read in Arrow as codes of its distinct ids. Found by sampling the process's
memory through the read's steps."""

from __future__ import annotations

import tracemalloc

import pandas as pd
import pyarrow as pa
import pytest

from matchkit.errors import DocumentError
from matchkit.telemetry.pubg import MatchRoster, read_pubg_file
from matchkit.telemetry.pubg.check import require_roster_agreement
from tests.telemetry.pubg.files import WHOLE, WHOLE_MATCH, recorded

ROWS = 200_000


@pytest.fixture(scope="module")
def whole() -> tuple[dict[str, pd.DataFrame], MatchRoster]:
    """The recorded whole file's tables, and its players (their kills not checked)."""
    tables = read_pubg_file(recorded(WHOLE)).tables
    players = set(tables["match_end"]["player_id"].dropna())
    return tables, MatchRoster(WHOLE_MATCH, dict.fromkeys(players))


def _positions_of(players: list[str | None], events: list[int], *, chunks: int) -> pd.DataFrame:
    """A positions table of these rows, its player ids in ``chunks`` Arrow chunks."""
    size = -(-len(players) // chunks)
    parts = [
        pa.array(players[at : at + size], pa.large_string()) for at in range(0, len(players), size)
    ]
    return pd.DataFrame(
        {
            "event_index": pd.array(events, dtype="Int64"),
            "player_id": pd.arrays.ArrowStringArray(pa.chunked_array(parts)),
        }
    )


def test_the_check_of_many_rows_makes_no_object_per_row(whole) -> None:
    tables, roster = whole
    players = sorted(roster.kills)
    ids = [players[row % len(players)] for row in range(ROWS)]
    big = dict(tables, positions=_positions_of(ids, list(range(ROWS)), chunks=3))
    del ids
    tracemalloc.start()
    try:
        require_roster_agreement(big, roster, where="telemetry", index=0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # A string and a pointer a row were about 80 bytes a row: 16 MB here.
    assert peak < 2_000_000, f"the check took {peak:,} bytes of Python objects for {ROWS:,} rows"


def test_a_stranger_is_named_at_its_first_event_whatever_the_rows_order_and_chunks(whole) -> None:
    tables, roster = whole
    player = sorted(roster.kills)[0]
    # Rows out of event order, across chunks; missing and empty ids are no one.
    positions = _positions_of(
        [player, "account.stranger", None, "", "account.stranger", player],
        [900_002, 900_007, 900_001, 900_000, 900_003, 900_004],
        chunks=2,
    )
    with pytest.raises(DocumentError, match=r"'account.stranger' \(first in event 900003\)"):
        require_roster_agreement(
            dict(tables, positions=positions), roster, where="telemetry", index=0
        )

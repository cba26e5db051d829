"""Found by reading decision 17's code (session 10): the type of a column depended on the order
of pages when a player's snapshots held a member of different kinds.

A player's stats ``wins`` was ``0.5`` in its latest match and ``true`` in an earlier one. Read
latest first, the kept row stayed and the copy was only compared, so the column was float64;
read earliest first, the latest copy replaced the kept row and the two kinds were joined, so
the column was text. The same held for ``3`` and ``3.0`` (equal, so no copy differed): Int64 one
way, float64 the other. And a member only an earlier snapshot carried (``wins`` of 7, none in
the latest) was an Int64 column of nulls one way, and no column or a text one the other (found
by tests/normalize/test_properties.py's order property). Now a table's columns and their types
come from every copy read, whichever came first.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from matchkit import to_frames
from tests.builders.resources import arena, page

_NOTHING = object()  # the copy does not carry the member


def _player_in_two_matches(latest: Any, earlier: Any) -> tuple[dict, dict]:
    """Two pages, each a match whose first player is the same; its stats ``wins`` is
    ``latest`` in the later match and ``earlier`` in the other."""
    pages = []
    for match_id, created, value in (
        ("m0", "2026-10-30T13:00:00Z", latest),
        ("m1", "2026-10-30T12:00:00Z", earlier),
    ):
        stats = {} if value is _NOTHING else {"wins": value}
        pages.append(
            page(
                arena(
                    match_id,
                    per_side=1,
                    created_at=created,
                    player_ids=["m0-player10"],
                    player_stats=[stats],
                )
            )
        )
    first, second = pages
    return first, second


@pytest.mark.parametrize(
    ("latest", "earlier", "dtype", "value"),
    [
        (0.5, True, "string", "0.5"),
        (3, 3.0, "float64", 3.0),
        (True, "yes", "string", "true"),
        (_NOTHING, 7, "Int64", pd.NA),  # found by the order property test
    ],
)
def test_the_column_type_is_the_same_in_either_order(latest, earlier, dtype, value):
    first, second = _player_in_two_matches(latest, earlier)
    forward = to_frames([first, second]).players.set_index("player_id")["wins"]
    backward = to_frames([second, first]).players.set_index("player_id")["wins"]
    pd.testing.assert_series_equal(forward.sort_index(), backward.sort_index())
    assert forward.dtype == dtype
    assert forward["m0-player10"] is value or forward["m0-player10"] == value  # the latest

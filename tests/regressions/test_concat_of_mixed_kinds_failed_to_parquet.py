"""Found while checking MatchFrames.concat (session 10): frames that hold an extra column with
different kinds were combined into an object column of mixed Python values, which
``to_parquet`` then refused with Arrow's raw ``ArrowInvalid`` ("Could not convert 'x' with type
str: tried to convert to int64"). And an integer beyond 2**53 beside a decimal in another frame
was rounded by pandas' concat.

Now such a column is settled as ``to_frames`` of all the pages at once settles it: integers and
decimals as decimals (text when an integer is beyond 2**53), any other mix as text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from matchkit import MatchFrames, to_frames
from tests.builders.resources import arena, page


def _pages(first: Any, second: Any) -> list[dict[str, Any]]:
    return [
        page(arena(match_id, per_side=1, player_stats=[{"wins": value}] * 2))
        for match_id, value in (("a", first), ("b", second))
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [(3, "x"), (3, 2.5), (True, 2.5), (2**53 + 1, 0.5), ({"k": 1}, 2), (None, "x")],
)
def test_a_column_of_mixed_kinds_is_settled_as_to_frames_settles_it(
    first: Any, second: Any, tmp_path: Path
) -> None:
    pages = _pages(first, second)
    combined = MatchFrames.concat([to_frames(document) for document in pages])
    at_once = to_frames(pages)
    pd.testing.assert_series_equal(combined.players["wins"], at_once.players["wins"])
    combined.to_parquet(tmp_path / "set")
    back = MatchFrames.read_parquet(tmp_path / "set")
    pd.testing.assert_series_equal(back.players["wins"], combined.players["wins"])

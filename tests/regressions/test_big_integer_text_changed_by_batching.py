"""Found by the property test of the two readers (session 10): the text of an integer of 2**53
or more depended on where the walker cut its batches.

A stats member held 2**53 in one player, 0.0 in another of the same page and ``false`` in a
third page's player, so the column was text. Read together, the integer was written as it came,
``"9007199254740992"``; read a page at a time, it first became a decimal with the 0.0 beside it
and was then written as ``"9007199254740992.0"``. Beyond 2**53 it was worse: the integer was
rounded to the nearest float before the column turned to text, so 2**53 + 1 read back as
``"9007199254740992"``, another number. Decision 17 joins a player's kept row with its later
copies the same way, so the order of pages could change the value too.

Now a column where an integer beyond 2**53 meets decimals is text with every integer exact,
wherever the chunks are cut, and a whole decimal up to 2**53 is written as the integer it is.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.normalize import walker
from tests.builders.resources import arena, page


def _pages(*pages: tuple[Any, ...]) -> list[dict[str, Any]]:
    """A page per tuple, its players' ``wins`` the tuple's values."""
    return [
        page(arena(f"m{number}", per_side=1, player_stats=[{"wins": v} for v in values]))
        for number, values in enumerate(pages)
    ]


def _wins(documents: list[dict[str, Any]], rows: int, monkeypatch: pytest.MonkeyPatch) -> pd.Series:
    monkeypatch.setattr(walker, "FLUSH_ROWS", rows)
    players = to_frames(documents).players
    return players.set_index("player_id")["wins"].dropna()


@pytest.mark.parametrize("big", [2**53, 2**53 + 1, -(2**53) - 1, 2**63 - 1])
@pytest.mark.parametrize("rows", [1, 4096])
def test_an_integer_keeps_its_digits_however_the_pages_are_batched(big, rows, monkeypatch):
    documents = _pages((big, 0.0), (False, 1))
    wins = _wins(documents, rows, monkeypatch)
    assert wins.dtype == "string"
    assert wins.tolist() == [str(big), "0", "false", "1"]


def test_the_order_of_pages_does_not_round_an_integer(monkeypatch):
    """A player in two pages (decision 17 joins its kept row with its later copy): the latest
    match's copy holds 2**53 + 1 beside a 0.0, the earlier one ``true``. Before, read latest
    first, the integer became the decimal 2**53 (float64); read earliest first, it stayed
    ``"9007199254740993"`` (text)."""
    big = 2**53 + 1
    latest = page(
        arena(
            "m0",
            per_side=1,
            created_at="2026-10-30T13:00:00Z",
            player_stats=[{"wins": big}, {"wins": 0.0}],
        )
    )
    earlier = page(
        arena(
            "m1",
            per_side=1,
            player_ids=["m0-player10"],
            player_stats=[{"wins": True}, {"wins": None}],
        )
    )
    forward = _wins([latest, earlier], 4096, monkeypatch)
    backward = _wins([earlier, latest], 4096, monkeypatch)
    pd.testing.assert_series_equal(forward.sort_index(), backward.sort_index())
    assert forward.sort_index().tolist() == [str(big), "0"]

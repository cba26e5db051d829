"""Found by the property test of the two readers (session 5): a stats member holding an integer
beyond 2**53 in one document and a decimal in another became a float64 column when the two
were read in separate chunks (unify rounds the integer, docs/model.md) but a text column when
they were read together (Arrow refused to round it, so the general reader fell back to text).
A column's type must not depend on where the walker cuts its batches.

Session 10 changed the rule (test_big_integer_text_changed_by_batching.py): such a column is now
text in any batching, every integer exact, where it was float64 with the integer rounded."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.normalize import walker
from tests.builders.resources import arena, page

BIG = 2**53 + 1  # the nearest float is 2**53


def _pages(*wins: Any) -> list[dict[str, Any]]:
    return [
        page(arena(f"m{number}", player_stats=[{"wins": value}]))
        for number, value in enumerate(wins)
    ]


def _wins(pages: list[dict[str, Any]], rows: int, monkeypatch: pytest.MonkeyPatch) -> pd.Series:
    monkeypatch.setattr(walker, "FLUSH_ROWS", rows)
    players = to_frames(pages).players
    return players.set_index("player_id")["wins"].dropna()


@pytest.mark.parametrize("wins", [(BIG, 0.0), (0.5, BIG, 7)])
def test_an_integer_beyond_2_53_among_decimals_is_exact_text_in_any_batching(wins, monkeypatch):
    together = _wins(_pages(*wins), 4096, monkeypatch)
    apart = _wins(_pages(*wins), 1, monkeypatch)
    assert together.dtype == "string"
    pd.testing.assert_series_equal(together, apart)
    assert str(BIG) in together.tolist()


def test_an_integer_beyond_64_bits_among_decimals_makes_text_in_any_batching(monkeypatch):
    together = _wins(_pages(2**70, 0.0), 4096, monkeypatch)
    apart = _wins(_pages(2**70, 0.0), 1, monkeypatch)
    assert together.dtype == "string"
    pd.testing.assert_series_equal(together, apart)
    assert str(2**70) in together.tolist()

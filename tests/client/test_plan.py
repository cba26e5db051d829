"""Planning: windows in sort order without gap or overlap, and the paging arithmetic."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchkit.client.plan import link_offset, next_offset, plan_windows
from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import MatchQuery

NOW = datetime(2026, 10, 31, tzinfo=UTC)


def test_a_120_day_range_becomes_five_windows_of_at_most_28_days() -> None:
    query = MatchQuery.create(start=NOW - timedelta(days=120))
    windows = plan_windows(query, now=NOW)
    assert [w.span for w in windows] == [timedelta(days=28)] * 4 + [timedelta(days=8)]
    assert windows[0].start == NOW - timedelta(days=120)
    assert windows[-1].end == NOW


def test_descending_walks_the_same_windows_latest_first() -> None:
    ascending = plan_windows(MatchQuery.create(start="2026-08-01"), now=NOW)
    descending = plan_windows(MatchQuery.create(start="2026-08-01", sort="-createdAt"), now=NOW)
    assert descending == ascending[::-1]
    assert descending[0].end == NOW


def test_times_before_the_retention_and_after_now_are_clamped() -> None:
    windows = plan_windows(MatchQuery.create(start="2020-01-01", end="2030-01-01"), now=NOW)
    assert windows[0].start == NOW - timedelta(days=120)
    assert windows[-1].end == NOW


def test_defaults_are_the_shards_lookback() -> None:
    (global_window,) = plan_windows(MatchQuery.create(), now=NOW)
    assert global_window.start == NOW - timedelta(days=28)
    (na_window,) = plan_windows(MatchQuery.create("na", end="2026-10-30T12:00:00Z"), now=NOW)
    assert na_window.span == timedelta(hours=3)
    assert na_window.end == datetime(2026, 10, 30, 12, tzinfo=UTC)


def test_start_not_before_end_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="earlier than"):
        plan_windows(MatchQuery.create(start="2026-10-20", end="2026-10-10"), now=NOW)


@settings(max_examples=60, deadline=None)
@given(
    start_minutes=st.integers(min_value=0, max_value=130 * 24 * 60),
    length_minutes=st.integers(min_value=1, max_value=130 * 24 * 60),
    descending=st.booleans(),
)
def test_windows_cover_the_clamped_range_exactly(
    start_minutes: int, length_minutes: int, descending: bool
) -> None:
    start = NOW - timedelta(minutes=start_minutes)
    end = start + timedelta(minutes=length_minutes)
    query = MatchQuery.create(
        start=start, end=end, sort="-createdAt" if descending else "createdAt"
    )
    try:
        windows = plan_windows(query, now=NOW)
    except InvalidArgumentError:
        # Only when clamping leaves nothing: the whole range before the retention or after now.
        assert end <= NOW - timedelta(days=120) or start >= NOW
        return
    ordered = sorted(windows)
    assert ordered == (windows[::-1] if descending else windows)
    assert ordered[0].start == max(start, NOW - timedelta(days=120))
    assert ordered[-1].end == min(end, NOW)
    for before, after in itertools.pairwise(ordered):
        assert before.end == after.start
    assert all(timedelta(0) < w.span <= timedelta(days=28) for w in windows)


def test_a_short_page_is_the_last_even_with_a_next_link() -> None:
    link = "https://api.example/shards/global/matches?page[offset]=5"
    assert next_offset(offset=0, limit=5, received=0, next_link=link) is None
    assert next_offset(offset=10, limit=5, received=3, next_link=link) is None


def test_a_full_page_moves_on_by_what_it_held() -> None:
    assert next_offset(offset=10, limit=5, received=5, next_link=None) == 15
    # The real service once sent 50 a page for limit 5 (a player filter), with a next link.
    link = "https://x/matches?filter[playerIds]=84&page[offset]=50"
    assert next_offset(offset=0, limit=5, received=50, next_link=link) == 50


def test_a_page_larger_than_asked_without_next_is_the_last() -> None:
    # matches-response-776588202252308480.json: 38 matches, links with only self.
    assert next_offset(offset=0, limit=5, received=38, next_link=None) is None


@settings(max_examples=60, deadline=None)
@given(
    limit=st.integers(min_value=1, max_value=50),
    sizes=st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=20),
)
def test_paging_visits_offsets_without_gap_and_ends(limit: int, sizes: list[int]) -> None:
    offset, visited = 0, []
    for size in sizes:
        visited.append((offset, size))
        following = next_offset(offset=offset, limit=limit, received=size, next_link="next")
        if following is None:
            assert size < limit
            break
        assert following == offset + size
        offset = following
    for (first, size), (second, _) in itertools.pairwise(visited):
        assert second == first + size


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("https://x/shards/global/matches?page[offset]=5", 5),
        ("https://x/m?filter[createdAt-end]=2017-12-03T15:23:53 0100&page[offset]=5", 5),
        ("https://x/m?page%5Boffset%5D=40&page%5Blimit%5D=5", 40),
        ("https://x/m?page[limit]=5", None),
        ("https://x/m?page[offset]=-1", None),
        (None, None),
    ],
)
def test_link_offset_reads_the_offset_of_a_paging_link(link: str | None, expected: int) -> None:
    assert link_offset(link) == expected

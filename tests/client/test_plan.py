"""Planning: windows in sort order without gap or overlap, and batches of long id lists."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchkit.client.plan import make_plan, plan_windows
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


def test_a_plan_asks_each_window_in_batches_of_six() -> None:
    ids = [f"player-{n}" for n in range(14)]
    query = MatchQuery.create(start=NOW - timedelta(days=40), player_ids=ids)
    plan = make_plan(query, now=NOW, max_matches=None, rate_limit=None)
    assert len(plan.windows) == 2
    assert len(plan.requests) == 2 * 3
    sent = [request.params["filter[playerIds]"].split(",") for request in plan.requests[:3]]
    assert [len(batch) for batch in sent] == [6, 6, 2]
    assert [value for batch in sent for value in batch] == ids
    assert "2 window(s) on shard global in 6 request(s)" in str(plan)

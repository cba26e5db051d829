"""The paging rules (decision 8): stop only on an empty page or a page without ``next``; a window
walked by time, each page beginning with the last match received, loses no match to a shift."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchkit.rules.paging import (
    PageRequest,
    WindowCursor,
    link_offset,
    link_offsets,
    next_offset,
)
from matchkit.rules.windows import TimeWindow


def test_a_short_page_is_not_the_last_while_a_next_link_follows() -> None:
    # The real Vainglory service sent 5 of 50, 48 of 50 mid-window (decision 8).
    link = "https://api.example/shards/global/matches?page[offset]=15"
    assert next_offset(offset=10, received=3, next_link=link) == 13
    assert next_offset(offset=0, received=0, next_link=link) is None


def test_a_page_moves_on_by_what_it_held_and_ends_without_next() -> None:
    assert next_offset(offset=10, received=5, next_link=None) is None
    assert next_offset(offset=10, received=5, next_link="") is None
    # The real service once sent 50 a page for limit 5 (a player filter), with a next link.
    link = "https://x/matches?filter[playerIds]=84&page[offset]=50"
    assert next_offset(offset=0, received=50, next_link=link) == 50


def test_a_page_larger_than_asked_without_next_is_the_last() -> None:
    # matches-response-776588202252308480.json: 38 matches, links with only self.
    assert next_offset(offset=0, received=38, next_link=None) is None


def test_the_services_links_fill_pages() -> None:
    assert link_offsets(offset=0, limit=5) == {"first": 0, "next": 5, "self": 0}
    assert link_offsets(offset=3, limit=5) == {"first": 0, "next": 8, "self": 3, "previous": 0}


@settings(max_examples=60, deadline=None)
@given(
    limit=st.integers(min_value=1, max_value=50),
    sizes=st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=20),
)
def test_paging_visits_offsets_without_gap_and_ends(limit: int, sizes: list[int]) -> None:
    offset, visited = 0, []
    for size in sizes:
        visited.append((offset, size))
        following = next_offset(offset=offset, received=size, next_link="next")
        if following is None:
            assert size == 0
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


# -- WindowCursor: paging by time, each page beginning with the last match received ------------

_T0 = datetime(2026, 10, 1, tzinfo=UTC)
_WINDOW = TimeWindow(_T0, _T0 + timedelta(seconds=40))


def _serve(
    items: dict[str, datetime],
    request: PageRequest,
    *,
    limit: int,
    descending: bool,
    sorted_by_time: bool = True,
    reverse: bool = False,
) -> tuple[list[str], list[datetime]]:
    """What a service holding ``items`` answers: sorted by (createdAt, id), a slice of it; or,
    ``sorted_by_time=False``, in an order of its own: by the id's last digit, then id (or, with
    ``reverse``, the opposite of the order asked)."""
    inside = [(moment, match_id) for match_id, moment in items.items() if moment in request.window]
    if sorted_by_time:
        inside.sort(reverse=descending)
    elif reverse:
        inside.sort(reverse=not descending)
    else:
        inside.sort(key=lambda pair: (pair[1][-1], pair[1]))
    page = inside[request.offset : request.offset + limit]
    return [match_id for _, match_id in page], [moment for moment, _ in page]


def _walk(items, *, limit, descending, between=lambda step: None, steps=2000, **service):
    cursor = WindowCursor(_WINDOW, descending=descending, limit=limit)
    for step in range(steps):
        request = cursor.request()
        ids, times = _serve(items, request, limit=limit, descending=descending, **service)
        between(step)
        outcome = cursor.take(ids, times, has_next=True)
        if outcome in ("done", "stuck"):
            return cursor, step + 1, outcome
    raise AssertionError("the cursor did not end")


def test_a_window_is_walked_whole_with_one_match_of_overlap() -> None:
    items = {f"m{n:02d}": _T0 + timedelta(seconds=n) for n in range(12)}
    cursor, requests, outcome = _walk(items, limit=5, descending=False)
    assert outcome == "done"
    assert list(cursor.seen) == sorted(items)
    # 5 new, then 4 new a page (the first repeats the last received), then the page of the
    # last match alone, and the empty page past it, end the window: 1 + 2 + 1 + 1.
    assert requests == 5
    assert cursor.resyncs == 0


def test_the_next_page_asks_from_the_last_match_second() -> None:
    items = {f"m{n:02d}": _T0 + timedelta(seconds=n, microseconds=500) for n in range(8)}
    cursor = WindowCursor(_WINDOW, descending=True, limit=5)
    ids, times = _serve(items, cursor.request(), limit=5, descending=True)
    assert cursor.take(ids, times, has_next=True) == "more"
    request = cursor.request()
    # Newest first: up to the end of the last match's second, from its first match on.
    assert request.window == TimeWindow(_T0, _T0 + timedelta(seconds=4))
    assert request.offset == 0


def test_matches_sharing_a_second_are_skipped_but_the_last() -> None:
    tied = _T0 + timedelta(seconds=3)
    items = {f"m{n}": tied for n in range(7)} | {"z": _T0 + timedelta(seconds=9)}
    cursor = WindowCursor(_WINDOW, descending=False, limit=5)
    ids, times = _serve(items, cursor.request(), limit=5, descending=False)
    cursor.take(ids, times, has_next=True)
    assert cursor.request() == PageRequest(TimeWindow(tied, _WINDOW.end), 4)
    cursor, _, _ = _walk(items, limit=5, descending=False)
    assert list(cursor.seen) == [*(f"m{n}" for n in range(7)), "z"]


def test_a_page_not_beginning_with_the_last_match_is_asked_again_from_the_bound() -> None:
    tied = _T0 + timedelta(seconds=3)
    items = {f"m{n}": tied for n in range(7)}
    cursor = WindowCursor(_WINDOW, descending=False, limit=5)
    ids, times = _serve(items, cursor.request(), limit=5, descending=False)
    cursor.take(ids, times, has_next=True)
    del items["m1"]  # leaves before the next page: everything after it moves one place up
    ids, times = _serve(items, cursor.request(), limit=5, descending=False)
    assert ids[0] == "m5"
    assert cursor.take(ids, times, has_next=True) == "resync"
    assert cursor.request().offset == 0
    ids, times = _serve(items, cursor.request(), limit=5, descending=False)
    assert cursor.take(ids, times, has_next=True) == "more"
    assert "m5" in cursor.seen


def test_a_page_without_next_or_empty_ends_the_window() -> None:
    cursor = WindowCursor(_WINDOW, descending=False, limit=5)
    assert cursor.take(["a"], [_T0], has_next=False) == "done"
    assert WindowCursor(_WINDOW, descending=False, limit=5).take([], [], has_next=True) == "done"


def test_a_service_that_ignores_the_paging_is_stuck_not_endless() -> None:
    tied = _T0 + timedelta(seconds=3)
    ids, times = [f"m{n}" for n in range(5)], [tied] * 5
    cursor = WindowCursor(_WINDOW, descending=False, limit=5)
    steps = [cursor.take(ids, times, has_next=True) for _ in range(10)]
    assert steps[0] == "more"
    assert "stuck" in steps


def test_a_service_that_does_not_sort_is_walked_by_position() -> None:
    # The real Vainglory service's pages were not in createdAt order (matchCollection.json).
    items = {f"m{n:02d}": _T0 + timedelta(seconds=n) for n in range(23)}
    cursor, requests, outcome = _walk(items, limit=5, descending=False, sorted_by_time=False)
    assert outcome == "done"
    assert not cursor.by_time
    assert set(cursor.seen) == set(items)
    # The first page shows the disorder; then from offset 0 again: 5 + 4 a page + the last,
    # and the empty page past it.
    assert requests == 1 + 1 + 5 + 1 + 1


def test_by_position_a_shift_pages_the_window_again_and_loses_nothing() -> None:
    items = {f"m{n:02d}": _T0 + timedelta(seconds=n) for n in range(23)}

    def leave(step: int) -> None:
        if step == 4:
            del items["m10"]  # first on the service's own order: every later place moves

    cursor, _, outcome = _walk(
        items, limit=5, descending=False, between=leave, sorted_by_time=False
    )
    assert outcome == "done"
    assert cursor.resyncs == 1
    assert set(items) <= set(cursor.seen)


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    limit=st.integers(min_value=2, max_value=6),
    descending=st.booleans(),
    sorted_by_time=st.booleans(),
    seconds=st.lists(st.integers(min_value=0, max_value=39), min_size=0, max_size=40),
)
def test_no_match_present_throughout_is_lost_or_doubled_whatever_leaves_or_arrives(
    data, limit: int, descending: bool, sorted_by_time: bool, seconds: list[int]
) -> None:
    # Matches (with ties) leave and arrive anywhere in the window between any two pages. A
    # service that does not sort returns the opposite order (with distinct times, so that a
    # page of two shows it: a service that ignores sort but whose every page looks sorted is
    # indistinguishable from one that sorts).
    if not sorted_by_time:
        seconds = sorted(set(seconds))
    items = {f"m{n:02d}": _T0 + timedelta(seconds=s) for n, s in enumerate(seconds)}
    ever, removed = dict(items), set()
    changes = data.draw(
        st.lists(st.tuples(st.integers(0, 30), st.booleans(), st.integers(0, 39)), max_size=12)
    )

    def between(step: int) -> None:
        for when, remove, second in changes:
            if when != step:
                continue
            if remove and items:
                gone = sorted(items)[second % len(items)]
                del items[gone]
                removed.add(gone)
            elif not remove:
                new = f"n{len(ever):02d}"
                moment = _T0 + timedelta(seconds=second, microseconds=len(ever))
                items[new] = ever[new] = moment

    cursor, _, outcome = _walk(
        items,
        limit=limit,
        descending=descending,
        between=between,
        sorted_by_time=sorted_by_time,
        reverse=True,
    )
    if outcome == "stuck":  # by position, the list moved more often than the window is paged
        assert not sorted_by_time
        return
    kept = {match_id for match_id in ever if match_id.startswith("m")} - removed
    assert kept <= set(cursor.seen)
    assert set(cursor.seen) <= set(ever)

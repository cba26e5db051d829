"""The paging rule (decision 8): stop only on an empty page or a page without ``next``."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchkit.rules.paging import link_offset, link_offsets, next_offset


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

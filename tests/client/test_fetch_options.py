"""The options of a fetch, declared once (FetchOptions) for plan, iter_pages and matches.

The filters and sort (MatchFilters) plus ``max_matches`` and ``page_limit``; checked before any
request, by an offline client that has nothing cached (so anything sent would fail).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from matchkit.client.client import Client, FetchOptions
from matchkit.rules.query import MatchFilters

UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing listens; no test sends to it
START, END = "2026-10-01", "2026-10-08"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    with Client(
        UNREACHABLE, cache_dir=tmp_path, now="2026-10-31T00:00:00Z", progress=False, offline=True
    ) as client:
        yield client


def test_the_options_are_the_filters_and_the_fetchs_own_two() -> None:
    assert set(FetchOptions.__optional_keys__) == {
        *MatchFilters.__optional_keys__,
        "max_matches",
        "page_limit",
    }
    assert not FetchOptions.__required_keys__


def test_max_matches_and_page_limit_reach_the_plan_and_the_filters_the_query(
    client: Client,
) -> None:
    plan = client.plan(START, END, max_matches=7, page_limit=3, player_ids=["a", "b"])
    assert (plan.max_matches, plan.page_limit) == (7, 3)
    assert plan.query.limit == 3
    assert plan.query.player_ids == ("a", "b")
    assert {request.params["page[limit]"] for request in plan.requests} == {"3"}


def test_options_given_as_none_plan_as_left_out(client: Client) -> None:
    given = client.plan(START, END, max_matches=None, page_limit=None, player_ids=None)
    assert given == client.plan(START, END)
    assert given.max_matches is None


@pytest.mark.parametrize("method", ["plan", "iter_pages", "matches"])
def test_a_misspelt_option_is_refused_before_any_request(client: Client, method: str) -> None:
    with pytest.raises(TypeError, match="'max_match'"):
        getattr(client, method)(START, END, max_match=5)
    assert client.transport.network_requests == 0

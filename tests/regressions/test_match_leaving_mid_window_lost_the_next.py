"""Issue 26 item A3: a match that left the list while a window was paged lost the next one.

The client paged a window by offset: when a match it had already received left (a deletion, or
the 120-day retention moving on during a long fetch at 10 requests a minute), every later match
moved one place up, and the match at the next page's offset was skipped, silently. Now each page
after the first asks from the last match received on (by time) and must begin with it.

A proxy in front of the reference service serves a window whose list changes while the client
pages it (:mod:`tests.client.changing`); the fetch must hold every match that was there
throughout, each once, and nothing that was never there.
"""

from __future__ import annotations

import pytest

from tests.client.changing import changing_list, in_order, read_window
from tests.client.proxy import WINDOW, clients, match_ids


def _check(result: list[str], served) -> None:
    assert len(result) == len(set(result))  # each match once
    assert served.throughout <= set(result)  # none lost
    assert set(result) <= served.ever  # none invented


@pytest.mark.parametrize("sort", ["createdAt", "-createdAt"])
def test_a_match_leaving_behind_the_paging_loses_no_other(
    reference, httpserver, tmp_path, sort: str
) -> None:
    proxy, served = changing_list(httpserver, reference, WINDOW)
    ordered = in_order(served.documents)
    if sort == "-createdAt":
        ordered.reverse()
    # Before the 4th page, the 2nd and the 9th matches in paging order leave: matches the
    # client already holds, so that every later match moves up two places.
    served.leave[4] = {ordered[1], ordered[8]}
    with clients(proxy, tmp_path / "cache") as connect:
        result = match_ids(connect().matches(*WINDOW, sort=sort))
    assert served.served > 4
    _check(result, served)
    # The two had been received before they left: the result is the list as it was read.
    assert sorted(result) == sorted(served.documents)


def test_retention_moving_on_while_the_oldest_window_is_paged(
    reference, httpserver, tmp_path
) -> None:
    proxy, served = changing_list(httpserver, reference, WINDOW)
    ordered = in_order(served.documents)
    # Before each page from the 3rd on, the oldest match still there leaves.
    for number in range(3, 30):
        served.leave[number] = {ordered[number - 3]}
    with clients(proxy, tmp_path / "cache") as connect:
        result = match_ids(connect().matches(*WINDOW))
    _check(result, served)
    assert len(served.throughout) < len(served.documents) - 5  # the list did move


def test_matches_arriving_and_leaving_anywhere_lose_nothing_that_stayed(
    reference, httpserver, tmp_path
) -> None:
    late = set(sorted(read_window(reference, WINDOW))[5::9])
    proxy, served = changing_list(httpserver, reference, WINDOW, held_back=late)
    ordered = in_order(served.documents)
    for number, (gone, new) in enumerate(zip(ordered[3::7], sorted(late), strict=False), 2):
        served.leave[number * 2] = {gone}
        served.arrive[number * 2 + 1] = {new}
    with clients(proxy, tmp_path / "cache") as connect:
        result = match_ids(connect().matches(*WINDOW))
    _check(result, served)

"""Found while refreshing the notebooks after paging by time (issue 26, A3): a window read
partly from the cache and partly from the service held a match of two answers of the list.

Each page after a window's first begins with the last match received. When the cache held the
window's first pages (an interrupted fetch, or another notebook fetching the same window at the
same time) and the service answered the rest, that match came once from each: from two
embedded services, whose telemetry asset URLs name their own port, its asset differed, and the
frames reported "1 asset resource(s) arrived more than once with different content" or not,
depending on which notebook stored which page first. A window is now read all from the cache,
when it holds it whole, or all from the service.
"""

from __future__ import annotations

from matchkit import Client

START, END = "2026-10-01T00:00:00Z", "2026-10-08T00:00:00Z"


def test_a_window_partly_cached_is_asked_again_whole(tmp_path) -> None:
    cache = tmp_path / "cache"
    with Client(cache_dir=cache, progress=False, rate_limit="off") as first:
        some = first.matches(START, END, max_matches=12)  # the window's first pages only
        first_port = first.base_url
    with Client(cache_dir=cache, progress=False, rate_limit="off") as second:
        assert second.base_url != first_port  # another embedded service, another address
        frames = second.matches(START, END)
    assert len(some) == 12 < len(frames)
    assert not [p for p in frames.problems if "asset" in p], frames.problems
    urls = frames.assets["url"].astype(str)
    assert urls.str.startswith(second.base_url + "/").all()  # every page from the second

"""Found by opening the report after a second `make report` (session 15): four pages said
"to_frames: 1 problem(s)" and "1 asset resource(s) arrived more than once with different
content", which the notebooks, run on a fresh cache, do not.

`matchkit report` runs the notebooks at once, each with its own embedded service on its own
port, all writing one HTTP cache. A window's pages could so be stored by two services (both
whole answers, the same match ids), and a later run read the window "whole and consistent" from
the cache: the match two consecutive pages share then came once from each service, its
telemetry asset with two URLs. A cached window is now read only when that shared match is the
same on both pages and both were answered by one address; else it is asked of the service.
"""

from __future__ import annotations

from matchkit import Client
from matchkit.client.cache import page_expiry
from matchkit.client.pager import _one_answer
from matchkit.client.plan import list_path

START, END = "2026-10-01T00:00:00Z", "2026-10-02T00:00:00Z"


def test_pages_of_two_services_are_not_one_cached_window(tmp_path) -> None:
    pages = []
    for name in ("a", "b"):
        with Client(cache_dir=tmp_path / name, progress=False, rate_limit="off") as client:
            pages.append(list(client.iter_pages(START, END)))
    one, other = pages
    assert len(one) == len(other) > 2
    shared = one[0]["data"][-1]["id"]
    assert other[1]["data"][0]["id"] == shared  # the next page begins with the last match
    assert _one_answer(one[0], one[1])  # one service's answer
    assert not _one_answer(one[0], other[1])  # two services: answered by two addresses


def test_a_window_cached_by_two_services_is_asked_again(tmp_path) -> None:
    """The first run stores the window whole; a second run's service stores one of its pages
    again (as a notebook run at the same time does); a third run reads the window."""
    cache = tmp_path / "cache"
    with Client(cache_dir=cache, progress=False, rate_limit="off") as first:
        first.matches(START, END)
    with Client(cache_dir=cache, progress=False, rate_limit="off") as second:
        asked: list[dict[str, str]] = []
        cached = second.transport.cached

        def recording(path, params=None, **options):  # the pages the window reads, in order
            asked.append(dict(params or {}))
            return cached(path, params, **options)

        second.transport.cached = recording  # type: ignore[method-assign]
        plan = second.plan(START, END)
        assert second._pager()._cached_window(plan.query, plan.windows[0]) is not None
        assert len(asked) > 2
        expiry = page_expiry(plan.windows[0].end, now=plan.now)
        path = list_path(plan.shard)
        second.transport.get(path, asked[1], kind="list", expire_after=expiry, fresh=True)
    with Client(cache_dir=cache, progress=False, rate_limit="off") as third:
        frames = third.matches(START, END)
    assert not [p for p in frames.problems if "asset" in p], frames.problems

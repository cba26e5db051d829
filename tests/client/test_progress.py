"""The progress bar of a fetch, over real HTTP against the reference service.

It counts pages and matches as they come (the number of pages is unknown until a window is
fetched), names the window in its description, says when and how long a page waits for a rate
limit (the client's own or the service's 429), keeps the final counts, and shows nothing with
``progress=False``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from matchkit.client import RetryPolicy
from matchkit.client.cache import create_session
from matchkit.client.pager import Pager
from matchkit.client.plan import make_plan
from matchkit.client.progress import FetchProgress, describe_range
from matchkit.client.request import Limits, RequestPath
from matchkit.client.throttle import RateLimit, Throttle
from matchkit.client.transport import Transport
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import TimeWindow, parse_time
from matchkit.service import RunningService, running
from tests.client.conftest import FakeClock, service_client

START, END = "2026-07-03T00:00:00Z", "2026-10-31T00:00:00Z"
LIST = "/shards/global/matches"


def test_describe_range_shows_days_and_times_only_when_needed() -> None:
    assert describe_range(parse_time("2026-09-01"), parse_time("2026-09-29")) == (
        "2026-09-01..2026-09-29"
    )
    assert describe_range(parse_time("2026-09-01T06:30Z"), parse_time("2026-09-02")) == (
        "2026-09-01 06:30..2026-09-02"
    )


def test_the_bar_counts_pages_and_matches_and_keeps_the_final_counts(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = service.requests.count(path_prefix=LIST)
    with service_client(service, tmp_path, now=END, progress=True) as client:
        frames = client.matches("2026-09-01", "2026-10-20")  # 2 windows
    pages = service.requests.count(path_prefix=LIST) - before
    shown = capsys.readouterr().err
    final = shown.replace("\r", "\n").strip().splitlines()[-1]
    assert pages > 2  # more pages than windows: the bar must count the pages
    assert final.startswith("matchkit global 2026-09-01..2026-10-20: ")
    assert f" {pages}page " in final
    assert f"{len(frames)} matches in 2 windows" in final
    assert "window]" not in shown  # not a count of windows


def test_the_description_names_the_window_being_fetched() -> None:
    windows = [
        TimeWindow(parse_time("2026-09-01"), parse_time("2026-09-29")),
        TimeWindow(parse_time("2026-09-29"), parse_time("2026-10-20")),
    ]
    out = io.StringIO()
    bar = FetchProgress(shard="global", windows=windows, enabled=True, file=out)
    bar.window(1)
    bar.page(5)
    bar.wait(6, "the rate limit")
    bar.close()
    shown = out.getvalue()
    assert "matchkit global 2026-09-29..2026-10-20 (window 2/2): 1page" in shown, shown
    assert "5 matches, waiting 6.0 s for the rate limit" in shown
    assert shown.rstrip().endswith("5 matches in 2 windows]")


def test_a_wait_for_the_services_rate_limit_is_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = FakeClock()
    faults = "429=0.3,retry_after=12,seed=4"
    with (
        running(faults=faults) as limited,
        service_client(limited, tmp_path, now=END, progress=True) as client,
    ):
        client.retry_policy = RetryPolicy(rate_limit_attempts=20, sleep=clock.sleep)
        frames = client.matches("2026-10-20", END)
    shown = capsys.readouterr().err
    assert 12 in clock.sleeps  # the service's 429s were waited out
    assert len(frames) > 0
    assert "waiting 12 s for the service's rate limit" in shown
    assert "(window 1/1)" in shown  # the wait is shown with the window it delays


def test_a_wait_for_the_clients_own_rate_limit_is_shown(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = FakeClock()
    session = create_session(tmp_path)
    throttle = Throttle(RateLimit(2), clock=clock, sleep=clock.sleep)
    path = RequestPath(session, limits=Limits(timeout=10), throttle=throttle)
    transport = Transport(
        session, path, base_url=service.base_url, api_key=service.api_key, offline=False
    )
    query = MatchQuery.create(start="2026-10-25", end="2026-10-26")
    plan = make_plan(query, now=parse_time(END), max_matches=None, rate_limit=RateLimit(2))
    try:
        pages = list(Pager(transport, progress=True).iter_pages(plan))
    finally:
        session.close()
    shown = capsys.readouterr().err
    assert len(pages) >= 2  # with the status check, more requests than the 2 a minute allowed
    assert clock.sleeps, "the limiter did not wait"
    for seconds in clock.sleeps:
        said = f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"
        assert f"waiting {said} for the rate limit" in shown
    assert transport.on_wait is None  # the listener is removed
    assert throttle.on_wait is None


def test_progress_false_shows_nothing_even_while_waiting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = FakeClock()
    faults = "429=0.3,retry_after=12,seed=4"
    with (
        running(faults=faults) as limited,
        service_client(limited, tmp_path, now=END, progress=False) as client,
    ):
        client.retry_policy = RetryPolicy(rate_limit_attempts=20, sleep=clock.sleep)
        frames = client.matches("2026-10-20", END)
    assert 12 in clock.sleeps
    assert len(frames) > 0
    assert capsys.readouterr().err == ""

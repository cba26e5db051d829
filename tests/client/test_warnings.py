"""Ranges as the caller gives them, over real HTTP against the reference service.

- A bound the time rules move (a start before the 120-day retention, an end after now) gives
  one :class:`RangeClampedWarning` saying what was asked and what is fetched; nothing is said
  when the range is fetched as asked.
- A :class:`datetime.date` is its midnight UTC, in ``matches``, ``plan`` and ``iter_pages``.
- A range wholly in the future is refused with a message about the future, before any request.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from matchkit.client import Client, RangeClampedWarning
from matchkit.client.warnings import clamp_notice
from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import TimeWindow, parse_time
from matchkit.service import RunningService
from tests.client.conftest import assert_same_frames, service_client

START, END = "2026-07-03T00:00:00Z", "2026-10-31T00:00:00Z"  # the sample set's 120 days
LIST = "/shards/global/matches"


@pytest.fixture
def client(service: RunningService, tmp_path: Path) -> Iterator[Client]:
    with service_client(service, tmp_path, now=END) as built:
        yield built


def _clamped(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, RangeClampedWarning)]


def test_a_start_before_the_retention_warns_once_with_what_is_fetched(client: Client) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frames = client.matches("2026-04-15", "2026-07-20")  # 96 days asked, 17 kept
    (message,) = _clamped(caught)
    assert message == (
        "asked for 2026-04-15T00:00:00Z..2026-07-20T00:00:00Z (96 days); fetching "
        "2026-07-03T00:00:00Z..2026-07-20T00:00:00Z (17 days): start is before the 120-day "
        "retention period"
    )
    assert caught[0].filename == __file__  # points at the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error", RangeClampedWarning)
        assert_same_frames(frames, client.matches(START, "2026-07-20"))


def test_an_end_after_now_warns(client: Client) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plan = client.plan("2026-10-20", "2026-12-01")
    (message,) = _clamped(caught)
    assert "asked for 2026-10-20T00:00:00Z..2026-12-01T00:00:00Z (42 days)" in message
    assert "fetching 2026-10-20T00:00:00Z..2026-10-31T00:00:00Z (11 days)" in message
    assert "end is after now (2026-10-31T00:00:00Z)" in message
    assert plan.windows[-1].end == parse_time(END)


def test_both_bounds_clamped_in_iter_pages_give_one_warning(client: Client) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pages = client.iter_pages("2026-01-01", "2027-01-01", max_matches=3)
    (message,) = _clamped(caught)  # warned when called, before the first page
    assert "start is before the 120-day retention period; end is after now" in message
    assert next(iter(pages))["data"]


def test_nothing_is_said_when_nothing_is_clamped(client: Client) -> None:
    with warnings.catch_warnings():
        # Of clamps: a range up to now is provisional, which another warning says.
        warnings.simplefilter("error", RangeClampedWarning)
        assert len(client.matches("2026-10-20", END)) > 0
        client.plan(START, END)
        client.plan()  # defaults are not clamps
        client.plan(start="2026-09-01")


def test_clamp_notice_names_defaults_as_fetched() -> None:
    now = parse_time(END)
    query = MatchQuery.create(end="2026-12-01")
    window = TimeWindow(parse_time("2026-10-03"), now)
    assert clamp_notice(query, window, now=now) == (
        "asked for 2026-10-03T00:00:00Z..2026-12-01T00:00:00Z (59 days); fetching "
        "2026-10-03T00:00:00Z..2026-10-31T00:00:00Z (28 days): end is after now "
        "(2026-10-31T00:00:00Z)"
    )
    assert clamp_notice(MatchQuery.create(), window, now=now) is None


def test_dates_are_their_midnight_utc_everywhere(client: Client) -> None:
    by_date = client.matches(date(2026, 10, 10), date(2026, 10, 20))
    assert len(by_date) > 0
    assert_same_frames(by_date, client.matches("2026-10-10T00:00:00Z", "2026-10-20T00:00:00Z"))
    plan = client.plan(date(2026, 10, 10), date(2026, 10, 20))
    assert plan.windows == (TimeWindow(parse_time("2026-10-10"), parse_time("2026-10-20")),)
    assert plan.requests[0].params["filter[createdAt-start]"] == "2026-10-10T00:00:00Z"
    pages = list(client.iter_pages(date(2026, 10, 19), date(2026, 10, 20)))
    assert pages == list(client.iter_pages("2026-10-19", "2026-10-20"))


def test_a_future_range_is_refused_about_the_future_before_any_request(
    service: RunningService, client: Client
) -> None:
    before = service.requests.count(path_prefix=LIST)
    with pytest.raises(InvalidArgumentError) as raised:
        client.matches("2027-01-01", "2027-02-01")
    message = str(raised.value)
    assert message.startswith(
        "start 2027-01-01T00:00:00Z is not before now (2026-10-31T00:00:00Z): "
        "no match can exist yet"
    )
    assert "must be earlier than" not in message
    assert raised.value.parameter == "start"
    with pytest.raises(InvalidArgumentError, match="no match can exist yet"):
        client.plan(date(2026, 11, 5))
    assert service.requests.count(path_prefix=LIST) == before

"""The service's time rules (interface.md "Time search rules", decisions.md 2)."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import (
    MAX_SPAN,
    RETENTION,
    TimeWindow,
    format_time,
    parse_time,
    resolve_window,
    split_window,
)

NOW = datetime(2026, 10, 31, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2017-12-03T15:23:53Z", datetime(2017, 12, 3, 15, 23, 53, tzinfo=UTC)),
        ("2017-12-03T15:23:53+01:00", datetime(2017, 12, 3, 14, 23, 53, tzinfo=UTC)),
        ("2017-12-03T15:23:53+0100", datetime(2017, 12, 3, 14, 23, 53, tzinfo=UTC)),
        # The "+" of the offset decoded to a space, as in a real `next` link.
        ("2017-12-03T15:23:53 0100", datetime(2017, 12, 3, 14, 23, 53, tzinfo=UTC)),
        ("2017-12-03T15:23:53", datetime(2017, 12, 3, 15, 23, 53, tzinfo=UTC)),
        ("2017-12-03", datetime(2017, 12, 3, tzinfo=UTC)),
    ],
)
def test_parse_time_accepts_the_forms_seen_on_the_wire(text: str, expected: datetime) -> None:
    assert parse_time(text) == expected
    assert parse_time(text).tzinfo is UTC


@pytest.mark.parametrize("bad", ["yesterday", "2017-13-01T00:00:00Z", "", "12:00"])
def test_parse_time_rejects_garbage_naming_the_parameter(bad: str) -> None:
    with pytest.raises(InvalidArgumentError, match="start") as caught:
        parse_time(bad, parameter="start")
    assert caught.value.parameter == "start"


def test_parse_time_rejects_other_types() -> None:
    with pytest.raises(InvalidArgumentError, match="a datetime, a date or an ISO 8601 string"):
        parse_time(1234, parameter="end")  # type: ignore[arg-type]


def test_parse_time_reads_a_date_as_its_midnight_utc() -> None:
    assert parse_time(date(2026, 10, 1)) == datetime(2026, 10, 1, tzinfo=UTC)
    assert parse_time(date(2026, 10, 1)).tzinfo is UTC
    # A datetime (a subclass of date) keeps its time.
    assert parse_time(datetime(2026, 10, 1, 12, 30)) == datetime(2026, 10, 1, 12, 30, tzinfo=UTC)
    window = resolve_window(date(2026, 10, 1), date(2026, 10, 8), now=NOW)
    assert window == TimeWindow(
        datetime(2026, 10, 1, tzinfo=UTC), datetime(2026, 10, 8, tzinfo=UTC)
    )


def test_format_time_is_the_wire_form() -> None:
    assert format_time(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)) == "2026-01-02T03:04:05Z"
    assert format_time("2026-01-02T04:04:05+01:00") == "2026-01-02T03:04:05Z"


def test_rule_1_and_2_defaults() -> None:
    window = resolve_window(None, None, now=NOW)
    assert window == TimeWindow(NOW - MAX_SPAN, NOW)


def test_na_default_start_counts_back_from_the_end() -> None:
    end = NOW - timedelta(days=2)
    window = resolve_window(
        None, end, now=NOW, default_lookback=timedelta(hours=3), lookback_from_end=True
    )
    assert window == TimeWindow(end - timedelta(hours=3), end)


def test_rule_3_times_after_now_become_now() -> None:
    window = resolve_window(NOW - timedelta(days=1), NOW + timedelta(days=5), now=NOW)
    assert window.end == NOW


def test_rule_4_times_before_retention_are_clamped() -> None:
    window = resolve_window(NOW - timedelta(days=400), NOW - timedelta(days=110), now=NOW)
    assert window.start == NOW - RETENTION


def test_rule_5_start_not_before_end_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match="must be earlier than"):
        resolve_window(NOW - timedelta(days=1), NOW - timedelta(days=1), now=NOW)
    # Both after now: the message is about the future, not about start and end.
    with pytest.raises(InvalidArgumentError, match="no match can exist yet") as raised:
        resolve_window(NOW + timedelta(days=1), NOW + timedelta(days=2), now=NOW)
    assert "must be earlier than" not in str(raised.value)
    assert raised.value.parameter == "start"


def test_a_start_not_before_now_is_about_the_future() -> None:
    for start in (NOW, NOW + timedelta(days=60)):
        with pytest.raises(InvalidArgumentError) as raised:
            resolve_window(start, None, now=NOW)
        message = str(raised.value)
        assert f"start {format_time(start)} is not before now ({format_time(NOW)})" in message
        assert "no match can exist yet" in message


def test_an_end_before_the_retention_period_says_so() -> None:
    end = NOW - RETENTION - timedelta(days=10)
    with pytest.raises(InvalidArgumentError) as raised:
        resolve_window(end - timedelta(days=5), end, now=NOW)
    message = str(raised.value)
    assert f"end {format_time(end)} is not after the start of the retention period" in message
    assert f"keeps {RETENTION.days} days" in message
    assert raised.value.parameter == "end"


def test_span_over_28_days_is_an_error_unless_unlimited() -> None:
    start = NOW - timedelta(days=29)
    with pytest.raises(InvalidArgumentError, match="at most 28 days"):
        resolve_window(start, NOW, now=NOW)
    assert resolve_window(start, NOW, now=NOW, max_span=None).span == timedelta(days=29)
    assert resolve_window(NOW - MAX_SPAN, NOW, now=NOW).span == MAX_SPAN


times = st.datetimes(
    min_value=datetime(2026, 1, 1), max_value=datetime(2027, 1, 1), timezones=st.just(UTC)
)


@given(start=times, end=times)
def test_resolved_windows_obey_every_rule(start: datetime, end: datetime) -> None:
    try:
        window = resolve_window(start, end, now=NOW, max_span=None)
    except InvalidArgumentError:
        clamped_start = max(min(start, NOW), NOW - RETENTION)
        clamped_end = max(min(end, NOW), NOW - RETENTION)
        assert clamped_start >= clamped_end
        return
    assert NOW - RETENTION <= window.start < window.end <= NOW


@given(
    start=times,
    length=st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=400)),
    piece=st.timedeltas(min_value=timedelta(hours=1), max_value=timedelta(days=40)),
)
def test_split_covers_the_window_without_gap_or_overlap(
    start: datetime, length: timedelta, piece: timedelta
) -> None:
    window = TimeWindow(start, start + length)
    pieces = split_window(window, max_span=piece)
    assert pieces[0].start == window.start
    assert pieces[-1].end == window.end
    for before, after in itertools.pairwise(pieces):
        assert before.end == after.start
    assert all(p.start < p.end and p.span <= piece for p in pieces)
    assert all(p.span == piece for p in pieces[:-1])


def test_split_rejects_a_non_positive_span() -> None:
    with pytest.raises(InvalidArgumentError):
        split_window(TimeWindow(NOW - MAX_SPAN, NOW), max_span=timedelta(0))

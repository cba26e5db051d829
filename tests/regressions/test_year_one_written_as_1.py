"""Found in session 5's test log: a start of ``0001-01-01`` was written ``1-01-01T00:00:00Z`` in
the clamp warning (``strftime("%Y")`` does not pad the year on Linux), text that is not ISO 8601
and that ``parse_time`` refused. Times are now written with four-digit years."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from matchkit.client import Client, RangeClampedWarning
from matchkit.rules.windows import format_time, parse_time


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(1, 1, 1, tzinfo=UTC), "0001-01-01T00:00:00Z"),
        (datetime(999, 12, 31, 23, 59, 59, 5, tzinfo=UTC), "0999-12-31T23:59:59.000005Z"),
        (datetime(2026, 10, 31, tzinfo=UTC), "2026-10-31T00:00:00Z"),
    ],
)
def test_times_are_written_with_four_digit_years_and_read_back(moment, text):
    assert format_time(moment) == text
    assert parse_time(text) == moment


def test_the_clamp_warning_names_the_asked_start_in_iso_8601(tmp_path):
    client = Client("http://127.0.0.1:9", api_key="k", cache_dir=tmp_path, now="2026-10-31")
    with pytest.warns(RangeClampedWarning, match=r"asked for 0001-01-01T00:00:00Z\.\."):
        client.plan("0001-01-01", "2026-10-31")

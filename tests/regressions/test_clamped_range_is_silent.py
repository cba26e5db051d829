"""Issue 12: asking for 200 days silently returned 120.

The time rules clamp a start before the 120-day retention (and an end after now); the client
now says so once, with what was asked and what is fetched (a ``RangeClampedWarning``), and
says nothing when the range is fetched as asked.
"""

from __future__ import annotations

import warnings

from matchkit.client import RangeClampedWarning
from tests.client.proxy import clients, proxied_service


def test_200_days_asked_120_fetched_is_said(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect(now="2026-10-31T00:00:00Z")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            plan = client.plan("2026-04-14", "2026-10-31")  # 200 days
        with warnings.catch_warnings():
            warnings.simplefilter("error", RangeClampedWarning)  # as asked: no clamp to say
            client.plan("2026-07-03", "2026-10-31")
    clamped = [w for w in caught if issubclass(w.category, RangeClampedWarning)]
    assert len(clamped) == 1
    assert issubclass(RangeClampedWarning, UserWarning)
    assert str(clamped[0].message) == (
        "asked for 2026-04-14T00:00:00Z..2026-10-31T00:00:00Z (200 days); fetching "
        "2026-07-03T00:00:00Z..2026-10-31T00:00:00Z (120 days): start is before the 120-day "
        "retention period"
    )
    assert sum((window.span.days for window in plan.windows), 0) == 120

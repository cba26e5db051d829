"""A client whose clock ran 6 hours ahead of the service's took its own clock as now.

Its windows, clamps and "now" (an archive's watermark) then ran 6 hours into the service's
future: a sync recorded as fetched up to hours the service had not reached yet, and the matches
of those hours were never fetched, with nothing said. The client now takes now from the service's
clock (the ``Date`` of its answers, ``GET /status`` before any), and warns when the two differ
by more than a minute (decision 20).

Both ways of being ahead are tried: a service pinned 6 hours behind this machine's real clock
(nothing injected, as a user meets it), and this machine's clock injected 6 hours ahead of a
service pinned at the sample set's as-of.
"""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path

from matchkit.client.client import Client
from matchkit.client.warnings import ClockSkewWarning
from matchkit.service import running

AHEAD = timedelta(hours=6)


def _client(base_url: str, api_key: str, folder: Path, **options: object) -> Client:
    return Client(
        base_url, api_key=api_key, cache_dir=folder, rate_limit="off", progress=False, **options
    )


def test_a_service_six_hours_behind_the_machine_gives_the_client_its_now(
    tmp_path: Path,
) -> None:
    service_now = datetime.now(UTC).replace(microsecond=0) - AHEAD
    with (
        running(now=service_now) as service,
        warnings.catch_warnings(record=True) as said,
        _client(service.base_url, service.api_key, tmp_path) as client,
    ):
        warnings.simplefilter("always")
        now = client.now()
        plan = client.plan()
    assert abs(now - service_now) <= timedelta(seconds=5)  # not this machine's clock
    assert abs(plan.windows[-1].end - service_now) <= timedelta(seconds=5)
    assert [w.category for w in said if w.category is ClockSkewWarning] == [ClockSkewWarning]


def test_a_machine_clock_six_hours_ahead_takes_the_services_time(
    tmp_path: Path,
) -> None:
    with running() as service:
        assert service.now is not None
        ahead = service.now.timestamp() + AHEAD.total_seconds()
        with (
            warnings.catch_warnings(record=True) as said,
            _client(service.base_url, service.api_key, tmp_path, clock=lambda: ahead) as client,
        ):
            warnings.simplefilter("always")
            now = client.now()
            frames = client.matches(service.now - timedelta(days=1))
        assert now == service.now
        assert frames.matches["created_at"].max() < service.now
        assert len(frames) > 0
    (warning,) = [w for w in said if w.category is ClockSkewWarning]
    assert "differ by 6.0 hours" in str(warning.message)

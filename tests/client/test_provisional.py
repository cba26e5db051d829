"""The newest hours are provisional (decision 20): a fetch reaching into the last ``SETTLE``
before the service's now says so (a ``ProvisionalRangeWarning``, ``FetchPlan.provisional``), its
pages are kept a minute (not the retention), and a fetch that stops short of them says nothing."""

from __future__ import annotations

import warnings
from datetime import timedelta
from pathlib import Path

import pytest

from matchkit.client.cache import PAGE_RETENTION, RECENT_PAGE_EXPIRY, page_expiry
from matchkit.client.client import Client
from matchkit.client.warnings import ProvisionalRangeWarning
from matchkit.rules.windows import SETTLE, TimeWindow, parse_time
from matchkit.service import RunningService
from tests.client.conftest import service_client

NOW = parse_time("2026-10-31T00:00:00Z")


def _provisional(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, ProvisionalRangeWarning)]


def test_a_range_into_the_last_hours_says_which_part_may_change(
    service: RunningService, tmp_path: Path
) -> None:
    with (
        service_client(service, tmp_path) as client,
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        plan = client.plan("2026-10-29")
    (message,) = _provisional(caught)
    assert plan.provisional == TimeWindow(NOW - SETTLE, NOW)
    assert "matches created 2026-10-30T18:00:00Z..2026-10-31T00:00:00Z may not all be listed" in (
        message
    )
    assert "again after 2026-10-31T06:00:00Z" in message
    assert caught[0].filename == __file__  # points at the caller's line


def test_a_range_that_ended_before_them_is_final_and_silent(
    service: RunningService, tmp_path: Path
) -> None:
    with service_client(service, tmp_path) as client, warnings.catch_warnings():
        warnings.simplefilter("error", ProvisionalRangeWarning)
        plan = client.plan("2026-10-20", NOW - SETTLE)
        assert plan.provisional is None
        client.matches("2026-10-29", "2026-10-30")


def test_a_range_inside_them_is_wholly_provisional(service: RunningService, tmp_path: Path) -> None:
    with service_client(service, tmp_path) as client, pytest.warns(ProvisionalRangeWarning):
        plan = client.plan(NOW - timedelta(hours=2), NOW - timedelta(hours=1))
    assert plan.provisional == plan.whole


def test_a_provisional_page_is_kept_a_minute_a_final_one_for_the_retention() -> None:
    assert page_expiry(NOW - SETTLE, now=NOW) == PAGE_RETENTION
    assert page_expiry(NOW - SETTLE + timedelta(seconds=1), now=NOW) == RECENT_PAGE_EXPIRY
    assert page_expiry(NOW - timedelta(hours=2), now=NOW) == RECENT_PAGE_EXPIRY
    assert page_expiry(NOW, now=NOW, settle=timedelta(0)) == PAGE_RETENTION


def test_the_embedded_sample_set_is_final_at_its_as_of(tmp_path: Path) -> None:
    """The embedded service lists every match of its finished data set: nothing to say."""
    with Client(cache_dir=tmp_path, progress=False) as client, warnings.catch_warnings():
        warnings.simplefilter("error", ProvisionalRangeWarning)
        assert client.settings.settle == timedelta(0)
        plan = client.plan("2026-10-30")
    assert plan.provisional is None
    assert plan.whole.end == NOW


def test_a_remote_clients_settle_period_is_the_rules(
    service: RunningService, tmp_path: Path
) -> None:
    with service_client(service, tmp_path) as client:
        assert client.settings.settle == SETTLE == timedelta(hours=6)

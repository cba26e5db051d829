"""Fixtures of the PUBG archive tests: one PUBG double for the package, whose clock a test
moves forward between syncs, and clients of it pinned to that clock.

The double's sample set ends at its as-of (2026-11-20) and starts 20 days before it; the tests
sync the ``console`` shard (6 matches a day, about half of them sampled), so that a day is a
few matches and a sync across 14 days stays small.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from matchkit.client.client import Client
from matchkit.rules.windows import parse_time
from matchkit.service import RunningService, running

SHARD = "console"
DAY = timedelta(days=1)


@pytest.fixture(scope="package")
def pubg_double() -> Iterator[RunningService]:
    """The PUBG double on loopback (rate limit off); each test sets its now."""
    with running(profile="pubg") as service:
        yield service


def set_now(service: RunningService, now: str | datetime) -> datetime:
    """Move the double's clock to ``now`` (its answers, samples and retention follow)."""
    moment = parse_time(now, parameter="now")
    service.app.state.service.fixed_now = moment
    return moment


def client_at(service: RunningService, now: str | datetime, cache: Path, **options: Any) -> Client:
    """A client of the double with its clock moved to ``now`` (the client pinned to it)."""
    moment = set_now(service, now)
    defaults = {
        "api_key": service.api_key,
        "profile": "pubg",
        "shard": SHARD,
        "now": moment,
        "rate_limit": "off",
        "progress": False,
        "cache_dir": cache,
    }
    return Client(service.base_url, **(defaults | options))


def sampled(service: RunningService, first: str, last: str, *, now: str) -> set[str]:
    """The ground truth: the ids the double's samples of the days ``first`` to ``last``
    (inclusive) list at ``now``, from its own sample set."""
    sample_set = service.app.state.service.sample_set
    day, end, moment = (parse_time(value, parameter="day") for value in (first, last, now))
    ids: set[str] = set()
    while day <= end:
        ids |= {match.id for match in sample_set.sample(SHARD, day, now=moment)}
        day += DAY
    return ids


def archived_ids(folder: Path) -> list[str]:
    """The match ids of the archive's ``matches`` table, as read back (duplicates kept)."""
    import matchkit.archive as archive

    return archive.open(folder).matches["match_id"].compute().astype(str).tolist()


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)

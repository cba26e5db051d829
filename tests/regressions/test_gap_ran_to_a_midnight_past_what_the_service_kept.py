"""Tried as a tester would (issue 34, item 3): a sync that came after a pause longer than the
retention recorded a gap from the watermark to the midnight after the service's oldest kept
moment, and started there. The matches of the hours before that midnight, which the service
still served, were skipped and labelled "no longer served". Now the gap ends where the
service's retention really begins (the client's now minus 120 days, to the second), and every
match the service still serves is archived."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import matchkit.archive as archive
from matchkit.rules.windows import RETENTION
from matchkit.service import running
from tests.archive.conftest import client_of


def test_the_gap_ends_where_the_retention_begins(sample_service, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    watermark = sample_service.now - timedelta(days=100)
    with client_of(sample_service, tmp_path / "cache") as client:
        start = watermark - timedelta(days=1)
        archive.sync(client, folder, start=start, now=watermark, settle=timedelta(0))
    later = sample_service.now + timedelta(days=22, hours=12)  # a pause of 122.5 days
    with (
        running(now=later) as service,  # the session's store of the sample set
        client_of(service, tmp_path / "cache") as client,
    ):
        oldest = client.now() - RETENTION
        end = oldest + timedelta(days=2)  # enough to see the hours before the next midnight
        result = archive.sync(client, folder, now=end)
        served = client.matches(oldest, end)
    assert oldest == later - RETENTION
    assert oldest.hour == 12  # not a midnight
    midnight = (oldest + timedelta(days=1)).replace(hour=0)
    assert (served.matches["created_at"] < midnight).any()  # served before the next midnight
    [gap] = result.gaps
    assert (gap.start, gap.end) == (watermark, oldest)
    archived = set(archive.open(folder).matches["match_id"].compute())
    assert set(served.matches["match_id"]) <= archived  # nothing it serves is labelled gone
    assert archive.info(folder).gaps == (gap,)

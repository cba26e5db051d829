"""Tried as a tester would (issue 34, item 4): ``archive compact`` after a sync killed between
its table commits pinned the last batch to table versions that held the killed sync's
half-committed batch. The lazy tables then had participants, rosters, rounds... of matches that
were not in ``archive.matches``, and ``archive info`` counted those rows and did not say a
batch was pending; ``open`` of an archive whose first batch was killed read them too.

Now a compaction first completes the pending batch from its staged tables (and says so),
``info`` counts what ``open`` reads (the last completed batch) and names the pending batch, and
an archive with no completed batch reads as empty."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

import matchkit.archive as archive
from matchkit.rules.windows import parse_time
from tests.archive.conftest import client_of
from tests.archive.states import every_version_whole, kill_before_matches, orphans


@pytest.fixture
def client(sample_service, tmp_path: Path):
    with client_of(sample_service, tmp_path / "cache") as client:
        yield client


def test_compact_completes_the_pending_batch_and_every_view_stays_whole(client, tmp_path) -> None:
    folder = tmp_path / "archive"
    now = parse_time(client.now())
    first = now - timedelta(days=2)
    archive.sync(client, folder, start=first, now=now - timedelta(days=1), settle=timedelta(0))
    before = archive.open(folder)
    pending = kill_before_matches(client, folder, now - timedelta(days=1), now)
    assert orphans(archive.open(folder)) == {}  # the pending batch is not seen
    info = archive.info(folder)
    assert info.pending is not None
    assert info.pending.batch == pending
    assert f"batch {pending} is pending" in str(info)
    assert info.tables["participants"].rows == len(before.participants)  # what open reads
    result = archive.compact(folder)
    assert result.completed == pending
    assert "completed batch" in str(result)
    opened = archive.open(folder)
    assert opened.version == pending
    assert orphans(opened) == {}
    assert every_version_whole(folder) == {}
    # Completed, not dropped: the batch's matches are in.
    expected = set(client.matches(first, now).matches["match_id"])
    assert set(opened.matches["match_id"].compute()) == expected


def test_an_archive_whose_first_batch_was_killed_reads_as_empty(client, tmp_path) -> None:
    folder = tmp_path / "archive"
    now = parse_time(client.now())
    # A sync that reached nothing (its start is its end) made the archive and its manifest.
    archive.sync(client, folder, start=now - timedelta(days=1), now=now - timedelta(days=1))
    kill_before_matches(client, folder, now - timedelta(days=1), now)
    opened = archive.open(folder)
    assert opened.version == 0
    assert len(opened.participants) == 0
    assert archive.info(folder).tables == {}
    resumed = archive.sync(client, folder, now=now)
    assert resumed.resumed == 1
    assert orphans(archive.open(folder)) == {}

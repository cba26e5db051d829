"""Found by the archive chaos suite (seeds 35 and 49 of ``tests.chaos.archive_run``): a sync
killed while writing a table's first commit leaves the table's ``_delta_log`` folder without a
commit (and, beside it, data files no commit names). The archive took that folder for a damaged
table, so every later sync and compaction stopped with an ArchiveError ("no files in log
segment") and the archive could never be completed. Now a log without a commit is no table yet:
the next sync completes the pending batch into it, and the stray files stay unread."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import matchkit.archive as archive
from tests.archive.conftest import client_of
from tests.archive.states import kill_before_matches, orphans


def test_the_next_sync_completes_a_table_whose_first_commit_was_cut(
    sample_service, tmp_path: Path
) -> None:
    folder = tmp_path / "archive"
    now = sample_service.now
    with client_of(sample_service, tmp_path / "cache") as client:
        archive.sync(client, folder, start=now - timedelta(days=1), now=now - timedelta(days=1))
        kill_before_matches(client, folder, now - timedelta(days=1), now)
        # ... killed inside the matches table's first commit: its log folder, a stray file.
        (folder / "matches" / "_delta_log").mkdir(parents=True)
        stray = folder / "matches" / "part-00000-00000000-0000-0000-0000-000000000000-c000.parquet"
        stray.write_bytes(b"half a file")
        assert archive.open(folder).version == 0
        resumed = archive.sync(client, folder, now=now)
        expected = set(client.matches(now - timedelta(days=1), now).matches["match_id"])
    assert resumed.resumed == 1
    opened = archive.open(folder)
    assert set(opened.matches["match_id"].compute()) == expected
    assert orphans(opened) == {}
    assert str(stray) not in opened.files("matches")
    archive.compact(folder, retention_hours=0)
    assert not stray.exists()  # a file no commit named, removed by the compaction

"""Tried as a tester would (issue 34, item 2): a real service lists a match only once it has
ended and been ingested, while its ``createdAt`` is its start. A sync stopped at now and set its
watermark there, so the next sync began at that moment: every match still being played, or not
yet ingested, when a sync ran was never archived, and nothing said so.

Here a first service does not list yet the matches created in the last 3 hours before its now
(they are being played); a day later a second one lists them. The archive side of the fix: a
sync is final only up to ``now - settle`` (6 hours by default), the next sync reads the settle
period again, and, matches being insert-only by id, the overlap adds no duplicate."""

from __future__ import annotations

import gzip
from datetime import timedelta
from pathlib import Path

import orjson

import matchkit.archive as archive
from matchkit.rules.windows import parse_time
from matchkit.service import running
from tests.archive.conftest import client_of

NOW = parse_time("2026-10-31T00:00:00Z")
PLAYING = timedelta(hours=3)


def documents(folder: Path, lines: list[bytes]) -> Path:
    folder.mkdir()
    with gzip.open(folder / "global.jsonl.gz", "wb") as out:
        out.write(b"".join(lines))
    return folder


def test_a_match_listed_late_is_archived_by_the_next_sync(tmp_path: Path) -> None:
    from matchkit.synth import write_dataset

    write_dataset(
        tmp_path / "set", seed=3, matches=120, na_matches=1, as_of=NOW.isoformat(), days=4
    )
    with gzip.open(tmp_path / "set" / "global.jsonl.gz", "rb") as lines:
        every = [line for line in lines if line.strip()]

    def created(line: bytes) -> object:
        return parse_time(orjson.loads(line)["data"]["attributes"]["createdAt"])

    listed = [line for line in every if created(line) < NOW - PLAYING]
    late = len(every) - len(listed)
    assert late > 0
    folder = tmp_path / "archive"
    store = tmp_path / "stores"
    with (
        running(data=documents(tmp_path / "at-now", listed), now=NOW, store_dir=store) as first,
        client_of(first, tmp_path / "cache-1") as client,
    ):
        archive.sync(client, folder, start=NOW - timedelta(days=4))
    later = NOW + timedelta(days=1)
    with (
        running(
            data=documents(tmp_path / "a-day-later", every), now=later, store_dir=store
        ) as second,
        client_of(second, tmp_path / "cache-2") as client,
    ):
        result = archive.sync(client, folder)
    ids = archive.open(folder).matches["match_id"].compute()
    assert ids.is_unique  # the overlap added no duplicate
    assert len(ids) == len(every)  # the late matches too
    assert result.added["matches"] == late
    assert result.reread == len(listed) - sum(
        created(line) < NOW - timedelta(hours=6) for line in listed
    )
    assert archive.info(folder).watermark == later - timedelta(hours=6)

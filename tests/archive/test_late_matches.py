"""Daily syncs against a service that lists matches late lose nothing (issue 34, item 2).

The service lists a match only once it has ended and been ingested (decision 20, the default
ingestion delay: minutes, with a long tail of hours), while its ``createdAt`` stays its start.
Four daily syncs run at hours drawn at random, each against the service as it is at that hour;
a day after the last, a one-go fetch of the same range is the truth. Up to where the archive
says it is final (``info().watermark``), it holds exactly the matches of the one-go fetch, each
once; past it, only matches the service had listed by the last sync.
"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import matchkit.archive as archive
from matchkit.service import running
from tests.archive.conftest import client_of

DAYS = 4


def test_daily_syncs_at_any_hour_lose_nothing_against_a_one_go_fetch_a_day_later(
    tmp_path: Path,
) -> None:
    with running() as sample:  # the sample set's as-of: every match of it has ended by then
        assert sample.now is not None
        as_of = sample.now
    first_day = (as_of - timedelta(days=DAYS + 1)).replace(hour=0, minute=0, second=0)
    start = first_day - timedelta(days=2)
    draw = random.Random(34)
    moments = [
        first_day + timedelta(days=day, hours=draw.randrange(24), minutes=draw.randrange(60))
        for day in range(DAYS)
    ]
    folder, cache = tmp_path / "archive", tmp_path / "cache"
    for moment in moments:
        with (
            running(now=moment, ingestion_delay="default") as service,
            client_of(service, cache) as client,
        ):
            archive.sync(client, folder, start=start)
    final = archive.info(folder).watermark
    assert final is not None
    assert final > moments[-2]

    later = moments[-1] + timedelta(days=1)
    with (
        running(now=later, ingestion_delay="default") as service,
        client_of(service, tmp_path / "cache-one-go") as client,
    ):
        truth = client.matches(start, final).matches
        listed_by_the_last_sync = set(
            client.matches(start, moments[-1]).matches["match_id"]
        )  # a superset of what the last sync could see: checked below
    kept = archive.open(folder).matches[["match_id", "created_at"]].compute()
    assert kept["match_id"].is_unique
    final_part = kept[kept["created_at"] < final]
    assert set(final_part["match_id"]) == set(truth["match_id"])
    assert len(truth) > 50  # the range holds matches enough to mean something
    # Past the watermark the archive holds matches, none of them invented.
    provisional = set(kept.loc[kept["created_at"] >= final, "match_id"])
    assert provisional <= listed_by_the_last_sync

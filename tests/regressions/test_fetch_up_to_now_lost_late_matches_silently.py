"""A fetch up to now took the newest hours as final, and kept them so, while the service was still
listing matches of them.

A real service lists a match only once it has ended and been ingested (decision 20), yet
``createdAt`` is its start. A fetch whose window reached into the last hours therefore got only
the matches listed so far, said nothing about it, and cached the pages of a window that had
ended more than an hour before now for the whole retention: the matches listed later were never
fetched from that window again. Now such a fetch says which part is provisional
(``ProvisionalRangeWarning``) and keeps those pages a minute; after the settle period the same
window is final.

The reference service here lists each match 5 hours after its end.
"""

from __future__ import annotations

import warnings
from datetime import timedelta
from pathlib import Path

from matchkit.client.client import Client
from matchkit.rules.windows import parse_time
from matchkit.service import running

NOW = parse_time("2026-10-31T00:00:00Z")
START, END = NOW - timedelta(days=1), NOW - timedelta(hours=2)
LIST = "/shards/global/matches"


def _fetch(service, folder: Path):  # type: ignore[no-untyped-def]
    with (
        warnings.catch_warnings(record=True) as caught,
        Client(
            service.base_url,
            api_key=service.api_key,
            cache_dir=folder,
            rate_limit="off",
            progress=False,
        ) as client,
    ):
        warnings.simplefilter("always")
        frames = client.matches(START, END)
        plan = client.plan(START, END)
        cached = client.transport.lookup(LIST, plan.requests[0].params)
    said = [str(w.message) for w in caught if "may not all be listed" in str(w.message)]
    return frames, said, cached


def test_a_window_of_the_newest_hours_is_said_to_be_provisional_and_not_kept(
    tmp_path: Path,
) -> None:
    with running(now=NOW, ingestion_delay="5h") as service:
        frames, said, cached = _fetch(service, tmp_path / "now")
    with running(now=NOW + timedelta(days=1), ingestion_delay="5h") as later:
        final, said_later, _ = _fetch(later, tmp_path / "later")
    missed = set(final.matches["match_id"]) - set(frames.matches["match_id"])
    assert missed  # matches of the window were listed after the first fetch
    assert said, "the first fetch did not say that its last hours were provisional"
    assert cached is not None
    assert cached.expires is not None
    assert cached.expires - cached.created_at <= timedelta(minutes=1)  # not the retention
    assert said_later == []  # a day later the window is final

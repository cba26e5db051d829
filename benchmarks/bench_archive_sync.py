"""The archive's daily sync against the reference service: what the settle period costs.

A sync is final only up to ``now - settle`` (6 hours by default), and the next one reads the
settle period again (late matches: a service lists a match once it has ended and been
ingested). Matches are insert-only by id, so the overlap costs requests, never a duplicate row.
This measures that cost side by side, in one run: two archives of the sample set, one synced
with the default settle period and one with none, each synced once a day for ``DAYS`` days by a
client with a cold HTTP cache (every request reaches the service), through the reference
service on loopback with its clock at each day's moment. Printed: the requests the service
answered for the daily syncs of each (and the extra ones of the overlap), the matches read again
and added twice (none), and each daily sync's wall time.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import matchkit.archive
from matchkit.archive.defaults import DEFAULT_SETTLE
from matchkit.client.client import Client
from matchkit.service import running

DAYS = 5
FIRST = timedelta(days=60)
"""The first sync ends this long before the sample set's as-of moment."""


def daily_syncs(root: Path, settle: timedelta) -> tuple[int, int, int, float]:
    """An archive of the 3 days before the first moment, then ``DAYS`` daily syncs: the
    requests the daily syncs made, the matches they added, the matches read again, the mean
    wall time of a daily sync."""
    folder = root / f"archive-{settle / timedelta(hours=1):g}h"
    with running(store_dir=root / "stores") as sample:
        first = sample.now - FIRST
    requests = added = reread = 0
    seconds = 0.0
    for day in range(DAYS + 1):
        moment = first + timedelta(days=day)
        cache = root / f"cache-{settle / timedelta(hours=1):g}h-{day}"
        options = {"now": moment, "cache_dir": cache, "rate_limit": "off", "progress": False}
        with (
            running(store_dir=root / "stores", now=moment) as service,
            Client(service.base_url, api_key=service.api_key, **options) as client,
        ):
            before = len(service.requests)
            started = time.perf_counter()
            result = matchkit.archive.sync(
                client, folder, start=moment - timedelta(days=3), settle=settle, progress=False
            )
            if day:  # the first sync makes the archive; the daily ones are measured
                seconds += time.perf_counter() - started
                requests += len(service.requests) - before
                added += result.added.get("matches", 0)
                reread += result.reread
        shutil.rmtree(cache)
    ids = matchkit.archive.open(folder).matches["match_id"].compute()
    assert ids.is_unique, "a match archived twice"
    return requests, added, reread, seconds / DAYS


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="matchkit-bench-archive-sync-") as folder:
        root = Path(folder)
        settled = daily_syncs(root, DEFAULT_SETTLE)
        unsettled = daily_syncs(root, timedelta(0))
    hours = DEFAULT_SETTLE / timedelta(hours=1)
    extra = settled[0] - unsettled[0]
    print(
        f"daily sync against the reference service (sample set, {DAYS} days, cold cache): "
        f"with the {hours:g} h settle period {settled[0]} requests ({settled[0] / DAYS:.1f} a "
        f"day), without it {unsettled[0]} ({unsettled[0] / DAYS:.1f} a day): the overlap costs "
        f"{extra} extra requests ({extra / max(1, unsettled[0]):.0%}); it read "
        f"{settled[2]} matches again and added none twice (added {settled[1]} vs {unsettled[1]});"
        f" a daily sync {settled[3]:.2f} s vs {unsettled[3]:.2f} s wall",
        flush=True,
    )


if __name__ == "__main__":
    main()

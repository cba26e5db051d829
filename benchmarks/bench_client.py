"""The client: cold fetch time per page, and a warm-cache re-run against reading bodies from disk.

A 120-day fetch of the sample set's global shard from the embedded service, cold (empty
cache), then warm (same client, and a fresh client on the same cache). The warm re-run must
make zero network requests and cost at most 2x reading the same response bodies straight from
disk and normalizing them (``to_frames`` over the files' bytes).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from matchkit.client import Client
from matchkit.dataset import open_dataset
from matchkit.normalize import to_frames
from matchkit.service import running

REPEATS = 3
WARM_LIMIT = 2.0


def _best(run: Callable[[], object], repeats: int = REPEATS) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return min(times), result


def main() -> None:
    dataset = open_dataset()
    start = dataset.as_of - timedelta(days=120)
    with tempfile.TemporaryDirectory(prefix="matchkit-bench-client-") as folder:
        root = Path(folder)
        with running(store_dir=root / "store") as service:
            options = {
                "api_key": service.api_key,
                "cache_dir": root / "cache",
                "now": service.now,
                "rate_limit": "off",
                "progress": False,
            }
            with Client(service.base_url, **options) as client:
                before = len(service.requests)
                started = time.perf_counter()
                cold = client.matches(start=start)
                cold_seconds = time.perf_counter() - started
                pages = len(service.requests) - before

                # The same bodies, straight from disk.
                bodies = root / "bodies"
                bodies.mkdir()
                cache = client._session.cache
                for number, response in enumerate(cache.responses.values()):
                    (bodies / f"page-{number:05d}.json").write_bytes(response.content)
                files = sorted(bodies.iterdir())

                before = len(service.requests)
                warm_seconds, warm = _best(lambda: client.matches(start=start))
                warm_requests = len(service.requests) - before

            with Client(service.base_url, **options) as fresh:
                before = len(service.requests)
                fresh_seconds, fresh_frames = _best(lambda: fresh.matches(start=start))
                fresh_requests = len(service.requests) - before

        disk_seconds, from_disk = _best(lambda: to_frames(path.read_bytes() for path in files))

    assert len(cold) == len(warm) == len(fresh_frames) == len(from_disk)  # type: ignore[arg-type]
    per_page = cold_seconds / pages * 1e3
    ratio = warm_seconds / disk_seconds
    fresh_ratio = fresh_seconds / disk_seconds
    print(f"matches fetched:              {len(cold):,} over {pages} pages (120 days, global)")
    print(f"cold fetch:                   {cold_seconds:.2f} s, {per_page:.1f} ms per page")
    print(f"warm re-run, same client:     {warm_seconds:.2f} s, {warm_requests} network requests")
    print(f"warm re-run, fresh client:    {fresh_seconds:.2f} s, {fresh_requests} network requests")
    print(f"bodies from disk + normalize: {disk_seconds:.2f} s ({len(files)} files)")
    print(f"warm / disk:                  {ratio:.2f}x same client, {fresh_ratio:.2f}x fresh")
    print(f"  (limit {WARM_LIMIT:.1f}x; warm and disk times are the best of {REPEATS})")
    verdict = warm_requests == 0 and fresh_requests == 0 and max(ratio, fresh_ratio) <= WARM_LIMIT
    print("PASS" if verdict else "FAIL")
    if not verdict:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

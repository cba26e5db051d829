"""The client against the reference service with faults injected, killed part-way, rate-limited.

- A 120-day fetch of the sample set with faults on equals the data set itself, for several
  seeds: nothing lost, nothing duplicated.
- A fetch killed part-way resumes from the cache: what was stored is not requested again.
- A fault that outlasts the retry budget raises a typed error; no partial frames.
- The client honours its own rate limit across threads, and waits what the service asks.

Retries wait through an injected ``sleep`` (nothing really waits, except the client's timeout
on a ``slow`` fault, kept short here).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qsl

import pandas as pd
import pytest

from matchkit import MatchFrames, RateLimitError, ServiceError, to_frames
from matchkit.client import RetryPolicy
from matchkit.client.cache import create_session
from matchkit.client.client import Client
from matchkit.client.request import SERVICE, Limits, RequestPath
from matchkit.client.throttle import RateLimit, Throttle
from matchkit.model.schema import TABLE_NAMES, TABLES
from matchkit.rules.windows import parse_time
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import running
from matchkit.service.faults import FaultInjector
from tests import depth
from tests.client.conftest import FakeClock, sample_documents, stored_asset_urls

START, END = "2026-07-03T00:00:00Z", "2026-10-31T00:00:00Z"  # the sample set's 120 days
FAULT_START = "2026-09-05T00:00:00Z"
"""The fetches under faults read 56 days (two 28-day windows): every kind of fault, many times,
at a third of the whole set's cost; tests/chaos varies the rest."""
FAULTS = (
    "500=0.05,503=0.05,502=0.02,504=0.02,drop=0.03,slow=0.005,truncate=0.02,429=0.05,"
    "slow_seconds=1.5,seed={seed}"
)
CLIENT_TIMEOUT = 0.5  # below slow_seconds: a slow answer is a timeout, then a retry
LIST = "/shards/global/matches"


def fast_retries(clock: FakeClock | None = None, *, attempts: int = 10) -> RetryPolicy:
    """Retries that never really wait; ``attempts`` high enough for a run of faults."""
    clock = clock or FakeClock()
    return RetryPolicy(attempts=attempts, sleep=clock.sleep, random=lambda: 0.5)


def client_for(service, cache_dir: Path, **options) -> Client:
    options.setdefault("rate_limit", "off")
    options.setdefault("progress", False)
    client = Client(
        service.base_url, api_key=service.api_key, cache_dir=cache_dir, now=END, **options
    )
    client.retry_policy = fast_retries()
    return client


def canonical(table: pd.DataFrame, name: str) -> pd.DataFrame:
    """Rows in key order (every column for tables without a single key), index reset."""
    key = list(TABLES[name].key) or list(table.columns)
    return stored_asset_urls(table.sort_values(key, kind="stable").reset_index(drop=True), name)


def assert_same_frames(got: MatchFrames, expected: MatchFrames) -> None:
    for name in TABLE_NAMES:
        left, right = canonical(getattr(got, name), name), canonical(getattr(expected, name), name)
        for table in (left, right):
            key = list(TABLES[name].key)
            if key:
                assert not table.duplicated(key).any(), f"{name}: a row is duplicated"
        pd.testing.assert_frame_equal(left, right, check_categorical=False, obj=name)


@pytest.fixture(scope="module")
def expected() -> MatchFrames:
    """The whole global shard of the sample set, read from its files (no HTTP)."""
    dataset = open_dataset()
    frames = to_frames(sample_documents("global"))
    assert len(frames) == dataset.match_count("global")
    return frames


@pytest.fixture(scope="module")
def expected_since_fault_start() -> MatchFrames:
    """The global shard's matches created from FAULT_START to END, read from its files."""
    return to_frames(sample_documents("global", parse_time(FAULT_START), parse_time(END)))


# -- equal under faults ----------------------------------------------------------------------


FAULT_SEEDS = depth.count("MATCHKIT_FAULT_SEEDS", brief=2, deep=20)
"""Seeds of the 56-day fetch under faults (each about 20 s): 2 in ``make test``, 20 in ``make
test-deep``; tests/chaos draws many more faults per second, on smaller fetches."""


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, FAULT_SEEDS + 1))
def test_fetch_under_faults_equals_the_data_set(tmp_path, expected_since_fault_start, seed):
    expected = expected_since_fault_start
    with running(faults=FAULTS.format(seed=seed)) as service:
        with client_for(service, tmp_path, timeout=CLIENT_TIMEOUT) as client:
            frames = client.matches(FAULT_START, END)
            network = client.transport.network_requests
        injected: FaultInjector = service.app.state.fault_injector
        statuses = Counter(entry.status for entry in service.requests)
    assert_same_frames(frames, expected)
    # The faults really happened, and every one was retried.
    assert sum(injected.counts.values()) > 50, injected.counts
    assert set(injected.counts) >= {"500", "502", "503", "504", "429", "drop", "truncate"}
    assert network >= injected.draws - injected.counts["slow"]
    assert statuses[200] >= len(expected) // 5  # at least one full page per 5 matches


# -- resuming after a kill -------------------------------------------------------------------

_FETCH_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from matchkit.client.client import Client
    with Client(sys.argv[1], api_key=os.environ["MATCHKIT_API_KEY"], cache_dir=sys.argv[2],
                rate_limit="off", now=sys.argv[4], progress=False) as client:
        client.matches(sys.argv[3], sys.argv[4])
    """
)


def _page_requests(service) -> list[tuple[str, str]]:
    # The list pages only: each client confirms the service once with GET /status.
    return [
        (entry.path, entry.query)
        for entry in service.requests
        if entry.status == 200 and entry.path.startswith(LIST)
    ]


def test_killed_fetch_resumes_from_the_cache(tmp_path, expected):
    # A window ending well before now: every page is immutable in the cache (no expiry).
    end = "2026-09-01T00:00:00Z"
    with running() as service:
        process = subprocess.Popen(
            [sys.executable, "-c", _FETCH_SCRIPT, service.base_url, str(tmp_path), START, end],
            env={**os.environ, "MATCHKIT_API_KEY": service.api_key},
        )
        deadline = time.monotonic() + 120
        try:
            while service.requests.count(path_prefix=LIST) < 300:  # into the second window
                assert process.poll() is None, "the fetch ended before it could be killed"
                assert time.monotonic() < deadline, "the fetch made no progress"
                time.sleep(0.01)  # polling the request log, not waiting for a result
        finally:
            process.kill()
            process.wait(timeout=30)
        first_run = _page_requests(service)
        service.requests.clear()
        with client_for(service, tmp_path) as client:
            frames = client.matches(START, end)
            from_cache = client.transport.cache_hits
        second_run = _page_requests(service)
    assert len(first_run) >= 300
    # The windows completed before the kill come from the cache; the window in flight is
    # asked again whole (a window is read all from the cache or all from the service, never
    # two answers of the list mixed: client/pager.py).
    in_flight = _window_end(first_run[-1])
    completed = [page for page in first_run if _window_end(page) != in_flight]
    assert len(completed) >= 50
    assert not set(completed) & set(second_run)
    assert {_window_end(page) for page in set(first_run) & set(second_run)} <= {in_flight}
    assert from_cache >= len(completed)
    # The matches before the cutoff, normalized on their own: a player keeps the copy of its
    # latest match before the cutoff (decision 17), not of a later match.
    cutoff = pd.Timestamp(end)
    before = sample_documents("global", end=parse_time(end))
    assert_same_frames(frames, to_frames(before))
    assert len(frames) == len(expected.filter(lambda matches: matches["created_at"] < cutoff))


def _window_end(page: tuple[str, str]) -> str:
    """The window a logged page request belongs to (its ``filter[createdAt-end]``)."""
    return dict(parse_qsl(page[1]))["filter[createdAt-end]"]


# -- faults that outlast the retries ---------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "status", "words"),
    [
        ("503=1", 503, "503 from GET"),
        ("502=1", 502, "502 from GET"),
        ("drop=1", None, "unreachable or dropping connections"),
        ("truncate=1", None, "ChunkedEncodingError"),
    ],
)
def test_a_lasting_fault_raises_a_typed_error_that_says_what_to_do(tmp_path, spec, status, words):
    with running(faults=spec) as service, client_for(service, tmp_path) as client:
        client.retry_policy = fast_retries(attempts=4)
        with pytest.raises(ServiceError) as raised:
            client.matches(START, END)
        requested = service.requests.count(path_prefix=LIST)
    error = raised.value
    assert error.status == status
    assert words in str(error)
    assert "try again later" in str(error)
    assert error.url.startswith(service.base_url + LIST)
    assert service.api_key not in str(error)
    assert requested == 4  # the budget, then it stopped


def test_a_lasting_rate_limit_raises_rate_limit_error(tmp_path):
    clock = FakeClock()
    with running(faults="429=1,retry_after=7") as service, client_for(service, tmp_path) as client:
        client.retry_policy = RetryPolicy(rate_limit_attempts=3, sleep=clock.sleep)
        with pytest.raises(RateLimitError) as raised:
            client.matches(START, END)
    assert raised.value.retry_after == 7
    assert clock.sleeps == [7, 7]  # waited what the service asked, twice, then gave up
    assert "rate_limit=" in str(raised.value)


def test_no_partial_frames_when_the_service_fails_mid_fetch(tmp_path):
    half = "2026-09-01T00:00:00Z"
    with running() as service, client_for(service, tmp_path) as client:
        cached = client.matches(START, half)  # the first pages land in the cache
        port = int(service.base_url.rsplit(":", 1)[1])
    assert len(cached) > 0
    # The same address (cache keys name it), now failing every match request.
    with running(port=port, faults="500=1") as failing, client_for(failing, tmp_path) as client:
        client.retry_policy = fast_retries(attempts=3)
        result = None
        with pytest.raises(ServiceError, match="500 from GET"):
            result = client.matches(START, END)
        assert result is None
        assert client.transport.cache_hits > 0  # it got past the cached part first


# -- rate limits -----------------------------------------------------------------------------


def test_client_backs_off_as_the_service_headers_ask(tmp_path):
    clock = FakeClock()
    pages = 12
    wanted = 5 + 4 * (pages - 1)  # each page after the first begins with the last received
    # The service's token bucket runs on the same fake clock the client's waits advance.
    with running(rate_limit="5/minute", clock=clock) as service:
        with client_for(service, tmp_path) as client:
            client.retry_policy = RetryPolicy(sleep=clock.sleep, wall_clock=time.time)
            frames = client.matches(START, END, max_matches=wanted, sort="-createdAt")
        statuses = [entry.status for entry in service.requests if entry.path.startswith(LIST)]
        assert service.requests.count(path_prefix="/status") == 1  # the service needs no token
    assert len(frames) == wanted
    assert statuses.count(200) == pages
    # 5 from the full bucket, then each page waits exactly one refill (12 s): one refusal each.
    assert statuses.count(429) == pages - 5
    assert clock.sleeps == [12.0] * (pages - 5)


def test_client_rate_limit_holds_across_threads(tmp_path):
    clock = FakeClock()
    lock = threading.Lock()

    def sleep(seconds: float) -> None:
        with lock:
            clock.sleep(seconds)

    per_minute, threads, each = 20, 4, 15
    with running() as service:
        session = create_session(tmp_path)
        throttle = Throttle(RateLimit(per_minute), clock=clock, sleep=sleep)
        path = RequestPath(session, limits=Limits(timeout=30), throttle=throttle)
        headers = {"Authorization": f"Bearer {service.api_key}"}
        errors: list[BaseException] = []

        def fetch(worker: int) -> None:
            try:
                for offset in range(each):
                    # Distinct pages, each sent: the request path takes a token for each.
                    params = {"page[limit]": "1", "page[offset]": str(worker * each + offset)}
                    fetched = path.get(
                        service.base_url + LIST,
                        params,
                        peer=SERVICE,
                        headers=headers,
                        parse=lambda fetched: fetched,
                    )
                    assert fetched.status == 200
            except BaseException as error:  # reported below, in the test's thread
                errors.append(error)

        started = clock()
        workers = [threading.Thread(target=fetch, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        session.close()
        received = service.requests.count(path_prefix=LIST)
    assert not errors, errors
    total = threads * each
    assert received == total
    # N requests at R a minute need (N - R) / R minutes beyond the first burst of R.
    elapsed = timedelta(seconds=clock() - started)
    assert elapsed >= timedelta(minutes=(total - per_minute) / per_minute)


def test_faults_are_only_on_match_endpoints_for_the_client(tmp_path):
    with running(faults="503=1") as service, client_for(service, tmp_path) as client:
        assert client.status().name == "matchkit"
        assert client.transport.network_requests == 1
        assert service.app.state.fault_injector.draws == 0

"""Soak test of the reference service: many concurrent clients on loopback for a minute or more.

``make soak`` (``python -m benchmarks.soak``) starts the embedded service (``running()``, the
committed sample set, rate limiting on: ``120/minute`` per key) and client processes that send
a mix of list pages (random windows and offsets), single matches, the status resource and bad
requests (400, 404) until the time or the request budget runs out:

- *greedy* clients send as fast as they can, far above their key's rate: most of their requests
  are refused (429);
- *paced* clients stay below their key's rate: none of theirs may be refused.

It checks, and exits non-zero unless all hold:

- zero 5xx answers and zero transport errors;
- the rate limiter's accounting is exact, per key: the 200s a key got equal what its bucket
  allows over the time it was used (capacity - tokens left + elapsed / refill), its 429s are
  the rest, and the clients' counts agree with the service's;
- memory: RSS of the service's process at the start, after warm-up and at the end (reported;
  growth after warm-up is flagged above 50 MB).

Then, on a fresh service, connections that never finish a request (:func:`idle_flood`): 1,100
that send nothing and 100 that send half a request head must all be closed by the request
timeout.

Environment (or flags): ``MATCHKIT_SOAK_SECONDS`` / ``--seconds`` (default 60),
``--greedy`` and ``--paced`` (client processes, default 3 and 3), ``--max-requests`` (budget
per client, default 50,000), ``--idle`` and ``--partial`` (default 1,100 and 100; 0 and 0 skip
the flood). Loopback only.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

RATE_LIMIT = "120/minute"
GROWTH_WARNING_BYTES = 50 * 2**20


@dataclass
class ClientReport:
    """What one client process saw."""

    key: str
    greedy: bool
    statuses: Counter[int] = field(default_factory=Counter)
    match_statuses: Counter[int] = field(default_factory=Counter)
    transport_errors: int = 0
    seconds: float = 0.0


def _client(
    base_url: str,
    key: str,
    greedy: bool,
    seconds: float,
    max_requests: int,
    match_ids: list[str],
    seed: int,
    queue: Any,
) -> None:
    """One client process: requests until ``seconds`` pass or ``max_requests`` are sent."""
    import requests

    from matchkit.rules.windows import format_time, parse_time

    chooser = random.Random(seed)
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {key}"
    session.headers["Accept-Encoding"] = "gzip"
    report = ClientReport(key=key, greedy=greedy)
    as_of = parse_time("2026-10-31T00:00:00Z")
    started = time.monotonic()
    interval = 0.6  # paced: one request every 0.6 s, below the 2 a second the key may send
    for number in range(max_requests):
        if time.monotonic() - started >= seconds:
            break
        kind = chooser.random()
        params: dict[str, Any] | None = None
        is_match_request = True
        if kind < 0.55:
            path = f"/shards/{chooser.choice(['global', 'global', 'na'])}/matches"
            start = as_of - timedelta(days=chooser.uniform(1, 119))
            end = start + timedelta(days=chooser.uniform(0.1, 27))
            params = {
                "filter[createdAt-start]": format_time(start.replace(microsecond=0)),
                "filter[createdAt-end]": format_time(end.replace(microsecond=0)),
                "page[offset]": chooser.randrange(0, 60),
            }
        elif kind < 0.8:
            path = f"/shards/global/matches/{chooser.choice(match_ids)}"
        elif kind < 0.88:
            path, is_match_request = "/status", False
        elif kind < 0.95:
            path, params = "/shards/global/matches", {"page[limit]": 99}  # a 400
        else:
            path = "/shards/nowhere/matches"  # a 404
        try:
            response = session.get(base_url + path, params=params, timeout=30)
            response.content  # noqa: B018 - read the whole body
        except requests.RequestException:
            report.transport_errors += 1
            continue
        report.statuses[response.status_code] += 1
        if is_match_request:
            report.match_statuses[response.status_code] += 1
        if not greedy:
            next_at = started + (number + 1) * interval
            time.sleep(max(0.0, next_at - time.monotonic()))  # pacing, not waiting for a result
    report.seconds = time.monotonic() - started
    session.close()
    queue.put(report)


class _RecordingClock:
    """``time.monotonic`` that remembers its last reading (the service's one thread reads it)."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self) -> float:
        self.last = time.monotonic()
        return self.last


class _KeyUse:
    """Per key: first and last moment the limiter decided, and how often it allowed/refused."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.last = 0.0
        self.allowed = 0
        self.refused = 0


class _RecordingLimiter:
    """Wraps the service's RateLimiter; records each decision with the moment it was taken."""

    def __init__(self, inner: Any, clock: _RecordingClock) -> None:
        self.inner = inner
        self.clock = clock
        self.uses: dict[str, _KeyUse] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> Any:
        with self._lock:  # the service answers on one thread; the lock makes it certain
            decision = self.inner.take(key)
            use = self.uses.setdefault(key, _KeyUse())
            if use.first is None:
                use.first = self.clock.last
            use.last = self.clock.last
            if decision.allowed:
                use.allowed += 1
            else:
                use.refused += 1
            return decision


def _rss() -> int:
    import psutil

    return psutil.Process().memory_info().rss


def run(*, seconds: float, greedy: int, paced: int, max_requests: int) -> int:
    """Run the soak; print the figures; return the exit status (0 when every check holds)."""
    from matchkit.sampledata.dataset import open_dataset
    from matchkit.service import running

    dataset = open_dataset()
    match_ids = [document["data"]["id"] for document in dataset.iter_documents("global")][:2000]
    keys = [f"soak-greedy-{n}" for n in range(greedy)] + [f"soak-paced-{n}" for n in range(paced)]
    clock = _RecordingClock()
    context = multiprocessing.get_context("spawn")  # the service's threads must not be forked
    with running(api_keys=keys, rate_limit=RATE_LIMIT, clock=clock) as service:
        state = service.app.state.service
        limiter = _RecordingLimiter(state.rate_limiter, clock)
        state.rate_limiter = limiter
        rss_start = _rss()
        queue = context.Queue()
        processes = [
            context.Process(
                target=_client,
                args=(
                    service.base_url,
                    key,
                    key.startswith("soak-greedy"),
                    seconds,
                    max_requests,
                    match_ids,
                    number,
                    queue,
                ),
            )
            for number, key in enumerate(keys)
        ]
        began = time.monotonic()
        for process in processes:
            process.start()
        samples = []
        reports: list[ClientReport] = []
        deadline = began + seconds + 120  # the run is bounded even if a client hangs
        while len(reports) < len(processes) and time.monotonic() < deadline:
            try:
                reports.append(queue.get(timeout=1.0))
            except Exception:  # queue.Empty: nothing yet; sample memory meanwhile
                samples.append((time.monotonic() - began, _rss()))
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
        elapsed = time.monotonic() - began
        rss_end = _rss()
        logged = Counter(entry.status for entry in service.requests)
        capacity = state.rate_limiter.inner.limit.requests
        refill = state.rate_limiter.inner.limit.refill_seconds
        buckets = dict(state.rate_limiter.inner._buckets)
    warm = next((rss for moment, rss in samples if moment >= 5.0), rss_start)
    peak = max([rss_start, rss_end, *(rss for _, rss in samples)])
    return _report(
        reports=reports,
        expected_clients=len(processes),
        limiter=limiter,
        buckets=buckets,
        capacity=capacity,
        refill=refill,
        logged=logged,
        elapsed=elapsed,
        memory=(rss_start, warm, rss_end, peak),
    )


def _report(
    *,
    reports: list[ClientReport],
    expected_clients: int,
    limiter: _RecordingLimiter,
    buckets: dict[str, tuple[float, float]],
    capacity: int,
    refill: float,
    logged: Counter[int],
    elapsed: float,
    memory: tuple[int, int, int, int],
) -> int:
    failures: list[str] = []
    total = Counter[int]()
    for report in reports:
        total.update(report.statuses)
    sent = sum(total.values())
    errors = sum(report.transport_errors for report in reports)
    server_errors = sum(count for status, count in total.items() if status >= 500)
    print(f"soak: {len(reports)} clients, {elapsed:.1f} s, {sent:,} requests answered")
    print(f"  requests/s: {sent / elapsed:,.0f}; statuses: {dict(sorted(total.items()))}")
    print(f"  service log: {sum(logged.values()):,} requests, {dict(sorted(logged.items()))}")
    if len(reports) != expected_clients:
        failures.append(f"{expected_clients - len(reports)} client(s) did not report")
    if server_errors or logged_server_errors(logged):
        failures.append(f"{server_errors} 5xx answers")
    if errors:
        failures.append(f"{errors} transport errors")
    print(f"  rate limit {RATE_LIMIT}: capacity {capacity}, one token every {refill:g} s")
    print("  key               allowed  refused  bucket allows  used for (s)")
    for report in sorted(reports, key=lambda item: item.key):
        use = limiter.uses.get(report.key)
        if use is None or use.first is None:
            failures.append(f"{report.key}: no request reached the limiter")
            continue
        tokens_left = buckets[report.key][0]
        allows = capacity - tokens_left + (use.last - use.first) / refill
        client_ok = report.match_statuses.get(200, 0) + report.match_statuses.get(400, 0)
        client_ok += report.match_statuses.get(404, 0)
        shown = f"{allows:>13.3f}" if report.greedy else f"{'(below rate)':>13}"
        print(
            f"  {report.key:<16} {use.allowed:>8} {use.refused:>8}  {shown}"
            f"  {use.last - use.first:>11.1f}"
        )
        # A greedy key's bucket never refills to capacity, so nothing is capped: the identity
        # is exact. A paced key's bucket stays near full (capped), so only "never refused".
        if report.greedy and abs(use.allowed - allows) > 1e-6:
            failures.append(f"{report.key}: allowed {use.allowed}, the bucket allows {allows:.6f}")
        if client_ok != use.allowed or report.match_statuses.get(429, 0) != use.refused:
            failures.append(
                f"{report.key}: clients saw {client_ok} allowed and "
                f"{report.match_statuses.get(429, 0)} refused; the limiter "
                f"{use.allowed} and {use.refused}"
            )
        if report.greedy and use.refused == 0:
            failures.append(f"{report.key}: a greedy client was never refused")
        if not report.greedy and use.refused:
            failures.append(f"{report.key}: a paced client was refused {use.refused} times")
    start, warm, end, peak = (value / 2**20 for value in memory)
    print(
        f"  RSS (MB): start {start:.1f}, after warm-up {warm:.1f}, end {end:.1f}, peak {peak:.1f}"
    )
    if (memory[2] - memory[1]) > GROWTH_WARNING_BYTES:
        failures.append(f"RSS grew by {end - warm:.1f} MB after warm-up")
    for failure in failures:
        print(f"  FAILED: {failure}")
    print("soak: " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


def logged_server_errors(logged: Counter[int]) -> int:
    """5xx answers in the service's request log."""
    return sum(count for status, count in logged.items() if status >= 500)


def idle_flood(*, idle: int, partial: int) -> int:
    """Connections that never finish a request (issue 11 item 12), against ``running()`` with
    the default connection limits: ``idle`` send nothing, ``partial`` half a request head. Every
    one must be closed within the request timeout plus 5 s, the half heads with a JSON:API 408;
    a request while they are open gets a JSON:API 503 once they exceed the connection limit,
    and a 200 once they are gone. Returns the exit status."""
    import socket

    import requests

    from matchkit.service import running
    from matchkit.service.protocol import ConnectionLimits

    limits = ConnectionLimits()
    failures = []
    with running() as service:
        address = ("127.0.0.1", int(service.base_url.rsplit(":", 1)[1]))
        began = time.monotonic()
        sockets = [socket.create_connection(address, timeout=5) for _ in range(idle + partial)]
        for connection in sockets[idle:]:
            connection.sendall(b"GET /status HTTP/1.1\r\nHost: x\r\n")
        during = requests.get(f"{service.base_url}/status", timeout=30)
        if idle + partial >= limits.max_connections and (
            during.status_code != 503 or "errors" not in during.json()
        ):
            failures.append(f"a request during the flood got {during.status_code}, not a 503")
        closed_at: dict[int, float] = {}
        first_bytes: Counter[bytes] = Counter()
        deadline = began + limits.request_timeout + 5
        for number, connection in enumerate(sockets):
            connection.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                data = connection.recv(65536)
                if data:
                    first_bytes[data[9:12]] += 1
                    data = connection.recv(65536)
                if not data:
                    closed_at[number] = time.monotonic() - began
            except TimeoutError:
                pass
            except ConnectionResetError:
                closed_at[number] = time.monotonic() - began
            connection.close()
        after = requests.get(f"{service.base_url}/status", timeout=30)
    print(f"idle flood: {idle} silent + {partial} half-head connections (limits: {limits})")
    if closed_at:
        print(
            f"  closed {len(closed_at)} of {len(sockets)}, from {min(closed_at.values()):.2f} s "
            f"to {max(closed_at.values()):.2f} s; answers before closing: {dict(first_bytes)}"
        )
    print(f"  a request during the flood: {during.status_code}; after it: {after.status_code}")
    if len(closed_at) < len(sockets):
        failures.append(f"{len(sockets) - len(closed_at)} connections were not closed in time")
    if first_bytes != Counter({b"408": partial}):
        failures.append(f"the half heads were answered {dict(first_bytes)}, not 408s")
    if after.status_code != 200:
        failures.append(f"a request after the flood got {after.status_code}")
    for failure in failures:
        print(f"  FAILED: {failure}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__)
    parser.add_argument(
        "--seconds", type=float, default=float(os.environ.get("MATCHKIT_SOAK_SECONDS", 60))
    )
    parser.add_argument("--greedy", type=int, default=3)
    parser.add_argument("--paced", type=int, default=3)
    parser.add_argument("--max-requests", type=int, default=50_000)
    parser.add_argument("--idle", type=int, default=1100, help="silent connections (0: none)")
    parser.add_argument("--partial", type=int, default=100, help="half-head connections")
    args = parser.parse_args(argv)
    status = run(
        seconds=args.seconds,
        greedy=args.greedy,
        paced=args.paced,
        max_requests=args.max_requests,
    )
    if args.idle or args.partial:
        status |= idle_flood(idle=args.idle, partial=args.partial)
    return status


if __name__ == "__main__":
    sys.exit(main())

"""The PUBG client: 300 matches by id against the PUBG double at its default 10 a minute.

PUBG limits players, samples and seasons only; ``/matches`` is free (decision 21). The client's
own limiter applies to the endpoints its profile lists in ``rate_limited``, so a fetch of 300
matches by id waits for nothing. Beside it, what the same 300 requests would wait under the
Gamelocker profile's rule (every match request limited): the client's own limiter, 10 a minute,
run on a clock its waits move (so nothing really waits), summing the waits.

The match ids are read from the double's sample set in-process (no players or samples request
spends the limit); the client is a remote one (a base URL, so its default limit is 10 a minute)
on an empty cache, then the same fetch again from the cache.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from matchkit.client.client import Client
from matchkit.client.throttle import Throttle
from matchkit.rules.profiles import GAMELOCKER, PUBG
from matchkit.rules.ratelimit import DEFAULT_RATE_LIMIT, RateLimit
from matchkit.service import running

MATCHES = 300


def limiter_wait(requests_: int, *, limited: bool) -> float:
    """Seconds the client's limiter (at the default rate) makes ``requests_`` requests wait,
    on a clock its waits move."""
    if not limited:
        return 0.0
    moment = [0.0]
    waited = [0.0]

    def sleep(seconds: float) -> None:
        waited[0] += seconds
        moment[0] += seconds

    rate = RateLimit.parse(DEFAULT_RATE_LIMIT)
    assert rate is not None
    throttle = Throttle(rate, clock=lambda: moment[0], sleep=sleep)
    for _ in range(requests_):
        throttle.wait_for("https://api.example.com/shards/steam/matches/x")
    return waited[0]


def main() -> None:
    with running(profile="pubg", rate_limit=None) as service:  # the profile's 10 a minute
        sample_set = service.app.state.service.sample_set
        now = service.app.state.service.now()
        plan = sample_set.shard("steam")
        ids = [m.id for m in plan.matches if sample_set.match("steam", m.id, now=now)][:MATCHES]
        assert len(ids) == MATCHES, f"the set holds {len(ids)} available matches"
        with (
            tempfile.TemporaryDirectory() as cache,
            Client(
                service.base_url,
                api_key=service.api_key,
                profile="pubg",
                cache_dir=Path(cache),
                progress=False,
                now=now,  # the double's now (its set's as-of), not this machine's
            ) as client,
        ):
            assert client.rate_limit is not None  # a remote client: 10 a minute
            waits: list[float] = []
            client.transport.on_wait = lambda seconds, _what: waits.append(seconds)
            started = time.perf_counter()
            frames = client.get_matches(ids)
            cold = time.perf_counter() - started
            sent = client.transport.network_requests
            started = time.perf_counter()
            client.get_matches(ids)
            warm = time.perf_counter() - started
    assert len(frames.matches) == MATCHES
    waited = sum(waits)
    gamelocker = limiter_wait(MATCHES, limited="match" in GAMELOCKER.rate_limited)
    pubg = limiter_wait(MATCHES, limited="match" in PUBG.rate_limited)
    print(
        f"{MATCHES} PUBG matches by id, client limit {client.rate_limit}: {cold:.2f} s cold "
        f"({sent} requests, {len(frames.participants)} participants), {warm:.2f} s from the "
        "cache"
    )
    print(f"limiter wait, measured: {waited:.1f} s (must be 0)")
    print(
        f"limiter arithmetic for {MATCHES} match requests: PUBG profile {pubg:.0f} s; "
        f"Gamelocker profile (every match request limited) {gamelocker:.0f} s "
        f"({gamelocker / 60:.1f} min)"
    )
    assert waited == 0.0, "a PUBG match fetch waited for the rate limit"

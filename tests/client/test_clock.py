"""The client's now is the service's clock (decision 20): learned from each answer's ``Date`` as it
arrives, asked of ``GET /status`` when none has arrived, never taken from a cached answer, and
said when this machine's clock differs by more than a minute."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from matchkit.client.client import Client
from matchkit.client.clock import PinnedClock, ServiceClock, read_date
from matchkit.client.warnings import ClockSkewWarning
from matchkit.rules.windows import parse_time
from matchkit.service import RunningService
from tests.client.conftest import API_KEY, STATUS
from tests.client.raw_server import raw_server

AS_OF = parse_time("2026-10-31T00:00:00Z")
MINE = AS_OF.timestamp() + 6 * 3600  # this machine's clock: 6 hours ahead of the service's


def _at(seconds: float) -> Callable[[], float]:
    return lambda: seconds


def test_read_date_reads_an_http_date_and_nothing_else() -> None:
    assert read_date("Sat, 31 Oct 2026 00:00:00 GMT") == AS_OF
    assert read_date("Sat, 31 Oct 2026 01:00:00 +0100") == AS_OF
    assert read_date(None) is None
    assert read_date("") is None
    assert read_date("yesterday") is None


def test_the_clock_adds_the_offset_of_the_last_answer_to_the_machines_clock() -> None:
    now = {"t": MINE}
    clock = ServiceClock(wall_clock=lambda: now["t"])
    with pytest.warns(ClockSkewWarning, match="differ by 6.0 hours"):
        clock.observe("Sat, 31 Oct 2026 00:00:00 GMT")
    assert clock.offset == -6 * 3600
    assert clock.now() == AS_OF
    now["t"] += 90.7  # the machine's clock moves on: so does the service's
    assert clock.now() == AS_OF + timedelta(seconds=90)  # whole seconds
    clock.observe("Sat, 31 Oct 2026 00:10:00 GMT")  # a later answer re-anchors it
    assert clock.now() == AS_OF + timedelta(minutes=10)


def test_the_skew_is_said_once_and_a_small_one_not_at_all() -> None:
    close = ServiceClock(wall_clock=_at(AS_OF.timestamp() + 59))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        close.observe("Sat, 31 Oct 2026 00:00:00 GMT")  # 59 s apart: within the tolerance
    far = ServiceClock(wall_clock=_at(MINE))
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        far.observe("Sat, 31 Oct 2026 00:00:00 GMT")
        far.observe("Sat, 31 Oct 2026 00:00:05 GMT")
    assert [warning.category for warning in said] == [ClockSkewWarning]


def test_a_now_wanted_before_any_answer_asks_once() -> None:
    asked: list[int] = []
    clock = ServiceClock(wall_clock=_at(AS_OF.timestamp()))

    def ask() -> None:
        asked.append(1)
        clock.observe("Sat, 31 Oct 2026 00:00:00 GMT")

    clock.ask = ask
    assert clock.now() == AS_OF
    assert clock.now() == AS_OF
    assert asked == [1]


def test_offline_with_no_answer_the_clock_is_the_machines() -> None:
    clock = ServiceClock(wall_clock=_at(MINE), ask=None)
    assert clock.now() == datetime.fromtimestamp(MINE, UTC)


def test_a_pinned_now_learns_nothing() -> None:
    clock = PinnedClock(AS_OF)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clock.observe("Mon, 01 Jan 2001 00:00:00 GMT")
    assert clock.now() == AS_OF


def test_a_client_takes_now_windows_and_clamps_from_the_service(
    service: RunningService, tmp_path: Path
) -> None:
    assert service.now == AS_OF
    with (
        warnings.catch_warnings(record=True) as said,
        _client(service.base_url, tmp_path, service) as client,
    ):
        warnings.simplefilter("always")
        assert client.now() == AS_OF  # asked GET /status: there was no answer yet
        plan = client.plan()
        assert plan.now == AS_OF
        assert plan.windows[-1].end == AS_OF  # not 6 hours into the service's future
        frames = client.matches("2026-10-30")
    (skew,) = [warning for warning in said if warning.category is ClockSkewWarning]
    assert "differ by 6.0 hours" in str(skew.message)
    assert len(frames) > 0
    assert frames.matches["created_at"].max() < AS_OF


def test_every_answer_tells_the_service_clock(service: RunningService) -> None:
    import requests

    headers = {"Authorization": f"Bearer {service.api_key}"}
    for path in ("/status", "/shards/global/matches", "/shards/global/matches/none", "/nothing"):
        response = requests.get(service.base_url + path, headers=headers, timeout=30)
        assert read_date(response.headers.get("Date")) == AS_OF, path


def test_a_cached_answer_tells_no_time(tmp_path: Path) -> None:
    """A cached answer's Date is when it was served: a later client reading it from the cache
    still asks the service for the time."""
    status_dates = iter(["Mon, 26 Oct 2026 00:00:00 GMT"])
    match = {"data": {"type": "match", "id": "m1", "attributes": {"createdAt": "2026-10-25"}}}

    def answer(handler: BaseHTTPRequestHandler) -> None:
        if handler.path == "/status":
            body, date = json.dumps(STATUS).encode(), next(status_dates)
        else:
            body, date = json.dumps(match).encode(), "Sun, 25 Oct 2026 12:00:00 GMT"
        handler.send_response_only(200)  # no Date of this machine's: only the one given
        handler.send_header("Date", date)
        handler.send_header("Content-Type", "application/vnd.api+json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    with raw_server(answer) as (base_url, seen):
        with _client(base_url, tmp_path) as first, warnings.catch_warnings():
            warnings.simplefilter("ignore", ClockSkewWarning)
            first.get_match_body("m1")  # from the service: its Date is observed
            assert first.now() == parse_time("2026-10-25T12:00:00Z")
        with _client(base_url, tmp_path) as second, warnings.catch_warnings():
            warnings.simplefilter("ignore", ClockSkewWarning)
            second.get_match_body("m1")  # from the cache: it tells nothing
            assert second.clock.offset is None  # type: ignore[union-attr]
            assert second.now() == parse_time("2026-10-26T00:00:00Z")  # asked GET /status
    assert seen == ["/shards/global/matches/m1", "/status"]


def _client(base_url: str, folder: Path, service: RunningService | None = None) -> Client:
    return Client(
        base_url,
        api_key=service.api_key if service is not None else API_KEY,
        cache_dir=folder / "cache",
        rate_limit="off",
        progress=False,
        clock=_at(MINE),
    )

"""Every answer of the service carries its time in ``Date`` (decision 20): its pinned now, or the
wall clock's; never the machine's clock when now is pinned, and one ``Date`` only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import requests

from matchkit.client.clock import read_date
from matchkit.service import RunningService, running
from tests.service.conftest import NOW


def _dates(response: requests.Response) -> list[str]:
    return [value for name, value in response.raw.headers.items() if name.lower() == "date"]


@pytest.mark.parametrize(
    ("method", "path", "keyed"),
    [
        ("GET", "/status", False),
        ("GET", "/catalogue", False),
        ("GET", "/shards/global/matches", True),
        ("GET", "/shards/global/matches", False),  # 401
        ("GET", "/shards/global/matches/no-such-match", True),  # 404
        ("GET", "/shards/nowhere/matches", True),  # 404, unknown shard
        ("GET", "/shards/global/matches?page[limit]=x", True),  # 400
        ("POST", "/shards/global/matches", True),  # 405
        ("OPTIONS", "/shards/global/matches", False),
        ("GET", "/not-an-endpoint", False),
    ],
)
def test_every_answer_says_the_services_pinned_now(
    service: RunningService, method: str, path: str, keyed: bool
) -> None:
    headers = {"Authorization": f"Bearer {service.api_key}"} if keyed else {}
    response = requests.request(method, service.base_url + path, headers=headers, timeout=30)
    (date,) = _dates(response)
    assert read_date(date) == NOW


def test_a_telemetry_file_says_it_too() -> None:
    """The asset host of the sample set (the service itself) dates its files the same way."""
    with running() as sample:
        listed = requests.get(
            sample.base_url + "/shards/global/matches",
            headers={"Authorization": f"Bearer {sample.api_key}"},
            params={"filter[createdAt-start]": "2026-10-30T00:00:00Z"},
            timeout=30,
        ).json()
        (url, *_) = [
            item["attributes"]["URL"] for item in listed["included"] if item["type"] == "asset"
        ]
        response = requests.get(url, timeout=30)
    assert response.status_code == 200
    (date,) = _dates(response)
    assert read_date(date) == sample.now == NOW


def test_a_fault_says_it_too() -> None:
    with running(faults="503=1", now=NOW) as faulty:
        response = requests.get(
            faulty.base_url + "/shards/global/matches",
            headers={"Authorization": f"Bearer {faulty.api_key}"},
            timeout=30,
        )
    assert response.status_code == 503
    (date,) = _dates(response)
    assert read_date(date) == NOW


def test_the_wall_clock_is_the_date_of_a_service_that_follows_it() -> None:
    with running(now="wall") as live:
        before = datetime.now(UTC)
        response = requests.get(live.base_url + "/status", timeout=30)
        after = datetime.now(UTC)
    moment = read_date(_dates(response)[0])
    assert moment is not None
    assert before - timedelta(seconds=1) <= moment <= after + timedelta(seconds=1)

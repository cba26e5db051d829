"""The client against the reference service over loopback HTTP: ground truth, windows, sort,
filters, both shards, the cache, rate limits, offline mode and the embedded default."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import requests

from matchkit.client.client import Client
from matchkit.errors import CacheMissError, NotFoundError
from matchkit.model.frames import MatchFrames
from matchkit.normalize.pipeline import to_frames
from matchkit.rules.windows import TimeWindow, parse_time, split_window
from matchkit.sampledata.dataset import Dataset, open_dataset
from matchkit.service import RunningService, running
from tests.client.conftest import (
    FakeClock,
    assert_same_frames,
    sample_documents,
    service_client,
)


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    return open_dataset()


@pytest.fixture
def connect(service: RunningService, tmp_path: Path) -> Iterator[Callable[..., Client]]:
    clients: list[Client] = []

    def build(**options: Any) -> Client:
        client = service_client(service, options.pop("cache_dir", tmp_path / "cache"), **options)
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()


def truth(dataset: Dataset, shard: str, window: TimeWindow | None = None) -> MatchFrames:
    """The stored documents of ``shard`` created in ``window``, normalized directly."""
    if window is None:
        return to_frames(sample_documents(shard))
    return to_frames(sample_documents(shard, window.start, window.end))


def _match(document: dict) -> dict:
    data = document["data"]
    return data[0] if isinstance(data, list) else data


@pytest.fixture(scope="module")
def full_fetch(
    service: RunningService, dataset: Dataset, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """One 120-day fetch of the global shard, then the same call again."""
    cache_dir = tmp_path_factory.mktemp("full-cache")
    with service_client(service, cache_dir) as client:
        start = dataset.as_of - timedelta(days=120)
        before = len(service.requests)
        first = client.matches(start=start)
        between = len(service.requests)
        second = client.matches(start=start)
        after = len(service.requests)
    return {
        "first": first,
        "second": second,
        "cold_requests": between - before,
        "warm_requests": after - between,
        "cache_dir": cache_dir,
        "start": start,
    }


def test_a_120_day_fetch_equals_the_stores_ground_truth(
    full_fetch: dict[str, Any], dataset: Dataset
) -> None:
    frames = full_fetch["first"]
    assert len(frames) == dataset.match_count("global")
    assert frames.matches["match_id"].is_unique
    assert_same_frames(frames, truth(dataset, "global"))
    created = frames.matches["created_at"]
    assert created.is_monotonic_increasing


def test_each_window_is_paged_until_a_page_with_no_new_match(
    full_fetch: dict[str, Any], dataset: Dataset
) -> None:
    # Each page after the first begins with the last match received (so that a match leaving
    # or arriving cannot cost another): a window holding n > 0 matches takes a page of 5, then
    # ceil((n - 5) / 4) pages of 4 new ones, then the page of the last match alone and the
    # empty page past it, which ends it (decision 8: a short page is not the end); an empty
    # window one request. The client confirms the service once first.
    windows = split_window(TimeWindow(full_fetch["start"], dataset.as_of))
    assert len(windows) == 5
    created = full_fetch["first"].matches["created_at"]
    counts = [int(((created >= w.start) & (created < w.end)).sum()) for w in windows]
    assert sum(counts) == len(created)
    pages = [3 + -(-max(0, n - 5) // 4) if n else 1 for n in counts]
    assert full_fetch["cold_requests"] == 1 + sum(pages)
    # The overlap's cost: a fifth of each page, against ceil(n / 5) + 1 without it.
    without = sum(-(-n // 5) + 1 for n in counts)
    assert 1.2 * without < sum(pages) < 1.3 * without


def test_a_second_identical_call_makes_no_request(full_fetch: dict[str, Any]) -> None:
    assert full_fetch["cold_requests"] > 0
    assert full_fetch["warm_requests"] == 0
    assert_same_frames(full_fetch["second"], full_fetch["first"])


def test_the_cache_file_never_holds_the_key(
    full_fetch: dict[str, Any], service: RunningService
) -> None:
    files = list(Path(full_fetch["cache_dir"]).iterdir())
    stored = b"".join(path.read_bytes() for path in files)
    assert len(stored) > 1_000_000  # the pages are there
    assert service.api_key.encode() not in stored


def test_windows_follow_a_pinned_now(connect: Callable[..., Client], dataset: Dataset) -> None:
    now = parse_time("2026-09-01T12:00:00Z")
    frames = connect(now=now).matches()
    window = TimeWindow(now - timedelta(days=28), now)
    expected = truth(dataset, "global", window)
    assert len(frames) > 0
    assert_same_frames(frames, expected)


def test_descending_is_the_reverse_of_ascending(connect: Callable[..., Client]) -> None:
    client = connect()
    span = {"start": "2026-10-01T00:00:00Z", "end": "2026-10-06T00:00:00Z"}
    ascending = client.matches(**span).matches
    descending = client.matches(**span, sort="-createdAt").matches
    assert len(ascending) > 10
    assert list(descending["match_id"]) == list(ascending["match_id"])[::-1]


def test_max_matches_keeps_the_first_in_sort_order(
    connect: Callable[..., Client], caplog: pytest.LogCaptureFixture
) -> None:
    client = connect()
    span = {"start": "2026-09-26T00:00:00Z", "end": "2026-10-01T00:00:00Z"}  # ~180 matches
    everything = client.matches(**span)
    with caplog.at_level(logging.INFO, logger="matchkit"):
        latest = client.matches(**span, sort="-createdAt", max_matches=7)
    assert any("max_matches=7" in record.getMessage() for record in caplog.records)
    assert list(latest.matches["match_id"]) == list(everything.matches["match_id"])[::-1][:7]
    kept = set(latest.matches["match_id"])
    assert set(latest.participants["match_id"]) == kept
    assert set(latest.rosters["match_id"]) == kept


def _ids(frames: MatchFrames, mask: pd.Series) -> set[str]:
    return set(frames.matches.loc[mask.fillna(False).to_numpy(), "match_id"])


def test_each_global_filter(connect: Callable[..., Client], dataset: Dataset) -> None:
    now = dataset.as_of
    window = TimeWindow(now - timedelta(days=15), now)
    expected = truth(dataset, "global", window)
    client = connect()
    span = {"start": window.start, "end": window.end}
    matches = expected.matches

    patch = str(matches["patch_version"].value_counts().index[0])
    got = client.matches(**span, patch_versions=[patch])
    assert set(got.matches["match_id"]) == _ids(expected, matches["patch_version"] == patch)

    server_types = ["QUICK2V2", "ROYALRUMBLEDUO"]
    got = client.matches(**span, server_types=[t.lower() for t in server_types])
    wanted = _ids(expected, matches["server_type"].astype("string").isin(server_types))
    assert wanted
    assert set(got.matches["match_id"]) == wanted

    got = client.matches(**span, ranking_type="ranked")
    wanted = _ids(expected, matches["ranking_type"] == "RANKED")
    assert 0 < len(wanted) < len(matches)
    assert set(got.matches["match_id"]) == wanted

    registered = expected.participants.dropna(subset=["player_id"])
    player = registered["player_id"].value_counts().index[0]
    got = client.matches(**span, player_ids=[player])
    wanted = set(registered.loc[registered["player_id"] == player, "match_id"])
    assert len(wanted) > 1
    assert set(got.matches["match_id"]) == wanted


def test_the_na_shard_over_120_days_equals_its_ground_truth(
    connect: Callable[..., Client], dataset: Dataset
) -> None:
    client = connect(shard="na")
    frames = client.matches(start=dataset.as_of - timedelta(days=120))
    assert len(frames) == dataset.match_count("na")
    assert_same_frames(frames, truth(dataset, "na"))


def test_the_na_default_window_is_three_hours(
    connect: Callable[..., Client], dataset: Dataset
) -> None:
    plan = connect(shard="na").plan()
    (window,) = plan.windows
    assert window == TimeWindow(dataset.as_of - timedelta(hours=3), dataset.as_of)
    assert plan.page_limit == 50


def test_each_na_filter(connect: Callable[..., Client], dataset: Dataset) -> None:
    expected = truth(dataset, "na")
    client = connect(shard="na")
    span = {"start": dataset.as_of - timedelta(days=120)}

    mode = str(expected.matches["game_mode"].value_counts().index[-1])
    got = client.matches(**span, game_modes=[mode])
    assert set(got.matches["match_id"]) == _ids(expected, expected.matches["game_mode"] == mode)

    participants = expected.participants.dropna(subset=["player_id"])
    names = expected.players.set_index("player_id")["name"]
    name = names.dropna().value_counts().index[0]
    by_name = participants[participants["player_id"].map(names) == name]
    got = client.matches(**span, player_names=[name])
    assert set(got.matches["match_id"]) == set(by_name["match_id"])
    assert len(got) > 0

    player = participants["player_id"].iloc[0]
    got = client.matches(**span, player_ids=[player])
    wanted = set(participants.loc[participants["player_id"] == player, "match_id"])
    assert set(got.matches["match_id"]) == wanted

    rosters = expected.rosters.dropna(subset=["team_id"])
    if len(rosters):
        team_names = expected.teams.set_index("team_id")["name"]
        team = team_names.dropna().iloc[0]
        got = client.matches(**span, team_names=[team])
        wanted = set(rosters.loc[rosters["team_id"].map(team_names) == team, "match_id"])
        assert set(got.matches["match_id"]) == wanted


def test_get_match_and_status(connect: Callable[..., Client], dataset: Dataset) -> None:
    client = connect()
    document = next(dataset.iter_documents("global"))
    match_id = _match(document)["id"]
    assert_same_frames(client.get_match(match_id), to_frames([document]))
    with pytest.raises(NotFoundError):
        client.get_match("NO-SUCH-MATCH")
    status = client.status()
    assert status.name
    assert status.version


def test_offline_answers_a_fetched_call_and_names_a_missing_page(
    connect: Callable[..., Client], service: RunningService
) -> None:
    span = {"start": "2026-10-10T00:00:00Z", "end": "2026-10-12T00:00:00Z"}
    online = connect().matches(**span)
    before = len(service.requests)
    offline = connect(offline=True)
    assert_same_frames(offline.matches(**span), online)
    with pytest.raises(CacheMissError, match="offline") as raised:
        offline.matches(start="2026-10-12T00:00:00Z", end="2026-10-13T00:00:00Z")
    assert "2026-10-12" in raised.value.url
    assert len(service.requests) == before


def test_plan_marks_cached_windows_and_prices_pages(
    connect: Callable[..., Client], service: RunningService
) -> None:
    limited = connect(rate_limit="30/minute")
    span = {"start": "2026-08-01T00:00:00Z", "end": "2026-09-15T00:00:00Z"}
    before = len(service.requests)
    plan = limited.plan(**span)
    assert len(service.requests) == before  # planning sends nothing
    assert [r.cached for r in plan.requests] == [False, False]
    assert plan.seconds_per_page == 2.0
    assert plan.seconds_for(100) == (100 // 4 + 2) * 2.0  # 4 new matches a page of 5
    assert "2 window(s)" in str(plan)
    # Fill the first window through an unlimited client sharing the cache.
    connect().matches(start="2026-08-01T00:00:00Z", end="2026-08-29T00:00:00Z")
    assert [r.cached for r in limited.plan(**span).requests] == [True, False]


def test_429_from_the_services_limiter_is_waited_out(dataset: Dataset, tmp_path: Path) -> None:
    clock = FakeClock()
    with running(rate_limit="3/minute", clock=clock, store_dir=tmp_path / "store") as limited:
        # No client-side rate limit: let the service refuse, to exercise the 429 path.
        client = service_client(limited, tmp_path / "cache")
        client.retry_policy = type(client.retry_policy)(sleep=clock.sleep, random=lambda: 0.5)
        window = TimeWindow(parse_time("2026-10-20T00:00:00Z"), parse_time("2026-10-22T00:00:00Z"))
        frames = client.matches(start=window.start, end=window.end)
        client.close()
        statuses = [entry.status for entry in limited.requests]
    assert statuses.count(429) >= 1
    assert clock.sleeps
    assert all(0 < wait <= 20 for wait in clock.sleeps)
    assert_same_frames(frames, truth(dataset, "global", window))


def test_the_embedded_default_serves_the_sample_and_stops_on_close(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for name in ("MATCHKIT_BASE_URL", "MATCHKIT_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MATCHKIT_CACHE_DIR", str(tmp_path / "env-cache"))
    with caplog.at_level(logging.INFO, logger="matchkit"):
        client = Client(progress=False)
    said = [r for r in caplog.records if "embedded" in r.getMessage()]
    assert len(said) == 1
    assert client.embedded
    assert client.rate_limit is None
    assert client.cache_dir == tmp_path / "env-cache"
    assert client.now() == open_dataset().as_of
    assert "embedded" in repr(client)
    assert client.service.api_key not in repr(client)
    base_url = client.base_url
    frames = client.matches(start="2026-10-30T00:00:00Z")
    assert len(frames) > 0
    assert len(client.service.requests) >= 1
    client.close()
    with pytest.raises(requests.ConnectionError):
        requests.get(base_url + "/status", timeout=2)
    # Offline, the embedded service is not even started: its pages are keyed by the data set.
    with Client(offline=True, progress=False) as offline:
        assert offline.service is None
        assert_same_frames(offline.matches(start="2026-10-30T00:00:00Z"), frames)
        assert offline.plan(start="2026-10-30T00:00:00Z").requests[0].cached


def test_the_environment_configures_a_remote_service(
    monkeypatch: pytest.MonkeyPatch, service: RunningService, tmp_path: Path
) -> None:
    monkeypatch.setenv("MATCHKIT_BASE_URL", service.base_url)
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    with Client(cache_dir=tmp_path, now=service.now, progress=False) as client:
        assert not client.embedded
        assert client.base_url == service.base_url
        assert str(client.rate_limit) == "10/minute"  # the remote default
        assert len(client.matches(start="2026-10-30T12:00:00Z")) > 0
    with Client(
        "http://127.0.0.1:9", cache_dir=tmp_path, now=service.now, progress=False
    ) as client:
        assert client.base_url == "http://127.0.0.1:9"  # the argument beats the environment

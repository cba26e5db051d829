"""Fixtures of the client tests: an injected clock, and clients bound to a test HTTP server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from pytest_httpserver import HTTPServer

from matchkit.client.client import Client
from matchkit.client.transport import RetryPolicy
from matchkit.model.frames import MatchFrames

NOW = "2026-10-31T00:00:00Z"
API_KEY = "planted-key-7f3a9c1e5b2d4f60"

KEYS = {
    "matches": ["match_id"],
    "rosters": ["roster_id"],
    "participants": ["participant_id"],
    "rounds": ["round_id"],
    "round_participants": ["round_id", "participant_id"],
    "players": ["player_id"],
    "teams": ["team_id"],
    "assets": ["asset_id"],
    "spectators": ["match_id", "spectator_type", "spectator_id"],
}


def assert_same_frames(actual: MatchFrames, expected: MatchFrames) -> None:
    """Every table holds the same rows (compared in key order) with the same dtypes."""
    for name, key in KEYS.items():
        left = actual.tables[name].sort_values(key, kind="stable").reset_index(drop=True)
        right = expected.tables[name].sort_values(key, kind="stable").reset_index(drop=True)
        pd.testing.assert_frame_equal(left, right, check_like=True, obj=name)
    assert _without_counts(actual.problems) == _without_counts(expected.problems)


def _without_counts(problems: tuple[str, ...]) -> set[str]:
    """The problems, with the count of players (teams) whose copies differ left out: how many
    differing copies arrive depends on how matches were paged (a page carries one copy of a
    player it shares between matches; decision 17)."""
    return {
        problem.split(" ", 1)[1] if "arrived with differing attributes" in problem else problem
        for problem in problems
    }


class FakeClock:
    """A monotonic clock that only moves when something sleeps on it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_client(
    httpserver: HTTPServer, tmp_path: Path, clock: FakeClock
) -> Iterator[Callable[..., Client]]:
    """Build clients for ``httpserver`` whose retries sleep on the fake clock."""
    clients: list[Client] = []

    def build(**options: Any) -> Client:
        options.setdefault("api_key", API_KEY)
        options.setdefault("cache_dir", tmp_path / "cache")
        options.setdefault("rate_limit", "off")
        options.setdefault("now", NOW)
        options.setdefault("progress", False)
        client = Client(httpserver.url_for("/").rstrip("/"), **options)
        client.retry_policy = RetryPolicy(
            sleep=clock.sleep, wall_clock=lambda: 1_800_000_000.0, random=lambda: 0.5
        )
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()

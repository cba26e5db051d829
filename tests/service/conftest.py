"""Fixtures of the service tests: the factory data set, a running service, and an oracle.

The oracle answers the same questions as the service straight from the factory's documents, in
plain Python, so the tests never compare the service with itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import requests

from matchkit.rules.windows import parse_time
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import RunningService, running
from tests.builders.datasets import AS_OF, build_dataset
from tests.sessions import pooled_session

NOW = parse_time(AS_OF)
VND = "application/vnd.api+json"


@dataclass(frozen=True)
class OracleMatch:
    """What a filter or the order needs to know of one match."""

    id: str
    shard: str
    created_at: datetime
    server_type: str | None
    ranking_type: str | None
    patch_version: str | None
    game_mode: str | None
    player_ids: frozenset[str]
    player_names: frozenset[str]
    team_names: frozenset[str]
    document: Mapping[str, Any]


def _oracle_match(shard: str, document: dict[str, Any]) -> OracleMatch:
    match = document["data"]
    attributes = match["attributes"]
    by_key = {(item["type"], item["id"]): item for item in document["included"]}
    player_ids, player_names, team_names = set(), set(), set()
    for item in document["included"]:
        player = item.get("relationships", {}).get("player", {}).get("data")
        if item["type"] == "participant" and player:
            player_ids.add(player["id"])
            player_names.add(by_key[("player", player["id"])]["attributes"]["name"])
        team = item.get("relationships", {}).get("team", {}).get("data")
        if item["type"] == "roster" and team:
            team_names.add(by_key[("team", team["id"])]["attributes"]["name"])
    tags = attributes.get("tags") or {}
    return OracleMatch(
        id=match["id"],
        shard=shard,
        created_at=parse_time(attributes["createdAt"]),
        server_type=tags.get("serverType"),
        ranking_type=tags.get("rankingType"),
        patch_version=attributes.get("patchVersion"),
        game_mode=attributes.get("gameMode"),
        player_ids=frozenset(player_ids),
        player_names=frozenset(player_names),
        team_names=frozenset(team_names),
        document=document,
    )


class Oracle:
    """The factory's matches per shard, read directly from the data set files."""

    def __init__(self, folder: Path) -> None:
        dataset = open_dataset(folder)
        self.matches = {
            shard: [_oracle_match(shard, doc) for doc in dataset.iter_documents(shard)]
            for shard in dataset.shards
        }

    def select(
        self,
        shard: str,
        start: datetime,
        end: datetime,
        *,
        descending: bool = False,
        where=lambda match: True,
    ) -> list[str]:
        """Ids of the matches in ``[start, end)`` that pass ``where``, in the service's order."""
        chosen = [
            match
            for match in self.matches[shard]
            if start <= match.created_at < end and where(match)
        ]
        chosen.sort(key=lambda match: (match.created_at, match.id), reverse=descending)
        return [match.id for match in chosen]

    def by_id(self, shard: str, match_id: str) -> OracleMatch:
        return next(match for match in self.matches[shard] if match.id == match_id)


class Api:
    """A requests session bound to a running service and its key."""

    def __init__(self, service: RunningService) -> None:
        self.service = service
        self.base_url = service.base_url
        self.session = pooled_session()
        self._lock = threading.Lock()

    def auth(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.service.api_key}"}

    def get(
        self, path: str, params: Mapping[str, Any] | None = None, *, headers=None, **options
    ) -> requests.Response:
        merged = {**self.auth(), **(headers or {})}
        return self.session.get(
            self.base_url + path, params=params, headers=merged, timeout=30, **options
        )

    def fetch_all(self, shard: str, params: Mapping[str, Any]) -> list[str]:
        """Page through a list request until a short page; returns the ids in order."""
        params = dict(params)
        limit = int(params.setdefault("page[limit]", 5))
        offset = int(params.get("page[offset]", 0))
        ids: list[str] = []
        while True:
            response = self.get(f"/shards/{shard}/matches", {**params, "page[offset]": offset})
            assert response.status_code == 200, response.text
            page = [match["id"] for match in response.json()["data"]]
            ids.extend(page)
            if len(page) < limit:
                return ids
            offset += limit


@pytest.fixture(scope="session")
def dataset_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("service-data")
    build_dataset(folder)
    return folder


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("service-store")


@pytest.fixture(scope="session")
def oracle(dataset_dir: Path) -> Oracle:
    return Oracle(dataset_dir)


@pytest.fixture(scope="session")
def service(dataset_dir: Path, store_dir: Path) -> Iterator[RunningService]:
    with running(data=dataset_dir, store_dir=store_dir) as handle:
        yield handle


@pytest.fixture(scope="session")
def api(service: RunningService) -> Api:
    return Api(service)


def error_of(response: requests.Response) -> dict[str, Any]:
    """The single JSON:API error of an error response."""
    errors = response.json()["errors"]
    assert len(errors) == 1
    assert errors[0]["status"] == str(response.status_code)
    return errors[0]


class FakeClock:
    """Monotonic seconds that move only when a test says so (thread-safe enough: one writer)."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds

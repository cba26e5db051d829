"""pubg-python and chicken-dinner, unchanged from the registry, read `matchkit serve --profile
pubg` (a subprocess on loopback): its players, samples, seasons and matches.

Neither lets a base URL be set, so only the constant that holds it is patched: pubg-python's
``APIClient.BASE_URL``, chicken-dinner's ``SHARD_URL`` and ``STATUS_URL`` (as its core module
imported them). Their requests, their headers (the key, ``Accept``, gzip), their reading of the
answers and of the rate-limit headers are theirs. What they read is held against the raw
documents the service answers.

pubg-python is in the dev extra. chicken-dinner 0.11.0 (its last release) pins ``click<8.0``,
which dask (``click>=8.1``, the archive extra) excludes, so ``make venv`` installs it without its
dependencies (its API client imports only requests, and tabulate for its tables); see the
Makefile.
"""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest
import requests

from tests.serve_process import ServeProcess, started_serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    cache = tmp_path_factory.mktemp("serve-cache")
    # A limit the tests stay under (the raw documents they compare with cost requests too);
    # still live, so every limited answer carries the X-RateLimit-* headers both clients read.
    with started_serve(
        "--profile", "pubg", "--rate-limit", "120/minute", cache_dir=cache
    ) as process:
        yield process


def _get(served: ServeProcess, path: str, **params: str) -> dict:
    answer = requests.get(
        served.base_url + path,
        params=params,
        headers={"Authorization": f"Bearer {served.api_key}"},
        timeout=30,
    )
    answer.raise_for_status()
    return orjson.loads(answer.content)


def _sample_ids(served: ServeProcess) -> list[str]:
    sample = _get(served, "/shards/steam/samples")
    return [match["id"] for match in sample["data"]["relationships"]["matches"]["data"]]


def _registered(served: ServeProcess, match_id: str) -> list[dict]:
    match = _get(served, f"/shards/steam/matches/{match_id}")
    return [
        item["attributes"]["stats"]
        for item in match["included"]
        if item["type"] == "participant"
        and item["attributes"]["stats"]["playerId"].startswith("account.")
    ]


def test_pubg_python_reads_the_double(
    served: ServeProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pubg_python import PUBG, Shard
    from pubg_python.clients import APIClient

    monkeypatch.setattr(APIClient, "BASE_URL", served.base_url + "/")
    api = PUBG(served.api_key, Shard.STEAM)

    sample = api.samples().get()
    ids = _sample_ids(served)
    assert [match.id for match in sample.matches] == ids
    assert sample.created_at == "2026-11-19T00:00:00Z"

    match = api.matches().get(ids[0])
    raw = _get(served, f"/shards/steam/matches/{ids[0]}")
    assert match.map_name == raw["data"]["attributes"]["mapName"]
    assert match.game_mode == raw["data"]["attributes"]["gameMode"]
    participants = [p for roster in match.rosters for p in roster.participants]
    raw_participants = [i for i in raw["included"] if i["type"] == "participant"]
    assert len(participants) == len(raw_participants)
    assert sorted(p.player_id for p in participants) == sorted(
        i["attributes"]["stats"]["playerId"] for i in raw_participants
    )
    assert sum(p.kills for p in participants) == sum(
        i["attributes"]["stats"]["kills"] for i in raw_participants
    )
    assert match.assets[0].url.endswith("-telemetry.json")

    stats = _registered(served, ids[0])[:2]
    names = [s["name"] for s in stats]
    players = list(api.players().filter(player_names=names))
    assert [p.name for p in players] == names
    assert [p.id for p in players] == [s["playerId"] for s in stats]
    one = api.players().get(stats[0]["playerId"])
    listed = _get(served, f"/shards/steam/players/{stats[0]['playerId']}")
    assert [m.id for m in one.matches] == [
        m["id"] for m in listed["data"]["relationships"]["matches"]["data"]
    ]

    seasons = list(api.seasons())
    assert [s.id for s in seasons] == [
        s["id"] for s in _get(served, "/shards/steam/seasons")["data"]
    ]
    assert [s.is_current_season for s in seasons].count(True) == 1


def test_chicken_dinner_reads_the_double(
    served: ServeProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chicken_dinner.pubgapi import PUBG, core

    monkeypatch.setattr(core, "SHARD_URL", served.base_url + "/shards/")
    monkeypatch.setattr(core, "STATUS_URL", served.base_url + "/status")
    pubg = PUBG(served.api_key, "steam")

    status = pubg.status()
    assert status.id == "pubg-api"

    ids = _sample_ids(served)
    sample = pubg.samples()
    assert sample.match_ids == ids

    match = pubg.match(ids[1])
    raw = _get(served, f"/shards/steam/matches/{ids[1]}")
    assert match.map_id == raw["data"]["attributes"]["mapName"]
    assert match.game_mode == raw["data"]["attributes"]["gameMode"]
    raw_participants = [i for i in raw["included"] if i["type"] == "participant"]
    assert sorted(p.player_id for p in match.participants) == sorted(
        i["attributes"]["stats"]["playerId"] for i in raw_participants
    )
    assert match.telemetry_url.endswith("-telemetry.json")

    stats = _registered(served, ids[1])[:3]
    names = [s["name"] for s in stats]
    players = pubg.players_from_names(names)
    assert sorted(p.name for p in players) == sorted(names)
    assert sorted(p.id for p in players) == sorted(s["playerId"] for s in stats)
    listed = _get(served, f"/shards/steam/players/{stats[0]['playerId']}")
    player = pubg.player(stats[0]["playerId"])
    assert player.match_ids == [m["id"] for m in listed["data"]["relationships"]["matches"]["data"]]

    seasons = pubg.seasons()
    raw_seasons = _get(served, "/shards/steam/seasons")["data"]
    assert [s.id for s in seasons] == [s["id"] for s in raw_seasons]
    assert seasons.current().id == next(
        s["id"] for s in raw_seasons if s["attributes"]["isCurrentSeason"]
    )


def test_the_clients_are_the_registrys(served: ServeProcess) -> None:
    """The versions tested, unchanged: their files are the installed distributions'."""
    from importlib import metadata

    assert metadata.version("pubg-python") == "0.12.5"
    assert metadata.version("chicken-dinner") == "0.11.0"

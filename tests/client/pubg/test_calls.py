"""Client(profile="pubg") against the PUBG double over loopback: each call through the one
request path, checked against its request; matches by id free of the rate limit; the cache
keeping a match after it is gone upstream."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import orjson
import pandas as pd
import pytest
import requests

from matchkit.client.client import Client
from matchkit.client.throttle import Throttle
from matchkit.client.warnings import PlayerNotFoundWarning
from matchkit.errors import NotFoundError
from matchkit.rules.profiles import GAMELOCKER, PUBG
from matchkit.rules.ratelimit import RateLimit
from matchkit.service import RunningService, running
from tests.client.pubg.conftest import NOW, paths

LATER = "2026-11-23T00:00:00Z"


def _raw(service: RunningService, path: str, **params: str) -> dict:
    answer = requests.get(
        service.base_url + path,
        params=params,
        headers={"Authorization": f"Bearer {service.api_key}"},
        timeout=30,
    )
    answer.raise_for_status()
    return orjson.loads(answer.content)


def test_the_profile_is_held_in_the_settings(pubg_client: Callable[..., Client]) -> None:
    client = pubg_client()
    assert client.settings.profile is PUBG
    assert client.profile is PUBG
    assert client.shard == "steam"  # the profile's first shard
    assert "profile='pubg'" in repr(client)
    assert pubg_client(shard="console").shard == "console"


def test_the_default_profile_is_gamelocker(tmp_path) -> None:
    with Client("http://127.0.0.1:9", cache_dir=tmp_path, progress=False) as client:
        assert client.settings.profile is GAMELOCKER
        assert client.shard == "global"


def test_players_by_name_are_case_sensitive(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    sample = _raw(pubg_service, "/shards/steam/samples")
    match_id = sample["data"]["relationships"]["matches"]["data"][0]["id"]
    match = _raw(pubg_service, f"/shards/steam/matches/{match_id}")
    stats = [
        item["attributes"]["stats"]
        for item in match["included"]
        if item["type"] == "participant"
        and item["attributes"]["stats"]["playerId"].startswith("account.")
    ]
    names = [s["name"] for s in stats[:3]]
    client = pubg_client()
    found = client.players(names=names)
    assert found["name"].tolist() == names
    assert found["player_id"].tolist() == [s["playerId"] for s in stats[:3]]
    with pytest.warns(PlayerNotFoundWarning, match="case included"):
        other_case = client.players(names=[names[0].upper(), names[1]])
    assert other_case["name"].tolist() == [names[1]]
    assert other_case.attrs["not_found"] == [names[0].upper()]


def test_no_player_found_is_an_empty_table_not_an_error(
    pubg_client: Callable[..., Client],
) -> None:
    # PUBG answers 404 "No Players Found Matching Criteria" when it knows none of them.
    with pytest.warns(PlayerNotFoundWarning):
        found = pubg_client().players(names=["nobody-has-this-name"])
    assert found.empty
    assert found.attrs["not_found"] == ["nobody-has-this-name"]


def test_player_matches_are_the_ids_the_player_lists(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    client = pubg_client()
    sample = client.samples()
    player_id = sample.participants.query("kind == 'registered'")["player_id"].iloc[0]
    listed = _raw(pubg_service, "/shards/steam/players", **{"filter[playerIds]": player_id})
    ids = [m["id"] for m in listed["data"][0]["relationships"]["matches"]["data"]]
    frames = client.player_matches(player_id)
    assert frames.matches["match_id"].tolist() == ids
    assert frames.player_matches["match_id"].tolist() == ids
    assert set(frames.player_matches["player_id"]) == {player_id}
    # the player played in every one of them
    played = frames.participants.groupby("match_id")["player_id"].agg(
        lambda ids_of: player_id in set(ids_of)
    )
    assert bool(played.all())
    assert len(played) == len(ids)
    # a window keeps the matches created in it
    start, end = "2026-11-15T00:00:00Z", "2026-11-17T00:00:00Z"
    window = client.player_matches(player_id, start, end)
    created = frames.matches.set_index("match_id")["created_at"]
    expected = [i for i in ids if pd.Timestamp(start) <= created[i] < pd.Timestamp(end)]
    assert window.matches["match_id"].tolist() == expected


def test_an_unknown_player_id_is_not_found(pubg_client: Callable[..., Client]) -> None:
    with pytest.raises(NotFoundError, match="look an id up by name"):
        pubg_client().player_matches("account.0000")


def test_a_sample_is_its_match_ids_then_its_matches(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    client = pubg_client()
    start = "2026-11-10T00:00:00Z"
    frames = client.samples(start=start)
    raw = _raw(pubg_service, "/shards/steam/samples", **{"filter[createdAt-start]": start})
    ids = [m["id"] for m in raw["data"]["relationships"]["matches"]["data"]]
    assert ids
    assert frames.matches["match_id"].tolist() == ids
    assert frames.sample_matches["match_id"].tolist() == ids
    assert frames.samples["created_at"].tolist() == [pd.Timestamp("2026-11-10T00:00:00Z")]
    assert set(frames.matches["game"]) == {"pubg"}
    assert frames.participants["player_id"].notna().all()
    newest = client.samples()
    assert newest.samples["created_at"].tolist() == [pd.Timestamp("2026-11-19T00:00:00Z")]


def test_seasons_and_status(pubg_client: Callable[..., Client]) -> None:
    client = pubg_client()
    seasons = client.seasons()
    assert seasons["is_current_season"].sum() == 1
    assert seasons["season_id"].str.startswith("division.bro.official.").all()
    assert client.status().name == "pubg-api"


def test_matches_by_id_take_no_rate_limit(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    """PUBG limits players, samples and seasons only: 30 matches by id at 1 request a minute
    wait for nothing, while a second samples request waits its minute."""
    client = pubg_client(rate_limit="1/minute")
    waits: list[float] = []
    client.transport.path.throttle = _counted(waits)
    sample = client.samples(start="2026-11-12T00:00:00Z")  # takes the minute's one token
    assert waits == []
    ids = sample.matches["match_id"].tolist()
    more = client.samples(start="2026-11-11T00:00:00Z").matches["match_id"].tolist()
    assert len(waits) >= 1  # the second samples request waits its minute
    assert waits[0] > 50
    waited = len(waits)
    fetched = client.get_matches(ids + more)  # the ids were fetched once already: cached
    fresh = pubg_client(rate_limit="1/minute", cache_dir=client.cache_dir.parent / "other")
    fresh.transport.path.throttle = _counted(waits)
    again = fresh.get_matches(ids + more)
    assert len(ids + more) >= 20
    assert len(waits) == waited  # no match waited
    assert again.matches["match_id"].tolist() == fetched.matches["match_id"].tolist()


def _counted(waits: list[float]) -> Throttle:
    """A limiter of 1 request a minute on a clock that its waits move (nothing really waits)."""
    moment = [0.0]

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        moment[0] += seconds

    return Throttle(RateLimit.parse("1/minute"), clock=lambda: moment[0], sleep=sleep)


def test_a_match_stays_in_the_cache_after_it_is_gone_upstream(tmp_path) -> None:
    """The same service (same address), 16 days later, has dropped the matches (14 days of
    retention); the cache still holds them."""
    cache = tmp_path / "cache"
    with running(profile="pubg") as service:
        port = int(service.base_url.rsplit(":", 1)[1])
        with Client(
            service.base_url,
            api_key=service.api_key,
            profile="pubg",
            cache_dir=cache,
            progress=False,
            now=NOW,
        ) as client:
            ids = client.samples(start="2026-11-07T00:00:00Z").matches["match_id"].tolist()[:3]
            kept = client.get_matches(ids)
    # 16 days later the service has dropped them (14 days of retention)
    with running(profile="pubg", now=LATER, port=port) as later:
        gone = requests.get(f"{later.base_url}/shards/steam/matches/{ids[0]}", timeout=30)
        assert gone.status_code == 404
        with Client(
            later.base_url, profile="pubg", cache_dir=cache, progress=False, now=LATER
        ) as client:
            again = client.get_matches(ids)
        asked = [e.path for e in later.requests.entries if "/matches/" in e.path]
        assert asked == ["/shards/steam/matches/" + ids[0]]  # ours above; the client's: none
    assert again.matches["match_id"].tolist() == kept.matches["match_id"].tolist()
    assert len(again.participants) == len(kept.participants)


def test_requests_carry_no_key_where_the_profile_needs_none(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    """Without a key, PUBG's matches (keyless) are read; players ask for one."""
    client = pubg_client(api_key=None)
    listed = _raw(pubg_service, "/shards/steam/samples")["data"]["relationships"]["matches"]
    sample_ids = [m["id"] for m in listed["data"][:2]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frames = client.get_matches(sample_ids)
    assert frames.matches["match_id"].tolist() == sample_ids
    assert "/shards/steam/matches/" + sample_ids[0] in paths(pubg_service)


def test_any_platform_shard_is_read(pubg_client: Callable[..., Client]) -> None:
    client = pubg_client(shard="console")
    frames = client.samples(start="2026-11-12T00:00:00Z")
    assert len(frames.matches) > 0
    assert set(frames.matches["shard_id"]) == {"console"}
    again = client.get_matches(frames.matches["match_id"])
    assert again.matches["match_id"].tolist() == frames.matches["match_id"].tolist()
    empty = pubg_client(shard="stadia").samples()  # served, and empty in the sample set
    assert empty.matches.empty
    assert empty.samples["shard_id"].tolist() == ["stadia"]

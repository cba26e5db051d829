"""client.players and client.player_matches against the reference service over loopback.

The service's request log counts what reached it; a proxy in front of it answers a look-up with
another player to check that the client refuses such an answer.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from werkzeug import Request, Response

from matchkit.client import PlayerNotFoundWarning
from matchkit.errors import InvalidArgumentError, ServiceError
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import RunningService
from tests.client.conftest import service_client
from tests.client.proxy import Proxy, clients, proxied_service, reference_service

PLAYERS = "/shards/global/players"


@pytest.fixture(scope="module")
def service() -> Iterator[RunningService]:
    yield from reference_service()


@pytest.fixture(scope="module")
def sample_players() -> dict[str, dict[str, dict]]:
    """Per shard, player id -> the snapshot of their latest match (read from the files)."""
    dataset = open_dataset()
    found: dict[str, dict[str, dict]] = {}
    for shard in dataset.shards:
        for document in dataset.iter_documents(shard):
            for item in document["included"]:
                if item["type"] == "player":
                    found.setdefault(shard, {})[item["id"]] = item  # documents in time order
    return found


@pytest.fixture(scope="module")
def renames() -> dict[str, list[dict[str, str]]]:
    return open_dataset().manifest["renames"]


def _player_requests(service: RunningService, shard: str = "global") -> list[dict[str, list]]:
    return [
        parse_qs(entry.query)
        for entry in service.requests
        if entry.path == f"/shards/{shard}/players"
    ]


def test_a_long_list_goes_in_requests_of_six_and_comes_back_whole(
    service, sample_players, tmp_path
):
    ids = sorted(sample_players["global"])[:14]
    service.requests.clear()
    with service_client(service, tmp_path) as client:
        players = client.players(ids=ids)
    sent = _player_requests(service)
    assert [len(params["filter[playerIds]"][0].split(",")) for params in sent] == [6, 6, 2]
    assert list(players["player_id"]) == ids  # in the order asked
    expected = [sample_players["global"][player_id]["attributes"] for player_id in ids]
    assert list(players["name"]) == [attributes["name"] for attributes in expected]
    assert list(players["field_2"]) == [attributes["stats"]["2"] for attributes in expected]
    assert players.attrs["not_found"] == []


def test_columns_are_those_of_matchframes_players(service, sample_players, tmp_path):
    with service_client(service, tmp_path, shard="na") as client:
        frames = client.matches("2026-10-01", "2026-10-31")
        players = client.players(ids=list(frames.players["player_id"][:3]))
    assert len(players) == 3
    assert list(players.columns) == list(frames.players.columns)
    assert dict(players.dtypes) == dict(frames.players.dtypes)


def test_answers_are_cached_a_second_call_sends_nothing(service, sample_players, tmp_path):
    names = [
        sample_players["global"][i]["attributes"]["name"]
        for i in sorted(sample_players["global"])[:8]
    ]
    with service_client(service, tmp_path) as client:
        first = client.players(names=names)
        service.requests.clear()
        again = client.players(names=names)
        assert len(service.requests) == 0
        assert client.transport.cache_hits >= 2
    assert again.equals(first)
    with service_client(service, tmp_path) as later:  # another session, the same cache
        later.players(names=names)
    assert len(service.requests) == 0


def test_a_renamed_player_is_found_by_the_current_name(service, renames, tmp_path):
    first, second = renames["global"]  # the second player took the name the first gave up
    assert second["to"] == first["from"]
    with service_client(service, tmp_path) as client:
        found = client.players(names=[first["to"], first["from"]])
        with pytest.warns(PlayerNotFoundWarning, match=second["from"]):
            given_up = client.players(names=[second["from"]])
    assert list(found["player_id"]) == [first["player_id"], second["player_id"]]
    assert list(found["name"]) == [first["to"], first["from"]]
    assert given_up.empty


def test_a_name_no_player_has_is_reported(service, sample_players, tmp_path):
    known = sample_players["global"][sorted(sample_players["global"])[0]]["attributes"]["name"]
    with service_client(service, tmp_path) as client, pytest.warns(PlayerNotFoundWarning) as caught:
        players = client.players(names=[known, "No Such Player", known.lower()])
    assert list(players["name"]) == [known]
    assert players.attrs["not_found"] == ["No Such Player", known.lower()]
    (warning,) = caught
    assert "'No Such Player'" in str(warning.message)
    assert repr(known.lower()) in str(warning.message)


def test_all_found_warns_nothing(service, sample_players, tmp_path):
    with service_client(service, tmp_path) as client, warnings.catch_warnings():
        warnings.simplefilter("error")
        client.players(ids=sorted(sample_players["global"])[:2])


def _another_player(substitute: str):
    """A quirk: every player look-up is answered with the look-up of ``substitute``."""

    def quirk(request: Request, proxy: Proxy) -> Response | None:
        if request.path != PLAYERS:
            return None
        return proxy.forward(request, **{"filter[playerIds]": substitute})

    return quirk


def test_an_answer_with_a_player_not_asked_for_is_refused_and_never_cached(
    httpserver, service, sample_players, tmp_path
):
    asked, other = sorted(sample_players["global"])[:2]
    proxy = proxied_service(httpserver, service, _another_player(other))
    with clients(proxy, tmp_path) as connect:
        client = connect()
        with pytest.raises(ServiceError, match="not asked for") as raised:
            client.players(ids=[asked])
        tries = client.retry_policy.attempts
        assert len([path for path, _ in proxy.seen if path == PLAYERS]) == tries
        assert client.transport.lookup(PLAYERS, {"filter[playerIds]": asked}) is None
    assert raised.value.status == 200
    # the same cache, straight to the service: the right answer, fetched (nothing was kept)
    with service_client(service, tmp_path) as direct:
        service.requests.clear()
        assert list(direct.players(ids=[asked])["player_id"]) == [asked]
        assert len(_player_requests(service)) == 1


def test_a_bad_answer_then_a_good_one_is_retried_to_the_good_one(
    httpserver, service, sample_players, tmp_path
):
    asked, other = sorted(sample_players["global"])[:2]
    bad = _another_player(other)
    answered: list[int] = []

    def once(request: Request, proxy: Proxy) -> Response | None:
        if request.path == PLAYERS:
            answered.append(1)
            if len(answered) == 1:
                return bad(request, proxy)
        return None

    proxy = proxied_service(httpserver, service, once)
    with clients(proxy, tmp_path) as connect:
        client = connect()
        players = client.players(ids=[asked])
        assert list(players["player_id"]) == [asked]
        assert len(answered) == 2
        client.players(ids=[asked])  # now from the cache: the good answer was kept
        assert len(answered) == 2


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        ({}, "ids"),
        ({"names": ["a"], "ids": ["1"]}, "names"),
        ({"names": []}, "names"),
        ({"names": ["a,b"]}, "names"),
        ({"names": [" a"]}, "names"),
        ({"ids": [1]}, "ids"),
        ({"ids": {"a": 1}}, "ids"),
        ({"ids": ["1"], "shard": "eu"}, "shard"),
    ],
)
def test_bad_arguments_fail_before_any_request(service, tmp_path, arguments, parameter):
    service.requests.clear()
    with service_client(service, tmp_path) as client, pytest.raises(InvalidArgumentError) as raised:
        client.players(**arguments)
    assert raised.value.parameter == parameter
    assert len(service.requests) == 0


def test_player_matches_are_the_players_matches_over_a_long_range(
    service, sample_players, renames, tmp_path
):
    player_id = renames["global"][0]["player_id"]
    with service_client(service, tmp_path) as client:
        frames = client.player_matches(player_id, "2026-07-03", "2026-10-31")
        with pytest.raises(InvalidArgumentError):
            client.player_matches(["a", "b"])  # type: ignore[arg-type]
    expected = {
        document["data"]["id"]
        for document in open_dataset().iter_documents("global")
        if any(
            item["type"] == "player" and item["id"] == player_id for item in document["included"]
        )
    }
    assert set(frames.matches["match_id"]) == expected
    assert len(expected) > 100  # the window is split (28 days at most), all of it came
    names = set(frames.players.loc[frames.players["player_id"] == player_id, "name"])
    assert names == {renames["global"][0]["to"]}  # the latest snapshot


def test_the_key_never_reaches_a_player_error(httpserver, service, sample_players, tmp_path):
    asked, other = sorted(sample_players["global"])[:2]
    proxy = proxied_service(httpserver, service, _another_player(other))
    with clients(proxy, Path(tmp_path)) as connect:
        client = connect()
        with pytest.raises(ServiceError) as raised:
            client.players(ids=[asked])
    assert service.api_key not in str(raised.value)
    assert service.api_key not in repr(raised.value.errors)

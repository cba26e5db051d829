"""The player endpoints over HTTP (decision 19), against the sample set and its renamed players.

The expected players come from the data set's documents in plain Python (the snapshot included
with each player's latest match before now), never from the service itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from matchkit.rules.windows import format_time, parse_time
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import RunningService, running
from tests.service.conftest import Api, error_of

ATTRIBUTES = {
    "global": {"name", "patchVersion", "shardId", "stats", "titleId"},
    "na": {"name", "shardId", "stats", "titleId"},  # the older shape: no patchVersion
}
STATS = {
    "global": {"picture", "title", "2", "3", "26"},  # the real service's keys
    "na": {"level", "lifetimeGold", "lossStreak", "played", "played_ranked", "winStreak"}
    | {"wins", "xp"},
}


@pytest.fixture(scope="module")
def sample():
    return open_dataset()


@pytest.fixture(scope="module")
def latest(sample) -> dict[str, dict[str, tuple[tuple[str, str], dict[str, Any]]]]:
    """Per shard, player id -> ((createdAt, match id) of their latest match, its snapshot)."""
    found: dict[str, dict[str, tuple[tuple[str, str], dict[str, Any]]]] = {}
    for shard in sample.shards:
        players = found.setdefault(shard, {})
        for document in sample.iter_documents(shard):
            key = (document["data"]["attributes"]["createdAt"], document["data"]["id"])
            for item in document["included"]:
                if item["type"] == "player" and key >= players.get(item["id"], (("", ""), {}))[0]:
                    players[item["id"]] = (key, item)
    return found


@pytest.fixture(scope="module")
def sample_service() -> Iterator[RunningService]:
    with running() as handle:
        yield handle


@pytest.fixture(scope="module")
def api(sample_service) -> Api:
    return Api(sample_service)


def _renames(sample, shard: str) -> list[dict[str, str]]:
    return sample.manifest["renames"][shard]


def _names(response) -> list[str]:
    assert response.status_code == 200, response.text
    return [player["attributes"]["name"] for player in response.json()["data"]]


# -- what a player is -------------------------------------------------------------------------


@pytest.mark.parametrize("shard", ["global", "na"])
def test_a_player_is_the_snapshot_of_their_latest_match_in_the_shards_shape(api, latest, shard):
    chosen = sorted(latest[shard])[:: max(1, len(latest[shard]) // 7)]
    response = api.get(f"/shards/{shard}/players", {"filter[playerIds]": ",".join(chosen[:6])})
    assert response.status_code == 200
    data = response.json()["data"]
    assert [player["id"] for player in data] == chosen[:6]  # in the order asked
    for player in data:
        expected = latest[shard][player["id"]][1]
        assert player["type"] == "player"
        assert player["attributes"] == expected["attributes"]
        assert set(player["attributes"]) == ATTRIBUTES[shard]
        assert set(player["attributes"]["stats"]) == STATS[shard]
        assert player["relationships"] == {"assets": {"data": []}}
        assert player["links"]["self"] == f"{api.base_url}/shards/{shard}/players/{player['id']}"
        assert "schema" in player["links"]
    single = api.get(f"/shards/{shard}/players/{chosen[0]}")
    assert single.status_code == 200
    assert single.json()["data"] == data[0]  # one object, not a list


def test_stats_are_as_of_the_services_now(sample, latest, tmp_path):
    def played(stats: dict[str, int]) -> int:
        return stats["2"] + stats["3"]  # wins and losses so far

    player_id, ((created_at, _), snapshot) = max(
        latest["global"].items(), key=lambda item: played(item[1][1]["attributes"]["stats"])
    )
    with running(now=created_at) as earlier:  # that match not yet played
        then = Api(earlier).get(f"/shards/global/players/{player_id}").json()["data"]
    assert played(then["attributes"]["stats"]) == played(snapshot["attributes"]["stats"]) - 1


# -- renames ---------------------------------------------------------------------------------


@pytest.mark.parametrize("shard", ["global", "na"])
def test_a_name_finds_its_current_holder_and_matches_keep_the_old_name(api, sample, shard):
    for rename in _renames(sample, shard):
        found = api.get(f"/shards/{shard}/players", {"filter[playerNames]": rename["to"]})
        assert [(p["id"], p["attributes"]["name"]) for p in found.json()["data"]] == [
            (rename["player_id"], rename["to"])
        ]
        before = api.get(
            f"/shards/{shard}/matches",
            {
                "filter[playerIds]": rename["player_id"],
                "filter[createdAt-start]": format_time(
                    parse_time(rename["at"]) - timedelta(days=28)
                ),
                "filter[createdAt-end]": rename["at"],
                "sort": "-createdAt",
                "page[limit]": 1,
            },
        ).json()
        (player,) = [
            item
            for item in before["included"]
            if item["type"] == "player" and item["id"] == rename["player_id"]
        ]
        assert player["attributes"]["name"] == rename["from"]


def test_a_given_up_name_finds_the_player_who_took_it(api, sample):
    renames = _renames(sample, "global")
    taken = [r for r in renames if r["to"] in {other["from"] for other in renames}]
    assert taken  # the sample set has one
    for rename in taken:
        response = api.get("/shards/global/players", {"filter[playerNames]": rename["to"]})
        assert [player["id"] for player in response.json()["data"]] == [rename["player_id"]]
    # and a name given up and not taken finds nobody
    free = [r["from"] for r in renames if r["from"] not in {other["to"] for other in renames}]
    assert free
    assert _names(api.get("/shards/global/players", {"filter[playerNames]": ",".join(free)})) == []


def test_before_a_rename_the_old_name_finds_the_player(sample, tmp_path):
    rename = _renames(sample, "na")[0]
    now = format_time(parse_time(rename["at"]) - timedelta(seconds=1))
    with running(now=now) as earlier:
        api = Api(earlier)
        names = f"{rename['from']},{rename['to']}"
        found = api.get("/shards/na/players", {"filter[playerNames]": names}).json()["data"]
    assert [(p["id"], p["attributes"]["name"]) for p in found] == [
        (rename["player_id"], rename["from"])
    ]


def test_names_are_compared_case_sensitively(api, sample):
    name = _renames(sample, "global")[0]["to"]
    assert _names(api.get("/shards/global/players", {"filter[playerNames]": name})) == [name]
    other = f"{name.lower()},{name.upper()}"
    assert _names(api.get("/shards/global/players", {"filter[playerNames]": other})) == []


def test_names_are_per_shard(api, sample):
    name = _renames(sample, "na")[0]["to"]
    assert _names(api.get("/shards/na/players", {"filter[playerNames]": name})) == [name]
    assert _names(api.get("/shards/global/players", {"filter[playerNames]": name})) == []


# -- unknown players ---------------------------------------------------------------------------


def test_an_unknown_id_is_a_404_alone_and_absent_from_a_list(api, latest):
    known = sorted(latest["global"])[0]
    response = api.get("/shards/global/players/000000000000000001")
    assert response.status_code == 404
    assert "000000000000000001" in error_of(response)["detail"]
    listed = api.get("/shards/global/players", {"filter[playerIds]": f"000000000000000001,{known}"})
    assert [player["id"] for player in listed.json()["data"]] == [known]
    empty = api.get("/shards/global/players", {"filter[playerNames]": "Nobody At All"})
    assert empty.status_code == 200
    assert empty.json()["data"] == []
    # a na player is not on global
    assert api.get(f"/shards/global/players/{sorted(latest['na'])[0]}").status_code == 404
    assert api.get(f"/shards/eu/players/{known}").status_code == 404


# -- bad requests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"filter[playerIds]": "1,2,3,4,5,6,7"}, "filter[playerIds]"),
        ({"filter[playerNames]": "a,b,c,d,e,f,g"}, "filter[playerNames]"),
        ({"filter[playerIds]": "1", "filter[playerNames]": "a"}, "filter[playerNames]"),
        ({}, "filter[playerIds]"),
        ({"filter[playerIds]": "1,,2"}, "filter[playerIds]"),
        ({"filter[playerIds]": "1", "page[limit]": "5"}, "page[limit]"),
        ({"filter[playerName]": "a"}, "filter[playerName]"),
    ],
)
def test_bad_player_queries_are_400_naming_the_parameter(api, params, parameter):
    response = api.get("/shards/global/players", params)
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": parameter}


def test_six_values_are_served(api, latest):
    six = sorted(latest["na"])[:6]
    response = api.get("/shards/na/players", {"filter[playerIds]": ",".join(six)})
    assert [player["id"] for player in response.json()["data"]] == six


def test_a_single_player_takes_no_parameters(api, latest):
    known = sorted(latest["global"])[0]
    response = api.get(f"/shards/global/players/{known}", {"filter[playerIds]": known})
    assert response.status_code == 400


# -- the same rules as the match endpoints -------------------------------------------------------


def test_players_need_a_key_and_carry_cors_gzip_and_rate_limit_headers(latest, tmp_path: Path):
    known = sorted(latest["global"])[0]
    with running(rate_limit="2/minute") as limited:
        api = Api(limited)
        path = f"/shards/global/players/{known}"
        assert api.get(path, headers={"Authorization": "Bearer nope"}).status_code == 401
        first = api.get(path, headers={"Accept-Encoding": "gzip"})
        assert first.status_code == 200
        assert first.headers["Content-Encoding"] == "gzip"
        assert first.headers["Access-Control-Allow-Origin"] == "*"
        assert first.headers["X-RateLimit-Limit"] == "2"
        assert first.json()["data"]["id"] == known
        listed = api.get("/shards/global/players/", {"filter[playerIds]": known})  # trailing /
        assert listed.status_code == 200
        refused = api.get(path)
        assert refused.status_code == 429
        assert "Retry-After" in refused.headers
        assert api.session.options(limited.base_url + path).status_code == 200
        posted = api.session.post(limited.base_url + path, headers=api.auth())
        assert posted.status_code == 405


def test_vnd_api_json_is_answered_in_kind(api, latest):
    known = sorted(latest["na"])[0]
    response = api.get(
        f"/shards/na/players/{known}", headers={"Accept": "application/vnd.api+json"}
    )
    assert response.headers["Content-Type"] == "application/vnd.api+json"
    assert (
        api.get(f"/shards/na/players/{known}", headers={"Accept": "text/html"}).status_code == 406
    )

"""Filters over HTTP (interface.md list parameters, decision 3), checked against the oracle."""

from __future__ import annotations

from datetime import timedelta

import pytest

from matchkit.rules.windows import format_time
from tests.builders.datasets import NA_PLAYER_NAMES, PLAYER_IDS, TEAM_NAMES
from tests.service.conftest import NOW, error_of

GLOBAL_WINDOW = (NOW - timedelta(days=28), NOW)
NA_START = NOW - timedelta(days=2)


def _check(api, oracle, shard, params, where, window):
    params = {**params}
    if shard == "na":
        params["filter[createdAt-start]"] = format_time(window[0])
    expected = oracle.select(shard, *window, where=where)
    assert expected, "the filter should select something"
    assert len(expected) < len(oracle.select(shard, *window)), "and leave something out"
    assert api.fetch_all(shard, params) == expected


def test_player_ids_match_any_of_their_values(api, oracle):
    chosen = {PLAYER_IDS[3], PLAYER_IDS[17]}
    _check(
        api,
        oracle,
        "global",
        {"filter[playerIds]": ",".join(sorted(chosen))},
        lambda match: bool(match.player_ids & chosen),
        GLOBAL_WINDOW,
    )


def test_patch_version_filter(api, oracle):
    versions = {"2.11", "2.12"}
    _check(
        api,
        oracle,
        "global",
        {"filter[patchVersion]": "2.11,2.12"},
        lambda match: match.patch_version in versions,
        GLOBAL_WINDOW,
    )


@pytest.mark.parametrize("value", ["QUICK3V3,ROYALRUMBLEDUO", "quick3v3,RoyalRumbleDuo"])
def test_server_type_filter_is_case_insensitive(api, oracle, value):
    _check(
        api,
        oracle,
        "global",
        {"filter[serverType]": value},
        lambda match: match.server_type in {"QUICK3V3", "ROYALRUMBLEDUO"},
        GLOBAL_WINDOW,
    )


def test_unknown_server_type_is_400(api):
    response = api.get("/shards/global/matches", {"filter[serverType]": "QUICK5V5"})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "filter[serverType]"}


@pytest.mark.parametrize("value", ["RANKED", "UNRANKED", "ranked"])
def test_ranking_type_filter(api, oracle, value):
    _check(
        api,
        oracle,
        "global",
        {"filter[rankingType]": value},
        lambda match: match.ranking_type == value.upper(),
        GLOBAL_WINDOW,
    )


def test_unknown_ranking_type_is_400(api):
    response = api.get("/shards/global/matches", {"filter[rankingType]": "CASUAL"})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "filter[rankingType]"}


def test_filters_combine_with_and(api, oracle):
    _check(
        api,
        oracle,
        "global",
        {"filter[serverType]": "QUICK2V2,QUICK3V3", "filter[rankingType]": "RANKED"},
        lambda match: match.server_type.startswith("QUICK") and match.ranking_type == "RANKED",
        GLOBAL_WINDOW,
    )


def test_na_player_names_filter(api, oracle):
    names = {NA_PLAYER_NAMES[2], NA_PLAYER_NAMES[11]}
    _check(
        api,
        oracle,
        "na",
        {"filter[playerNames]": ",".join(sorted(names))},
        lambda match: bool(match.player_names & names),
        (NA_START, NOW),
    )


def test_na_player_ids_filter(api, oracle):
    some = next(iter(oracle.matches["na"][-1].player_ids))
    _check(
        api,
        oracle,
        "na",
        {"filter[playerIds]": some},
        lambda match: some in match.player_ids,
        (NA_START, NOW),
    )


def test_na_team_names_filter(api, oracle):
    teams = {TEAM_NAMES[0], TEAM_NAMES[3]}
    _check(
        api,
        oracle,
        "na",
        {"filter[teamNames]": ",".join(sorted(teams))},
        lambda match: bool(match.team_names & teams),
        (NA_START, NOW),
    )


def test_na_game_mode_filter(api, oracle):
    _check(
        api,
        oracle,
        "na",
        {"filter[gameMode]": "ranked"},
        lambda match: match.game_mode == "ranked",
        (NA_START, NOW),
    )


@pytest.mark.parametrize(
    ("shard", "parameter"),
    [
        ("na", "filter[serverType]"),
        ("na", "filter[rankingType]"),
        ("na", "filter[patchVersion]"),
        ("global", "filter[playerNames]"),
        ("global", "filter[teamNames]"),
        ("global", "filter[gameMode]"),
    ],
)
def test_filters_of_the_other_shard_are_400(api, shard, parameter):
    response = api.get(f"/shards/{shard}/matches", {parameter: "x"})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": parameter}


@pytest.mark.parametrize("value", ["", ",", "a,,b"])
def test_empty_filter_values_are_400(api, value):
    response = api.get("/shards/global/matches", {"filter[playerIds]": value})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "filter[playerIds]"}


def test_filter_with_no_match_is_an_empty_200(api):
    response = api.get("/shards/global/matches", {"filter[playerIds]": "1"})
    assert response.status_code == 200
    assert response.json()["data"] == []

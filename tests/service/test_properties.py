"""Property: paging through any filter yields every matching match exactly once, in order,
ascending and descending, for any page size."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from matchkit.rules.query import RANKING_TYPES, SERVER_TYPES
from matchkit.rules.windows import format_time
from tests.builders.datasets import NA_PLAYER_NAMES, PLAYER_IDS, TEAM_NAMES
from tests.service.conftest import NOW

HOUR = timedelta(hours=1)


def _subset(values):
    return st.none() | st.lists(st.sampled_from(values), min_size=1, max_size=3, unique=True)


@st.composite
def global_queries(draw):
    end_hours = draw(st.integers(min_value=0, max_value=100 * 24))
    span_hours = draw(st.integers(min_value=1, max_value=28 * 24))
    end = NOW - end_hours * HOUR
    start = end - span_hours * HOUR
    filters = {
        "player_ids": draw(_subset(PLAYER_IDS)),
        "server_types": draw(_subset(SERVER_TYPES)),
        "patch_versions": draw(_subset([f"2.{n}" for n in range(5, 13)])),
        "ranking_type": draw(st.none() | st.sampled_from(RANKING_TYPES)),
    }
    return start, end, filters


def _global_params(start, end, filters):
    params = {
        "filter[createdAt-start]": format_time(start),
        "filter[createdAt-end]": format_time(end),
    }
    wire = {
        "player_ids": "playerIds",
        "server_types": "serverType",
        "patch_versions": "patchVersion",
    }
    for name, key in wire.items():
        if filters[name]:
            params[f"filter[{key}]"] = ",".join(filters[name])
    if filters["ranking_type"]:
        params["filter[rankingType]"] = filters["ranking_type"]
    return params


def _global_where(filters):
    def where(match):
        return (
            (not filters["player_ids"] or bool(match.player_ids & set(filters["player_ids"])))
            and (not filters["server_types"] or match.server_type in filters["server_types"])
            and (not filters["patch_versions"] or match.patch_version in filters["patch_versions"])
            and (not filters["ranking_type"] or match.ranking_type == filters["ranking_type"])
        )

    return where


@settings(max_examples=25, deadline=None)
@given(
    query=global_queries(),
    descending=st.booleans(),
    limit=st.integers(min_value=1, max_value=5),
)
def test_paging_global_yields_each_match_once_in_order(api, oracle, query, descending, limit):
    start, end, filters = query
    params = {
        **_global_params(start, end, filters),
        "page[limit]": limit,
        "sort": "-createdAt" if descending else "createdAt",
    }
    expected = oracle.select(
        "global", start, end, descending=descending, where=_global_where(filters)
    )
    assert api.fetch_all("global", params) == expected


@settings(max_examples=15, deadline=None)
@given(
    names=_subset(NA_PLAYER_NAMES),
    teams=_subset(TEAM_NAMES),
    modes=_subset(["casual", "ranked"]),
    span_hours=st.integers(min_value=1, max_value=72),
    descending=st.booleans(),
    limit=st.integers(min_value=1, max_value=50),
)
def test_paging_na_yields_each_match_once_in_order(
    api, oracle, names, teams, modes, span_hours, descending, limit
):
    start = NOW - span_hours * HOUR
    params = {
        "filter[createdAt-start]": format_time(start),
        "page[limit]": limit,
        "sort": "-createdAt" if descending else "createdAt",
    }
    for key, values in (("playerNames", names), ("teamNames", teams), ("gameMode", modes)):
        if values:
            params[f"filter[{key}]"] = ",".join(values)

    def where(match):
        return (
            (not names or bool(match.player_names & set(names)))
            and (not teams or bool(match.team_names & set(teams)))
            and (not modes or match.game_mode in modes)
        )

    expected = oracle.select("na", start, NOW, descending=descending, where=where)
    assert api.fetch_all("na", params) == expected

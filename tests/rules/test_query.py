"""Query parameters, validated the same way for the client and the service."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import SERVER_TYPES, MatchQuery, get_shard


def test_defaults_per_shard() -> None:
    assert MatchQuery.create().limit == 5
    assert MatchQuery.create("na").limit == 50
    assert MatchQuery.create().to_params() == {
        "sort": "createdAt",
        "page[limit]": "5",
        "page[offset]": "0",
    }


def test_unknown_shard() -> None:
    with pytest.raises(InvalidArgumentError, match="global, na") as caught:
        get_shard("eu")
    assert caught.value.parameter == "shard"


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"page[limit]": "0"}, "page[limit]"),
        ({"page[limit]": "6"}, "page[limit]"),
        ({"page[limit]": "-1"}, "page[limit]"),
        ({"page[limit]": "2.5"}, "page[limit]"),
        ({"page[offset]": "-1"}, "page[offset]"),
        ({"page[offset]": "x"}, "page[offset]"),
        ({"sort": "duration"}, "sort"),
        ({"filter[serverType]": "QUICK4V4"}, "filter[serverType]"),
        ({"filter[rankingType]": "casual"}, "filter[rankingType]"),
        ({"filter[createdAt-start]": "not a time"}, "filter[createdAt-start]"),
        ({"filter[playerIds]": ""}, "filter[playerIds]"),
        ({"filter[gameMode]": "casual"}, "filter[gameMode]"),
        ({"page[size]": "5"}, "page[size]"),
    ],
)
def test_service_side_errors_name_the_wire_parameter(params: dict, parameter: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        MatchQuery.from_params("global", params)
    assert caught.value.parameter == parameter
    assert parameter in str(caught.value)


def test_na_parameters() -> None:
    query = MatchQuery.from_params(
        "na", {"filter[playerNames]": "a,b", "filter[gameMode]": "casual", "page[limit]": "50"}
    )
    assert query.player_names == ("a", "b")
    assert query.game_modes == ("casual",)
    with pytest.raises(InvalidArgumentError):
        MatchQuery.from_params("na", {"page[limit]": "51"})
    with pytest.raises(InvalidArgumentError, match="unknown query parameter") as caught:
        MatchQuery.from_params("na", {"filter[serverType]": "QUICK2V2"})
    assert caught.value.parameter == "filter[serverType]"


def test_server_types_are_case_insensitive_and_emitted_upper_case() -> None:
    query = MatchQuery.from_params("global", {"filter[serverType]": "quick3v3,QUICK3v3"})
    assert query.server_types == ("QUICK3V3", "QUICK3V3")


def test_client_side_errors_name_the_argument() -> None:
    with pytest.raises(InvalidArgumentError, match="server_types") as caught:
        MatchQuery.create(server_types=["nope"])
    assert caught.value.parameter == "server_types"
    with pytest.raises(InvalidArgumentError, match="empty"):
        MatchQuery.create(player_ids=[])
    with pytest.raises(InvalidArgumentError, match="limit"):
        MatchQuery.create(limit=10)
    with pytest.raises(InvalidArgumentError, match="string or a list of strings"):
        MatchQuery.create(player_ids=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="ranking_type is not a filter of shard na"):
        MatchQuery.create("na", ranking_type="RANKED")


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="sort"):
        MatchQuery.create(sort="name")


def test_time_bounds_round_trip_through_the_wire() -> None:
    start = datetime(2026, 10, 1, tzinfo=UTC)
    query = MatchQuery.create(start=start, end="2026-10-02T00:00:00+02:00")
    params = query.to_params()
    assert params["filter[createdAt-start]"] == "2026-10-01T00:00:00Z"
    assert params["filter[createdAt-end]"] == "2026-10-01T22:00:00Z"
    assert MatchQuery.from_params("global", params) == query


text = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)


@given(
    player_ids=st.lists(text, min_size=1, max_size=4),
    server_types=st.lists(st.sampled_from(SERVER_TYPES), min_size=1, max_size=3),
    ranking=st.sampled_from([None, "RANKED", "UNRANKED"]),
    sort=st.sampled_from(["createdAt", "-createdAt"]),
    limit=st.integers(1, 5),
    offset=st.integers(0, 10_000),
)
def test_client_params_are_read_back_identically_by_the_service(
    player_ids, server_types, ranking, sort, limit, offset
) -> None:
    query = MatchQuery.create(
        player_ids=player_ids,
        server_types=server_types,
        ranking_type=ranking,
        sort=sort,
        limit=limit,
        offset=offset,
    )
    assert MatchQuery.from_params("global", query.to_params()) == query

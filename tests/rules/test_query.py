"""Query parameters, validated the same way for the client and the service."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import (
    MAX_LIST_VALUES,
    SERVER_TYPE_NAMES,
    SERVER_TYPES,
    MatchQuery,
    get_shard,
    unlisted_server_types,
)


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
        ({"filter[serverType]": "QUICK-4V4"}, "filter[serverType]"),
        ({"filter[serverType]": "QUICK 4V4"}, "filter[serverType]"),
        ({"filter[playerIds]": "1,2,3,4,5,6,7"}, "filter[playerIds]"),
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
        MatchQuery.create(server_types=["no/pe"])
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


def test_well_formed_unlisted_server_types_pass_upper_case() -> None:
    # Decision 3: the real service had LEAGUE2V2, LEAGUE3V3, PRIVATE.
    query = MatchQuery.from_params("global", {"filter[serverType]": "league2v2,PRIVATE,QUICK2V2"})
    assert query.server_types == ("LEAGUE2V2", "PRIVATE", "QUICK2V2")
    assert unlisted_server_types(query) == ("LEAGUE2V2", "PRIVATE")
    assert unlisted_server_types(MatchQuery.create(server_types="quick3v3")) == ()


@pytest.mark.parametrize(
    ("shard", "parameter", "argument"),
    [
        ("global", "filter[playerIds]", "player_ids"),
        ("na", "filter[playerNames]", "player_names"),
        ("na", "filter[teamNames]", "team_names"),
    ],
)
def test_six_values_a_request_and_the_client_splits_more(
    shard: str, parameter: str, argument: str
) -> None:
    six = [f"v{n}" for n in range(MAX_LIST_VALUES)]
    assert len(MatchQuery.from_params(shard, {parameter: ",".join(six)}).batches()) == 1
    with pytest.raises(InvalidArgumentError, match="at most 6") as caught:
        MatchQuery.from_params(shard, {parameter: ",".join([*six, "v6"])})
    assert caught.value.parameter == parameter
    many = [f"v{n}" for n in range(13)]
    query = MatchQuery.create(shard, **{argument: many})
    with pytest.raises(InvalidArgumentError, match="at most 6"):
        query.to_params()
    batches = query.batches()
    assert [len(getattr(batch, argument)) for batch in batches] == [6, 6, 1]
    assert [value for batch in batches for value in getattr(batch, argument)] == many
    assert all(MatchQuery.from_params(shard, batch.to_params()) == batch for batch in batches)


def test_batches_of_two_long_filters_cover_every_combination() -> None:
    query = MatchQuery.create("na", player_ids=list("abcdefgh"), team_names=list("ABCDEFG"))
    pairs = {(batch.player_ids, batch.team_names) for batch in query.batches()}
    assert len(pairs) == 4
    assert {ids for ids, _ in pairs} == {tuple("abcdef"), tuple("gh")}
    assert {names for _, names in pairs} == {tuple("ABCDEF"), ("G",)}


def test_an_unknown_keyword_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="server_type"):
        MatchQuery.create(server_type="QUICK2V2")  # type: ignore[call-arg]


def test_every_listed_server_type_has_one_name_everywhere() -> None:
    from matchkit.analysis.display import SERVER_TYPE_LABELS
    from matchkit.names import sample_names

    assert tuple(SERVER_TYPE_NAMES) == SERVER_TYPES
    assert SERVER_TYPE_LABELS == SERVER_TYPE_NAMES  # tables, legends and filters
    # The sample catalogue names each game mode after its server type, with the same words.
    assert set(sample_names().names["game_mode"].values()) == set(SERVER_TYPE_NAMES.values())

"""Issue 11 item 6, service side: the real service took at most 6 player ids (names, team
names) per request; the reference service took any number. Decision 3: more than 6 is a 400
naming the parameter, 6 still match any of their values."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from matchkit.service import RunningService
from tests.builders.datasets import NA_PLAYER_NAMES, PLAYER_IDS, TEAM_NAMES
from tests.service.small import get, small_service

CASES = [
    ("global", "filter[playerIds]", PLAYER_IDS),
    ("na", "filter[playerIds]", None),
    ("na", "filter[playerNames]", NA_PLAYER_NAMES),
    ("na", "filter[teamNames]", TEAM_NAMES * 2),
]
NA_START = "2026-10-29T00:00:00Z"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with small_service(tmp_path_factory.mktemp("six-values")) as handle:
        yield handle


def _ids(service, shard, params) -> set[str]:
    if shard == "na":
        params = {**params, "filter[createdAt-start]": NA_START}
    found, offset = [], 0
    for _ in range(100):
        response = get(
            service, f"/shards/{shard}/matches", params={**params, "page[offset]": offset}
        )
        assert response.status_code == 200, response.text[:300]
        page = [match["id"] for match in response.json()["data"]]
        if not page:
            return set(found)
        found += page
        offset += len(page)
    raise AssertionError("more pages than the data set holds")


def _values(service, shard, values):
    if values is not None:
        return list(values)
    # na player ids are derived from names: read them off the served matches.
    response = get(service, "/shards/na/matches", params={"filter[createdAt-start]": NA_START})
    return sorted({item["id"] for item in response.json()["included"] if item["type"] == "player"})


@pytest.mark.parametrize(("shard", "parameter", "values"), CASES)
def test_seven_values_are_a_400_naming_the_parameter(service, shard, parameter, values):
    seven = _values(service, shard, values)[:7]
    assert len(seven) == 7
    response = get(service, f"/shards/{shard}/matches", params={parameter: ",".join(seven)})
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["source"] == {"parameter": parameter}
    assert "at most 6" in error["detail"]


@pytest.mark.parametrize(("shard", "parameter", "values"), CASES)
def test_six_values_match_any_of_them(service, shard, parameter, values):
    six = sorted(set(_values(service, shard, values)))[:6]
    together = _ids(service, shard, {parameter: ",".join(six)})
    one_by_one = set().union(*(_ids(service, shard, {parameter: value}) for value in six))
    assert together == one_by_one
    assert together, "the six values should select some matches"

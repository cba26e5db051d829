"""Issue 11 item 5, service side: the service refused ``filter[serverType]=LEAGUE2V2`` (and
LEAGUE3V3, PRIVATE), which the real service had. Decision 3: a well-formed value outside the
interface's list matches what it matches; only a malformed one is a 400."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from matchkit.sampledata.dataset import open_dataset
from matchkit.service import RunningService, running
from tests.builders.datasets import build_dataset
from tests.service.small import get

UNLISTED = ("LEAGUE2V2", "LEAGUE3V3", "PRIVATE")


def _key(match: dict) -> tuple[str, str]:
    return match["attributes"]["createdAt"], match["id"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningService, dict]]:
    """A folder of single-match documents, every third match given an unlisted server type."""
    folder = tmp_path_factory.mktemp("server-types")
    build_dataset(folder / "built", global_matches=60, na_matches=2, days=20)
    pages = folder / "pages"
    pages.mkdir()
    chosen: dict[str, list[dict]] = {name: [] for name in UNLISTED}
    for number, document in enumerate(open_dataset(folder / "built").iter_documents("global")):
        if number % 3 == 0:
            server_type = UNLISTED[number // 3 % len(UNLISTED)]
            document["data"]["attributes"]["tags"]["serverType"] = server_type
            chosen[server_type].append(document["data"])
        (pages / f"match-{number:03}.json").write_bytes(orjson.dumps(document))
    with running(data=pages, store_dir=folder / "store") as service:
        yield service, chosen


def _ids(service, value: str) -> list[str]:
    response = get(
        service,
        "/shards/global/matches",
        params={"filter[serverType]": value, "page[limit]": "5"},
    )
    assert response.status_code == 200, response.text[:300]
    ids = [match["id"] for match in response.json()["data"]]
    offset = 5
    while response.json()["data"]:
        response = get(
            service,
            "/shards/global/matches",
            params={"filter[serverType]": value, "page[limit]": "5", "page[offset]": offset},
        )
        ids += [match["id"] for match in response.json()["data"]]
        offset += 5
    return ids


@pytest.mark.parametrize("value", ["LEAGUE2V2", "league3v3", "Private"])
def test_unlisted_server_type_matches_its_matches(served, value):
    service, chosen = served
    expected = [match["id"] for match in sorted(chosen[value.upper()], key=_key)]
    assert expected
    assert _ids(service, value) == expected


def test_unlisted_and_listed_types_together(served):
    service, chosen = served
    expected = sorted(chosen["LEAGUE2V2"] + chosen["PRIVATE"], key=_key)
    assert _ids(service, "PRIVATE,LEAGUE2V2") == [match["id"] for match in expected]


def test_emitted_in_upper_case(served):
    service, _chosen = served
    response = get(service, "/shards/global/matches", params={"filter[serverType]": "private"})
    tags = {match["attributes"]["tags"]["serverType"] for match in response.json()["data"]}
    assert tags == {"PRIVATE"}


@pytest.mark.parametrize("value", ["LEAGUE 2V2", "LEAGUE-2V2", "PRIVATE,", "PRIVATÉ"])
def test_malformed_server_type_is_still_a_400(served, value):
    service, _chosen = served
    response = get(service, "/shards/global/matches", params={"filter[serverType]": value})
    assert response.status_code == 400
    assert response.json()["errors"][0]["source"] == {"parameter": "filter[serverType]"}

"""A list page checked against its request: window, filters the matches show, ids once.

On the sample set's pages (the reference service's shapes) and on the real services' recorded
pages: a check must not refuse what a real service sent for the request it answered.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import orjson
import pytest

from matchkit.client.checks import list_page_check, page_disagreements
from matchkit.client.responses import BadAnswerError
from matchkit.client.transport import Fetched
from matchkit.rules.query import MatchQuery
from tests.contract.sample_pages import build_page, sample_documents

START, END = "2026-10-20T00:00:00Z", "2026-10-22T00:00:00Z"


def _global_page(count: int = 5, **where: object) -> dict:
    """A page of ``count`` sample matches of the global shard created in [START, END)."""
    query = MatchQuery.create(start=START, end=END)
    chosen = [
        document
        for document in sample_documents("global")
        if query.start <= _created(document) < query.end
        and all(_tag(document, key) == value for key, value in where.items())
    ]
    assert len(chosen) >= count
    return orjson.loads(build_page(chosen[:count]))


def _created(document: dict):
    from matchkit.rules.windows import parse_time

    return parse_time(document["data"]["attributes"]["createdAt"])


def _tag(document: dict, key: str) -> object:
    return document["data"]["attributes"]["tags"][key]


def test_a_page_of_the_window_passes() -> None:
    assert page_disagreements(_global_page(), MatchQuery.create(start=START, end=END)) == []


def test_a_match_outside_the_window_is_named() -> None:
    page = _global_page()
    query = MatchQuery.create(start=START, end="2026-10-20T06:00:00Z")
    found = page_disagreements(page, query)
    assert found
    assert all("is outside [2026-10-20T00:00:00Z, 2026-10-20T06:00:00Z)" in item for item in found)


def test_a_match_without_a_time_is_named() -> None:
    page = _global_page(1)
    del page["data"][0]["attributes"]["createdAt"]
    assert page_disagreements(page, MatchQuery.create()) == [
        f"match {page['data'][0]['id']!r} has no createdAt time"
    ]


def test_a_server_type_not_asked_for_is_named_case_insensitively() -> None:
    page = _global_page(3, serverType="QUICK2V2")
    assert page_disagreements(page, MatchQuery.create(server_types=["quick2v2"])) == []
    page["data"][0]["attributes"]["tags"]["serverType"] = "quick2v2"  # compared in upper case
    assert page_disagreements(page, MatchQuery.create(server_types=["QUICK2V2"])) == []
    found = page_disagreements(page, MatchQuery.create(server_types=["QUICK3V3", "PRIVATE"]))
    assert len(found) == 3
    assert "serverType 'quick2v2', not QUICK3V3, PRIVATE" in found[0]


def test_ranking_type_and_patch_version_are_checked() -> None:
    page = _global_page(2, rankingType="RANKED")
    assert page_disagreements(page, MatchQuery.create(ranking_type="ranked")) == []
    assert (
        "rankingType 'RANKED', not UNRANKED"
        in page_disagreements(page, MatchQuery.create(ranking_type="UNRANKED"))[0]
    )
    patch = page["data"][0]["attributes"]["patchVersion"]
    patches = sorted({match["attributes"]["patchVersion"] for match in page["data"]})
    assert page_disagreements(page, MatchQuery.create(patch_versions=[*patches, "x"])) == []
    found = page_disagreements(page, MatchQuery.create(patch_versions=["0.0"]))
    assert len(found) == 2
    assert f"patchVersion {patch!r}, not 0.0" in found[0]


def test_player_ids_are_checked_through_rosters_and_participants() -> None:
    page = _global_page(5)
    included = {(item["type"], item["id"]): item for item in page["included"]}
    first = page["data"][0]
    roster = included[("roster", first["relationships"]["rosters"]["data"][0]["id"])]
    member = included[("participant", roster["relationships"]["participants"]["data"][0]["id"])]
    player = member["relationships"]["player"]["data"]["id"]
    found = page_disagreements(page, MatchQuery.create(player_ids=[player]))
    assert f"match {first['id']!r} has none of the player ids asked for" not in found
    assert len(found) >= 1  # the other matches of the page do not hold that player
    assert all("has none of the player ids asked for" in item for item in found)


def test_a_match_that_does_not_show_its_participants_is_not_judged_by_them() -> None:
    page = _global_page(2)
    page["included"] = [item for item in page["included"] if item["type"] != "participant"]
    assert page_disagreements(page, MatchQuery.create(player_ids=["nobody"])) == []


def test_the_same_match_twice_on_a_page_is_named() -> None:
    page = _global_page(2)
    page["data"][1] = page["data"][0]
    assert page_disagreements(page, MatchQuery.create()) == [
        f"match {page['data'][0]['id']} more than once on the page"
    ]


def test_the_older_shape_is_checked_on_what_it_shows() -> None:
    documents = sample_documents("na")[:3]
    page = orjson.loads(build_page(documents))
    mode = page["data"][0]["attributes"]["gameMode"]
    modes = sorted({match["attributes"]["gameMode"] for match in page["data"]})
    assert page_disagreements(page, MatchQuery.create("na", game_modes=modes)) == []
    found = page_disagreements(page, MatchQuery.create("na", game_modes=["no_such_mode"]))
    assert len(found) == 3
    assert f"gameMode {mode!r}" in " ".join(found)
    # Team and player names are shared resources, one snapshot a page: never checked.
    assert page_disagreements(page, MatchQuery.create("na", player_names=["nobody"])) == []
    assert page_disagreements(page, MatchQuery.create("na", team_names=["nobody"])) == []


def _real_pages(samples_dir: Path) -> list[Path]:
    return sorted(
        path
        for path in samples_dir.rglob("match*.json")
        if isinstance(json.loads(path.read_bytes()).get("data"), list)
    )


def test_the_real_services_pages_pass_the_check_of_their_own_request(samples_dir: Path) -> None:
    pages = _real_pages(samples_dir)
    assert len(pages) == 9
    judged = 0
    for path in pages:
        document = json.loads(path.read_bytes())
        link = (document.get("links") or {}).get("self", "")
        params = dict(parse_qsl(urlsplit(link).query))
        shard = "na" if "vainglory" in path.parts else "global"
        query = MatchQuery.from_params(shard, params)
        assert page_disagreements(document, query) == [], path.name
        if query.player_ids:
            judged += 1
            assert page_disagreements(document, MatchQuery.create(player_ids=["0"])), path.name
    assert judged == 5  # the player pages show their participants, so the check has teeth


def test_the_transport_hook_raises_a_bad_answer_naming_what_disagreed() -> None:
    page = _global_page(5)
    body = orjson.dumps(page)
    fetched = Fetched(body, {"data": page["data"], "links": None}, "u", 200, False)
    list_page_check(MatchQuery.create(start=START, end=END))(fetched)
    with pytest.raises(
        BadAnswerError, match=r"disagrees with its request: match .* \(and 2 more\)"
    ):
        list_page_check(MatchQuery.create(server_types=["PRIVATE"]))(fetched)
    # The player check reads the participants from the whole body, not only the head.
    with pytest.raises(BadAnswerError, match="none of the player ids"):
        list_page_check(MatchQuery.create(player_ids=["0"]))(fetched)
    list_page_check(MatchQuery.create())(Fetched(None, None, "u", 404, False))


def test_every_resource_s_shard_and_the_page_s_own_link_are_checked() -> None:
    page = _global_page(3)
    query = MatchQuery.create(start=START, end=END)
    assert page_disagreements(page, query) == []
    page["links"] = {"self": "http://gateway/shards/na/matches?page[offset]=0"}
    page["data"][0]["attributes"]["shardId"] = "na"
    roster = next(item for item in page["included"] if item["type"] == "roster")
    roster["attributes"]["shardId"] = "na"
    found = " | ".join(page_disagreements(page, query))
    assert "the page's own link names shard 'na', not global" in found
    assert f"match {page['data'][0]['id']!r} has shardId 'na', not global" in found
    assert f"roster {roster['id']!r} has shardId 'na', not global" in found
    # Players named no shard on the real services (""): not judged by it.
    fresh = _global_page(3)
    for item in fresh["included"]:
        if item["type"] == "player":
            item["attributes"]["shardId"] = ""
    assert page_disagreements(fresh, query) == []


def test_an_empty_page_is_judged_by_its_own_link_and_the_na_shape_by_what_it_shows() -> None:
    empty = {"data": [], "links": {"self": "http://gateway/shards/na/matches"}}
    assert page_disagreements(empty, MatchQuery.create()) == [
        "the page's own link names shard 'na', not global"
    ]
    assert page_disagreements(empty, MatchQuery.create("na")) == []
    na_page = orjson.loads(build_page(sample_documents("na")[:3]))  # rosters name no shard
    assert page_disagreements(na_page, MatchQuery.create("na")) == []
    assert page_disagreements(na_page, MatchQuery.create("global"))  # its matches say na

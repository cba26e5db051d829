"""Document shapes over HTTP: included resources, single matches, Royale and Arena invariants,
the older na shape (interface.md resources, decisions 8, 9, 15, 16)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from matchkit.rules.windows import format_time
from tests.service.conftest import NOW

NA_PARAMS = {"filter[createdAt-start]": format_time(NOW - timedelta(days=2))}


def _related(resource):
    for relationship in (resource.get("relationships") or {}).values():
        data = relationship.get("data")
        for item in data if isinstance(data, list) else [data]:
            if item:
                yield item["type"], item["id"]


def _pages(api, shard, params, count):
    for offset in range(0, count * 5, 5):
        yield api.get(f"/shards/{shard}/matches", {**params, "page[offset]": offset}).json()


def test_included_is_deduplicated_and_complete(api):
    for body in _pages(api, "global", {}, 6):
        keys = [(item["type"], item["id"]) for item in body["included"]]
        assert len(keys) == len(set(keys))
        present = set(keys)
        for match in body["data"]:
            for key in _related(match):
                if key[0] != "spectator":
                    assert key in present
        for item in body["included"]:
            for key in _related(item):
                assert key in present


def test_players_recurring_on_a_page_are_included_once(api):
    # Player 0 of the factory's pool plays often: a page filtered to them holds them 5 times.
    from tests.builders.datasets import PLAYER_IDS

    body = api.get("/shards/global/matches", {"filter[playerIds]": PLAYER_IDS[0]}).json()
    assert len(body["data"]) == 5
    players = Counter(item["id"] for item in body["included"] if item["type"] == "player")
    assert players[PLAYER_IDS[0]] == 1


def test_page_data_equals_the_stored_documents(api, oracle):
    body = api.get("/shards/global/matches", {"page[limit]": 1}).json()
    served = body["data"][0]
    stored = oracle.by_id("global", served["id"]).document
    assert served["attributes"] == stored["data"]["attributes"]
    assert served["relationships"] == stored["data"]["relationships"]
    stored_included = {(item["type"], item["id"]): item for item in stored["included"]}
    assert {(item["type"], item["id"]): item for item in body["included"]} == stored_included


def test_single_match_on_global_is_a_one_element_list(api, oracle):
    match = oracle.matches["global"][-1]
    response = api.get(f"/shards/global/matches/{match.id}")
    assert response.status_code == 200
    body = response.json()
    assert isinstance(body["data"], list)
    assert [item["id"] for item in body["data"]] == [match.id]
    assert body["links"] == {"self": f"{api.base_url}/shards/global/matches/{match.id}"}
    assert body["meta"] == {}
    assert len(body["included"]) == len(match.document["included"])


def test_match_self_link_points_at_this_service(api):
    match = api.get("/shards/global/matches").json()["data"][0]
    assert match["links"]["self"] == f"{api.base_url}/shards/global/matches/{match['id']}"
    again = api.session.get(match["links"]["self"], headers=api.auth(), timeout=30)
    assert again.json()["data"][0]["id"] == match["id"]


def test_single_match_on_na_is_an_object(api, oracle):
    match = oracle.matches["na"][-1]
    body = api.get(f"/shards/na/matches/{match.id}").json()
    assert isinstance(body["data"], dict)
    assert body["data"]["id"] == match.id


def test_royale_invariants(api):
    body = api.get(
        "/shards/global/matches",
        {"filter[serverType]": "ROYALRUMBLESOLO,ROYALRUMBLEDUO"},
    ).json()
    assert len(body["data"]) == 5
    included = {(item["type"], item["id"]): item for item in body["included"]}
    for match in body["data"]:
        assert match["attributes"]["stats"]["game"] == "Royale"
        assert match["relationships"]["rounds"]["data"] == []
        rosters = [
            included[("roster", ref["id"])] for ref in match["relationships"]["rosters"]["data"]
        ]
        assert len(rosters) > 2
        assert sum(roster["attributes"]["won"] == "true" for roster in rosters) == 1
        solo = match["attributes"]["tags"]["serverType"] == "ROYALRUMBLESOLO"
        for roster in rosters:
            members = roster["relationships"]["participants"]["data"]
            assert len(members) == (1 if solo else 2)


def test_arena_matches_have_two_rosters_and_rounds(api):
    body = api.get("/shards/global/matches", {"filter[serverType]": "QUICK2V2,QUICK3V3"}).json()
    for match in body["data"]:
        assert len(match["relationships"]["rosters"]["data"]) == 2
        assert match["relationships"]["rounds"]["data"]
        assert "game" not in match["attributes"]["stats"]
        assert {"mapID", "type", "region"} <= set(match["attributes"]["stats"])


def test_na_shape(api):
    body = api.get("/shards/na/matches", {**NA_PARAMS, "page[limit]": 10}).json()
    assert len(body["data"]) == 10
    included = {(item["type"], item["id"]): item for item in body["included"]}
    for match in body["data"]:
        attributes = match["attributes"]
        assert isinstance(attributes["stats"], str)
        assert attributes["shardId"] == "na"
        assert attributes["gameMode"] in {"casual", "ranked"}
        assert set(match["relationships"]) == {"rosters"}
        assert len(match["relationships"]["rosters"]["data"]) == 2
        for ref in match["relationships"]["rosters"]["data"]:
            roster = included[("roster", ref["id"])]
            assert {"acesEarned", "gold", "side"} <= set(roster["attributes"]["stats"])
            for member in roster["relationships"]["participants"]["data"]:
                participant = included[("participant", member["id"])]
                assert participant["attributes"]["actor"].startswith("*Hero")
                stats = participant["attributes"]["stats"]
                assert {"assists", "crystalMineCaptures", "deaths", "farm"} <= set(stats)
                assert isinstance(stats["farm"], float)

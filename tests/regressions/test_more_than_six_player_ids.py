"""Issue 11 item 6: more than 6 player ids in one request, beyond the real service's limit.

Decision 3: ``filter[playerIds]`` (and player and team names) take at most 6 values; the client
splits a longer list into requests of 6 and merges the answers, each match once.
"""

from __future__ import annotations

from tests.client.proxy import WINDOW, clients, match_ids, proxied_service


def test_eight_player_ids_are_asked_in_batches_and_merged(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        everything = client.matches(*WINDOW)
        participants = everything.participants
        # One player from each of 8 matches, so that every batch finds matches.
        one_each = participants.dropna(subset=["player_id"]).drop_duplicates("match_id")
        players = list(dict.fromkeys(one_each["player_id"]))[:8]
        found = client.matches(*WINDOW, player_ids=players)
        first = client.matches(*WINDOW, player_ids=players, max_matches=3, sort="-createdAt")
    expected = set(participants.loc[participants["player_id"].isin(players), "match_id"])
    assert len(players) == 8
    assert len(expected) >= 8
    assert match_ids(found) == [m for m in match_ids(everything) if m in expected]
    assert len(set(match_ids(found))) == len(match_ids(found))  # each match once
    asked = [
        params["filter[playerIds]"].split(",")
        for params in proxy.lists()
        if params.get("filter[playerIds]")
    ]
    assert asked
    assert all(len(ids) <= 6 for ids in asked)
    assert {tuple(ids) for ids in asked} == {tuple(players[:6]), tuple(players[6:])}
    # A cap over several batches keeps the first matches in sort order, not a batch's first.
    assert match_ids(first) == [m for m in match_ids(everything) if m in expected][::-1][:3]

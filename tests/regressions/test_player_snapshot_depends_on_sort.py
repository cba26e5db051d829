"""Issue 11 item 7 (decision 17): a player's row depended on the order of pages.

A player included with several matches is a snapshot at each match's time, so its attributes
differ from page to page. The first copy seen won, so ``sort="createdAt"`` and
``sort="-createdAt"`` over the same matches gave different ``players`` tables, and nothing said
so. Now the copy that came with the latest match is kept, whatever the order, and ``problems``
counts the players whose copies differ.
"""

from __future__ import annotations

import random

import orjson
import pandas as pd

from matchkit import to_frames
from tests.contract.sample_pages import build_page, build_pages, match_key, sample_documents


def players(frames: pd.DataFrame) -> pd.DataFrame:
    return frames.players.sort_values("player_id").reset_index(drop=True)


def latest_copies(documents: list[dict]) -> tuple[dict[str, dict], int]:
    """Each player's copy from its latest match, and how many players have differing copies,
    worked out without matchkit."""
    copies: dict[str, dict[tuple[str, str], dict]] = {}
    for document in documents:
        for resource in document["included"]:
            if resource["type"] == "player":
                copies.setdefault(resource["id"], {})[match_key(document)] = resource
    latest = {player: by_match[max(by_match)] for player, by_match in copies.items()}
    differing = sum(
        len({orjson.dumps(copy, option=orjson.OPT_SORT_KEYS) for copy in by_match.values()}) > 1
        for by_match in copies.values()
    )
    return latest, differing


def test_both_sort_orders_give_the_same_players_the_latest_copies() -> None:
    documents = list(sample_documents("global"))
    ascending = to_frames(build_pages(documents))
    descending = to_frames(build_pages(documents[::-1]))
    pd.testing.assert_frame_equal(players(ascending), players(descending))
    assert ascending.problems == descending.problems

    latest, differing = latest_copies(documents)
    assert len(ascending.players) == len(latest) == 2628
    assert differing == 2069  # the count: most sample players differ across matches
    table = players(ascending).set_index("player_id")
    for player_id, copy in latest.items():
        attributes = copy["attributes"]
        row = table.loc[player_id]
        assert row["name"] == attributes["name"], player_id
        assert row["patch_version"] == attributes["patchVersion"], player_id
        assert row["field_26"] == attributes["stats"]["26"], player_id  # account level
        assert row["field_2"] == attributes["stats"]["2"], player_id  # wins so far
        assert row["field_3"] == attributes["stats"]["3"], player_id  # losses so far


def test_problems_count_the_players_whose_copies_differ() -> None:
    documents = list(sample_documents("global"))[:600]
    _, differing = latest_copies(documents)
    assert differing > 100
    # One match a page: every copy arrives with its own match.
    frames = to_frames([build_page([document]) for document in documents])
    [line] = [problem for problem in frames.problems if "differing attributes" in problem]
    assert line.startswith(f"{differing} player resource(s) arrived with differing attributes")


def test_any_order_of_pages_gives_the_same_players() -> None:
    documents = list(sample_documents("global"))[:500]
    pages = build_pages(documents, size=5)
    expected = players(to_frames(pages))
    shuffled = pages[:]
    random.Random(17).shuffle(shuffled)
    pd.testing.assert_frame_equal(players(to_frames(shuffled)), expected)
    as_dicts = [orjson.loads(page) for page in reversed(pages)]  # the general reader
    pd.testing.assert_frame_equal(players(to_frames(as_dicts)), expected)


def test_a_match_resource_arriving_again_with_other_content_is_a_reported_conflict() -> None:
    documents = list(sample_documents("global"))[:10]
    again = orjson.loads(orjson.dumps(documents[3]))
    participant = next(r for r in again["included"] if r["type"] == "participant")
    participant["attributes"]["stats"]["kills"] = 99
    roster = next(r for r in again["included"] if r["type"] == "roster")
    roster["attributes"]["won"] = "maybe"
    pages = [*build_pages(documents), build_page([again])]
    frames = to_frames(pages)
    conflicts = [problem for problem in frames.problems if "more than once" in problem]
    assert conflicts == [
        "1 participant resource(s) arrived more than once with different content; "
        "the first copy of each was kept",
        "1 roster resource(s) arrived more than once with different content; "
        "the first copy of each was kept",
    ]
    kept = frames.participants.set_index("participant_id").loc[participant["id"]]
    original = next(r for r in documents[3]["included"] if r["id"] == participant["id"])
    assert kept["kills"] == original["attributes"]["stats"]["kills"] != 99
    # The same match again, unchanged, is no conflict.
    unchanged = to_frames([*build_pages(documents), build_page([documents[3]])])
    assert not [problem for problem in unchanged.problems if "more than once" in problem]
    assert len(unchanged.participants) == len(frames.participants)

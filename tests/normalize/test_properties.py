"""Property: well-formed documents never lose a resource, however they are paged."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import orjson
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit import MatchFrames, to_frames
from tests import depth
from tests.builders.resources import arena, asset, match, page, participant, player, roster, round_

INT64 = st.integers(-(2**63), 2**63 - 1)
SCALARS = st.one_of(
    INT64,
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.text(max_size=5),
    st.none(),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(INT64, max_size=3),
    st.dictionaries(st.text(max_size=3), INT64, max_size=2),
)
EXTRA_KEYS = st.sampled_from(
    ["healingDone", "abilityUses", "skinKey", "items", "timeAlive", "farm"]
)


@st.composite
def matches(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """Matches, the resources they include, and what each resource belongs to."""
    data, included = [], []
    owner: dict[str, Any] = {}
    players = [f"player{i}" for i in range(draw(st.integers(1, 4)))]
    for m in range(draw(st.integers(0, 4))):
        match_id = f"m{m}"
        roster_ids, round_ids, participant_ids = [], [], []
        for r in range(draw(st.integers(1, 3))):
            roster_id = f"{match_id}-r{r}"
            members = []
            for p in range(draw(st.integers(0, 3))):
                participant_id = f"{roster_id}-p{p}"
                player_id = draw(st.none() | st.sampled_from(players))
                stats = {"side": r + 1, "kills": draw(st.integers(0, 9))}
                stats.update(draw(st.dictionaries(EXTRA_KEYS, VALUES, max_size=3)))
                if draw(st.booleans()):
                    stats["userID"] = draw(st.one_of(st.integers(0, 10**18), st.text(max_size=4)))
                included.append(participant(participant_id, player=player_id, stats=stats))
                if player_id is not None:
                    included.append(player(player_id))
                members.append(participant_id)
                owner[participant_id] = (roster_id, match_id)
            included.append(
                roster(
                    roster_id,
                    participants=members,
                    won=draw(st.sampled_from(["true", "false", None])),
                )
            )
            roster_ids.append(roster_id)
            owner[roster_id] = match_id
            participant_ids += members
        for ordinal in range(draw(st.integers(0, 3))):
            round_id = f"{match_id}-round{ordinal}"
            chosen = (
                draw(st.lists(st.sampled_from(participant_ids), unique=True))
                if participant_ids
                else []
            )
            included.append(round_(round_id, participants=chosen, ordinal=ordinal))
            round_ids.append(round_id)
            owner[round_id] = match_id
        asset_ids = [f"{match_id}-a"] if draw(st.booleans()) else []
        included += [asset(a) for a in asset_ids]
        data.append(match(match_id, rosters=roster_ids, rounds=round_ids, assets=asset_ids))
    return data, included, owner


@st.composite
def paged(draw: st.DrawFn) -> tuple[list[Any], dict[str, set[str]], dict[str, Any]]:
    """The matches cut into pages (resources may repeat across pages), as dicts or bytes."""
    data, included, owner = draw(matches())
    everything = data + included
    pages = []
    remaining = list(range(len(data)))
    while remaining or not pages:
        size = draw(st.integers(1, 3))
        chosen, remaining = remaining[:size], remaining[size:]
        page_included = list(included)
        if draw(st.booleans()):
            page_included = draw(st.permutations(page_included))
        body: dict[str, Any] = {"data": [data[i] for i in chosen], "included": page_included}
        if len(chosen) == 1 and draw(st.booleans()):
            body["data"] = data[chosen[0]]
        pages.append(orjson.dumps(body) if draw(st.booleans()) else body)
    expected: dict[str, set[str]] = {}
    for resource in everything:
        expected.setdefault(resource["type"], set()).add(resource["id"])
    return pages, expected, owner


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(paged())
def test_well_formed_documents_never_lose_a_resource(case: tuple) -> None:
    pages, expected, owner = case
    frames = to_frames(pages)
    for table, type_ in (
        ("matches", "match"),
        ("rosters", "roster"),
        ("participants", "participant"),
        ("rounds", "round"),
        ("players", "player"),
        ("assets", "asset"),
    ):
        ids = frames.tables[table][f"{type_}_id"]
        assert ids.is_unique, table
        assert set(ids) == expected.get(type_, set()), table
    for row in frames.participants.itertuples():
        assert (row.roster_id, row.match_id) == owner[row.participant_id]
    for row in frames.rosters.itertuples():
        assert row.match_id == owner[row.roster_id]
    for row in frames.rounds.itertuples():
        assert row.match_id == owner[row.round_id]
    assert not frames.problems


@pytest.mark.parametrize("chunk", [1, 2, 7])
def test_chunk_size_does_not_change_the_result(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    pages = [page(arena(f"m{i}", per_side=1 + i % 3)) for i in range(5)]
    reference = to_frames(pages)
    monkeypatch.setattr("matchkit.normalize.walker.FLUSH_ROWS", chunk)
    chunked = to_frames(pages)
    for name, frame in reference.tables.items():
        pd.testing.assert_frame_equal(chunked.tables[name], frame)


@st.composite
def snapshot_pages(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Pages of one match each, whose players come from a small pool, each copy of a player
    with its own name and stats (decision 17's snapshots)."""
    pool = [f"player{i}" for i in range(draw(st.integers(2, 3)))]
    times = st.sampled_from(["2026-10-30T12:00:00Z", "2026-10-30T13:00:00Z", "not a time"])
    pages = []
    for number in range(draw(st.integers(1, 4))):
        chosen = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True))
        document = page(arena(f"m{number}", per_side=1, created_at=draw(times), player_ids=chosen))
        for resource in document["included"]:
            if resource["type"] == "player":
                resource["attributes"]["name"] = draw(st.sampled_from(["a", "b"]))
                resource["attributes"]["stats"] = draw(
                    st.dictionaries(st.sampled_from(["wins", "level"]), SCALARS, max_size=2)
                )
        pages.append(document)
    return pages


@settings(
    max_examples=depth.examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    pages=snapshot_pages(),
    order=st.randoms(use_true_random=False),
    raw=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_the_order_of_pages_does_not_change_the_players(
    pages: list, order: Any, raw: list[bool]
) -> None:
    """Decision 17: each player keeps its latest match's copy, whatever the order of pages
    and whichever reader reads each (raw pages take the typed reader when they can), and the
    players table (values and dtypes) and problems are the same in any order."""
    shuffled = [orjson.dumps(d) if bytes_ else d for d, bytes_ in zip(pages, raw, strict=False)]
    order.shuffle(shuffled)
    reference, other = to_frames(pages), to_frames(shuffled)
    assert not [p for p in reference.problems if "differing" not in p and "created_at" not in p]

    def players(frames: Any) -> pd.DataFrame:
        return frames.players.sort_values("player_id").reset_index(drop=True)

    pd.testing.assert_frame_equal(players(reference), players(other))
    assert reference.problems == other.problems


@settings(
    max_examples=depth.examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    pages=snapshot_pages(),
    cuts=st.lists(st.integers(0, 4), max_size=2),
    order=st.randoms(use_true_random=False),
)
def test_frames_combined_keep_the_players_normalizing_at_once_keeps(
    pages: list, cuts: list[int], order: Any
) -> None:
    """MatchFrames.concat of pages normalized in pieces, in any order, keeps the same copy of
    each player (decision 17) as to_frames of all the pages at once."""
    for document in pages:  # name each copy after its match, to see which one is kept
        match_id = document["data"][0]["id"]
        for resource in document["included"]:
            if resource["type"] == "player":
                resource["attributes"]["name"] = match_id
    bounds = sorted({0, len(pages), *(cut for cut in cuts if cut < len(pages))})
    pieces = [to_frames(pages[a:b]) for a, b in pairwise(bounds)]
    order.shuffle(pieces)
    combined, at_once = MatchFrames.concat(pieces), to_frames(pages)

    def kept(frames: Any) -> dict[str, str]:
        return dict(zip(frames.players["player_id"], frames.players["name"], strict=True))

    assert kept(combined) == kept(at_once)

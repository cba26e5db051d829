"""PUBG's tables from the PUBG sample set's documents: kinds, typed columns, the listing tables
(through concat and Parquet), and Gamelocker frames left as they were."""

from __future__ import annotations

from pathlib import Path

import orjson
import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.model.frames import MatchFrames
from matchkit.sampledata.pubg.documents import match_document, player_resource
from matchkit.sampledata.pubg.plan import build_plan
from tests.builders.resources import arena, page

PLAN = build_plan()
STEAM = PLAN.shards["steam"]


@pytest.fixture(scope="module")
def day() -> tuple[list[bytes], MatchFrames]:
    documents = [
        orjson.dumps(match_document(match, telemetry_url="http://cdn"))
        for match in STEAM.matches[:24]
    ]
    return documents, to_frames(documents)


def test_a_day_of_matches_has_pubgs_columns(day) -> None:
    documents, frames = day
    assert frames.problems == ()
    raw = [orjson.loads(document) for document in documents]
    modes = {d["data"]["id"]: d["data"]["attributes"]["gameMode"] for d in raw}
    matches = frames.matches.set_index("match_id")
    for match_id, mode in modes.items():
        assert matches.loc[match_id, "is_royale"] == (mode != "tdm")
        assert matches.loc[match_id, "game"] == "pubg"
    ids = [
        item["attributes"]["stats"]["playerId"]
        for d in raw
        for item in d["included"]
        if item["type"] == "participant"
    ]
    kinds = frames.participants["kind"].value_counts()
    assert kinds["bot"] == sum(i.startswith("ai.") for i in ids) > 0
    assert kinds["registered"] == sum(i.startswith("account.") for i in ids)
    assert kinds["anonymous"] == 0
    assert str(frames.participants["time_survived"].dtype) == "float64"
    assert str(frames.participants["dbnos"].dtype) == "Int64"
    view = frames.participant_view()
    assert (view["rank"] == view["win_place"]).all()


def test_a_players_match_list_is_every_copys(tmp_path: Path) -> None:
    player = STEAM.players[0]
    matches = STEAM.matches_of[player.id]
    older = {"data": [player_resource(player, matches[:5], shard="steam", with_times=True)]}
    newer = {"data": [player_resource(player, matches[3:9], shard="steam", with_times=True)]}
    frames = to_frames([orjson.dumps(older), orjson.dumps(newer)])
    pairs = set(
        zip(frames.player_matches["player_id"], frames.player_matches["match_id"], strict=True)
    )
    assert pairs == {(player.id, m.id) for m in matches[:9]}
    assert len(frames.player_matches) == 9


def test_listing_tables_survive_concat_and_parquet(day, tmp_path: Path) -> None:
    _, matches = day
    player = STEAM.players[1]
    listed = to_frames(
        orjson.dumps(
            {
                "data": [
                    player_resource(
                        player, STEAM.matches_of[player.id][:4], shard="steam", with_times=True
                    )
                ]
            }
        )
    )
    combined = MatchFrames.concat([matches, listed])
    assert len(combined.player_matches) == 4
    assert len(combined.participants) == len(matches.participants)
    combined.to_parquet(tmp_path / "frames")
    back = MatchFrames.read_parquet(tmp_path / "frames")
    for name in ("player_matches", "players", "participants"):
        pd.testing.assert_frame_equal(
            back.tables[name]
            .sort_values(list(back.tables[name].columns[:2]))
            .reset_index(drop=True),
            combined.tables[name]
            .sort_values(list(combined.tables[name].columns[:2]))
            .reset_index(drop=True),
            check_categorical=False,
        )


def test_gamelocker_frames_gain_no_pubg_column() -> None:
    frames = to_frames(page(arena("m1")))
    assert "dbnos" not in frames.participants
    view = frames.participant_view()
    assert "rank" not in view
    assert "map_name" not in view
    assert "player_matches" not in repr(frames)
    assert not (frames.matches["game"] == "pubg").any()  # no game invented

"""The recorded PUBG documents (``../shared/pubg/``) through ``to_frames``, value by value.

Each value of the tables is checked against the raw document, read here in plain Python: the
player ids from ``stats.playerId``, kinds by the id's prefix, ``DBNOs`` as ``dbnos``,
``matchType`` as ``match_type``, the roster's rank and the match's map in the participant view,
``game`` ``"pubg"``, ``is_royale`` by the game mode; players' times typed and their matches a
table; samples and seasons tables. No Gamelocker-only column holds a value on a PUBG row.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.errors import DocumentError
from matchkit.model.frames import MatchFrames
from tests.conftest import shared_path

MATCHES = {
    "match-pubg-python-squad-fpp-baltic.json": True,  # is_royale
    "match-pubgkt-squad.json": True,
    "match-pubgkt-tdm.json": False,
}
GAMELOCKER_ONLY = {
    "matches": ("map_id", "region", "server_type", "ranking_type", "patch_version", "stats_text"),
    "rosters": ("team_id", "side", "side_label", "score"),
    "participants": (
        "side",
        "user_id",
        "attachment",
        "emote",
        "mount",
        "outfit",
        "deaths",
        "score",
    ),
}


def raw(name: str) -> dict[str, Any]:
    return json.loads(shared_path("pubg", name).read_bytes())


def frames_of(name: str) -> MatchFrames:
    return to_frames(shared_path("pubg", name).read_bytes())


def by_type(document: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [item for item in document["included"] if item["type"] == type_]


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_recorded_matches_value_by_value(name: str) -> None:
    document, frames = raw(name), frames_of(name)
    assert frames.problems == ()
    attributes = document["data"]["attributes"]
    (match,) = frames.matches.to_dict("records")
    assert match["match_id"] == document["data"]["id"]
    assert match["created_at"] == pd.Timestamp(attributes["createdAt"])
    assert match["duration"] == attributes["duration"]
    assert match["game"] == "pubg"
    assert match["game_mode"] == attributes["gameMode"]
    assert match["match_type"] == attributes["matchType"]
    assert match["map_name"] == attributes["mapName"]
    assert match["is_custom_match"] == attributes["isCustomMatch"]
    assert match["season_state"] == attributes["seasonState"]
    assert match["shard_id"] == attributes["shardId"]
    assert match["title_id"] == attributes["titleId"]
    assert match["is_royale"] is MATCHES[name]
    assert "attributes_match_type" not in frames.matches

    rosters = frames.rosters.set_index("roster_id")
    for roster in by_type(document, "roster"):
        row = rosters.loc[roster["id"]]
        assert row["rank"] == roster["attributes"]["stats"]["rank"]
        assert row["team_number"] == roster["attributes"]["stats"]["teamId"]
        assert row["won"] == (roster["attributes"]["won"] == "true")
        assert row["match_id"] == document["data"]["id"]

    participants = frames.participants.set_index("participant_id")
    roster_of = {
        ref["id"]: roster["id"]
        for roster in by_type(document, "roster")
        for ref in roster["relationships"]["participants"]["data"]
    }
    for participant in by_type(document, "participant"):
        stats = participant["attributes"]["stats"]
        row = participants.loc[participant["id"]]
        kind = "registered" if stats["playerId"].startswith("account.") else "bot"
        assert row["player_id"] == stats["playerId"]
        assert row["kind"] == kind
        assert row["is_registered"] == (kind == "registered")
        assert row["dbnos"] == stats["DBNOs"]
        assert row["kills"] == stats["kills"]
        assert row["assists"] == stats["assists"]
        assert row["time_survived"] == pytest.approx(stats["timeSurvived"])
        assert row["damage_dealt"] == pytest.approx(stats["damageDealt"])
        assert row["name"] == stats["name"]
        assert row["win_place"] == stats["winPlace"]
        assert row["death_type"] == stats["deathType"]
        assert row["roster_id"] == roster_of[participant["id"]]
    assert "dbn_os" not in frames.participants
    assert "stats_player_id" not in frames.participants
    for table, columns in GAMELOCKER_ONLY.items():
        for column in columns:
            assert frames.tables[table][column].isna().all(), (table, column)


def test_the_bot_of_a_recorded_match_is_a_bot() -> None:
    frames = frames_of("match-pubgkt-squad.json")
    bots = frames.participants[frames.participants["kind"] == "bot"]
    assert list(bots["player_id"]) == ["ai.349"]
    assert (frames.participants["kind"] != "anonymous").all()


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_participant_view_carries_rank_and_map(name: str) -> None:
    document, frames = raw(name), frames_of(name)
    view = frames.participant_view()
    rank_of = {
        ref["id"]: roster["attributes"]["stats"]["rank"]
        for roster in by_type(document, "roster")
        for ref in roster["relationships"]["participants"]["data"]
    }
    assert dict(zip(view["participant_id"], view["rank"], strict=True)) == rank_of
    assert set(view["map_name"]) == {document["data"]["attributes"]["mapName"]}
    assert set(view["is_royale"]) == {MATCHES[name]}


@pytest.mark.parametrize("name", ["players-pubg-python.json", "player-pubg-python.json"])
def test_recorded_players_value_by_value(name: str) -> None:
    document, frames = raw(name), frames_of(name)
    players = document["data"] if isinstance(document["data"], list) else [document["data"]]
    table = frames.players.set_index("player_id")
    expected_pairs = []
    for player in players:
        row = table.loc[player["id"]]
        attributes = player["attributes"]
        assert row["name"] == attributes["name"]
        assert row["shard_id"] == attributes["shardId"]
        for member, column in (("createdAt", "created_at"), ("updatedAt", "updated_at")):
            if member in attributes:
                assert row[column] == pd.Timestamp(attributes[member])
            else:
                assert pd.isna(row[column])
        expected_pairs += [
            (player["id"], m["id"]) for m in player["relationships"]["matches"]["data"]
        ]
    assert str(frames.players["created_at"].dtype) == "datetime64[us, UTC]"
    assert (
        list(
            zip(frames.player_matches["player_id"], frames.player_matches["match_id"], strict=True)
        )
        == expected_pairs
    )
    assert "matches" not in frames.players  # a table, not JSON text


def test_recorded_samples_value_by_value() -> None:
    document, frames = raw("samples-pubg-python.json"), frames_of("samples-pubg-python.json")
    sample = document["data"]
    (row,) = frames.samples.to_dict("records")
    assert row["sample_id"] == sample["id"]
    assert row["created_at"] == pd.Timestamp(sample["attributes"]["createdAt"])
    assert row["shard_id"] == sample["attributes"]["shardId"]
    listed = [m["id"] for m in sample["relationships"]["matches"]["data"]]
    assert list(frames.sample_matches["match_id"]) == listed
    assert set(frames.sample_matches["sample_id"]) == {sample["id"]}


def test_recorded_seasons_value_by_value() -> None:
    document, frames = raw("seasons-pubg-python.json"), frames_of("seasons-pubg-python.json")
    expected = [
        (s["id"], s["attributes"]["isCurrentSeason"], s["attributes"]["isOffseason"])
        for s in document["data"]
    ]
    seasons = frames.seasons
    assert (
        list(
            zip(
                seasons["season_id"],
                seasons["is_current_season"],
                seasons["is_offseason"],
                strict=True,
            )
        )
        == expected
    )


def test_the_profile_is_told_by_the_documents_and_never_contradicted(samples_dir) -> None:
    body = shared_path("pubg", "match-pubgkt-squad.json").read_bytes()
    told = to_frames(body)
    given = to_frames(body, profile="pubg")
    for name, frame in told.tables.items():
        pd.testing.assert_frame_equal(frame, given.tables[name], obj=name)
    with pytest.raises(DocumentError, match="pubg profile's"):
        to_frames(body, profile="gamelocker")
    battlerite = sorted((samples_dir / "battlerite").glob("match*.json"))[0].read_bytes()
    with pytest.raises(DocumentError, match="several services"):
        to_frames([battlerite, body])
    with pytest.raises(DocumentError, match="gamelocker profile's"):
        to_frames(battlerite, profile="pubg")

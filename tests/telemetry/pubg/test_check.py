"""A PUBG telemetry file is checked once against its match: the match id, the players (account
ids against the participants' player ids) and the kills (against the participants' kills)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import orjson
import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.telemetry.pubg import (
    MatchRoster,
    read_pubg_file,
    rosters_of,
    to_pubg_telemetry_frames,
)
from tests.conftest import shared_path
from tests.telemetry.pubg.files import (
    WHOLE,
    WHOLE_MATCH,
    of_type,
    raw_events,
    recorded,
    telemetry_of_match,
    with_player_ids,
)

TDM = "a131e486-5bcf-4c2e-aa5a-515489ee57aa"


@pytest.fixture(scope="module")
def tdm_frames() -> Any:
    """The recorded TDM match (16 participants, up to 27 kills each) as MatchFrames."""
    document = orjson.loads(shared_path("pubg", "match-pubgkt-tdm.json").read_bytes())
    return with_player_ids(to_frames([document]))


@pytest.fixture(scope="module")
def tdm_file(tdm_frames: Any) -> bytes:
    return orjson.dumps(telemetry_of_match(tdm_frames, TDM))


def game_roster() -> dict[str, int]:
    """The whole recorded file's players and the kills the game itself counted for them
    (victimGameResult at each death, gameResultOnFinished for the winners), not the kill
    events the check counts."""
    events = raw_events(WHOLE)
    kills = {
        event["victimGameResult"]["accountId"]: event["victimGameResult"]["stats"]["killCount"]
        for event in of_type(events, "LogPlayerKillV2")
    }
    end = of_type(events, "LogMatchEnd")[0]
    for result in end["gameResultOnFinished"]["results"]:
        kills[result["accountId"]] = result["stats"]["killCount"]
    assert len(kills) == len(end["characters"]) == 36
    return kills


def test_the_whole_file_agrees_with_the_kills_the_game_counted() -> None:
    roster = game_roster()
    assert sum(roster.values()) == 30  # 34 deaths, 4 by the zone
    frames = to_pubg_telemetry_frames(recorded(WHOLE), matches={WHOLE_MATCH: list(roster.items())})
    assert frames.match_ids == [WHOLE_MATCH]


def test_a_recorded_match_and_its_telemetry_agree(tdm_frames: Any, tdm_file: bytes) -> None:
    frames = to_pubg_telemetry_frames({TDM: tdm_file}, matches=tdm_frames)
    assert len(frames.kills) == int(tdm_frames.participants["kills"].sum()) > 100
    assert set(frames.match_end["player_id"]) == set(tdm_frames.participants["player_id"])


def test_kills_that_disagree(tdm_frames: Any, tdm_file: bytes) -> None:
    roster = rosters_of(tdm_frames)[TDM]
    player = next(iter(roster.kills))
    wrong = MatchRoster(TDM, {**roster.kills, player: roster.kills[player] + 1})
    with pytest.raises(DocumentError) as raised:
        read_pubg_file(tdm_file, roster=wrong)
    message = str(raised.value)
    assert f"telemetry of match {TDM}: the kills of 1 participant(s) disagree" in message
    assert f"{player}: {roster.kills[player]} in the file, {roster.kills[player] + 1} in the" in (
        message
    )


def test_a_player_the_match_does_not_have(tdm_frames: Any, tdm_file: bytes) -> None:
    roster = rosters_of(tdm_frames)[TDM]
    missing = next(iter(roster.kills))
    fewer = MatchRoster(TDM, {p: k for p, k in roster.kills.items() if p != missing})
    with pytest.raises(DocumentError) as raised:
        read_pubg_file(tdm_file, roster=fewer)
    assert f"names 1 player(s) the match does not have, e.g. {missing!r} (first in event 2)" in (
        str(raised.value)
    )


def test_a_participant_the_file_never_names(tdm_frames: Any, tdm_file: bytes) -> None:
    roster = rosters_of(tdm_frames)[TDM]
    more = MatchRoster(TDM, {**roster.kills, "account.00000000000000000000000000000000": 0})
    with pytest.raises(
        DocumentError,
        match=r"never names 1 of the match's 17 participants: "
        r"account\.0{32}",
    ):
        read_pubg_file(tdm_file, roster=more)


def test_a_file_of_another_match(tdm_frames: Any) -> None:
    with pytest.raises(DocumentError, match=f"is the telemetry of match '{WHOLE_MATCH}'"):
        to_pubg_telemetry_frames({TDM: recorded(WHOLE)}, matches=tdm_frames)
    with pytest.raises(DocumentError, match=f"matches= does not hold match {WHOLE_MATCH}"):
        to_pubg_telemetry_frames(recorded(WHOLE), matches=tdm_frames)


def test_match_frames_without_player_ids_cannot_check(tdm_file: bytes) -> None:
    document = orjson.loads(shared_path("pubg", "match-pubgkt-tdm.json").read_bytes())
    frames = to_frames([document])
    frames = type(frames)(
        **{**frames.tables, "participants": frames.participants.assign(player_id=pd.NA)},
        problems=frames.problems,
    )
    with pytest.raises(DocumentError, match="participants carry no player ids"):
        to_pubg_telemetry_frames({TDM: tdm_file}, matches=frames)


def test_suicides_and_team_kills_are_not_kills() -> None:
    """PUBG's ``kills`` counts "enemy players killed": a suicide or a kill of a teammate is
    not one of them (``teamKills`` counts the latter)."""
    events = raw_events(WHOLE)
    kills = of_type(events, "LogPlayerKillV2")
    suicide, team_kill = kills[0], kills[1]
    suicide["victim"] = copy.deepcopy(suicide["killer"])
    suicide["isSuicide"] = True
    team_kill["victim"]["teamId"] = team_kill["killer"]["teamId"]
    roster = game_roster()
    for event in (suicide, team_kill):
        roster[event["killer"]["accountId"]] -= 1
    assert read_pubg_file(orjson.dumps(events), roster=MatchRoster(WHOLE_MATCH, roster))


def test_rosters_as_pairs() -> None:
    rosters = rosters_of({"m1": [("account.a", 2), ("account.b", None)]})
    assert rosters == {"m1": MatchRoster("m1", {"account.a": 2, "account.b": None})}
    for bad in ({"m1": [("account.a",)]}, {"m1": [(3, 1)]}, {"m1": [("a", True)]}, [("a", 1)]):
        with pytest.raises(InvalidArgumentError, match="matches"):
            rosters_of(bad)


def test_kills_counted_from_the_newer_event_when_both_are_there() -> None:
    """Tournament files carry LogPlayerKill beside LogPlayerKillV2: counted once."""
    events = raw_events(WHOLE)
    older = []
    for kill in of_type(events, "LogPlayerKillV2"):
        if "killer" in kill:
            older.append(
                {
                    "_T": "LogPlayerKill",
                    "_D": kill["_D"],
                    "killer": kill["killer"],
                    "victim": kill["victim"],
                    "attackId": kill["attackId"],
                }
            )
    roster = MatchRoster(WHOLE_MATCH, game_roster())
    frames = read_pubg_file(orjson.dumps([*events, *older]), roster=roster)
    assert Counter(frames.kills["event_type"]) == {"LogPlayerKillV2": 34, "LogPlayerKill": 30}

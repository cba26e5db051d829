"""The recorded real telemetry file in ../shared/telemetry parses and agrees with its match."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import orjson
import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.model.frames import MatchFrames
from matchkit.model.schema import DATETIME_DTYPE
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from matchkit.telemetry.consistency import consistency_problems
from matchkit.telemetry.schema import PLAYER_STATS, TABLES
from tests.conftest import shared_path

MATCH_ID = "4810AA4CC2C34FDCBA34C7E8915EAFD4"


@pytest.fixture(scope="module")
def telemetry_file() -> Path:
    return shared_path("telemetry", f"telemetry-{MATCH_ID}.json")


@pytest.fixture(scope="module")
def match_frames() -> MatchFrames:
    path = shared_path("telemetry", f"match-response-{MATCH_ID}.json")
    return to_frames([orjson.loads(path.read_bytes())])


@pytest.fixture(scope="module")
def telemetry(telemetry_file: Path) -> TelemetryFrames:
    return to_telemetry_frames(telemetry_file)


def test_every_event_lands_in_its_table(telemetry: TelemetryFrames) -> None:
    counts = {name: len(frame) for name, frame in telemetry.tables.items()}
    assert counts == {
        "files": 1,
        "queue_events": 6,
        "match_starts": 1,
        "reserved_users": 6,
        "battlerite_picks": 30,
        "round_events": 96,
        "deaths": 10,
        "rounds": 3,
        "user_round_spells": 129,
        "match_finishes": 1,
        "team_updates": 2,
        "shutdowns": 1,
        "round_player_stats": 18,
        "queue_region_samples": 18,
        "other_events": 0,
    }
    assert telemetry.files.loc[0, "events"] == 285
    assert telemetry.problems == ()
    assert telemetry.match_ids == [MATCH_ID]


def test_tables_have_their_declared_columns_and_dtypes(telemetry: TelemetryFrames) -> None:
    for name, frame in telemetry.tables.items():
        schema = TABLES[name]
        assert list(frame.columns) == schema.column_names, name  # no extras in the real file
        for column in schema.columns:
            assert frame[column.name].dtype == column.dtype, (name, column.name)


def test_events_are_sorted_by_cursor_and_times_are_utc(telemetry: TelemetryFrames) -> None:
    for name, frame in telemetry.tables.items():
        if "cursor" in frame and name != "queue_region_samples":
            assert frame["cursor"].is_monotonic_increasing, name
        if "time" in frame:
            assert frame["time"].dtype == DATETIME_DTYPE
    start = telemetry.match_starts.loc[0, "time"]
    assert start == pd.Timestamp("2018-04-21T10:09:20.465Z")


def test_time_joined_queue_is_the_integer_clock(telemetry: TelemetryFrames) -> None:
    clock = telemetry.queue_events["time_joined_queue"]
    assert clock.dtype == "Int64"
    assert clock.iloc[0] == 23248628012650013  # the wire's "23248628012650013", exactly


def test_deaths_get_the_round_of_their_cursor(telemetry: TelemetryFrames) -> None:
    assert telemetry.deaths["round"].tolist() == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]
    per_round = telemetry.deaths.groupby(["round", "user_id"]).size()
    stats = telemetry.round_player_stats.set_index(["round", "user_id"])["deaths"]
    assert per_round.to_dict() == stats[stats > 0].to_dict()


def test_the_file_agrees_with_its_match_document(
    match_frames: MatchFrames, telemetry: TelemetryFrames
) -> None:
    assert consistency_problems(match_frames, telemetry) == []
    # The relations, spelled out once more for the reader.
    sums = telemetry.round_player_stats.groupby("user_id")[list(PLAYER_STATS)].sum()
    participants = match_frames.participants.set_index("player_id")[list(PLAYER_STATS)]
    pd.testing.assert_frame_equal(
        sums.sort_index(), participants.sort_index(), check_names=False, check_dtype=False
    )
    rounds = match_frames.rounds.sort_values("ordinal")
    assert telemetry.rounds["round_length"].tolist() == rounds["duration"].tolist()
    assert telemetry.rounds["winning_team"].tolist() == rounds["winning_team"].tolist()
    finish = telemetry.match_finishes.iloc[0]
    scores = match_frames.rosters.set_index("side")["score"]
    assert (finish["team_one_score"], finish["team_two_score"]) == (scores[1], scores[2])
    assert finish["match_length"] == match_frames.matches.loc[0, "duration"]


@pytest.mark.parametrize(
    ("table", "column", "change"),
    [
        ("round_player_stats", "damage_done", 1),
        ("rounds", "round_length", 1),
        ("rounds", "winning_team", -1),
        ("match_finishes", "team_two_score", -1),
        ("match_finishes", "match_length", 5),
        ("reserved_users", "outfit", 1),
        ("team_updates", "division_rating", 1),
        ("deaths", "round", 1),
    ],
)
def test_consistency_check_catches_each_disagreement(
    match_frames: MatchFrames, telemetry: TelemetryFrames, table: str, column: str, change: int
) -> None:
    frame = telemetry.tables[table].copy()
    frame.loc[0, column] += change
    changed = dataclasses.replace(telemetry, **{table: frame})
    problems = consistency_problems(match_frames, changed)
    assert problems, (table, column)
    assert any(MATCH_ID in problem for problem in problems)


def test_a_missing_death_is_caught(match_frames: MatchFrames, telemetry: TelemetryFrames) -> None:
    changed = dataclasses.replace(telemetry, deaths=telemetry.deaths.iloc[1:])
    problems = consistency_problems(match_frames, changed)
    assert any(problem.startswith("deaths") for problem in problems)


def test_every_input_form_gives_the_same_tables(telemetry_file: Path) -> None:
    raw = telemetry_file.read_bytes()
    forms = [
        str(telemetry_file),
        raw,
        raw.decode(),
        orjson.loads(raw),
        {MATCH_ID: raw},
        [raw],
    ]
    expected = to_telemetry_frames(telemetry_file)
    for form in forms:
        frames = to_telemetry_frames(form)
        for name, table in expected.tables.items():
            pd.testing.assert_frame_equal(frames.tables[name], table, obj=name)


def test_parquet_round_trip(telemetry: TelemetryFrames, tmp_path: Path) -> None:
    telemetry.to_parquet(tmp_path / "telemetry")
    back = TelemetryFrames.read_parquet(tmp_path / "telemetry")
    for name, table in telemetry.tables.items():
        pd.testing.assert_frame_equal(back.tables[name], table, obj=name)
    assert back.problems == telemetry.problems

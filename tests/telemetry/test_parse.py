"""to_telemetry_frames: broken files are errors naming the match; nothing is dropped."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pytest

from matchkit.errors import DocumentError, InvalidArgumentError, MatchkitError, StorageError
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from matchkit.telemetry.schema import DEATH, MATCH_START, ROUND_FINISHED

MATCH = "M1"


def event(cursor: int, kind: str, **data: Any) -> dict[str, Any]:
    return {"cursor": cursor, "type": kind, "dataObject": {"time": 1_700_000_000_000, **data}}


def small_file(match_id: str = MATCH) -> list[dict[str, Any]]:
    """A start, a death in round 0, the end of round 0, a death in round 1, the end of it."""
    stats = {"userID": "p1", "kills": 0, "deaths": 1, "score": 10}
    return [
        event(
            30,
            ROUND_FINISHED,
            matchID=match_id,
            round=0,
            roundLength=60,
            winningTeam=1,
            playerStats=[stats],
        ),
        event(10, MATCH_START, matchID=match_id, version="1", type="QUICK2V2"),
        event(20, DEATH, matchID=match_id, userID="p1"),
        event(40, DEATH, matchID=match_id, userID="p1"),
        event(
            50,
            ROUND_FINISHED,
            matchID=match_id,
            round=1,
            roundLength=70,
            winningTeam=2,
            playerStats=[stats],
        ),
    ]


def frames_of(events: list[dict[str, Any]]) -> TelemetryFrames:
    return to_telemetry_frames(orjson.dumps(events), match_ids=[MATCH])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "is not a JSON array"),
        (b'{"cursor": 1}', "is not a JSON array"),
        (b'[{"cursor": 1, "type": "x"}]', "dataObject"),
        (b'[{"cursor": 1, "type": "x", "dataObject": {}, "extra": 1}]', "extra"),
        (b'[{"cursor": true, "type": "x", "dataObject": {}}]', "cursor"),
        (b'[{"cursor": "1", "type": "x", "dataObject": {}}]', "cursor"),
        (b'[{"cursor": 1, "type": "x", "dataObject": []}]', "dataObject"),
        (b"[1, 2]", "is not a JSON array"),
        (b'[{"cursor": 1, "type": "x", "dataObject": {}}', "is not a JSON array"),
    ],
)
def test_a_broken_file_is_a_document_error_naming_the_match(content: bytes, message: str) -> None:
    with pytest.raises(DocumentError, match=message) as raised:
        to_telemetry_frames({MATCH: content})
    assert f"match {MATCH}" in str(raised.value)


def test_duplicate_cursors_are_refused() -> None:
    events = small_file()
    events[2]["cursor"] = 10
    with pytest.raises(DocumentError, match=r"match M1 .*two events with cursor 10"):
        frames_of(events)


def test_an_event_of_another_match_is_refused() -> None:
    events = small_file()
    events[2]["dataObject"]["matchID"] = "OTHER"
    with pytest.raises(DocumentError, match="'OTHER'"):
        frames_of(events)


def test_the_match_id_comes_from_the_file_when_not_given() -> None:
    frames = to_telemetry_frames(orjson.dumps(small_file("FROM-FILE")))
    assert frames.match_ids == ["FROM-FILE"]
    anonymous = [event(1, "Some.Event", value=1)]
    with pytest.raises(DocumentError, match="names no match"):
        to_telemetry_frames(orjson.dumps(anonymous))


def test_events_are_sorted_and_deaths_get_their_round() -> None:
    frames = frames_of(small_file())
    assert frames.deaths["cursor"].tolist() == [20, 40]
    assert frames.deaths["round"].tolist() == [0, 1]
    assert frames.rounds["round"].tolist() == [0, 1]
    assert frames.files.loc[0, "first_cursor"] == 10
    assert frames.files.loc[0, "last_cursor"] == 50


def test_deaths_without_rounds_have_no_round() -> None:
    royale = [event(1, MATCH_START, matchID=MATCH), event(2, DEATH, matchID=MATCH, userID="p")]
    frames = frames_of(royale)
    assert frames.deaths["round"].isna().all()
    assert frames.round_player_stats.empty


def test_an_unknown_event_type_is_kept_whole() -> None:
    events = [*small_file(), event(60, "Structures.NewThing", matchID=MATCH, nested={"a": [1]})]
    frames = frames_of(events)
    other = frames.other_events
    assert other["event_type"].tolist() == ["Structures.NewThing"]
    assert other["cursor"].tolist() == [60]
    assert orjson.loads(other.loc[0, "data"]) == events[-1]["dataObject"]


def test_unknown_fields_become_extra_columns() -> None:
    events = small_file()
    events[2]["dataObject"]["killerID"] = "p2"
    events[0]["dataObject"]["playerStats"][0] = {
        **events[0]["dataObject"]["playerStats"][0],
        "overtimeKills": 3,
    }
    frames = frames_of(events)
    killers = frames.deaths["killer_id"]
    assert killers.iloc[0] == "p2"
    assert pd.isna(killers.iloc[1])
    stats = frames.round_player_stats
    assert stats["overtime_kills"].dtype == "Int64"
    assert stats["overtime_kills"].tolist()[0] == 3
    assert pd.isna(stats["overtime_kills"].tolist()[1])


def test_a_value_that_does_not_fit_its_column_is_reported() -> None:
    events = small_file()
    events[0]["dataObject"]["roundLength"] = "long"
    frames = frames_of(events)
    assert pd.isna(frames.rounds.loc[0, "round_length"])
    assert any("rounds.round_length" in problem for problem in frames.problems)


def test_a_queue_clock_beyond_int64_is_kept_as_digits() -> None:
    queue = "com.stunlock.service.matchmaking.avro.QueueEvent"
    huge = str(2**64 + 5)
    events = [
        event(1, queue, matchId=MATCH, userId="a", timeJoinedQueue=huge, regionSamples=[]),
        event(2, queue, matchId=MATCH, userId="b", timeJoinedQueue="12", regionSamples=[]),
    ]
    frames = frames_of(events)
    assert frames.queue_events["time_joined_queue"].tolist() == [huge, "12"]
    assert any("time_joined_queue" in problem for problem in frames.problems)
    small = frames_of([events[1]])
    assert small.queue_events["time_joined_queue"].dtype == "Int64"


def test_player_stats_that_are_not_a_list_are_a_document_error() -> None:
    events = small_file()
    events[0]["dataObject"]["playerStats"] = {"userID": "p1"}
    with pytest.raises(DocumentError, match=r"match M1.*playerStats"):
        frames_of(events)


def test_argument_errors() -> None:
    raw = orjson.dumps(small_file())
    with pytest.raises(InvalidArgumentError, match="given twice"):
        to_telemetry_frames([raw, raw])
    with pytest.raises(InvalidArgumentError, match="2 telemetry files"):
        to_telemetry_frames([raw, raw], match_ids=["a"])
    with pytest.raises(InvalidArgumentError):
        to_telemetry_frames(42)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="cannot be read"):
        to_telemetry_frames(Path("/nonexistent/telemetry.json"))


def test_no_files_give_empty_frames_with_every_column() -> None:
    frames = to_telemetry_frames([])
    assert len(frames) == 0
    assert frames.tables.keys() == TelemetryFrames.empty().tables.keys()
    for name, table in frames.tables.items():
        assert list(table.columns) == list(TelemetryFrames.empty().tables[name].columns)


def test_many_files_keep_input_order_and_concat_deduplicates() -> None:
    first = orjson.dumps(small_file("A"))
    second = orjson.dumps(small_file("B"))
    both = to_telemetry_frames([second, first])
    assert both.match_ids == ["B", "A"]
    assert both.deaths["match_id"].tolist() == ["B", "B", "A", "A"]
    again = TelemetryFrames.concat([both, to_telemetry_frames(first)])
    assert again.match_ids == ["B", "A"]
    assert len(again.deaths) == 4


def test_parquet_refuses_partial_data(tmp_path: Path) -> None:
    frames = frames_of(small_file())
    target = tmp_path / "out"
    frames.to_parquet(target)
    with pytest.raises(InvalidArgumentError, match="overwrite=True"):
        frames.to_parquet(target)
    frames.to_parquet(target, overwrite=True)
    (target / "deaths.parquet").unlink()
    with pytest.raises(StorageError, match=r"deaths\.parquet is missing"):
        TelemetryFrames.read_parquet(target)
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(InvalidArgumentError, match="refusing"):
        frames.to_parquet(other, overwrite=True)
    assert (other / "notes.txt").read_text() == "keep me"
    with pytest.raises(MatchkitError, match="missing"):
        TelemetryFrames.read_parquet(other)


def test_input_is_not_modified() -> None:
    events = small_file()
    before = copy.deepcopy(events)
    to_telemetry_frames(events, match_ids=[MATCH])
    assert events == before


def test_a_death_takes_the_round_number_its_round_carries() -> None:
    events = small_file()
    events[0]["dataObject"]["round"] = 1  # documents that number rounds from 1
    events[4]["dataObject"]["round"] = 2
    events.append(event(60, DEATH, matchID=MATCH, userID="p1"))  # after the last round's end
    frames = frames_of(events)
    assert frames.rounds["round"].tolist() == [1, 2]
    rounds = frames.deaths["round"]
    assert rounds.iloc[:2].tolist() == [1, 2]
    assert pd.isna(rounds.iloc[2])

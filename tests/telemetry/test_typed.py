"""The typed fast path and the general path of telemetry parsing give identical TelemetryFrames.

The fast path (:mod:`matchkit.telemetry.typed`) decodes a file into Structs when it has only
declared event types, members and wire types; anything else falls back to dicts. Each test
parses the same input both ways (the general one by switching the fast path off) and compares
every table (values, dtypes, column order) and the problems.
"""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import orjson
import pandas as pd
import pytest

from matchkit.errors import DocumentError
from matchkit.telemetry import TelemetryFrames, parse, to_telemetry_frames
from matchkit.telemetry.schema import QUEUE, TABLE_NAMES
from matchkit.telemetry.typed import decode_typed
from tests.builders.telemetry import sample_telemetry_files
from tests.conftest import shared_path
from tests.telemetry.test_parse import MATCH, event, small_file

REAL_MATCH = "4810AA4CC2C34FDCBA34C7E8915EAFD4"


def general(telemetry: Any, monkeypatch: pytest.MonkeyPatch, **options: Any) -> TelemetryFrames:
    """to_telemetry_frames with the typed fast path switched off."""
    with monkeypatch.context() as patch:
        patch.setattr(parse, "decode_typed", lambda raw: None)
        return to_telemetry_frames(telemetry, **options)


def assert_same(fast: TelemetryFrames, slow: TelemetryFrames) -> None:
    for name in TABLE_NAMES:
        pd.testing.assert_frame_equal(
            getattr(fast, name), getattr(slow, name), check_exact=True, obj=name
        )
    assert fast.problems == slow.problems


@pytest.fixture(scope="module")
def generated() -> dict[str, bytes]:
    """The telemetry of the sample set's first 200 global matches."""
    return sample_telemetry_files(limit=200)


def test_generated_files_take_the_fast_path_and_agree(
    generated: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert all(decode_typed(content) is not None for content in generated.values())
    fast = to_telemetry_frames(generated)
    assert len(fast) == 200
    assert len(fast.round_player_stats) > 1000
    assert_same(fast, general(generated, monkeypatch))


def test_the_recorded_real_file_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    content = shared_path("telemetry", f"telemetry-{REAL_MATCH}.json").read_bytes()
    assert decode_typed(content) is not None
    fast = to_telemetry_frames({REAL_MATCH: content})
    assert len(fast.round_player_stats) > 0
    assert_same(fast, general({REAL_MATCH: content}, monkeypatch))


def _odd_files() -> dict[str, list[dict[str, Any]]]:
    """Files each with one thing the fast path does not declare (and one plain file)."""
    queue = event(
        5,
        QUEUE,
        matchId=MATCH,
        userId="a",
        timeJoinedQueue="12",
        timeInQueue=3,
        queueTypes=["x"],
        limitMatchmakingRange=True,
        regionSamples=[{"region": "eu", "latencyMS": 20}, {"region": "us", "latencyMS": None}],
    )
    cases: dict[str, list[dict[str, Any]]] = {"plain": [*small_file(), queue]}

    def case(name: str, change: Any) -> None:
        events = copy.deepcopy(cases["plain"])
        change(events)
        cases[name] = events

    case("unknown type", lambda e: e.append(event(60, "Structures.NewThing", matchID=MATCH, x=1)))
    case("unknown field", lambda e: e[2]["dataObject"].update(killerID="p2"))
    case("unknown nested field", lambda e: e[0]["dataObject"]["playerStats"][0].update(extra=1))
    case("text for an integer", lambda e: e[0]["dataObject"].update(roundLength="long"))
    case("decimal for an integer", lambda e: e[0]["dataObject"].update(roundLength=60.0))
    case("boolean for an integer", lambda e: e[0]["dataObject"].update(winningTeam=True))
    case("integer for text", lambda e: e[2]["dataObject"].update(userID=7))
    case("object for text", lambda e: e[1]["dataObject"].update(version={"a": 1}))
    case("integer beyond 64 bits", lambda e: e[0]["dataObject"].update(roundLength=2**70))
    case("null members", lambda e: e[0]["dataObject"].update(round=None, time=None))
    case("missing members", lambda e: [e[0]["dataObject"].pop(k) for k in ("round", "time")])
    case("empty match id", lambda e: e[2]["dataObject"].update(matchID=""))
    case("other spelling of the match id", lambda e: e[2]["dataObject"].update(matchId=MATCH))
    case("only nulls in a text column", lambda e: e[1]["dataObject"].update(version=None))
    case("text clock beyond int64", lambda e: e[5]["dataObject"].update(timeJoinedQueue="9" * 30))
    return cases


ODD = _odd_files()


def odd_files_by_match() -> dict[str, bytes]:
    """Every odd case as a file of its own match, ``"odd <case>"``, as JSON."""
    files = {}
    for name, events in copy.deepcopy(ODD).items():
        match_id = f"odd {name}"
        for item in events:
            for key in ("matchID", "matchId"):
                if item["dataObject"].get(key):
                    item["dataObject"][key] = match_id
        files[match_id] = json.dumps(events).encode()
    return files


@pytest.mark.parametrize("name", sorted(ODD))
def test_odd_files_agree_alone(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    content = json.dumps(ODD[name]).encode()
    fast = to_telemetry_frames(content, match_ids=[MATCH])
    assert_same(fast, general(content, monkeypatch, match_ids=[MATCH]))


def test_odd_files_agree_among_typed_files(
    generated: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed and general files of one event type in one table (the mixed case)."""
    files = dict(itertools.islice(generated.items(), 20)) | odd_files_by_match()
    fast = to_telemetry_frames(files)
    assert {"odd unknown type", "odd plain"} <= set(fast.match_ids)
    assert len(fast.other_events) == 1
    assert "killer_id" in fast.deaths
    assert_same(fast, general(files, monkeypatch))


def test_typed_files_refuse_what_general_files_refuse() -> None:
    events = small_file()
    events[2]["dataObject"]["matchID"] = "another match"
    with pytest.raises(DocumentError, match="another match"):
        to_telemetry_frames(orjson.dumps(events), match_ids=[MATCH])
    assert decode_typed(orjson.dumps(events)) is not None
    events = small_file()
    events[0]["dataObject"]["playerStats"] = [1]
    with pytest.raises(DocumentError, match="playerStats"):
        to_telemetry_frames(orjson.dumps(events), match_ids=[MATCH])
    with pytest.raises(DocumentError, match="no events"):  # a match's telemetry is never empty
        to_telemetry_frames(b"[]", match_ids=[MATCH])


def test_a_death_round_comes_from_typed_round_events() -> None:
    frames = to_telemetry_frames(orjson.dumps(small_file()), match_ids=[MATCH])
    assert decode_typed(orjson.dumps(small_file())) is not None
    assert frames.deaths["round"].tolist() == [0, 1]
    assert frames.rounds["round"].tolist() == [0, 1]
    assert set(frames.tables) == set(TABLE_NAMES)

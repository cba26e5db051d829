"""A broken PUBG telemetry file, or one of another match, is a typed error naming the match (and
the event, where one event is at fault): never a partial table."""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit.errors import DocumentError, InvalidArgumentError, MatchkitError
from matchkit.telemetry.pubg import DEFAULT_MAX_BYTES, read_pubg_file, to_pubg_telemetry_frames
from matchkit.telemetry.pubg.tables import EVENT_TABLES
from tests import depth
from tests.telemetry.pubg.files import (
    WHOLE,
    WHOLE_MATCH,
    of_type,
    raw_events,
    recorded,
    small_file,
)

MATCH = WHOLE_MATCH


def _error(source: object, **options: object) -> str:
    with pytest.raises(DocumentError) as raised:
        read_pubg_file(source, **options)  # type: ignore[arg-type]
    return str(raised.value)


def test_a_truncated_gzip_stream() -> None:
    packed = gzip.compress(recorded(WHOLE).read_bytes())
    message = _error(packed[: len(packed) // 2], match_id=MATCH)
    assert f"telemetry of match {MATCH} is a truncated gzip stream" in message


def test_a_damaged_gzip_stream() -> None:
    packed = bytearray(gzip.compress(orjson.dumps(small_file())))
    packed[40:60] = b"\xff" * 20
    assert "damaged gzip stream" in _error(bytes(packed), match_id=MATCH)


def test_gzip_past_the_cap_stops_decompressing_there() -> None:
    """200 MB of decompressed data refused at a 1 MB cap, never held: the cap bounds memory."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # gzip, made a MB at a time
    spaces = b" " * 1_000_000
    bomb = b"".join(
        [
            packer.compress(b"["),
            *(packer.compress(spaces) for _ in range(200)),
            packer.compress(b"]"),
            packer.flush(),
        ]
    )
    assert len(bomb) < 1_000_000
    tracemalloc.start()
    try:
        message = _error(bomb, match_id=MATCH, max_bytes=1_000_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "is larger than max_bytes=1,000,000 bytes decompressed" in message
    assert MATCH in message
    assert peak < 8_000_000


def test_the_default_cap_is_2_gib() -> None:
    assert DEFAULT_MAX_BYTES == 2 * 1024**3


def test_a_plain_file_past_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(orjson.dumps(small_file()))
    size = path.stat().st_size
    assert "is larger than max_bytes" in _error(path, max_bytes=size - 1)
    assert "is larger than max_bytes" in _error(path.read_bytes(), max_bytes=size - 1)
    assert read_pubg_file(path, max_bytes=size).match_ids == [MATCH]


def test_gzip_members_and_a_gzip_file_are_read(tmp_path: Path) -> None:
    content = orjson.dumps(small_file())
    path = tmp_path / "telemetry.json.gz"
    path.write_bytes(gzip.compress(content[:100]) + gzip.compress(content[100:]))
    assert read_pubg_file(path).positions.equals(read_pubg_file(content).positions)


def test_a_file_of_another_match() -> None:
    message = _error(recorded(WHOLE), match_id="3f2d0e6a-0000-4000-8000-000000000000")
    assert "telemetry of match 3f2d0e6a-0000-4000-8000-000000000000" in message
    assert f"is the telemetry of match '{MATCH}' (event 0, LogMatchDefinition)" in message


def test_an_old_file_naming_another_match_in_common() -> None:
    events = small_file()
    events[3]["common"]["matchId"] = "match.bro.official.2018-03.eu.solo.other-match"
    message = _error(orjson.dumps(events), match_id=MATCH)
    assert "is the telemetry of match 'other-match' (common.matchId)" in message


def test_a_file_naming_two_matches() -> None:
    events = small_file()
    second = dict(events[0], MatchId="match.bro.official.x.another")
    message = _error(orjson.dumps([*events, second]))
    assert f"names 2 matches (another, {MATCH})" in message


def test_a_file_naming_no_match_needs_its_id() -> None:
    events = small_file()[1:]
    assert "names no match (no LogMatchDefinition)" in _error(orjson.dumps(events))
    assert read_pubg_file(orjson.dumps(events), match_id=MATCH).match_ids == [MATCH]


def test_an_event_without_its_type() -> None:
    events = small_file()
    del events[4]["_T"]
    message = _error(orjson.dumps(events), match_id=MATCH)
    assert message.startswith(f"telemetry of match {MATCH}: event 4 has no _T (its type)")


def test_an_event_without_its_time() -> None:
    events = small_file()
    del events[2]["_D"]
    assert f"{MATCH}: event 2 has no _D (its time)" in _error(orjson.dumps(events), match_id=MATCH)


@pytest.mark.parametrize("time", ["yesterday", "2025-07-12T17:12:02.807", "2025-13-40T00:00:00Z"])
def test_a_time_that_is_not_one(time: str) -> None:
    events = small_file()
    events[5]["_D"] = time
    message = _error(orjson.dumps(events), match_id=MATCH)
    assert f"{MATCH}: event 5 has _D {time!r}, not an ISO 8601 time with its zone" in message


def test_a_type_that_is_not_text() -> None:
    events = small_file()
    events[3]["_T"] = 7
    message = _error(orjson.dumps(events), match_id=MATCH)
    assert f"{MATCH}: event 3 is not a telemetry event (Expected `str`, got `int` at ._T)" in (
        message
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"[{", "is not JSON"),
        (b'{"_T": "LogMatchDefinition"}', "is not a JSON array of events"),
        (
            b'[{"_T": "LogMatchStart", "_D": "2025-07-12T17:12:02.807Z"}, 3]',
            "event 1 is not a JSON object",
        ),
        (b"[]", "holds no events ([])"),
    ],
)
def test_not_a_telemetry_file(content: bytes, expected: str) -> None:
    assert expected in _error(content, match_id=MATCH)


def test_care_package_items_that_are_not_a_list_of_objects() -> None:
    package = of_type(raw_events("telemetry-excerpt-tpa-dist.json"), "LogCarePackageSpawn")[0]
    package["itemPackage"]["items"] = ["Item_Weapon_M249_C"]
    message = _error(orjson.dumps(small_file(package)), match_id=MATCH)
    assert f"telemetry of match {MATCH}: the itemPackage.items of event 6 is not a list" in message


def test_bad_arguments_are_refused_before_reading() -> None:
    for value in (0, -1, 1.5, True, "2GB"):
        with pytest.raises(InvalidArgumentError, match=r"max_bytes=.* must be a whole number"):
            read_pubg_file(b"[]", max_bytes=value)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="telemetry file 0 is a int"):
        read_pubg_file(3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="cannot be read"):
        read_pubg_file("/nonexistent/telemetry.json")
    with pytest.raises(InvalidArgumentError, match="given twice"):
        to_pubg_telemetry_frames([orjson.dumps(small_file()), orjson.dumps(small_file())])
    with pytest.raises(InvalidArgumentError, match="match_ids has 1 ids for 2"):
        to_pubg_telemetry_frames([b"[]", b"[]"], match_ids=[MATCH])


def test_the_input_index_is_named() -> None:
    files = [orjson.dumps(small_file()), b"[1"]
    with pytest.raises(DocumentError, match=r"telemetry file 1 is not JSON.*\(document 1\)"):
        to_pubg_telemetry_frames(files)


def test_a_zlib_error_is_not_raised_raw() -> None:
    with pytest.raises(DocumentError):
        read_pubg_file(b"\x1f\x8b" + zlib.compress(b"[]"))


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_KNOWN = sorted(
    {source.event_type for table in EVENT_TABLES for source in table.sources}
    | {"LogMatchEnd", "LogPlayerAttack", "LogFuture"}
)
_MEMBERS = st.sampled_from(
    [
        "character",
        "killer",
        "victim",
        "item",
        "vehicle",
        "common",
        "gameState",
        "characters",
        "itemPackage",
        "location",
        "accountId",
        "damage",
        "zone",
        "allWeaponStats",
        "gameResultOnFinished",
        "MatchId",
    ]
)


@st.composite
def _events(draw: st.DrawFn) -> list[Any]:
    events = []
    for _ in range(draw(st.integers(0, 6))):
        event = draw(st.dictionaries(_MEMBERS | st.text(max_size=4), _JSON, max_size=4))
        if draw(st.booleans()):
            event["_T"] = draw(st.sampled_from(_KNOWN))
        if draw(st.integers(0, 5)):
            event["_D"] = "2025-07-12T17:12:02.807Z"
        events.append(event if draw(st.integers(0, 9)) else draw(_JSON))
    return events


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_events())
def test_any_json_is_tables_or_a_typed_error(events: list[Any]) -> None:
    """Whatever a file holds: its tables, or a MatchkitError, never an exception from inside."""
    try:
        frames = read_pubg_file(msgspec.json.encode(events), match_id=MATCH)
    except MatchkitError:
        return
    assert frames.match_ids == [MATCH]
    assert int(frames.event_counts["events"].sum()) == len(events)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and list positions)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for position, item in enumerate(value[:2]):
            found += _paths(item, (*path, position))
    return found


@st.composite
def _mutated(draw: st.DrawFn) -> list[Any]:
    """The real excerpt with one to three of its values replaced by any JSON value."""
    events = raw_events("telemetry-excerpt-tpa-dist.json")  # a fresh copy
    for _ in range(draw(st.integers(1, 3))):
        position = draw(st.integers(1, len(events) - 1))  # the definition names the match
        path = draw(st.sampled_from(_paths(events[position])[1:]))
        parent = events[position]
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = draw(_JSON)
    return events


@settings(
    max_examples=depth.examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(_mutated())
def test_real_events_with_any_value_anywhere(events: list[Any]) -> None:
    try:
        frames = read_pubg_file(msgspec.json.encode(events))
    except MatchkitError:
        return
    assert frames.match_ids == ["8c1c8a56-4104-46ef-8aec-5e012b041574"]
    assert int(frames.event_counts["events"].sum()) == len(events)

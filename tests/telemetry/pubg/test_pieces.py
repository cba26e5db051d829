"""A file not yet in memory whole (gzip bytes, a gzip file, a plain file on disk) is read a piece
at a time; whatever the pieces are and whatever the events' strings hold, it gives the tables of
the same file read in one piece (its plain bytes in memory), and a file broken anywhere fails
whole, with the error of the file read in one piece."""

from __future__ import annotations

import gzip
import threading
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit.errors import DocumentError, MatchkitError
from matchkit.telemetry.pubg import read_pubg_file
from matchkit.telemetry.pubg.frames import PubgTelemetryFrames
from tests import depth
from tests.telemetry.pubg.files import (
    EXCERPT,
    WHOLE,
    WHOLE_MATCH,
    raw_events,
    recorded,
    small_file,
)
from tests.telemetry.pubg.test_readers import assert_same


def _streamed(content: bytes, folder: Path) -> list[Any]:
    """The ways a file is read in pieces: gzip bytes, a gzip file, a plain file."""
    packed = folder / "telemetry.json.gz"
    packed.write_bytes(gzip.compress(content))
    plain = folder / "telemetry.json"
    plain.write_bytes(content)
    return [gzip.compress(content), packed, plain]


def _threads() -> set[str]:
    return {thread.name for thread in threading.enumerate() if "matchkit" in thread.name}


@pytest.mark.parametrize("piece", [1, 97, 4_096, 1 << 20])
def test_the_excerpt_in_pieces_of_any_size(piece: int, tmp_path: Path) -> None:
    content = recorded(EXCERPT).read_bytes()
    whole = read_pubg_file(content)
    for source in _streamed(content, tmp_path):
        assert_same(whole, read_pubg_file(source, piece=piece))


@pytest.mark.parametrize("piece", [4_096])  # 660 pieces; other sizes: the excerpt's test
def test_the_whole_file_in_pieces(piece: int, tmp_path: Path) -> None:
    """The recorded whole file (2.7 MB, pretty-printed: its events are cut where whitespace
    separates them), and the same events written compact."""
    content = recorded(WHOLE).read_bytes()
    compact = orjson.dumps(orjson.loads(content))
    for text in (content, compact):
        whole = read_pubg_file(text)
        assert whole.files["bytes"].tolist() == [len(text)]
        for source in _streamed(text, tmp_path):
            read = read_pubg_file(source, piece=piece)
            assert_same(whole, read)
            _assert_same_arrays(whole, read)


def _assert_same_arrays(left: PubgTelemetryFrames, right: PubgTelemetryFrames) -> None:
    """Each column's array of the same class, and value for value, not only alike."""
    for name, table in left.tables.items():
        other = right.tables[name]
        assert list(table.columns) == list(other.columns), name
        for column in table.columns:
            assert type(table[column].array) is type(other[column].array), (name, column)
            assert table[column].equals(other[column]), (name, column)


def test_strings_that_look_like_boundaries_are_not_cut(tmp_path: Path) -> None:
    """Strings holding ``},{`` (what a cut between two events looks for) and the text of whole
    events, and lists of objects inside an event: a cut there would leave a string or a
    container open, which msgspec refuses, so it is not taken."""
    trap = '"},{"_T":"LogMatchEnd","_D":"2025-07-12T17:12:02.807Z"},{"x": "'
    events = small_file(
        {"_T": "LogFuture", "_D": "2025-07-12T17:12:03.000Z", "note": trap * 40},
        {"_T": "LogFuture", "_D": "2025-07-12T17:12:04.000Z", "list": [{"a": 1}, {"b": "},{"}]},
        {"_T": "LogFuture", "_D": "2025-07-12T17:12:05.000Z", "escaped": '\\"},{\\"' * 30},
    )
    content = orjson.dumps(events)
    whole = read_pubg_file(content, match_id=WHOLE_MATCH)
    assert whole.event_counts["events"].sum() == len(events)
    for piece in (1, 64):
        for source in _streamed(content, tmp_path):
            assert_same(whole, read_pubg_file(source, match_id=WHOLE_MATCH, piece=piece))


def _error(source: Any, piece: int, **options: Any) -> str:
    with pytest.raises(DocumentError) as raised:
        read_pubg_file(source, match_id=WHOLE_MATCH, piece=piece, **options)
    return str(raised.value)


def test_a_file_broken_near_its_end_fails_whole_naming_the_same_byte(tmp_path: Path) -> None:
    content = recorded(WHOLE).read_bytes()
    broken = content[: len(content) - 5_000] + b"#" + content[len(content) - 4_999 :]
    whole = _error(broken, 1)
    assert "is not JSON: JSON is malformed: invalid character" in whole
    for piece in (4_096, 100_003):
        assert _error(gzip.compress(broken), piece) == whole
        plain = tmp_path / "broken.json"
        plain.write_bytes(broken)
        assert _error(plain, piece) == whole.replace(WHOLE_MATCH, f"{WHOLE_MATCH} ({plain})")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda event: event.pop("_T"), "event 2500 has no _T (its type)"),
        (lambda event: event.update(_D="noon"), "event 2500 has _D 'noon', not an ISO 8601"),
        (lambda event: event.pop("_D"), "event 2500 has no _D (its time)"),
    ],
)
def test_a_bad_event_in_a_late_piece_is_named_by_its_file_index(change: Any, says: str) -> None:
    events = raw_events(WHOLE)
    change(events[2_500])
    content = orjson.dumps(events)
    message = _error(content, 1)
    assert says in message
    for piece in (4_096, 65_536):
        assert _error(gzip.compress(content), piece) == message


def test_broken_gzip_in_pieces_fails_as_in_one_piece() -> None:
    content = recorded(WHOLE).read_bytes()
    packed = gzip.compress(content)
    damaged = bytearray(packed)
    damaged[len(damaged) // 2 : len(damaged) // 2 + 20] = b"\xff" * 20
    for broken, says in [
        (packed[: len(packed) // 2], "is a truncated gzip stream"),
        (packed[:-3], "is a truncated gzip stream"),
        (bytes(damaged), "damaged gzip stream"),
        (packed + b"\0\0\0trailing", "bytes after its gzip stream that are not gzip"),
        (packed + b"\x1f", "bytes after its gzip stream that are not gzip"),
    ]:
        whole = _error(broken, 1 << 40)
        assert says in whole
        for piece in (4_096, 100_003):
            assert _error(broken, piece) == whole


def test_gzip_members_and_padding_in_pieces(tmp_path: Path) -> None:
    """Several gzip members one after the other, and zeros after the last, read as one file."""
    content = recorded(WHOLE).read_bytes()
    whole = read_pubg_file(content)
    middle = len(content) // 3
    members = gzip.compress(content[:middle]) + gzip.compress(content[middle:]) + b"\0" * 700
    for piece in (4_096, 100_003):
        assert_same(whole, read_pubg_file(members, piece=piece))


def test_the_cap_holds_in_pieces(tmp_path: Path) -> None:
    content = recorded(WHOLE).read_bytes()
    plain = tmp_path / "telemetry.json"
    plain.write_bytes(content)
    message = _error(gzip.compress(content), 4_096, max_bytes=1_000_000)
    assert "is larger than max_bytes=1,000,000 bytes decompressed" in message
    assert "is larger than max_bytes=1,000,000" in _error(plain, 4_096, max_bytes=1_000_000)


def test_no_thread_is_left_running(tmp_path: Path) -> None:
    """The thread that reads ahead ends with the read, whether the file is read or refused."""
    before = _threads()
    content = recorded(WHOLE).read_bytes()
    read_pubg_file(gzip.compress(content), piece=4_096)
    packed = gzip.compress(content)
    _error(packed[: len(packed) // 2], 4_096)
    assert _threads() == before


_TEXT = st.text(alphabet=st.sampled_from(list('{}[],:" \\\nab_T')), max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def _varied(draw: st.DrawFn) -> tuple[bytes, int]:
    """The real excerpt with values replaced by any JSON (strings of brackets, commas and
    quotes among them), events added or dropped, written compact or indented, and a piece
    size."""
    events: list[Any] = raw_events(EXCERPT)
    for _ in range(draw(st.integers(0, 4))):
        position = draw(st.integers(1, len(events) - 1))
        event = events[position]
        if isinstance(event, dict) and event:
            key = draw(st.sampled_from(sorted(event)))
            event[key] = draw(_JSON)
    for _ in range(draw(st.integers(0, 2))):
        events.insert(draw(st.integers(1, len(events))), draw(_JSON))
    if draw(st.booleans()):
        del events[draw(st.integers(1, len(events) - 1))]
    content = msgspec.json.encode(events)
    if draw(st.booleans()):
        content = msgspec.json.format(content, indent=draw(st.sampled_from([1, 2, 4])))
    return content, draw(st.sampled_from([1, 5, 64, 333, 2_048, 8_192]))


@settings(
    max_examples=depth.examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(_varied())
def test_varied_files_read_alike_in_pieces(drawn: tuple[bytes, int]) -> None:
    content, piece = drawn
    packed = gzip.compress(content)
    try:
        whole = read_pubg_file(content)
    except MatchkitError as error:
        refused: MatchkitError | None = error
    else:
        refused = None
    if refused is not None:
        with pytest.raises(type(refused)) as raised:
            read_pubg_file(packed, piece=piece)
        assert str(raised.value) == str(refused)
        return
    assert_same(whole, read_pubg_file(packed, piece=piece))


def test_a_file_in_pieces_is_never_held_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With the one-piece split out of reach, a file of many pieces still reads: its events
    were cut from the pieces, not read from the whole file."""
    content = recorded(WHOLE).read_bytes()
    whole = read_pubg_file(content)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the file was read in one piece")

    monkeypatch.setattr("matchkit.telemetry.pubg.read.split_events", refused)
    monkeypatch.setattr("matchkit.telemetry.pubg.pieces.split_events", refused)
    for source in _streamed(content, tmp_path):
        assert_same(whole, read_pubg_file(source, piece=65_536))

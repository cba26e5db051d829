"""The fast path (typed decoding) gives the same tables as the general path, or steps aside."""

from __future__ import annotations

import copy
import gc
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit import to_frames
from matchkit.errors import DocumentError
from matchkit.model.frames import MatchFrames
from matchkit.normalize import walker
from matchkit.normalize.pipeline import shape_decoder
from matchkit.sampledata.dataset import open_dataset
from tests.builders.resources import arena, match, page, participant, player, roster

DECODER = shape_decoder()


def general(pages: list[bytes]) -> MatchFrames:
    """The tables of the general path: documents given as dicts never take the fast path.

    (Parsed as the general path parses raw pages: integers of any size stay integers.)
    """
    return to_frames([msgspec.json.decode(raw) for raw in pages])


def assert_same_frames(left: MatchFrames, right: MatchFrames) -> None:
    assert left.tables.keys() == right.tables.keys()
    for name, frame in left.tables.items():
        pd.testing.assert_frame_equal(frame, right.tables[name], obj=name)
    assert left.problems == right.problems


def sample_pages(samples_dir: Path) -> list[Path]:
    paths = sorted((samples_dir / "battlerite").glob("match*-response-*.json"))
    assert len(paths) >= 10
    return paths


def test_recorded_global_pages_take_the_fast_path(samples_dir: Path) -> None:
    for path in sample_pages(samples_dir):
        raw = path.read_bytes()
        assert DECODER.decode(raw) is not None, path.name
        assert_same_frames(to_frames(raw), general([raw]))


def test_recorded_pages_together_equal_the_general_path(samples_dir: Path) -> None:
    pages = [path.read_bytes() for path in sample_pages(samples_dir)]
    frames = to_frames(pages)
    assert len(frames) > 0
    assert_same_frames(frames, general(pages))


def test_older_variant_and_status_take_the_general_path(samples_dir: Path) -> None:
    for path in [
        samples_dir / "vainglory" / "matchCollection.json",
        samples_dir / "vainglory" / "matchSingle.json",
        samples_dir / "battlerite" / "status-response.json",
    ]:
        raw = path.read_bytes()
        assert DECODER.decode(raw) is None, path.name
        assert_same_frames(to_frames(raw), general([raw]))


def test_decoded_resources_leave_the_garbage_collector_nothing_to_track() -> None:
    # Resources wait in a batch across pages: anything tracked among them is promoted by young
    # collections and sets off full ones (see wire.Relationship).
    line = next(open_dataset().iter_lines("global"))
    decoded = DECODER.decode(line)
    assert decoded is not None
    data = decoded.data if isinstance(decoded.data, list) else [decoded.data]
    resources = [*data, *decoded.included]
    relationships = [
        relationship.data
        for resource in resources
        for relationship in msgspec.structs.astuple(resource.relationships)
    ]
    lists = [data for data in relationships if isinstance(data, list | tuple) and data]
    assert len(lists) >= 5
    gc.collect(0)
    assert not any(map(gc.is_tracked, resources))
    assert not any(map(gc.is_tracked, relationships))


def test_the_sample_data_set_takes_the_fast_path() -> None:
    lines = [line for _, line in zip(range(300), open_dataset().iter_lines("global"), strict=False)]
    assert all(DECODER.decode(line) is not None for line in lines)
    assert_same_frames(to_frames(lines), general(lines))


def _arena_page(match_id: str = "m1") -> dict[str, Any]:
    return page(arena(match_id))


def _change(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of the page with ``value`` set at a dotted path (``included.0.attributes.x``)."""
    changed = copy.deepcopy(document)
    *parents, last = path.split(".")
    target: Any = changed
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return changed


def _first(document: dict[str, Any], type_: str) -> int:
    return next(i for i, r in enumerate(document["included"]) if r["type"] == type_)


OUTSIDE = {
    "an unknown attribute": ("participant", "attributes.colour", "blue"),
    "an unknown stats member": ("participant", "attributes.stats.skinKey", "Skin_1"),
    "an unknown relationship": ("roster", "relationships.coach", {"data": None}),
    "null attributes": ("participant", "attributes", None),
    "text stats of a roster": ("roster", "attributes.stats", "score 3"),
    "a number as identifier id": ("participant", "relationships.player.data", {"type": "player"}),
    "an empty id": ("participant", "id", ""),
    "an unknown resource type": ("participant", "type", "coach"),
    "an identifier of a type outside the model": (
        "participant",
        "relationships.player.data",
        {"type": "coach", "id": "c1"},
    ),
}


@pytest.mark.parametrize("case", sorted(OUTSIDE))
def test_a_page_outside_the_declaration_takes_the_general_path(case: str) -> None:
    type_, path, value = OUTSIDE[case]
    document = _arena_page()
    document = _change(document, f"included.{_first(document, type_)}.{path}", value)
    raw = orjson.dumps(document)
    assert DECODER.decode(raw) is None
    try:
        expected: MatchFrames | str = general([raw])
    except DocumentError as error:
        expected = str(error)
    if isinstance(expected, str):
        with pytest.raises(DocumentError) as raised:
            to_frames(raw)
        assert str(raised.value) == expected
    else:
        assert_same_frames(to_frames(raw), expected)


@pytest.mark.parametrize(
    "member", [("links", {"self": "x", "schema": 5}), ("meta", {"a": [1]}), ("foo", [None])]
)
def test_unread_members_keep_the_fast_path(member: tuple[str, Any]) -> None:
    # Neither reader reads a resource's, a relationship's or an identifier's members beyond
    # type, id, attributes, relationships and data.
    name, value = member
    document = _arena_page()
    for resource in [*document["data"], *document["included"]]:
        resource[name] = value
        for relationship in resource.get("relationships", {}).values():
            relationship[name] = value
            data = relationship["data"]
            for identifier in data if isinstance(data, list) else [data] if data else []:
                identifier[name] = value
    raw = orjson.dumps(document)
    assert DECODER.decode(raw) is not None
    assert_same_frames(to_frames(raw), general([raw]))


def test_a_resources_unread_member_must_still_be_json() -> None:
    raw = orjson.dumps(_arena_page()).replace(
        b'"type":"participant",', b'"links":{,"type":"participant",', 1
    )
    assert DECODER.decode(raw) is None
    with pytest.raises(DocumentError):
        to_frames(raw)


def test_an_unknown_member_is_kept_as_a_column_through_the_general_path() -> None:
    document = _arena_page()
    document = _change(document, f"included.{_first(document, 'participant')}.attributes.colour", 7)
    frames = to_frames(orjson.dumps(document))
    assert frames.participants["colour"].notna().sum() == 1


@pytest.mark.parametrize(
    "document",
    [b'{"errors": [{"status": "404", "title": "Not Found"}]}', b"[1, 2]", b'{"data": 5}', b"{"],
    ids=["error document", "a list", "data a number", "not JSON"],
)
def test_malformed_pages_raise_the_general_paths_error(document: bytes) -> None:
    assert DECODER.decode(document) is None
    with pytest.raises(DocumentError):
        to_frames(document)


def _stats_page(*stats: dict[str, Any]) -> bytes:
    participants = [participant(f"p{i}", stats=s) for i, s in enumerate(stats)]
    rosters = [roster("r1", participants=[p["id"] for p in participants])]
    return msgspec.json.encode(
        {"data": [match("m1", rosters=["r1"])], "included": [*rosters, *participants]}
    )


def test_an_extra_member_no_resource_carries_adds_no_column() -> None:
    raw = _stats_page({"kills": 1, "side": 1}, {"kills": 2, "side": 2})
    assert DECODER.decode(raw) is not None
    frames = to_frames(raw)
    assert "ability_uses" not in frames.participants
    assert_same_frames(frames, general([raw]))


def test_an_extra_member_carried_as_null_adds_a_column() -> None:
    raw = _stats_page({"kills": 1, "abilityUses": None}, {"kills": 2})
    assert DECODER.decode(raw) is not None
    frames = to_frames(raw)
    assert frames.participants["ability_uses"].isna().all()
    assert_same_frames(frames, general([raw]))


VALUES_OF_ANY_KIND = [2**70, -(2**64), 7, 1.5, True, "12", [1, 2], {"b": 1, "a": 2}, None]


@pytest.mark.parametrize("value", VALUES_OF_ANY_KIND)
def test_a_member_whose_wire_type_varies_takes_values_of_any_kind(value: Any) -> None:
    raw = _stats_page({"kills": 1, "userID": value}, {"kills": 2, "userID": "7"})
    assert DECODER.decode(raw) is not None
    assert_same_frames(to_frames(raw), general([raw]))


@pytest.mark.parametrize("value", VALUES_OF_ANY_KIND)
def test_a_value_not_of_a_members_wire_type_sends_its_page_the_general_way(value: Any) -> None:
    raw = _stats_page({"kills": 1, "timeAlive": value}, {"kills": value})
    takes_fast_path = value is None or type(value) is int  # integers of any size
    assert (DECODER.decode(raw) is not None) == takes_fast_path
    assert_same_frames(to_frames(raw), general([raw]))


DECLARED_STATS = st.sampled_from(["abilityUses", "damageDone", "healingDone", "timeAlive", "side"])
VALUES = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.text(max_size=4),
    st.none(),
    st.lists(st.integers(0, 9), max_size=2),
)


@st.composite
def mixed_pages(draw: st.DrawFn) -> list[bytes | dict[str, Any]]:
    """Pages of arena matches, some repeated, with declared stats of any value; each page as
    bytes (fast path) or as a dict (general path), so both paths fill one buffer in turn."""
    pages: list[bytes | dict[str, Any]] = []
    for number in range(draw(st.integers(1, 5))):
        match_id = f"m{draw(st.integers(0, number))}"  # may repeat an earlier match
        document = page(arena(match_id, per_side=draw(st.integers(1, 2))))
        for resource in document["included"]:
            if resource["type"] == "participant":
                resource["attributes"]["stats"].update(
                    draw(st.dictionaries(DECLARED_STATS, VALUES, max_size=2))
                )
            if resource["type"] == "player" and draw(st.booleans()):
                resource["attributes"]["stats"] = {"wins": draw(VALUES)}
        pages.append(msgspec.json.encode(document) if draw(st.booleans()) else document)
    return pages


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages=mixed_pages(), chunk=st.sampled_from([1, 3, 4096]))
def test_fast_and_general_paths_in_turn_equal_the_general_path(
    pages: list[bytes | dict[str, Any]], chunk: int
) -> None:
    as_dicts = [msgspec.json.decode(p) if isinstance(p, bytes) else p for p in pages]
    original = walker.FLUSH_ROWS
    walker.FLUSH_ROWS = chunk
    try:
        mixed = to_frames(pages)
    finally:
        walker.FLUSH_ROWS = original
    assert_same_frames(mixed, to_frames(as_dicts))


def test_the_fast_path_is_no_longer_tried_on_input_of_another_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tries = []
    decode = type(DECODER).decode

    def counted(self: Any, raw: Any) -> Any:
        tries.append(raw)
        return decode(self, raw)

    monkeypatch.setattr(type(DECODER), "decode", counted)
    other = _change(_arena_page(), "included.0.attributes.colour", 1)
    pages = [orjson.dumps(_change(other, "data.0.id", f"m{i}")) for i in range(40)]
    frames = to_frames(pages)
    assert len(frames) == 40
    assert len(tries) == walker.TYPED_GIVE_UP
    tries.clear()
    to_frames([orjson.dumps(_arena_page(f"m{i}")) for i in range(40)])
    assert len(tries) == 40  # pages of the known shape keep being decoded


def test_a_player_with_assets_keeps_them_as_text_in_both_paths() -> None:
    document = _arena_page()
    index = _first(document, "player")
    document["included"][index]["relationships"]["assets"]["data"] = [{"type": "asset", "id": "a9"}]
    raw = orjson.dumps(document)
    assert DECODER.decode(raw) is not None
    frames = to_frames(raw)
    assert frames.players["assets"].dropna().tolist() == ['[{"id":"a9","type":"asset"}]']
    assert_same_frames(frames, general([raw]))


def test_player_stats_objects_are_read_as_in_the_general_path() -> None:
    document = _arena_page()
    document["included"][_first(document, "player")] = player("x", stats={"wins": 3, "xp": 1.5})
    raw = orjson.dumps(document)
    assert DECODER.decode(raw) is not None
    assert_same_frames(to_frames(raw), general([raw]))

"""The normalizer fed arbitrary JSON (hypothesis): valid MatchFrames or a DocumentError, no other.

Inputs are real documents (the sample set's first global and na matches, and a small built one)
with parts replaced by arbitrary JSON values (wrong types where objects or numbers are expected,
huge numbers, deep nesting), included resources removed, and wholly arbitrary JSON values and
bytes.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit import DocumentError, MatchFrames, to_frames
from matchkit.model.schema import TABLE_NAMES, TABLES
from matchkit.sampledata.dataset import open_dataset
from tests import depth
from tests.builders.matches import arena_match, bot, player, royale_match

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _seed_documents() -> list[dict[str, Any]]:
    dataset = open_dataset()
    seeds = [next(iter(dataset.iter_documents(shard))) for shard in dataset.shards]
    seeds.append(
        arena_match(
            "M1",
            participants=[[player("a"), bot("b")], [player("c", registered=False)]],
            rounds=[(60, 1), (70, 2)],
        )
    )
    seeds.append(royale_match("R1", teams=3))
    return seeds


SEEDS = _seed_documents()

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),  # unbounded: far beyond 64 bits
    st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**40, -1, 0]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e308, -1e308, 5e-324]),
    st.text(max_size=20),
    st.sampled_from(["", "true", "false", "2026-10-01T00:00:00Z", "not a time", "\x00"]),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=10), children, max_size=4),
    ),
    max_leaves=20,
)


def deep(depth: int, leaf: Any, *, as_object: bool) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"a": value} if as_object else [value]
    return value


deep_values = st.builds(
    deep, st.integers(min_value=1, max_value=600), scalars, as_object=st.booleans()
)
replacements = st.one_of(json_values, deep_values)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (a tuple of keys and indexes) to a node below the top."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(_paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(_paths(child, (*prefix, index)))
    return found


def _replace(document: Any, path: tuple, value: Any) -> None:
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    document = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(document)
        if not paths:
            break
        _replace(document, draw(st.sampled_from(paths)), draw(replacements))
    included = document.get("included")
    if isinstance(included, list) and included and draw(st.booleans()):
        # Lose some included resources (references left dangling).
        keep = draw(st.lists(st.booleans(), min_size=len(included), max_size=len(included)))
        document["included"] = [item for item, kept in zip(included, keep, strict=True) if kept]
    return document


def check_frames(frames: object) -> None:
    """The invariants of a MatchFrames, whatever went in."""
    assert isinstance(frames, MatchFrames)
    for name in TABLE_NAMES:
        table = getattr(frames, name)
        assert isinstance(table, pd.DataFrame), name
        known = TABLES[name].column_names
        assert list(table.columns[: len(known)]) == known, name
        assert table.columns.is_unique, name
        for column in TABLES[name].columns:
            if column.name.endswith("_id") and column.kind == "string":
                dtype = table[column.name].dtype
                assert pd.api.types.is_string_dtype(dtype), (name, column.name, dtype)
    assert frames.matches["match_id"].is_unique
    assert all(isinstance(problem, str) for problem in frames.problems)
    assert len(frames) == len(frames.matches)
    repr(frames)
    frames.summary()


def normalize(documents: Any) -> None:
    try:
        frames = to_frames(documents)
    except DocumentError as error:
        frames = error
    if isinstance(frames, DocumentError):
        assert str(frames)  # says what is wrong
    else:
        check_frames(frames)


@FUZZ
@given(document=mutated_documents())
def test_mutated_document_gives_frames_or_a_document_error(document):
    normalize(document)


@FUZZ
@given(pages=st.lists(mutated_documents(), min_size=2, max_size=3))
def test_several_mutated_pages_give_frames_or_a_document_error(pages):
    normalize(pages)


@FUZZ
@given(value=st.one_of(json_values, deep_values))
def test_arbitrary_json_value_gives_frames_or_a_document_error(value):
    normalize(value)
    normalize({"data": value})
    normalize({"data": [value], "included": value})


@FUZZ
@given(raw=st.one_of(st.binary(max_size=200), st.text(max_size=200)))
def test_arbitrary_bytes_and_text_give_frames_or_a_document_error(raw):
    normalize(raw)


def _with_deep_stats(depth: int) -> bytes:
    """A built match whose first participant's ``kills`` is an object nested ``depth`` deep."""
    stats = '{"a":' * depth + "1" + "}" * depth
    raw = orjson.dumps(SEEDS[-2])
    return raw.replace(b'"kills":0', b'"kills":' + stats.encode(), 1)


@pytest.mark.parametrize("depth", [100, 300, 1000, 5000])
def test_deeply_nested_raw_data(depth):
    normalize(('{"data":' + "[" * depth + "]" * depth + "}").encode())


@pytest.mark.parametrize("depth", [100, 300, 2000])
def test_deeply_nested_stats(depth):
    normalize(_with_deep_stats(depth))


@settings(
    max_examples=depth.examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(document=mutated_documents())
def test_frames_of_mutated_documents_round_trip_through_parquet(document, tmp_path_factory):
    try:
        frames = to_frames(document)
    except DocumentError:
        return
    folder = tmp_path_factory.mktemp("fuzz-parquet")
    frames.to_parquet(folder)
    again = MatchFrames.read_parquet(folder)
    assert again.problems == frames.problems
    for name in TABLE_NAMES:  # every value and dtype, whatever the mutation made of them
        original, restored = frames.tables[name], again.tables[name]
        key = list(TABLES[name].key)
        pd.testing.assert_frame_equal(
            restored.sort_values(key, ignore_index=True),
            original.sort_values(key, ignore_index=True),
            obj=name,
        )


def test_a_value_nested_600_deep_is_kept_as_text() -> None:
    frames = to_frames(_with_deep_stats(600))
    kills = frames.participants["kills"]
    assert kills.dtype == "Int64"  # the known column keeps its dtype; the value is reported
    assert any("kills" in problem for problem in frames.problems)

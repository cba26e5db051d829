"""The reader's fast paths give what the general ones give: a column already of its type made
straight from Arrow's buffers is :func:`matchkit.normalize.convert`'s array, a table built from
its blocks is pandas' constructor's, files' frames alike stacked by one concat are what
:func:`matchkit.model.combine.stack` and the coercion make of them, and match_start joined to
its definition from their columns is what the merge gives."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit.normalize import Problems, convert
from matchkit.telemetry.pubg import PubgTelemetryFrames, frames, read_pubg_file
from matchkit.telemetry.pubg.chunks import frame_of, pandas_column
from matchkit.telemetry.pubg.schema import TABLE_NAMES
from tests import depth
from tests.telemetry.pubg.files import (
    EXCERPT,
    WHOLE,
    encoded,
    of_type,
    raw_events,
    recorded,
    small_file,
)

_INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_VALUES = {
    pa.int64(): _INT64,
    pa.float64(): st.floats(allow_nan=False, allow_infinity=False),
    pa.bool_(): st.booleans(),
    pa.string(): st.text(max_size=5),
    pa.large_string(): st.sampled_from(["12", "true", "false", "x", "2025-07-12T17:12:02Z"]),
    pa.null(): st.none(),
}


@st.composite
def arrow_columns(draw: st.DrawFn) -> pa.Array:
    """An Arrow column of one type, missing values among them, sometimes a slice of a longer
    one (its bitmaps then start past a byte's first bit)."""
    arrow_type = draw(st.sampled_from(list(_VALUES)))
    values = draw(st.lists(st.one_of(st.none(), _VALUES[arrow_type]), max_size=40))
    array = pa.array(values, arrow_type)
    start = draw(st.integers(min_value=0, max_value=len(values)))
    return array.slice(start, draw(st.integers(min_value=0, max_value=len(values) - start)))


@settings(max_examples=400, deadline=None)
@given(arrow_columns(), st.sampled_from(["Int64", "float64", "boolean", "string", "category"]))
def test_a_column_made_from_buffers_is_converts(array: pa.Array, kind: Any) -> None:
    fast_problems, problems = Problems(), Problems()
    fast = pandas_column(array, kind, label="t.c", problems=fast_problems)
    expected = convert(array, kind, label="t.c", problems=problems)
    assert type(fast) is type(expected)
    assert fast.dtype == expected.dtype
    pd.testing.assert_series_equal(pd.Series(fast), pd.Series(expected), check_exact=True)
    assert fast_problems.texts() == problems.texts()
    if isinstance(expected, pd.arrays.IntegerArray | pd.arrays.BooleanArray):
        # what lies under a missing value is convert's too (a sum of the raw data sees it)
        assert np.array_equal(
            fast.to_numpy(dtype=object, na_value=None),
            expected.to_numpy(dtype=object, na_value=None),
        )
        assert np.array_equal(np.asarray(fast._data), np.asarray(expected._data))


def test_a_table_from_its_blocks_is_the_constructors() -> None:
    kills = read_pubg_file(recorded(WHOLE)).kills
    data = {name: kills[name].array for name in kills.columns}
    data["plain"] = np.arange(len(kills), dtype=np.float64)
    built = frame_of(data)
    pd.testing.assert_frame_equal(built, pd.DataFrame(data, copy=False), check_exact=True)
    built.columns.name = "renamed"  # its labels are its own, not shared with the next table
    assert frame_of(data).columns.name is None


def _pool_file(number: int) -> list[dict[str, Any]]:
    match = f"00000000-0000-4000-8000-00000000000{number}"
    if number == 1:
        return small_file(match=match)
    if number == 2:  # the older kill event too: kills.event_type of other categories
        return small_file(
            copy.deepcopy(of_type(raw_events(EXCERPT), "LogPlayerKill")[0]), match=match
        )
    if number == 3:  # a member nobody declares: an extra column, so not alike
        events = small_file(match=match)
        of_type(events, "LogPlayerPosition")[0]["character"]["stance"] = "crouch"
        return events
    if number == 4:  # a type without a table, and one PUBG does not document
        extra = {"_D": "2025-07-12T17:12:02.807Z", "_T": "LogBrandNew", "thing": 1}
        return small_file(
            copy.deepcopy(of_type(raw_events(WHOLE), "LogHeal")[0]), extra, match=match
        )
    return small_file(match=match)


@cache
def _pool() -> tuple[PubgTelemetryFrames, ...]:
    files = [read_pubg_file(recorded(WHOLE)), read_pubg_file(recorded(EXCERPT))]
    files += [read_pubg_file(encoded(_pool_file(number))) for number in range(1, 6)]
    return tuple(files)


def _stacked(parts: list[PubgTelemetryFrames], monkeypatch: pytest.MonkeyPatch) -> Any:
    """concat with every table through stack() and the coercion (no frames taken as alike)."""
    with monkeypatch.context() as patch:
        patch.setattr(frames, "_stacked_alike", lambda parts, name: None)
        return PubgTelemetryFrames.concat(parts)


def test_a_whole_file_combines_as_stacking_combines_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _assert_combined_as_stacked([0, 2, 0, 6], monkeypatch)  # the whole file, and given twice


# The drawn lists leave out the whole recorded file (index 0): its tens of thousands of rows,
# stacked the slow way in every example, made this test 14 CPU-seconds.
@settings(
    max_examples=depth.examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(chosen=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=4))
def test_frames_alike_combine_as_stacking_combines_them(
    chosen: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    _assert_combined_as_stacked(chosen, monkeypatch)


def _assert_combined_as_stacked(chosen: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    parts = [_pool()[index] for index in chosen]  # a match given twice keeps its first
    combined = PubgTelemetryFrames.concat(parts)
    expected = _stacked(parts, monkeypatch)
    for name in TABLE_NAMES:
        left, right = combined.tables[name], expected.tables[name]
        pd.testing.assert_frame_equal(left, right, check_exact=True, obj=name)
        assert [str(dtype) for dtype in left.dtypes] == [str(dtype) for dtype in right.dtypes]
        for column in left.columns:
            assert left[column].dtype == right[column].dtype, (name, column)
    assert combined.problems == expected.problems


def test_the_fast_combination_is_taken_for_files_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[str] = []
    alike = frames._stacked_alike

    def counted(parts: list[pd.DataFrame], name: str) -> Any:
        found = alike(parts, name)
        if found is not None:
            taken.append(name)
        return found

    monkeypatch.setattr(frames, "_stacked_alike", counted)
    PubgTelemetryFrames.concat([_pool()[index] for index in (2, 3, 6)])
    assert {"kills", "positions", "damage", "item_events"} <= set(taken)


def test_match_start_joins_a_definition_whose_names_it_has_as_extras() -> None:
    """The rare file whose LogMatchStart carries members named as LogMatchDefinition's columns:
    the merge's suffix names the definition's."""
    events = small_file()
    start = of_type(events, "LogMatchStart")[0]
    start["seasonState"] = "Progress"
    start["definitionTime"] = 3
    definition = of_type(events, "LogMatchDefinition")[0]
    frames_ = read_pubg_file(encoded(events))
    row = frames_.match_start.iloc[0]
    assert list(frames_.match_start.columns[-4:]) == [
        "season_state",
        "definition_time",
        "definition_time_definition",
        "season_state_definition",
    ]
    assert row["season_state"] == "Progress"
    assert row["definition_time"] == 3
    assert row["definition_id"] == definition["MatchId"]
    assert row["definition_time_definition"] == pd.Timestamp(definition["_D"]).floor("us")
    assert len(frames_.match_start) == 1

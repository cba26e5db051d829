"""The value rules behind every column: names, inferred types, text forms, conversions."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

from matchkit.model.text import text_value
from matchkit.normalize.assemble import snake_case
from matchkit.normalize.columns import convert, fast_arrow, to_arrow
from matchkit.normalize.problems import Problems


@pytest.mark.parametrize(
    ("wire", "column"),
    [
        ("mapID", "map_id"),
        ("userID", "user_id"),
        ("URL", "url"),
        ("acesEarned", "aces_earned"),
        ("crystalMineCaptures", "crystal_mine_captures"),
        ("played_ranked", "played_ranked"),
        ("HTTPStatus", "http_status"),
        ("item-uses", "item_uses"),
        ("2fa", "field_2fa"),
        ("***", "field"),
    ],
)
def test_snake_case(wire: str, column: str) -> None:
    assert snake_case(wire) == column


def test_text_value_is_compact_sorted_json_for_non_text() -> None:
    assert text_value("abc") == "abc"
    assert text_value(None) is None
    assert text_value({"b": 1, "a": [True, None]}) == '{"a":[true,null],"b":1}'
    assert text_value(5) == "5"
    assert text_value(2**70) == str(2**70)


@pytest.mark.parametrize(
    ("values", "arrow_type"),
    [
        ([1, 2, None], pa.int64()),
        ([1, 2.5, None], pa.float64()),
        ([True, None], pa.bool_()),
        (["a", None], pa.string()),
        ([None, None], pa.null()),
        ([1, "a"], pa.string()),
        ([{"a": 1}, None], pa.string()),
        ([2**64], pa.string()),
    ],
)
def test_to_arrow_infers_or_falls_back_to_text(values: list, arrow_type: pa.DataType) -> None:
    array = to_arrow(values)
    assert array.type == arrow_type
    assert fast_arrow(values).type == arrow_type
    assert len(array) == len(values)


def test_fast_arrow_keeps_every_value() -> None:
    assert fast_arrow([3, 1, 2]).to_pylist() == [3, 1, 2]
    assert fast_arrow([1.5, 2]).to_pylist() == [1.5, 2.0]
    assert fast_arrow(["x", "y"]).to_pylist() == ["x", "y"]
    assert fast_arrow([1, "1"]).to_pylist() == ["1", "1"]
    assert fast_arrow([[1, 2], None]).to_pylist() == ["[1,2]", None]


def test_convert_reports_values_that_do_not_fit() -> None:
    problems = Problems()
    result = convert(pa.array(["3", "x", None]), "Int64", label="t.c", problems=problems)
    assert list(result) == [3, pd.NA, pd.NA]
    assert problems.texts() == ("t.c: 1 value(s) are not integers (e.g. 'x'); they are <NA>",)
    assert [(p.kind, p.subject, p.count) for p in problems] == [("unfit_values", "t.c", 1)]


def test_convert_integral_floats_to_integers_and_keeps_others() -> None:
    problems = Problems()
    assert list(convert(pa.array([1.0, 2.0]), "Int64", label="t", problems=problems)) == [1, 2]
    assert not len(problems)
    assert list(convert(pa.array([1.5]), "Int64", label="t", problems=problems)) == [pd.NA]
    assert problems.count("unfit_values") == 1


def test_convert_categories_are_sorted_text() -> None:
    result = convert(pa.array(["b", None, "a", "b"]), "category", label="t", problems=Problems())
    assert list(result.categories) == ["a", "b"]
    assert result.categories.dtype == "str"
    assert list(result.codes) == [1, -1, 0, 1]


def test_convert_datetimes_are_utc() -> None:
    result = convert(
        pa.array(["2017-11-27T15:26:17Z", "2017-12-03T15:23:53+01:00"]),
        "datetime",
        label="t",
        problems=Problems(),
    )
    assert str(result.dtype) == "datetime64[us, UTC]"
    assert list(result) == [
        pd.Timestamp("2017-11-27T15:26:17Z"),
        pd.Timestamp("2017-12-03T14:23:53Z"),
    ]


def test_text_value_of_values_orjson_cannot_write() -> None:
    deep: dict = {}
    inner = deep
    for _ in range(1000):
        inner["k"] = {}
        inner = inner["k"]
    text = text_value(deep)
    assert text.startswith('{"k":{"k":')
    assert text.endswith("}" * 1001)
    big = 2**70
    assert text_value({"b": [big, 'x"y'], "a": None}) == f'{{"a":null,"b":[{big},"x\\"y"]}}'


def test_integers_beyond_2_53_among_decimals_make_exact_text() -> None:
    from matchkit.model.text import EXACT_IN_FLOAT
    from matchkit.normalize.columns import unify

    merged = unify([pa.array([EXACT_IN_FLOAT + 1]), pa.array([1.5])])
    assert [array.type for array in merged] == [pa.string(), pa.string()]
    assert merged[0].to_pylist() == ["9007199254740993"]  # not rounded to 2**53
    assert to_arrow([-EXACT_IN_FLOAT - 1, 1.5]).to_pylist() == ["-9007199254740993", "1.5"]
    within = unify([pa.array([EXACT_IN_FLOAT, -EXACT_IN_FLOAT]), pa.array([1.5])])
    assert [array.type for array in within] == [pa.float64(), pa.float64()]
    assert within[0].to_pylist() == [2.0**53, -(2.0**53)]


def test_fast_arrow_with_a_boolean_before_lists() -> None:
    assert fast_arrow([True, [1, 2], [3]]).to_pylist() == ["true", "[1,2]", "[3]"]

"""``counted`` and ``group_numbers`` group rows as pandas' ``groupby`` does (observed
categories only, ``dropna`` as groupby's), whatever the keys' dtypes and missing values, the
rows chosen, and whether the keys' combinations are counted in one array or numbered first."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from matchkit.analysis import _groups
from matchkit.analysis._groups import counted, group_numbers, positions_in

KEYS = ("text", "number", "category", "flag", "time")


def _frame(rows: int, seed: int) -> pd.DataFrame:
    """Keys of the dtypes analyses group by, each missing on about a tenth of the rows (a
    category never seen among them), and a boolean to sum."""
    generator = np.random.default_rng(seed)

    def some_missing(values: np.ndarray) -> np.ndarray:
        values = values.astype(object)
        values[generator.random(rows) < 0.1] = None
        return values

    times = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(
        generator.integers(0, 3, rows), unit="h"
    )
    return pd.DataFrame(
        {
            "text": pd.array(some_missing(generator.choice(["a", "b", "c"], rows)), "string"),
            "number": pd.array(some_missing(generator.integers(0, 4, rows)), "Int64"),
            "category": pd.Categorical(
                some_missing(generator.choice(["x", "y"], rows)), categories=["x", "y", "unseen"]
            ),
            "flag": pd.array(some_missing(generator.random(rows) < 0.5), "boolean"),
            "time": pd.Series(times).where(generator.random(rows) > 0.1),
            "won": generator.random(rows) < 0.5,
        }
    )


def _in_one_order(counts: pd.DataFrame) -> pd.DataFrame:
    """Counts as rows in one order whatever the order of their groups (missing keys too)."""
    table = counts.reset_index()
    order = sorted(range(len(table)), key=lambda row: repr(table.iloc[row].tolist()))
    return table.iloc[order].reset_index(drop=True)


CASES = [
    (rows, seed, list(np.random.default_rng(seed).choice(KEYS, size, replace=False)))
    for rows in (0, 1, 9, 400)
    for seed, size in ((1, 1), (2, 2), (3, 3), (4, 2), (5, 5))
]


@pytest.fixture(params=["combined at once", "key by key"])
def numbering(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of numbering the groups: the second as for keys of more combinations than
    the rows."""
    if request.param == "key by key":
        monkeypatch.setattr(_groups, "_dense", lambda combinations, rows: False)
    return str(request.param)


@pytest.mark.usefixtures("numbering")
@pytest.mark.parametrize(("rows", "seed", "keys"), CASES)
def test_counted_is_groupby_size_and_sum(rows: int, seed: int, keys: list[str]) -> None:
    frame = _frame(rows, seed)
    chosen = np.random.default_rng(seed + 100).random(rows) < 0.7
    got = counted(frame, keys, chosen, size="picks", sums=["won"])
    grouped = frame.loc[chosen].groupby(keys, observed=True, dropna=False)
    expected = grouped.agg(picks=("won", "size"), won=("won", "sum")).astype("int64")
    pd.testing.assert_frame_equal(_in_one_order(got), _in_one_order(expected))


def test_counted_takes_columns_by_name_and_every_row_by_default() -> None:
    frame = _frame(50, 7)
    got = counted({"text": frame["text"], "other": frame["number"]}, ["text", "other"])
    expected = frame.groupby(["text", "number"], dropna=False).size().rename("size").to_frame()
    expected.index.names = ["text", "other"]
    pd.testing.assert_frame_equal(_in_one_order(got), _in_one_order(expected))


@pytest.mark.usefixtures("numbering")
@pytest.mark.parametrize(("rows", "seed", "keys"), CASES)
def test_group_numbers_are_groupby_groups(rows: int, seed: int, keys: list[str]) -> None:
    frame = _frame(rows, seed)
    chosen = np.random.default_rng(seed + 200).random(rows) < 0.7
    numbers, levels = group_numbers([frame[key] for key in keys], chosen)
    picked = frame.loc[chosen]
    grouped = picked.groupby(keys, observed=True, sort=False)
    in_a_group = grouped.ngroup().notna().to_numpy()
    assert ((numbers >= 0) == in_a_group).all()  # -1 where a key is missing, as groupby
    groups = [_plain(group) for group in zip(*levels, strict=True)]
    expected = [_plain(group) for group in grouped.size().index]
    assert sorted(groups) == sorted(expected)
    rows_keys = picked[keys].itertuples(index=False, name=None)
    for number, row_keys in zip(numbers, rows_keys, strict=True):
        if number >= 0:
            assert groups[number] == _plain(row_keys)


def _plain(group: object) -> str:
    """A group's keys as text that does not depend on the scalars' types (numpy's or
    Python's)."""
    keys = group if isinstance(group, tuple) else (group,)
    return repr([None if pd.isna(key) else str(key) for key in keys])


def test_group_numbers_of_a_key_without_values_make_no_group() -> None:
    empty = pd.Series(pd.array([pd.NA] * 5, dtype="Int64"))
    numbers, levels = group_numbers([pd.Series(list("abcab")), empty])
    assert numbers.tolist() == [-1] * 5
    assert [len(level) for level in levels] == [0, 0]


@pytest.mark.parametrize("dtype", ["string", "object"])
def test_positions_in_is_get_indexer(dtype: str) -> None:
    values = pd.Series(["m3", "m1", "m2"], dtype=dtype)
    keys = pd.Series(["m1", "m9", None, "m3", "m1"], dtype=dtype)
    expected = pd.Index(values.astype(object)).get_indexer(keys.astype(object))
    assert positions_in(keys, values).tolist() == expected.tolist() == [1, -1, -1, 0, 1]
    assert positions_in(keys.iloc[:0], values).tolist() == []


def test_positions_in_of_keys_or_values_without_a_type() -> None:
    text = pd.Series(["m1", "m2"], dtype="string")
    nothing = pd.Series([None, None], dtype="object")  # Arrow reads it as nulls, no text
    assert positions_in(nothing, text).tolist() == [-1, -1]
    assert positions_in(text, pd.Series([], dtype="object")).tolist() == [-1, -1]
    assert positions_in(pd.Series(["m2"], dtype="object"), text).tolist() == [1]

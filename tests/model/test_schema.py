"""The model's column dtypes: categoricals of text categories."""

from __future__ import annotations

import pandas as pd

from matchkit.model.schema import category_dtype


def test_a_category_dtype_holds_its_categories_as_text_unordered() -> None:
    dtype = category_dtype(iter(["eu", "na"]))  # any iterable, read once
    assert list(dtype.categories) == ["eu", "na"]
    assert dtype.categories.dtype == pd.Index([], dtype=str).dtype
    assert dtype.ordered is False
    assert category_dtype([]).categories.dtype == dtype.categories.dtype  # not object when empty


def test_few_categories_share_one_dtype_and_many_get_their_own() -> None:
    few = [f"region-{number}" for number in range(10)]
    assert category_dtype(few) is category_dtype(tuple(few))
    many = [f"mode-{number}" for number in range(1000)]
    first, second = category_dtype(many), category_dtype(many)
    assert first is not second  # a large list is not kept alive by a cache
    assert first == second
    # Equal values of other types never share a text dtype: 1 == True, but "1" != "True".
    assert list(category_dtype(["1"]).categories) == ["1"]
    assert category_dtype([1]) is not category_dtype([True])


def test_a_shared_dtype_does_not_change_with_the_frames_that_use_it() -> None:
    dtype = category_dtype(["a", "b"])
    series = pd.Series(["a", "b"], dtype=dtype)
    series.cat.add_categories(["c"])  # returns a new series; dtypes are immutable
    series.cat.rename_categories({"a": "x"})
    assert list(category_dtype(["a", "b"]).categories) == ["a", "b"]
    assert category_dtype(["a", "b"]) is dtype

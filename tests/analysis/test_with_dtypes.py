"""``with_dtypes`` gives an archive's result the dtypes MatchFrames gives it: a categorical key
read as categories in another order (each partition's first values, when the archive reads
text as categoricals) gets MatchFrames' sorted categories, so that sorting by it orders rows
as on MatchFrames."""

from __future__ import annotations

import pandas as pd

from matchkit.analysis._engine import with_dtypes


def test_a_categorical_in_another_order_gets_the_sorted_categories() -> None:
    unsorted = pd.CategoricalDtype(["south", "asia", "north"])
    table = pd.DataFrame({"region": pd.Categorical(["south", "asia"], dtype=unsorted)})
    dtypes = {"region": pd.CategoricalDtype()}
    result = with_dtypes(table, dtypes, {"region": pd.Series(["north", "asia", "south"])})
    assert result["region"].cat.categories.tolist() == ["asia", "north", "south"]
    assert result["region"].tolist() == ["south", "asia"]
    assert result.sort_values("region")["region"].tolist() == ["asia", "south"]
    assert table["region"].cat.categories.tolist() == ["south", "asia", "north"]  # not changed


def test_text_read_as_categories_becomes_text_again() -> None:
    table = pd.DataFrame({"actor": pd.Categorical(["b", "a"]), "picks": [1, 2]})
    result = with_dtypes(table, {"actor": pd.StringDtype(), "picks": "int64"})
    assert result["actor"].dtype == pd.StringDtype()
    assert result["actor"].tolist() == ["b", "a"]

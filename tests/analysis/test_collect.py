"""``collect`` and ``collect_rows``: what is lazy computed together; frames of rows a partition
at a time, joined in the caller's process (never in one task of a worker, which a large
selection takes past its memory limit), with no warning from Dask."""

from __future__ import annotations

import warnings

import dask
import dask.dataframe as dd
import pandas as pd
from dask.callbacks import Callback

from matchkit.analysis._engine import collect, collect_rows


class _Keys(Callback):
    """The names of the tasks a local scheduler runs."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def _start_state(self, dsk, state) -> None:
        self.names.update(str(key[0] if isinstance(key, tuple) else key) for key in dsk)


FRAME = pd.DataFrame({"x": range(10), "y": [0.5 * n for n in range(10)]})


def test_rows_are_computed_a_partition_at_a_time_and_joined_here() -> None:
    lazy = dd.from_pandas(FRAME, npartitions=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with dask.config.set(scheduler="sync"), _Keys() as keys:
            table, column, plain = collect_rows(lazy, lazy["y"], FRAME)
    pd.testing.assert_frame_equal(table, FRAME)
    pd.testing.assert_series_equal(column, FRAME["y"])
    assert plain is FRAME
    assert keys.names
    assert not any(name.startswith("repartition") for name in keys.names), keys.names


def test_aggregates_and_nested_values_are_computed_together() -> None:
    lazy = dd.from_pandas(FRAME, npartitions=3)
    with dask.config.set(scheduler="sync"):
        total, nested, plain = collect(lazy["x"].sum(), {"count": lazy["x"].count()}, 7)
    assert total == 45
    assert nested == {"count": 10}
    assert plain == 7


def test_nothing_lazy_is_returned_as_it_is() -> None:
    (same,) = collect(FRAME)
    assert same is FRAME
    (rows,) = collect_rows(FRAME)
    assert rows is FRAME

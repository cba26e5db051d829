"""``collect``: what is lazy among its arguments computed together, a frame a partition at a
time (joined in the caller's process, never in one task of a worker), dicts and lists of lazy
values too, and no warning from Dask about mixed kinds of collections."""

from __future__ import annotations

import warnings

import dask
import dask.dataframe as dd
import pandas as pd
from dask.callbacks import Callback

from matchkit.analysis._engine import collect


class _Keys(Callback):
    """The names of the tasks a local scheduler runs."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def _start_state(self, dsk, state) -> None:
        self.names.update(str(key[0] if isinstance(key, tuple) else key) for key in dsk)


def test_frames_scalars_and_nested_values_are_computed_together() -> None:
    frame = pd.DataFrame({"x": range(10), "y": [0.5 * n for n in range(10)]})
    lazy = dd.from_pandas(frame, npartitions=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with dask.config.set(scheduler="sync"), _Keys() as keys:
            table, total, nested, plain = collect(
                lazy, lazy["x"].sum(), {"count": lazy["x"].count(), "parts": [lazy["y"]]}, 7
            )
    pd.testing.assert_frame_equal(table, frame)
    assert total == 45
    assert plain == 7
    assert nested["count"] == 10
    pd.testing.assert_series_equal(nested["parts"][0], frame["y"])
    assert not any(name.startswith("repartition") for name in keys.names), keys.names


def test_nothing_lazy_is_returned_as_it_is() -> None:
    frame = pd.DataFrame({"x": [1]})
    (same,) = collect(frame)
    assert same is frame

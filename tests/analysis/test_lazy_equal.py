"""pandas and Dask agree: every analysis of MatchFrames gives the same table on an archive's lazy
Dask tables (tests/analysis/lazy.py), on one partition and on many, with text as text.

Computed with Dask's default (threaded) scheduler here; tests/analysis/test_on_cluster.py runs
them on a LocalCluster of worker processes.
"""

from __future__ import annotations

import functools

import dask.dataframe as dd
import pytest
from dask.dataframe.utils import assert_eq

from matchkit.analysis import (
    COSMETIC_KINDS,
    cosmetic_summary,
    cosmetic_usage,
    cosmetic_win_rates,
    duration_counts,
    duration_summary,
    side_win_rates,
)
from matchkit.analysis._engine import is_lazy
from tests.analysis.helpers import sample_frames
from tests.analysis.lazy import lazy_tables

# Monthly partitions, a match's rows together, are the archive's own layout: every call below
# runs on a real monthly archive in tests/archive/test_analysis.py (and each function on three
# buckets a month), so they are not repeated here from pandas.
LAYOUTS = {
    "seven partitions, object": {"npartitions": 7, "text": "object"},
    "one partition, string": {"npartitions": 1},
}

#: (function, args, kwargs) of every public analysis of MatchFrames: their options and groupings
#: by a categorical, by text, by several columns and by a period of time.
CALLS = [
    (side_win_rates, (None,), {}),
    (side_win_rates, (["server_type", "ranking_type"],), {}),
    (side_win_rates, ("week",), {"level": "round"}),
    (side_win_rates, ("patch_version",), {"names": {}}),
    (duration_summary, (None,), {"unit": "minutes"}),
    (duration_summary, (["patch_version", "server_type"],), {"level": "round"}),
    (duration_summary, ("map_id",), {}),
    (duration_summary, ("date",), {"level": "round", "unit": "minutes"}),
    (duration_counts, ("server_type",), {}),
    (duration_counts, (["week", "map_id"],), {"level": "round"}),
    (cosmetic_usage, ("mount", "actor"), {"top": 2}),
    (cosmetic_usage, (["outfit", "emote"], ["server_type", "actor"]), {}),
    (cosmetic_usage, ("attachment", "month"), {}),
    (cosmetic_summary, (list(COSMETIC_KINDS), "actor"), {}),
    (cosmetic_summary, ("mount", None), {}),
    (cosmetic_win_rates, ("outfit", "actor"), {"top": 3, "min_picks": 5}),
    (cosmetic_win_rates, ("emote", ["region", "actor"]), {}),
    (cosmetic_win_rates, ("mount", None), {}),
]


def _name(call: tuple) -> str:
    function, args, kwargs = call
    return f"{function.__name__}{args}{kwargs}"


#: The first call of each function: every function runs on every layout, and every option of it
#: on the first layout (the options' code is the same whatever the partitions; the layouts
#: differ in the steps of :mod:`matchkit.analysis._engine`, which every function takes).
EACH_FUNCTION = [
    call for number, call in enumerate(CALLS) if call[0] not in {c[0] for c in CALLS[:number]}
]


def layout_cases(layouts: list[str]) -> list[tuple[str, tuple]]:
    """(layout, call): every call on the first layout, the first of each function on the rest."""
    return [
        (layout, call)
        for number, layout in enumerate(layouts)
        for call in (CALLS if number == 0 else EACH_FUNCTION)
    ]


def case_id(case: object) -> str:
    return _name(case) if isinstance(case, tuple) else str(case)


@functools.cache
def _lazy(layout: str):
    return lazy_tables(sample_frames(), **LAYOUTS[layout])


@pytest.mark.parametrize(("layout", "call"), layout_cases(list(LAYOUTS)), ids=case_id)
def test_an_archive_gives_the_table_of_matchframes(layout, call):
    function, args, kwargs = call
    expected = function(sample_frames(), *args, **kwargs)
    result = function(_lazy(layout), *args, **kwargs)
    assert not is_lazy(result)
    assert_eq(result, expected)
    assert result.attrs == expected.attrs
    assert len(result) > 0


def test_a_lazy_participant_view_is_analysed_as_given():
    view = sample_frames().participant_view()
    lazy_view = dd.from_pandas(view, npartitions=3, sort=False)
    expected = cosmetic_win_rates(view, "outfit", "actor")
    assert_eq(cosmetic_win_rates(lazy_view, "outfit", "actor"), expected)

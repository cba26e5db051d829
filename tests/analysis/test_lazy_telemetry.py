"""pandas and Dask agree on telemetry: each telemetry analysis gives the same table on an
archive's lazy telemetry tables (here the sample's TelemetryFrames as Dask DataFrames, one
partition and seven) as on TelemetryFrames."""

from __future__ import annotations

from types import SimpleNamespace

import dask.dataframe as dd
import pytest
from dask.dataframe.utils import assert_eq

from matchkit.analysis import battlerite_win_rates, deciding_rounds, per_minute_rates, queue_times
from matchkit.analysis.telemetry import match_deciding_rounds
from matchkit.errors import InvalidArgumentError
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from matchkit.telemetry.schema import TABLES
from tests.builders.telemetry import sample_telemetry_files

# Every fifth match of the sample set (840 matches, all kinds and hours).
STEP = 5


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    return to_telemetry_frames(sample_telemetry_files(step=STEP))


@pytest.fixture(scope="module", params=[1, 7], ids=["one partition", "seven partitions"])
def archive(request, telemetry):
    """An archive-shaped object: its ``telemetry`` has one lazy table per TelemetryFrames table."""
    tables = {
        name: dd.from_pandas(telemetry.tables[name], npartitions=request.param, sort=False)
        for name in TABLES
    }
    return SimpleNamespace(matches=None, telemetry=SimpleNamespace(**tables))


CALLS = [
    (battlerite_win_rates, (), {}),
    (per_minute_rates, (), {}),
    (per_minute_rates, (["round"],), {"stats": ["damage_done"]}),
    (queue_times, (), {}),
    (queue_times, (["start_hour"],), {}),
    (deciding_rounds, (), {}),
    (match_deciding_rounds, (), {}),
]


@pytest.mark.parametrize("call", CALLS, ids=lambda call: f"{call[0].__name__}{call[1]}")
def test_an_archive_gives_the_table_of_telemetryframes(archive, telemetry, call):
    function, args, kwargs = call
    expected = function(telemetry, *args, **kwargs)
    result = function(archive, *args, **kwargs)
    assert_eq(result, expected)
    assert result.attrs == expected.attrs
    assert len(result) > 0


def test_the_archive_telemetry_alone_also_works(archive, telemetry):
    assert_eq(queue_times(archive.telemetry), queue_times(telemetry))


def test_an_archive_without_telemetry_is_refused():
    with pytest.raises(InvalidArgumentError, match="archive with telemetry"):
        queue_times(SimpleNamespace(matches=None, telemetry=None))

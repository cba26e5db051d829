"""What the telemetry analyses share: their per-match work run on each set of whole matches
(an archive's partitions, in the workers), the seats that give each player a character and a
side, and a mean's interval."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._engine import by_partition, is_lazy
from matchkit.errors import InvalidArgumentError
from matchkit.telemetry.frames import TelemetryFrames

__all__ = [
    "SEATS",
    "by_matches",
    "mean_interval",
    "mean_interval_of",
    "player_characters",
    "table_columns",
]

SEATS = ["match_id", "user_id", "character", "team"]
"""The columns of ``reserved_users`` that seat a player."""


def by_matches(
    data: object, columns: Mapping[str, Sequence[str] | None], partial: Callable[[Any], Any]
) -> list[Any]:
    """``partial`` of the telemetry tables (the ``columns`` of each), for each set of whole
    matches: once on TelemetryFrames; on an archive, once per partition, in the workers (a
    match's rows of every table lie in one partition), so that no table is read whole; on
    lazy tables not partitioned by match, once on their columns computed here
    (:func:`matchkit.analysis._engine.by_partition`).

    ``partial`` must be a function of the module (Dask sends it to the workers) whose results
    are small; the caller combines them.
    """
    if isinstance(data, TelemetryFrames):
        return [partial(data)]
    return by_partition(partial, _lazy_tables(data, columns))


def _lazy_tables(data: object, columns: Mapping[str, Sequence[str] | None]) -> dict[str, Any]:
    """The lazy telemetry tables of an archive (or of its ``telemetry``), each with the
    ``columns`` it has of those asked for (None: all).

    Raises:
        InvalidArgumentError: ``data`` is neither TelemetryFrames nor an archive with telemetry.
    """
    tables = getattr(data, "telemetry", data)
    if tables is None or not all(is_lazy(getattr(tables, name, None)) for name in columns):
        raise InvalidArgumentError(
            "data must be TelemetryFrames (from Client.telemetry or to_telemetry_frames) or an "
            f"archive with telemetry (matchkit.archive.open), not {type(data).__name__}",
            parameter="data",
        )
    lazy = {}
    for name, wanted in columns.items():
        table = getattr(tables, name)
        if wanted is not None:
            table = table[[column for column in wanted if column in table.columns]]
        lazy[name] = table
    return lazy


def mean_interval(values: pd.Series | np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Mean and its Student t interval (a Series skips NaN; an array must hold none)."""
    n = len(values)
    mean = float(values.mean()) if n else float("nan")
    if n < 2:
        return mean, float("nan"), float("nan")
    return mean_interval_of(n, mean, float(values.std(ddof=1)), confidence)


def mean_interval_of(
    n: int, mean: float, std: float, confidence: float
) -> tuple[float, float, float]:
    """Mean and its Student t interval, from the count (at least 2), the mean and the sample
    standard deviation."""
    # scipy.stats.t.ppf is this function of scipy.special, a tenth of scipy.stats's import.
    from scipy.special import stdtrit

    half = float(stdtrit(n - 1, (1 + confidence) / 2)) * std / np.sqrt(n)
    return mean, mean - half, mean + half


def table_columns(data: object, name: str) -> list[str]:
    """The columns of telemetry table ``name`` of ``data`` (TelemetryFrames or an archive),
    without reading it."""
    if isinstance(data, TelemetryFrames):
        return list(getattr(data, name).columns)
    return list(_lazy_tables(data, {name: None})[name].columns)


def player_characters(telemetry: TelemetryFrames) -> pd.DataFrame:
    """(match_id, user_id) -> character and team (side), from the reserved seats."""
    seats = telemetry.reserved_users[["match_id", "user_id", "character", "team"]]
    return seats.drop_duplicates(["match_id", "user_id"], keep=False)

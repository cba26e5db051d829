"""What the telemetry analyses share: their tables in pandas (an archive's columns computed),
the seats that give each player a character and a side, and a mean's interval."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import cast

import numpy as np
import pandas as pd

from matchkit.analysis._engine import collect, is_lazy
from matchkit.errors import InvalidArgumentError
from matchkit.telemetry.frames import TelemetryFrames

__all__ = ["SEATS", "in_memory", "mean_interval", "player_characters"]

SEATS = ["match_id", "user_id", "character", "team"]
"""The columns of ``reserved_users`` that seat a player."""


def in_memory(data: object, columns: Mapping[str, Sequence[str] | None]) -> TelemetryFrames:
    """``data`` when it is TelemetryFrames; for an archive (or its ``telemetry``), the
    ``columns`` of its tables (None: every column), computed together, in pandas.

    An archive's telemetry tables are lazy Dask DataFrames. The functions here read a few of
    their columns and then run as on TelemetryFrames, so that the results are the same; their
    medians and per-group loops need the rows, so the columns read are computed whole.
    """
    if isinstance(data, TelemetryFrames):
        return data
    tables = getattr(data, "telemetry", data)
    if tables is not None and all(is_lazy(getattr(tables, name, None)) for name in columns):
        lazy = []
        for name, wanted in columns.items():
            table = getattr(tables, name)
            if wanted is not None:
                table = table[[column for column in wanted if column in table.columns]]
            lazy.append(table)
        computed = collect(*lazy)
        return cast(
            "TelemetryFrames",
            SimpleNamespace(
                **{
                    name: table.reset_index(drop=True)
                    for name, table in zip(columns, computed, strict=True)
                }
            ),
        )
    raise InvalidArgumentError(
        "data must be TelemetryFrames (from Client.telemetry or to_telemetry_frames) or an "
        f"archive with telemetry (matchkit.archive.open), not {type(data).__name__}",
        parameter="data",
    )


def mean_interval(values: pd.Series, confidence: float) -> tuple[float, float, float]:
    """Mean and its Student t interval."""
    n = len(values)
    mean = float(values.mean()) if n else float("nan")
    if n < 2:
        return mean, float("nan"), float("nan")
    # scipy.stats.t.ppf is this function of scipy.special, a tenth of scipy.stats's import.
    from scipy.special import stdtrit

    half = float(stdtrit(n - 1, (1 + confidence) / 2)) * float(values.std(ddof=1))
    half /= np.sqrt(n)
    return mean, mean - half, mean + half


def player_characters(telemetry: TelemetryFrames) -> pd.DataFrame:
    """(match_id, user_id) -> character and team (side), from the reserved seats."""
    seats = telemetry.reserved_users[["match_id", "user_id", "character", "team"]]
    return seats.drop_duplicates(["match_id", "user_id"], keep=False)

"""Helpers shared by the analysis modules: grouping keys, time periods, Wilson intervals."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from matchkit.analysis._engine import is_lazy, map_values
from matchkit.analysis.inputs import TableSource, checked_table_source
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import MatchFrames
from matchkit.rules.checks import checked_choice

__all__ = [
    "LEVELS",
    "TIME_PERIODS",
    "Level",
    "arena_mask",
    "checked_confidence",
    "checked_level",
    "group_keys",
    "in_version_order",
    "participant_table",
    "version_key",
    "wilson_columns",
    "with_group_columns",
]


def _day(created_at: pd.Series) -> pd.Series:
    return created_at.dt.floor("D")


def _week(created_at: pd.Series) -> pd.Series:
    day = created_at.dt.floor("D")
    return day - pd.to_timedelta(day.dt.day_of_week, unit="D")


def _month(created_at: pd.Series) -> pd.Series:
    day = created_at.dt.floor("D")
    return day - pd.to_timedelta(day.dt.day - 1, unit="D")


#: Grouping keys derived from ``created_at`` (UTC): the start of the day, of the week (Monday)
#: and of the month, as tz-aware timestamps.
TIME_PERIODS: dict[str, Callable[[pd.Series], pd.Series]] = {
    "date": _day,
    "week": _week,
    "month": _month,
}


Level = Literal["match", "round"]
"""The units an Arena analysis counts: whole matches or their rounds."""
LEVELS: tuple[Level, ...] = get_args(Level)


def version_key(version: Any) -> tuple:
    """Sort key of a patch version: numerically by part, so that 2.10 comes after 2.9."""
    parts = str(version).split(".")
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in parts)


def in_version_order(table: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """``table`` with its groups in patch order when ``patch_version`` is a key (stable)."""
    if "patch_version" not in keys:
        return table
    ordered = table.sort_values(
        list(keys),
        key=lambda column: (
            column.map(version_key).astype(object) if column.name == "patch_version" else column
        ),
        kind="stable",
    )
    return ordered.reset_index(drop=True)


def checked_level(level: object) -> Level:
    """``level`` when it is "match" or "round" (the units an Arena analysis counts).

    Raises:
        InvalidArgumentError: it is neither.
    """
    message = f"level={level!r} is not supported; use {' or '.join(map(repr, LEVELS))}"
    return checked_choice(level, LEVELS, parameter="level", message=message)


def group_keys(by: str | Sequence[str] | None) -> list[str]:
    """Normalize a ``by`` argument (None, a column name or a list of them) to a list."""
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    keys = list(by) if isinstance(by, Sequence) else None
    if keys is None or not all(isinstance(key, str) for key in keys):
        raise InvalidArgumentError(
            f"by={by!r} must be a column name or a list of column names", parameter="by"
        )
    if len(set(keys)) != len(keys):
        raise InvalidArgumentError(f"by={by!r} names a column twice", parameter="by")
    return keys


def with_group_columns(table: pd.DataFrame, keys: Sequence[str], *, source: str) -> pd.DataFrame:
    """Check that every grouping key exists in ``table`` and add the derived time periods.

    Args:
        table: the table to group.
        keys: grouping keys: columns of ``table`` or the names in :data:`TIME_PERIODS`.
        source: how the table is called in the error message (``"the matches table"``).

    Raises:
        InvalidArgumentError: a key is neither a column nor a time period.
    """
    unknown = [key for key in keys if key not in table.columns and key not in TIME_PERIODS]
    if unknown:
        raise InvalidArgumentError(
            f"cannot group by {unknown}: use columns of {source} "
            f"({', '.join(map(str, table.columns))}) or a period ({', '.join(TIME_PERIODS)})",
            parameter="by",
        )
    derived = {
        key: map_values(table["created_at"], TIME_PERIODS[key], key)
        for key in keys
        if key not in table.columns
    }
    return table.assign(**derived) if derived else table


def arena_mask(matches: pd.DataFrame) -> pd.Series:
    """True for matches that are not Royale (a missing ``is_royale`` counts as Arena)."""
    return ~matches["is_royale"].fillna(False).astype(bool)


def participant_table(
    data: TableSource | pd.DataFrame,
    *,
    required: Sequence[str] = (),
    keys: Sequence[str] = (),
    optional: Sequence[str] = (),
) -> Any:
    """The participant view of MatchFrames, or the given participant view DataFrame, or the
    lazy view of an archive with only the columns asked for: its ``required`` ones, the
    grouping ``keys`` and the ``optional`` ones (a column of the rosters or the matches is a
    join per partition: 5.9M participants to 3.1M rosters took most of the 12 s that
    ``cosmetic_usage`` of a 1M archive took, for a ``won`` it never read).

    Raises:
        InvalidArgumentError: ``data`` is none of these, or the DataFrame lacks a ``required``
            column.
    """
    if isinstance(data, pd.DataFrame) or is_lazy(data):
        missing = [name for name in required if name not in data.columns]
        if missing:
            raise InvalidArgumentError(
                f"data: the DataFrame given lacks the column(s) {', '.join(missing)}; pass "
                "MatchFrames or their participant_view()",
                parameter="data",
            )
        return data
    source = checked_table_source(data)
    if isinstance(source, MatchFrames):
        return source.participant_view()
    from matchkit.analysis._archive import lazy_participant_view

    columns = [*required, *(key for key in keys if key not in TIME_PERIODS)]
    if any(key in TIME_PERIODS for key in keys):
        columns.append("created_at")
    return lazy_participant_view(source, [*columns, *optional])


def checked_confidence(confidence: object) -> float:
    """``confidence`` as a float, when it lies strictly between 0 and 1.

    Raises:
        InvalidArgumentError: it is not a number in (0, 1).
    """
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or not 0 < confidence < 1
    ):
        raise InvalidArgumentError(
            f"confidence={confidence!r} must lie strictly between 0 and 1 (0.95 for 95%)",
            parameter="confidence",
        )
    return float(confidence)


def wilson_columns(wins: pd.Series, trials: pd.Series, *, confidence: float) -> dict[str, Any]:
    """``win_rate``, ``ci_low`` and ``ci_high`` (Wilson score interval) for each row.

    The interval of :func:`scipy.stats.binomtest`'s ``proportion_ci(method="wilson")``
    (Newcombe 1998), computed for all rows at once with scipy's own formula and normal
    quantile, so the bounds are the same to the last bit: ``binomtest`` also computes a p-value
    no table shows (a search over the binomial distribution, row by row), and ``scipy.stats``
    costs a second or more to import, where ``scipy.special`` costs a tenth of that.

    Raises:
        ValueError: a row with no trial, or with more wins than trials (as ``binomtest``).
    """
    from scipy.special import ndtri  # imported here: only where an interval is computed

    confidence = checked_confidence(confidence)
    k = wins.to_numpy(dtype="float64")
    n = trials.to_numpy(dtype="float64")
    if ((n < 1) | (k < 0) | (k > n)).any():
        raise ValueError("a Wilson interval needs 1 <= trials and 0 <= wins <= trials")
    with np.errstate(invalid="ignore"):
        p = k / n
        z = float(ndtri(0.5 + 0.5 * confidence))
        denom = 2 * (n + z**2)
        center = (2 * n * p + z**2) / denom
        delta = z / denom * np.sqrt(4 * n * p * (1 - p) + z**2)
    index = wins.index
    return {
        "win_rate": wins.astype("float64") / trials.astype("float64"),
        "ci_low": pd.Series(np.where(k == 0, 0.0, center - delta), index=index, dtype="float64"),
        "ci_high": pd.Series(np.where(k == n, 1.0, center + delta), index=index, dtype="float64"),
    }

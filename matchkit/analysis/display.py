"""Tables as shown to a reader: shares as percentages with one decimal, other numbers rounded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from matchkit.errors import InvalidArgumentError
from matchkit.rules.checks import checked_whole_number
from matchkit.rules.query import SERVER_TYPE_NAMES

__all__ = [
    "LABELLED_COLUMNS",
    "PERCENT_COLUMNS",
    "RANKING_TYPE_LABELS",
    "SERVER_TYPE_LABELS",
    "for_display",
    "group_label",
    "percent",
]

#: How server types are written in tables, legends and tick labels.
SERVER_TYPE_LABELS: Mapping[str, str] = SERVER_TYPE_NAMES
#: How ranking types are written in tables, legends, labels and filters.
RANKING_TYPE_LABELS: Mapping[str, str] = {"RANKED": "Ranked", "UNRANKED": "Unranked"}
#: Columns whose codes :func:`for_display` writes as labels (:func:`group_label`).
LABELLED_COLUMNS = ("server_type", "ranking_type")

#: Columns holding shares (0..1) in the analysis tables: shown as percentages.
PERCENT_COLUMNS = (
    "share",
    "win_rate",
    "ci_low",
    "ci_high",
    "default_share",
    "non_default_share",
)


def group_label(value: Any) -> str:
    """A readable label for a group value: server and ranking types by name; missing: "unknown"."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "unknown"
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d")
    text = str(value)
    return SERVER_TYPE_LABELS.get(text.upper()) or RANKING_TYPE_LABELS.get(text.upper(), text)


def percent(value: float, *, decimals: int = 1) -> str:
    """A share (0..1) as a percentage: ``percent(0.413223)`` is ``"41.3%"``."""
    if value is None or pd.isna(value):
        return "–"
    return f"{value:.{decimals}%}"


def for_display(
    table: pd.DataFrame,
    *,
    percent_columns: Sequence[str] | None = None,
    decimals: int = 1,
) -> pd.DataFrame:
    """A copy of ``table`` for reading: shares as ``"41.3%"``, other floats rounded, server and
    ranking types by name (``"Quick 2v2"``, ``"Ranked"``).

    Args:
        table: an analysis table.
        percent_columns: the columns holding shares (default: those of :data:`PERCENT_COLUMNS`
            present in the table).
        decimals: decimals of the percentages and of the other float columns.

    Returns:
        The copy; ``attrs`` are kept. Compute with the original, show this one.
    """
    message = f"decimals={decimals!r} must be a non-negative integer"
    decimals = checked_whole_number(decimals, parameter="decimals", message=message, low=0)
    columns = (
        [name for name in PERCENT_COLUMNS if name in table.columns]
        if percent_columns is None
        else list(percent_columns)
    )
    missing = [name for name in columns if name not in table.columns]
    if missing:
        raise InvalidArgumentError(
            f"percent_columns: the table has no column(s) {', '.join(missing)}",
            parameter="percent_columns",
        )
    shown = table.copy()
    for name in columns:
        shown[name] = [percent(value, decimals=decimals) for value in table[name].tolist()]
    floats = [
        name
        for name in shown.columns
        if name not in columns and pd.api.types.is_float_dtype(shown[name])
    ]
    shown[floats] = shown[floats].round(decimals)
    for name in LABELLED_COLUMNS:
        if name in shown.columns:
            shown[name] = [group_label(value) for value in table[name].tolist()]
    shown.attrs = dict(table.attrs)
    return shown

"""Intervals of the PUBG analyses: a quantile's distribution-free interval."""

from __future__ import annotations

import numpy as np

__all__ = ["quantile_interval"]


def quantile_interval(
    values: np.ndarray, q: float, confidence: float
) -> tuple[float, float, float]:
    """The ``q`` quantile of ``values`` and its order-statistic interval.

    The interval is distribution-free and exact (no resampling, so no seed): the number of
    values below the true quantile is Binomial(n, q), so the order statistics at that
    binomial's ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles bracket it.
    NaN where there are too few values for the interval.
    """
    ordered = np.sort(values[~np.isnan(values)])
    n = len(ordered)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    estimate = float(np.quantile(ordered, q))
    tail = (1 - confidence) / 2
    from scipy import stats as scipy_stats  # a second or more to import: only when used

    low = int(scipy_stats.binom.ppf(tail, n, q))
    high = int(scipy_stats.binom.ppf(1 - tail, n, q)) + 1
    if low < 1 or high > n:
        return estimate, float("nan"), float("nan")
    return estimate, float(ordered[low - 1]), float(ordered[high - 1])

"""The Wilson score interval of :func:`matchkit.analysis.wilson_columns`: scipy's bounds, for
every row at once."""

from __future__ import annotations

import pandas as pd
import pytest
from scipy.stats import binomtest

from matchkit.analysis import wilson_columns
from tests.analysis.helpers import wilson


@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95, 0.999])
def test_the_bounds_are_scipys_to_the_last_bit(confidence):
    pairs = [
        (k, n) for n in (1, 2, 3, 7, 10, 41, 100, 1000, 123_457) for k in {0, 1, n // 3, n - 1, n}
    ]
    wins = pd.Series([k for k, _ in pairs], index=[f"row{i}" for i in range(len(pairs))])
    trials = pd.Series([n for _, n in pairs], index=wins.index)
    columns = wilson_columns(wins, trials, confidence=confidence)
    for row, (k, n) in zip(wins.index, pairs, strict=True):
        interval = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
        assert columns["ci_low"][row] == interval.low, (k, n)
        assert columns["ci_high"][row] == interval.high, (k, n)
        assert columns["win_rate"][row] == k / n
    assert all(column.index.equals(wins.index) for column in columns.values())


def test_the_bounds_are_the_textbook_formula():
    columns = wilson_columns(pd.Series([2, 5]), pd.Series([4, 9]), confidence=0.95)
    assert (columns["ci_low"][0], columns["ci_high"][0]) == pytest.approx(wilson(2, 4))
    assert (columns["ci_low"][1], columns["ci_high"][1]) == pytest.approx(wilson(5, 9))


@pytest.mark.parametrize(("wins", "trials"), [(0, 0), (3, 2), (-1, 4)])
def test_a_row_without_an_interval_is_refused(wins, trials):
    with pytest.raises(ValueError, match="Wilson interval"):
        wilson_columns(pd.Series([1, wins]), pd.Series([2, trials]), confidence=0.95)


@pytest.mark.parametrize("n", [2, 3, 30, 1000])
def test_the_mean_interval_is_scipys_student_t(n):
    from scipy import stats

    from matchkit.analysis.telemetry._common import mean_interval

    values = pd.Series([float(i % 7) for i in range(n)])
    mean, low, high = mean_interval(values, 0.95)
    half = stats.t.ppf(0.975, n - 1) * values.std(ddof=1) / n**0.5
    assert (mean, low, high) == (values.mean(), mean - half, mean + half)

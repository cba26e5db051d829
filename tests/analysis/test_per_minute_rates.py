"""``per_minute_rates`` gives each group's mean rate and Student t interval as a plain
``groupby`` over the player-rounds' rates does (the rates' moments are summed by group number,
and combined across sets of matches): with missing keys (no group, as in ``groupby``),
missing stats (not counted), players without a seat and rounds never alive left out."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from matchkit.analysis import per_minute_rates
from matchkit.analysis.telemetry._common import mean_interval, player_characters
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.builders.telemetry import sample_telemetry_files

STATS = ["damage_done", "healing_done"]


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    frames = to_telemetry_frames(sample_telemetry_files(step=20))
    stats = frames.round_player_stats.copy()
    stats.loc[stats.index % 7 == 0, "round"] = pd.NA  # a key missing: in no group
    stats.loc[stats.index % 5 == 0, "damage_done"] = pd.NA  # a stat missing: not counted
    return dataclasses.replace(frames, round_player_stats=stats)


def _by_groupby(telemetry: TelemetryFrames, keys: list[str]) -> pd.DataFrame:
    rows = telemetry.round_player_stats.merge(
        player_characters(telemetry), on=["match_id", "user_id"], how="left"
    )
    rows = rows.loc[rows["character"].notna() & (rows["time_alive"].fillna(0) > 0)]
    found = []
    for stat in STATS:
        rates = rows.assign(rate=rows[stat].astype("float64") / rows["time_alive"] * 60)
        groups = rates.groupby(keys, dropna=True) if keys else [((), rates)]
        for group, part in groups:
            values = part["rate"].dropna()
            mean, low, high = mean_interval(values, 0.95)
            group = group if isinstance(group, tuple) else (group,)
            found.append((*group, stat, mean, low, high, len(values)))
    columns = [*keys, "stat", "per_minute", "ci_low", "ci_high", "n"]
    return pd.DataFrame(found, columns=columns).sort_values([*keys, "stat"], ignore_index=True)


@pytest.mark.parametrize("keys", [["character", "round"], ["team"], []], ids=str)
def test_the_rates_are_those_of_a_groupby(telemetry: TelemetryFrames, keys: list[str]) -> None:
    table = per_minute_rates(telemetry, keys or None, stats=STATS)
    columns = [*keys, "stat", "per_minute", "ci_low", "ci_high", "n"]
    got = table[columns].sort_values([*keys, "stat"], ignore_index=True)
    expected = _by_groupby(telemetry, keys)
    assert len(got) == len(expected) > 0
    for key in keys:
        assert got[key].astype("int64").tolist() == expected[key].astype("int64").tolist()
    assert got["stat"].tolist() == expected["stat"].tolist()
    assert got["n"].tolist() == expected["n"].tolist()
    for name in ("per_minute", "ci_low", "ci_high"):
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-9, equal_nan=True)

"""The findings the generator put into the sample set's telemetry (data/README.md, parameters in
matchkit/sampledata/telemetry/parameters.py) lie inside the intervals the analysis computes."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pandas as pd
import pytest

from matchkit.analysis.telemetry import (
    battlerite_win_rates,
    deciding_rounds,
    match_deciding_rounds,
    per_minute_rates,
    queue_times,
)
from matchkit.names import sample_names
from matchkit.sampledata.telemetry import parameters as t
from matchkit.sampledata.telemetry.catalogue import battlerite_names, featured_battlerite
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.builders.telemetry import sample_telemetry_files

# A seeded sample: every third match of the sample set (1,400 matches, all kinds and hours).
STEP = 3


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    return to_telemetry_frames(sample_telemetry_files(step=STEP))


def test_the_featured_battlerite_goes_with_winning(telemetry: TelemetryFrames) -> None:
    actor, battlerite = featured_battlerite()
    table = battlerite_win_rates(telemetry, names=sample_names())
    assert list(table.columns[:2]) == ["character_name", "battlerite_name"]  # names first
    assert list(table.columns[-2:]) == ["character", "battlerite_type"]  # ids last
    character = table[table["character"].astype(str) == actor]
    featured = character[character["battlerite_type"] == battlerite].iloc[0]
    assert featured["character_name"] == t.FEATURED_CHARACTER
    assert featured["battlerite_name"] == battlerite_names()[str(battlerite)]
    assert featured["battlerite_name"].startswith(f"{t.FEATURED_CHARACTER}: ")
    assert table["battlerite_name"].notna().all()
    assert not table["battlerite_name"].str.fullmatch(r"\d+").any()  # every one named
    # The character's own win rate, estimated from the same players.
    others = featured["players"] - featured["picks"]
    all_wins = featured["wins"] + round(featured["win_rate_without"] * others)
    base = Fraction(int(all_wins), int(featured["players"]))
    expected_with = float(t.featured_win_rate(base))
    expected_without = float(t.featured_win_rate(base, picked=False))
    assert featured["ci_low"] <= expected_with <= featured["ci_high"]
    assert featured["without_ci_low"] <= expected_without <= featured["without_ci_high"]
    expected_pick = float(
        Fraction(t.FEATURED_PICK_WHEN_WON) * base + Fraction(t.FEATURED_PICK_WHEN_LOST) * (1 - base)
    )
    assert featured["pick_ci_low"] <= expected_pick <= featured["pick_ci_high"]
    # Recovered: those who picked it win more, beyond the intervals.
    assert featured["ci_low"] > featured["without_ci_high"]
    # No other battlerite of any character separates like that.
    others = table[(table["battlerite_type"] != battlerite) & table["win_rate_without"].notna()]
    assert not (others["ci_low"] > others["without_ci_high"] + 0.05).any()


def test_queue_times_by_league_and_region_match_the_model(telemetry: TelemetryFrames) -> None:
    # 99% intervals over ~40 groups: one miss is allowed (a correct model misses one in three
    # such runs; two or more in about one in twenty).
    low, high = t.QUEUE_NIGHT_HOURS_UTC
    starts = telemetry.match_starts.set_index("match_id")["time"]
    night = telemetry.queue_events["match_id"].map(starts).dt.hour.between(low, high - 1)
    with_night = dataclasses.replace(
        telemetry, queue_events=telemetry.queue_events.assign(night=night)
    )
    pooled = queue_times(with_night, by=["match_region", "league", "night"], confidence=0.99)
    checked = 0
    misses = []
    for row in pooled.itertuples(index=False):
        if row.n < 30:
            continue
        expected = float(t.queue_mean_seconds(int(row.league), row.match_region, night=row.night))
        checked += 1
        if not row.ci_low <= expected <= row.ci_high:
            misses.append((row.match_region, row.league, row.night, expected, row.ci_low))
    assert checked >= 30
    assert len(misses) <= 1, misses


def test_queues_are_longer_at_night_in_the_night_region(telemetry: TelemetryFrames) -> None:
    low, high = t.QUEUE_NIGHT_HOURS_UTC
    starts = telemetry.match_starts.set_index("match_id")["time"]
    night = telemetry.queue_events["match_id"].map(starts).dt.hour.between(low, high - 1)
    with_night = dataclasses.replace(
        telemetry, queue_events=telemetry.queue_events.assign(night=night)
    )
    table = queue_times(with_night, by=["match_region", "night"]).set_index(
        ["match_region", "night"]
    )
    region = t.QUEUE_NIGHT_REGION
    assert table.loc[(region, True), "ci_low"] > table.loc[(region, False), "ci_high"]
    ratio = table["mean_seconds"].unstack()
    ratio = ratio[True] / ratio[False]
    # Leagues mix differently by hour, so the ratio is near, not at, the night factor.
    assert ratio[region] > 2.0
    assert ratio.drop(region).between(0.7, 1.4).all()


def test_rates_and_deciding_rounds_are_consistent(telemetry: TelemetryFrames) -> None:
    rates = per_minute_rates(telemetry, by=["character", "round"])
    assert set(rates["stat"]) == {"damage_done", "healing_done", "disables_done"}
    assert list(rates.columns) == [  # the name where the id was, the id last
        "character_name",
        "round",
        "stat",
        "per_minute",
        "ci_low",
        "ci_high",
        "n",
        "character",
    ]
    assert (rates["ci_low"] <= rates["per_minute"]).all()
    assert (rates["per_minute"] <= rates["ci_high"]).all()
    assert rates.attrs["excluded"]["player-rounds without a seat (bots)"] > 0
    per_match = match_deciding_rounds(telemetry)
    assert (per_match["decided_round"] < per_match["rounds"]).all()
    summary = deciding_rounds(telemetry)
    shares = summary.groupby("rounds")["share"].sum()
    pd.testing.assert_series_equal(shares, pd.Series(1.0, index=shares.index), check_names=False)
    # First to three rounds: a 3-0 is decided in round 0, a 3-2 only in the last round.
    assert summary.set_index(["rounds", "decided_round"]).loc[(3, 0), "share"] == 1.0
    assert summary.set_index(["rounds", "decided_round"]).loc[(5, 4), "share"] == 1.0

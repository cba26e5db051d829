"""Regression: ``battlerite_win_rates`` failed on a player seated without a team.

A MatchReservedUser event without a team, in a match with a winner, gave the player a missing
``won`` (unknown side == winning side), and turning it into a boolean raised "boolean value of
NA is ambiguous": one such seat failed the whole table. The player is now left out (neither a
win nor a loss) and counted in ``attrs["excluded"]``. Found by DuckDB's query beside the
analysis in ``make bench`` (issue 37)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from matchkit.analysis import battlerite_win_rates
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.builders.telemetry import sample_telemetry_files


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    return to_telemetry_frames(sample_telemetry_files(step=20))


def test_a_player_without_a_side_is_left_out_and_counted(telemetry) -> None:
    before = battlerite_win_rates(telemetry)
    picked = telemetry.battlerite_picks[["match_id", "user_id", "character"]].iloc[0]
    seats = telemetry.reserved_users.copy()
    seat = (seats["match_id"] == picked["match_id"]) & (seats["user_id"] == picked["user_id"])
    assert seat.sum() == 1
    seats["team"] = seats["team"].mask(seat)
    after = battlerite_win_rates(dataclasses.replace(telemetry, reserved_users=seats))

    assert before.attrs["excluded"]["players without a side"] == 0
    assert after.attrs["excluded"]["players without a side"] == 1
    players = after.groupby("character")["players"].first()
    expected = before.groupby("character")["players"].first()
    expected[picked["character"]] -= 1
    pd.testing.assert_series_equal(players, expected)

"""Bad input to the PUBG analyses: a typed error that says what to pass, before any work."""

from __future__ import annotations

import dataclasses

import pytest

from matchkit.analysis.pubg import (
    damage_by_placement,
    first_knock_summary,
    first_knock_times,
    kill_distances,
    landing_spots,
    player_damage,
    weapon_kill_shares,
    zone_phases,
)
from matchkit.errors import InvalidArgumentError
from matchkit.telemetry.pubg import to_pubg_telemetry_frames
from tests.analysis.helpers import frames_of
from tests.analysis.pubg import sample
from tests.builders.matches import arena_match

ANALYSES = [
    damage_by_placement,
    first_knock_summary,
    first_knock_times,
    kill_distances,
    landing_spots,
    player_damage,
    weapon_kill_shares,
    zone_phases,
]


@pytest.mark.parametrize("analysis", ANALYSES, ids=lambda f: f.__name__)
def test_gamelocker_match_frames_are_refused(analysis) -> None:
    gamelocker = frames_of(arena_match("A0"))
    with pytest.raises(InvalidArgumentError, match=r"not PUBG.*profile='pubg'"):
        analysis(gamelocker, sample.telemetry())


@pytest.mark.parametrize("analysis", ANALYSES, ids=lambda f: f.__name__)
def test_telemetry_must_be_pubg_telemetry_frames(analysis) -> None:
    by_match = {match: sample.telemetry() for match in sample.telemetry().match_ids}
    with pytest.raises(InvalidArgumentError, match=r"PubgTelemetryFrames\.concat") as error:
        analysis(sample.frames(), by_match)
    assert error.value.parameter == "telemetry"


def test_data_must_be_match_frames() -> None:
    with pytest.raises(InvalidArgumentError, match="MatchFrames of PUBG matches"):
        weapon_kill_shares(sample.telemetry(), sample.telemetry())


def test_telemetry_of_a_match_data_lacks_is_refused() -> None:
    frames = sample.frames()
    first = frames.matches["match_id"].iloc[0]
    fewer = dataclasses.replace(frames, matches=frames.matches[frames.matches["match_id"] == first])
    with pytest.raises(InvalidArgumentError, match="telemetry holds 15 match"):
        kill_distances(fewer, sample.telemetry())


def test_a_match_without_telemetry_is_left_out_and_counted() -> None:
    only = to_pubg_telemetry_frames([sample.files()[0]])
    one = only.match_ids[0]
    table = first_knock_times(sample.frames(), only)
    assert list(table["match_id"]) == [one]
    assert table.attrs["excluded"]["matches without telemetry"] == sample.MATCHES - 1


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda f, t: landing_spots(f, t, bins=0), "bins"),
        (lambda f, t: landing_spots(f, t, map_size={"Neon_Main": -1}), "map_size"),
        (lambda f, t: kill_distances(f, t, quantiles=(0.5, 1.5)), "quantiles"),
        (lambda f, t: kill_distances(f, t, min_kills=0), "min_kills"),
        (lambda f, t: weapon_kill_shares(f, t, by="weather"), "by"),
        (lambda f, t: first_knock_summary(f, t, by="rank"), "by"),
        (lambda f, t: zone_phases(f, t, confidence=95), "confidence"),
    ],
)
def test_bad_options_name_their_parameter(call, parameter) -> None:
    with pytest.raises(InvalidArgumentError) as error:
        call(sample.frames(), sample.telemetry())
    assert error.value.parameter == parameter

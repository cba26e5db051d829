"""Bad input to the PUBG analyses: a typed error that says what to pass, before any work."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit.analysis.pubg import (
    damage_by_placement,
    first_knock_summary,
    first_knock_times,
    kill_distances,
    landing_spots,
    weapon_kill_shares,
    zone_phases,
)
from matchkit.errors import InvalidArgumentError
from matchkit.telemetry.pubg import to_pubg_telemetry_frames
from tests.analysis.helpers import frames_of
from tests.analysis.pubg import ANALYSES, sample
from tests.builders.matches import arena_match


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


def _lazy_archive(frames, **more):
    import dask.dataframe as dd

    return SimpleNamespace(matches=dd.from_pandas(frames.matches, npartitions=1), **more)


def test_an_archive_with_telemetry_beside_it_is_refused() -> None:
    archive = _lazy_archive(sample.frames(), telemetry=None, telemetry_format=None)
    with pytest.raises(InvalidArgumentError, match="pass the archive alone") as error:
        weapon_kill_shares(archive, sample.telemetry())  # type: ignore[arg-type]
    assert error.value.parameter == "telemetry"


def test_an_archive_without_pubg_telemetry_says_how_to_sync_it() -> None:
    for telemetry_format in (None, "gamelocker"):
        archive = _lazy_archive(
            sample.frames(), telemetry=SimpleNamespace(), telemetry_format=telemetry_format
        )
        with pytest.raises(InvalidArgumentError, match="--profile pubg --telemetry"):
            weapon_kill_shares(archive)  # type: ignore[arg-type]


def test_an_archive_of_another_game_is_refused_by_game() -> None:
    gamelocker = frames_of(arena_match("A0"))
    archive = _lazy_archive(gamelocker, telemetry=SimpleNamespace(), telemetry_format="pubg")
    with pytest.raises(InvalidArgumentError, match="not PUBG"):
        weapon_kill_shares(archive)  # type: ignore[arg-type]


_ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.one_of(st.integers(), st.floats(), st.text(max_size=4)), max_size=4),
    st.dictionaries(st.text(max_size=4), st.one_of(st.integers(), st.text(max_size=4))),
)
_OPTIONS = {
    "bins": lambda f, t, v: landing_spots(f, t, bins=v),
    "map_size": lambda f, t, v: landing_spots(f, t, map_size=v),
    "quantiles": lambda f, t, v: kill_distances(f, t, quantiles=v),
    "min_kills": lambda f, t, v: kill_distances(f, t, min_kills=v),
    "by": lambda f, t, v: weapon_kill_shares(f, t, by=v),
    "names": lambda f, t, v: weapon_kill_shares(f, t, names=v),
    "confidence": lambda f, t, v: damage_by_placement(f, t, confidence=v),
}


@pytest.mark.parametrize("option", sorted(_OPTIONS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=_ANYTHING)
def test_any_option_value_gives_a_result_or_an_error_naming_it(option: str, value) -> None:
    frames, telemetry = sample.small()
    refused = None
    try:
        result = _OPTIONS[option](frames, telemetry, value)
    except InvalidArgumentError as raised:
        refused = raised
    if refused is not None:
        assert refused.parameter == option
        assert option in str(refused)
    else:
        assert len(result.columns) > 0

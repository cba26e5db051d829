"""The analyses on the committed sample set, held against the generator's documented parameters.

The parameters are read from ``data/manifest.json`` (never copied here): the side advantage, the
default cosmetics and their shares, and the duration model.
"""

from __future__ import annotations

import math

import pytest

from matchkit.analysis import (
    COSMETIC_KINDS,
    cosmetic_summary,
    cosmetic_usage,
    duration_summary,
    side_win_rates,
)
from tests.analysis.helpers import sample_frames, sample_parameters


@pytest.fixture(scope="module")
def frames():
    return sample_frames()


@pytest.fixture(scope="module")
def modes():
    return {mode["server_type"]: mode for mode in sample_parameters()["global"]["modes"]}


def _arena(modes):
    return [name for name, mode in modes.items() if mode["game"] == "Arena"]


def test_side_one_match_advantage_lies_inside_the_interval(frames, modes):
    rates = side_win_rates(frames, by="server_type")
    side_one = rates.loc[rates["side"] == 1]
    side_one = side_one.set_index(side_one["server_type"].astype(str))
    assert sorted(side_one.index) == sorted(_arena(modes))
    for server_type in _arena(modes):
        expected = modes[server_type]["side_one_match_win"]
        row = side_one.loc[server_type]
        assert row["ci_low"] <= expected <= row["ci_high"], (server_type, row.to_dict())
        assert row["matches"] > 1000


def test_side_one_round_advantage_lies_inside_the_interval(frames, modes):
    rates = side_win_rates(frames, by="server_type", level="round")
    side_one = rates.loc[rates["side"] == 1]
    side_one = side_one.set_index(side_one["server_type"].astype(str))
    for server_type in _arena(modes):
        expected = float(modes[server_type]["side_one_round_win"])
        row = side_one.loc[server_type]
        assert row["ci_low"] <= expected <= row["ci_high"], (server_type, row.to_dict())


def test_every_royale_match_is_excluded_and_every_arena_match_counted(frames, modes):
    rates = side_win_rates(frames)
    royale = (
        frames.matches["server_type"]
        .astype(str)
        .isin([name for name, mode in modes.items() if mode["game"] == "Royale"])
    )
    assert rates.attrs["excluded"] == {
        "royale_matches": int(royale.sum()),
        "matches_without_two_sides": 0,
        "matches_without_result": 0,
    }
    assert rates["matches"].tolist() == [int((~royale).sum())] * 2


def test_durations_respect_the_duration_model(frames, modes):
    arena = sample_parameters()["global"]["arena"]
    summary = duration_summary(frames, by="server_type")
    rounds = duration_summary(frames, by="server_type", level="round")
    for server_type, mode in modes.items():
        low, high = mode["duration_triangular"]["low"], mode["duration_triangular"]["high"]
        durations = frames.matches.loc[frames.matches["server_type"] == server_type, "duration"]
        if mode["game"] == "Royale":
            assert low <= durations.min()
            assert durations.max() <= high
            continue
        # first to n rounds: n to 2n - 1 rounds, each followed by a break, after an intro
        wins = arena["rounds_to_win"]
        shortest = arena["intro_seconds"] + wins * (low + arena["round_break_seconds"])
        longest = arena["intro_seconds"] + (2 * wins - 1) * (high + arena["round_break_seconds"])
        assert shortest <= durations.min()
        assert durations.max() <= longest
        row = rounds.loc[rounds["server_type"] == server_type].iloc[0]
        # a triangular distribution's mean is (low + mode + high) / 3
        mean = (low + mode["duration_triangular"]["mode"] + high) / 3
        assert abs(row["mean"] - mean) < 4 * (high - low) / math.sqrt(18 * row["count"])
        assert low <= row["q1"] < row["median"] < row["q3"] <= high
    assert summary["count"].sum() == len(frames.matches)


def test_most_picked_cosmetic_is_the_catalogue_default(frames):
    catalogue = sample_parameters()["catalogue"]["characters"]
    slots = {slot["slot"]: slot for slot in sample_parameters()["global"]["cosmetics"]}
    summary = cosmetic_summary(frames, kind=COSMETIC_KINDS).set_index(["actor", "cosmetic_kind"])
    for character in catalogue[:5]:  # the most played: hundreds of picks each
        for kind in COSMETIC_KINDS:
            row = summary.loc[(character["actor"], kind)]
            assert row["default_cosmetic_id"] == character["default_items"][kind]
            share = float(slots[kind]["default_share"])
            error = math.sqrt(share * (1 - share) / row["picks"])
            assert abs(row["default_share"] - share) < 4 * error, (character["name"], kind)
            assert 0 < row["diversity"] < 1


def test_mounts_come_from_one_shared_catalogue(frames):
    slots = {slot["slot"]: slot for slot in sample_parameters()["global"]["cosmetics"]}
    usage = cosmetic_usage(frames, kind="mount", by=None)
    assert len(usage) <= slots["mount"]["items"]
    per_character = cosmetic_usage(frames, kind="outfit")
    assert per_character.groupby("actor")["cosmetic"].nunique().max() <= slots["outfit"]["items"]

"""`matchkit synth --archive`: a synthetic archive written directly, with the sample set's
distributions, through the archive's writer."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import matchkit.archive as archive
from matchkit.cli import main
from matchkit.errors import InvalidArgumentError
from matchkit.sampledata import parameters as p
from matchkit.synth.archive import write_synthetic_archive
from matchkit.synth.archive.draw import _distinct_players
from matchkit.synth.archive.model import PlayerActivity
from matchkit.telemetry.consistency import consistency_problems
from matchkit.telemetry.frames import TelemetryFrames, coerce_table
from matchkit.telemetry.schema import TABLE_NAMES as TELEMETRY_TABLES
from tests.archive.conftest import assert_same_archive

MATCHES = 20_000


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("synthetic") / "archive"
    counts = write_synthetic_archive(folder, matches=MATCHES, chunk=8_000, days=90)
    assert counts["matches"] == MATCHES
    return folder


def test_it_has_the_distributions_of_the_sample_set(synthetic: Path) -> None:
    opened = archive.open(synthetic)
    frames = opened.to_frames()
    matches = frames.matches
    assert len(matches) == MATCHES
    assert matches["match_id"].is_unique
    shares = matches["server_type"].astype(str).value_counts(normalize=True)
    for mode in p.MODES:
        assert abs(shares[mode.server_type] - float(mode.share)) < 0.02, mode.server_type
    rosters = frames.rosters.merge(matches[["match_id", "server_type"]], on="match_id")
    for mode in p.MODES:
        if mode.side_one_round_win is None:
            continue
        expected = float(p.first_to_win_probability(Fraction(mode.side_one_round_win)))
        side_one = rosters[(rosters["server_type"] == mode.server_type) & (rosters["side"] == 1)]
        assert abs(side_one["won"].mean() - expected) < 0.03, mode.server_type
    # Every row belongs to a match; a round has a row per participant of its match.
    assert set(frames.participants["match_id"]) <= set(matches["match_id"])
    per_match = frames.participants.groupby("match_id").size()
    rounds = frames.rounds.groupby("match_id").size()
    assert len(frames.round_participants) == int((rounds * per_match.reindex(rounds.index)).sum())
    players = opened.players.compute()
    assert players["player_id"].is_unique
    registered = frames.participants.loc[frames.participants["kind"] == "registered", "player_id"]
    assert set(players["player_id"]) == set(registered)
    assert (
        not frames.participants.dropna(subset=["player_id"])
        .duplicated(["match_id", "player_id"])
        .any()
    ), "a player twice in one match"
    assert archive.info(synthetic).batch == 3  # one batch a chunk


def test_its_telemetry_agrees_with_its_matches(tmp_path: Path) -> None:
    """The house's own check of telemetry against matches finds nothing to report; and each
    event of a match has its own cursor, in time order."""
    folder = tmp_path / "archive"
    counts = write_synthetic_archive(folder, matches=3_000, chunk=1_000, days=30, telemetry=True)
    opened = archive.open(folder)
    frames = opened.to_frames()
    assert opened.scope.telemetry is True
    tables = {
        name: coerce_table(getattr(opened.telemetry, name).compute().reset_index(drop=True), name)
        for name in TELEMETRY_TABLES
    }
    telemetry = TelemetryFrames(**tables)
    assert counts["telemetry/files"] == 3_000
    assert set(telemetry.match_ids) == set(frames.matches["match_id"])
    for name in ("reserved_users", "battlerite_picks", "deaths", "rounds", "round_player_stats"):
        assert len(tables[name]) > 3_000, name
    assert consistency_problems(frames, telemetry) == []
    events = pd.concat(
        [
            tables[name][["match_id", "cursor", "time"]]
            for name in TELEMETRY_TABLES
            if "cursor" in tables[name] and name != "queue_region_samples"
        ]
    )
    assert not events.duplicated(["match_id", "cursor"]).any()
    ordered = events.sort_values(["match_id", "cursor"])
    assert (ordered.groupby("match_id")["time"].diff().dropna() >= pd.Timedelta(0)).all()
    files = tables["files"].set_index("match_id")
    sizes = events.groupby("match_id").size()
    assert (files["events"].reindex(sizes.index) == sizes).all()


def test_the_same_arguments_write_the_same_archive(tmp_path: Path) -> None:
    for name in ("one", "two"):
        write_synthetic_archive(tmp_path / name, matches=2_000, chunk=700, days=20, seed=5)
    assert_same_archive(tmp_path / "two", tmp_path / "one")
    write_synthetic_archive(tmp_path / "other", matches=2_000, chunk=700, days=20, seed=6)
    with pytest.raises(AssertionError):
        assert_same_archive(tmp_path / "other", tmp_path / "one")


def test_the_command_line(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "archive"
    assert main(["synth", "--archive", str(folder), "--matches", "500"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert archive.info(folder).tables["matches"].rows == 500
    assert main(["synth", "--archive", str(folder), "--matches", "500"]) == 2  # not empty
    assert "not empty" in capsys.readouterr().err
    with_telemetry = tmp_path / "with-telemetry"
    assert main(["synth", "--archive", str(with_telemetry), "--matches", "300", "--telemetry"]) == 0
    assert "telemetry/deaths" in capsys.readouterr().out
    assert archive.info(with_telemetry).tables["telemetry/files"].rows == 300
    assert main(["synth", "--archive", str(folder), "--matches", "500"]) == 2
    assert "not empty" in capsys.readouterr().err
    with pytest.raises(InvalidArgumentError, match="matches"):
        write_synthetic_archive(tmp_path / "none", matches=0)


@settings(max_examples=200, deadline=None)
@given(
    pool=st.integers(1, 200_000),
    skew=st.integers(0, 40),
    seed=st.integers(0, 2**32 - 1),
    exact=st.integers(0, 50),
)
def test_players_by_activity_are_those_a_search_of_the_shares_gives(
    pool: int, skew: int, seed: int, exact: int
) -> None:
    """PlayerActivity.draw (an inverse of the harmonic shares, settled against them) names the
    same player as a binary search of the cumulative shares, for every draw: uniform ones, the
    shares themselves, the values just below them, 0 and the largest below 1."""
    players = PlayerActivity(pool, skew)
    rng = np.random.default_rng(seed)
    chosen = players.cdf[rng.integers(0, pool, exact)]
    draws = np.concatenate(
        [
            rng.random(500),
            chosen,
            np.nextafter(chosen, 0.0),
            [0.0, np.nextafter(1.0, 0.0), players.cdf[0], players.cdf[-1]],
        ]
    ).clip(0.0, np.nextafter(1.0, 0.0))
    assert np.array_equal(players.draw(draws), np.searchsorted(players.cdf, draws))


def _distinct_by_sorting(players: PlayerActivity, rng: np.random.Generator, match: np.ndarray):
    """The rule as it was first written: sort the chunk by match and player, draw the repeats
    again in that order, until none is left."""
    player = np.searchsorted(players.cdf, rng.random(len(match)))
    while True:
        order = np.lexsort((player, match))
        later, earlier = order[1:], order[:-1]
        repeated = later[(match[later] == match[earlier]) & (player[later] == player[earlier])]
        if len(repeated) == 0:
            return player
        player[repeated] = np.searchsorted(players.cdf, rng.random(len(repeated)))


@settings(max_examples=100, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 30), min_size=1, max_size=60),
    pool=st.integers(30, 200),
    seed=st.integers(0, 2**32 - 1),
)
def test_players_of_a_match_are_drawn_as_the_sorting_rule_draws_them(
    sizes: list[int], pool: int, seed: int
) -> None:
    """The shifted comparison finds the same repeats as sorting the chunk, draws them again in
    the same order, and so gives the same players; none sits twice in a match."""
    players = PlayerActivity(pool, p.PLAYER_SKEW)
    match = np.repeat(np.arange(len(sizes)), sizes)
    drawn = _distinct_players(players, np.random.default_rng(seed), match)
    expected = _distinct_by_sorting(players, np.random.default_rng(seed), match)
    assert np.array_equal(drawn, expected)
    assert not pd.DataFrame({"match": match, "player": drawn}).duplicated().any()

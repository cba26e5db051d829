"""`matchkit synth --archive`: a synthetic archive written directly, with the sample set's
distributions, through the archive's writer."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import matchkit.archive as archive
from matchkit.archive.synthetic import write_synthetic_archive
from matchkit.cli import main
from matchkit.errors import InvalidArgumentError
from matchkit.sampledata import parameters as p
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
    assert archive.info(synthetic).batch == 3  # one batch a chunk


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
    assert archive.info(folder).tables["matches"]["rows"] == 500
    assert main(["synth", "--archive", str(folder), "--matches", "500"]) == 2  # not empty
    assert "not empty" in capsys.readouterr().err
    with pytest.raises(InvalidArgumentError, match="matches"):
        write_synthetic_archive(tmp_path / "none", matches=0)

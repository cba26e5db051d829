"""``match_deciding_rounds`` finds, for each match, the round from which its eventual winner
led in rounds won to the end, as a plain loop over each match's rounds does: whatever the
rows' order, repeated or missing round numbers, rounds without a winner or with another team
as the winner, rounds without a match id, and matches that end level."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from matchkit.analysis.telemetry import match_deciding_rounds
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.builders.telemetry import sample_telemetry_files


def _by_loop(rounds: pd.DataFrame) -> tuple[dict[str, tuple[int, int, int]], int]:
    """Per match id: (rounds, winning_team, decided_round), and the matches that end level."""
    found, level = {}, 0
    rows = rounds.dropna(subset=["match_id"]).reset_index(drop=True)
    order = np.lexsort((rows["round"].to_numpy("float64", na_value=np.nan), rows["match_id"]))
    for match_id, match in rows.iloc[order].groupby("match_id", sort=False):
        leads, lead = [], 0
        for winner in match["winning_team"]:
            lead += int(winner == 1) - int(winner == 2) if pd.notna(winner) else 0
            leads.append(lead)
        if lead == 0:
            level += 1
            continue
        sign = 1 if lead > 0 else -1
        trailing = [index for index, value in enumerate(leads) if value * sign <= 0]
        found[str(match_id)] = (len(leads), 1 if lead > 0 else 2, max(trailing, default=-1) + 1)
    return found, level


def _rounds(seed: int, rows: int) -> pd.DataFrame:
    generator = np.random.default_rng(seed)
    match_ids = generator.choice(["a", "b", "c", "d", "e", None], rows).astype(object)
    numbers = generator.integers(0, 6, rows).astype(object)
    numbers[generator.random(rows) < 0.1] = None
    winners = generator.choice([1, 2, 2, 1, 3, None], rows).astype(object)
    return pd.DataFrame(
        {
            "match_id": pd.array(match_ids, dtype="string"),
            "round": pd.array(numbers, dtype="Int64"),
            "winning_team": pd.array(winners, dtype="Int64"),
        }
    )


@pytest.fixture(scope="module")
def frames() -> TelemetryFrames:
    return to_telemetry_frames(sample_telemetry_files(step=50))


@pytest.mark.parametrize("seed", range(40))
def test_the_deciding_round_is_what_a_loop_over_the_rounds_finds(
    frames: TelemetryFrames, seed: int
) -> None:
    rounds = _rounds(seed, int(np.random.default_rng(seed).integers(0, 40)))
    telemetry = dataclasses.replace(frames, rounds=rounds)
    table = match_deciding_rounds(telemetry)
    expected, level = _by_loop(rounds)
    got = {
        str(row.match_id): (row.rounds, row.winning_team, row.decided_round)
        for row in table.itertuples()
    }
    assert got == expected
    assert table.attrs["excluded"]["matches whose rounds end level"] == level

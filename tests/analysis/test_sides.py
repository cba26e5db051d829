"""Side win rates on small hand-built matches, with expected numbers counted by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from matchkit.analysis import side_win_rates
from matchkit.errors import InvalidArgumentError
from tests.analysis.helpers import frames_of, wilson
from tests.builders.matches import arena_match, royale_match


@pytest.fixture(scope="module")
def frames():
    return frames_of(
        arena_match("A", winner=1, rounds=[(90, 1), (80, 2), (70, 1)]),
        arena_match("B", winner=1, rounds=[(60, 1), (50, 1)], created_at="2026-10-06T08:00:00Z"),
        arena_match("C", winner=2, rounds=[(60, 2), (70, None)]),
        arena_match("D", winner=2, server_type="QUICK3V3", rounds=[(40, 2), (30, 2), (20, 1)]),
        arena_match("F", winner=None),
        royale_match("R"),
    )


def _row(table: pd.DataFrame, **where) -> pd.Series:
    mask = pd.Series(True, index=table.index)
    for column, value in where.items():
        mask &= table[column] == value
    assert mask.sum() == 1, f"expected one row for {where}, got {int(mask.sum())}"
    return table.loc[mask].iloc[0]


def test_overall_match_level_counts_each_arena_match_once_per_side(frames):
    rates = side_win_rates(frames)
    # A, B, C, D have a result (F has none, R is Royale): side 1 won A and B, side 2 won C and D.
    assert list(rates.columns) == ["side", "matches", "wins", "win_rate", "ci_low", "ci_high"]
    assert rates["side"].tolist() == [1, 2]
    assert rates["matches"].tolist() == [4, 4]
    assert rates["wins"].tolist() == [2, 2]
    assert rates["win_rate"].tolist() == [0.5, 0.5]
    low, high = wilson(2, 4)
    assert rates["ci_low"].tolist() == pytest.approx([low, low])
    assert rates["ci_high"].tolist() == pytest.approx([high, high])


def test_excluded_counts_name_royale_and_matches_without_result(frames):
    excluded = side_win_rates(frames).attrs["excluded"]
    assert excluded == {
        "royale_matches": 1,
        "matches_without_two_sides": 0,
        "matches_without_result": 1,
    }


def test_grouped_by_server_type(frames):
    rates = side_win_rates(frames, by="server_type")
    quick2 = _row(rates, server_type="QUICK2V2", side=1)
    assert (quick2["matches"], quick2["wins"]) == (3, 2)
    assert quick2["win_rate"] == pytest.approx(2 / 3)
    assert (quick2["ci_low"], quick2["ci_high"]) == pytest.approx(wilson(2, 3))
    quick2_side2 = _row(rates, server_type="QUICK2V2", side=2)
    assert (quick2_side2["matches"], quick2_side2["wins"]) == (3, 1)
    quick3 = _row(rates, server_type="QUICK3V3", side=2)
    assert (quick3["matches"], quick3["wins"], quick3["win_rate"]) == (1, 1, 1.0)
    assert set(rates["server_type"].astype(str)) == {"QUICK2V2", "QUICK3V3"}


def test_sides_are_complementary_within_each_group(frames):
    rates = side_win_rates(frames, by=["server_type", "ranking_type"])
    totals = rates.groupby(["server_type", "ranking_type"], observed=True).agg(
        matches=("matches", "first"), wins=("wins", "sum")
    )
    assert (totals["wins"] == totals["matches"]).all()


def test_round_level_counts_decided_rounds(frames):
    rates = side_win_rates(frames, level="round")
    # Decided rounds: A 1,2,1; B 1,1; C 2 (one undecided); D 2,2,1 -> 9, side 1 won 5.
    assert list(rates.columns)[:3] == ["side", "rounds", "wins"]
    assert rates["rounds"].tolist() == [9, 9]
    assert rates["wins"].tolist() == [5, 4]
    assert (rates["ci_low"].iloc[0], rates["ci_high"].iloc[0]) == pytest.approx(wilson(5, 9))
    assert rates.attrs["excluded"] == {"royale_matches": 1, "rounds_without_winner": 1}
    assert rates.attrs["level"] == "round"


def test_group_by_week_starts_on_monday(frames):
    rates = side_win_rates(frames, by="week")
    weeks = sorted(rates["week"].unique())
    assert weeks == [
        pd.Timestamp("2026-09-28T00:00:00Z"),  # A, C, D on Thursday 2026-10-01
        pd.Timestamp("2026-10-05T00:00:00Z"),  # B on Tuesday 2026-10-06
    ]
    later = _row(rates, week=pd.Timestamp("2026-10-05T00:00:00Z"), side=1)
    assert (later["matches"], later["wins"]) == (1, 1)


def test_match_without_two_sides_is_excluded():
    broken = arena_match("X", winner=1)
    for resource in broken["included"]:
        if resource["type"] == "roster":
            resource["attributes"]["stats"]["side"] = 1
    rates = side_win_rates(frames_of(broken, arena_match("Y", winner=2)))
    assert rates["matches"].tolist() == [1, 1]
    assert rates["wins"].tolist() == [0, 1]
    assert rates.attrs["excluded"]["matches_without_two_sides"] == 1


def test_only_royale_gives_an_empty_table_not_nonsense():
    rates = side_win_rates(frames_of(royale_match("R1"), royale_match("R2", teams=5)))
    assert rates.empty
    assert rates.attrs["excluded"]["royale_matches"] == 2


def test_confidence_level_widens_the_interval(frames):
    narrow = side_win_rates(frames, confidence=0.8)
    wide = side_win_rates(frames, confidence=0.99)
    assert (wide["ci_low"] < narrow["ci_low"]).all()
    assert (wide["ci_high"] > narrow["ci_high"]).all()


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        ({"by": "no_such_column"}, "by"),
        ({"by": ["server_type", 3]}, "by"),
        ({"level": "game"}, "level"),
        ({"confidence": 1.5}, "confidence"),
    ],
)
def test_bad_arguments_name_the_parameter(frames, arguments, parameter):
    with pytest.raises(InvalidArgumentError) as raised:
        side_win_rates(frames, **arguments)
    assert raised.value.parameter == parameter

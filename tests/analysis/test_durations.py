"""Duration counts and summaries on small hand-built matches, expected numbers worked by hand."""

from __future__ import annotations

import pytest

from matchkit.analysis import duration_counts, duration_summary
from matchkit.errors import InvalidArgumentError
from tests.analysis.helpers import frames_of
from tests.builders.matches import arena_match, royale_match


@pytest.fixture(scope="module")
def frames():
    return frames_of(
        arena_match("A", duration=100, rounds=[(30, 1), (50, 2)]),
        arena_match("B", duration=400, rounds=[(70, 1)]),
        arena_match("C", duration=200, patch_version="2.2", rounds=[(None, 1), (10, 2)]),
        arena_match("D", duration=300),
        arena_match("E", duration=None),
        arena_match("Q", duration=50, server_type="QUICK3V3"),
        royale_match("R", duration=900),
    )


def test_match_level_by_server_type(frames):
    table = duration_summary(frames, by="server_type")
    assert list(table.columns) == ["server_type", "count", "mean", "median", "q1", "q3", "p90"]
    quick2 = table.loc[table["server_type"] == "QUICK2V2"].iloc[0]
    # 100, 200, 300, 400 (E has no duration). Linear quantiles: q1 at position 0.75 -> 175,
    # q3 at 2.25 -> 325, p90 at 2.7 -> 370.
    assert quick2["count"] == 4
    assert quick2[["mean", "median", "q1", "q3", "p90"]].tolist() == [250, 250, 175, 325, 370]
    quick3 = table.loc[table["server_type"] == "QUICK3V3"].iloc[0]
    assert quick3[["count", "mean", "median", "q1", "q3", "p90"]].tolist() == [
        1,
        50,
        50,
        50,
        50,
        50,
    ]
    royale = table.loc[table["server_type"] == "ROYALRUMBLESOLO"].iloc[0]
    assert royale["median"] == 900
    assert table.attrs["excluded"] == {"missing_duration": 1}


def test_overall_without_groups(frames):
    table = duration_summary(frames)
    # 50, 100, 200, 300, 400, 900: median (200 + 300) / 2, mean 1950 / 6.
    assert len(table) == 1
    assert table["count"].iloc[0] == 6
    assert table["median"].iloc[0] == 250
    assert table["mean"].iloc[0] == pytest.approx(325)
    assert table["q1"].iloc[0] == pytest.approx(125)  # position 1.25 between 100 and 200


def test_round_level(frames):
    table = duration_summary(frames, by="patch_version", level="round")
    # Patch 2.1 rounds: 30, 50, 70; patch 2.2: 10 (one round has no duration).
    by_patch = table.set_index(table["patch_version"].astype(str))
    assert by_patch.loc["2.1", "count"] == 3
    assert by_patch.loc["2.1", "median"] == 50
    assert by_patch.loc["2.1", "mean"] == 50
    assert by_patch.loc["2.2", "count"] == 1
    assert table.attrs["excluded"] == {"missing_duration": 1}
    assert table.attrs["level"] == "round"


def test_group_by_date_and_server_type(frames):
    table = duration_summary(frames, by=["date", "server_type"])
    assert table["date"].dt.strftime("%Y-%m-%d").unique().tolist() == ["2026-10-01"]
    assert table["count"].sum() == 6


@pytest.mark.parametrize(
    ("arguments", "parameter"), [({"by": "nope"}, "by"), ({"level": "season"}, "level")]
)
def test_bad_arguments(frames, arguments, parameter):
    with pytest.raises(InvalidArgumentError) as raised:
        duration_summary(frames, **arguments)
    assert raised.value.parameter == parameter


def test_patch_versions_come_in_version_order_not_text_order():
    frames = frames_of(
        arena_match("P10", duration=100, patch_version="2.10"),
        arena_match("P9", duration=200, patch_version="2.9"),
        arena_match("P11", duration=300, patch_version="2.11"),
        arena_match("P1", duration=400, patch_version="10.1"),
    )
    summary = duration_summary(frames, by="patch_version")
    assert summary["patch_version"].astype(str).tolist() == ["2.9", "2.10", "2.11", "10.1"]
    assert summary["mean"].tolist() == [200.0, 100.0, 300.0, 400.0]


def test_counts_are_each_duration_once_per_group_shortest_first(frames):
    table = duration_counts(frames, by="server_type")
    assert list(table.columns) == ["server_type", "duration", "count"]
    rows = [(str(k), int(d), int(c)) for k, d, c in table.itertuples(index=False)]
    assert rows == [
        ("QUICK2V2", 100, 1),
        ("QUICK2V2", 200, 1),
        ("QUICK2V2", 300, 1),
        ("QUICK2V2", 400, 1),
        ("QUICK3V3", 50, 1),
        ("ROYALRUMBLESOLO", 900, 1),
    ]
    assert table.attrs["excluded"] == {"missing_duration": 1}


def test_round_counts_add_up_to_the_summary(frames):
    counts = duration_counts(frames, by="patch_version", level="round")
    summary = duration_summary(frames, by="patch_version", level="round")
    per_patch = counts.groupby("patch_version", observed=True)["count"].sum()
    assert per_patch.tolist() == summary["count"].tolist() == [3, 1]
    assert counts.attrs == {"excluded": {"missing_duration": 1}, "level": "round"}

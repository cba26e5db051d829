"""``plot_match_map`` of an archive reads one match: the partition holding it, its rows only,
and draws what it draws of the same match in memory."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pytest

import matchkit.archive as archive
from matchkit.plots import plot_match_map
from tests.analysis.pubg.archived import Archived, two_months


@pytest.fixture(scope="module")
def archived(tmp_path_factory) -> Archived:
    return two_months(tmp_path_factory.mktemp("pubg-archive"))


def _drawn(ax) -> list[int]:
    return [len(c.get_offsets()) for c in ax.collections if hasattr(c, "get_offsets")] + [
        len(c.get_segments()) for c in ax.collections if hasattr(c, "get_segments")
    ]


def test_the_map_reads_only_its_matchs_partition(archived: Archived) -> None:
    opened = archive.open(archived.folder)
    matches = opened.to_frames().matches
    november = matches.loc[(matches["created_at"].dt.month == 11).to_numpy(), "match_id"]
    match = str(november.iloc[0])
    expected = plot_match_map(archived.frames, archived.telemetry, match)
    # October's telemetry goes after the archive is opened: the map of November's match
    # must not read it
    removed = [
        path
        for name in ("positions", "game_states", "landings", "kills")
        for path in opened.files(f"pubg-telemetry/{name}")
        if "month=2026-10" in path
    ]
    assert removed
    for path in removed:
        Path(path).rename(path + ".away")
    try:
        drawn = plot_match_map(opened, match_id=match)
    finally:
        for path in removed:
            Path(path + ".away").rename(path)
    assert drawn.get_title() == expected.get_title()
    assert _drawn(drawn) == _drawn(expected)
    assert sum(_drawn(drawn)) > 0
    assert len(drawn.patches) == len(expected.patches) > 0
    plt.close("all")

"""``archive.sync(..., telemetry=True)`` of the PUBG double: each day's matches with their
telemetry files, as :class:`~matchkit.telemetry.pubg.PubgTelemetryFrames`' tables in
``pubg-telemetry/<name>`` (never mixed with the Gamelocker format's ``telemetry/<name>``)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

import matchkit.archive as archive
from matchkit.plots import plot_match_map
from matchkit.telemetry.pubg import PubgTelemetryFrames
from matchkit.telemetry.pubg.schema import TABLE_NAMES
from tests.analysis.pubg import ANALYSES
from tests.archive.pubg.conftest import archived_ids, client_at

NOW = "2026-11-12T00:00:00Z"
DAY = "2026-11-11T00:00:00Z"  # the newest sample's day: one batch


def test_telemetry_is_archived_with_its_matches_once(pubg_double, tmp_path: Path) -> None:
    folder, cache = tmp_path / "archive", tmp_path / "cache"
    with client_at(pubg_double, NOW, cache) as client:
        result = archive.sync(client, folder, start=DAY, telemetry=True)
        ids = archived_ids(folder)
        fetched = client.get_matches(ids)
        expected = client.telemetry(fetched)
        again = archive.sync(client, folder, telemetry=True)  # the open day, read again
    assert isinstance(expected, PubgTelemetryFrames)
    assert len(ids) == result.added["matches"] > 0
    assert result.added["pubg-telemetry/files"] == len(ids)
    assert result.added["pubg-telemetry/kills"] == len(expected.kills) > 0
    assert not any(label.startswith("telemetry/") for label in result.added)
    assert again.added.get("pubg-telemetry/kills", 0) == 0  # nothing twice
    opened = archive.open(folder)
    assert opened.telemetry is not None
    files = opened.telemetry.files.compute()
    assert sorted(files["match_id"]) == sorted(ids)
    kills = opened.telemetry.kills.compute()
    assert len(kills) == len(expected.kills)
    assert kills.groupby("match_id").size().to_dict() == (
        expected.kills.groupby("match_id").size().to_dict()
    )
    shown = str(archive.info(folder))
    assert "telemetry: yes" in shown
    assert "pubg-telemetry/kills" in shown

    # Every PUBG analysis reads the archive itself (its telemetry table by table) and gives
    # the table it gives of what the client fetched, dtypes included.
    for analysis in ANALYSES:
        pd.testing.assert_frame_equal(
            analysis(opened).reset_index(drop=True),
            analysis(fetched, expected).reset_index(drop=True),
            obj=analysis.__name__,
        )
    stored = PubgTelemetryFrames(
        **{
            name: getattr(opened.telemetry, name).compute().reset_index(drop=True)
            for name in TABLE_NAMES
        }
    )
    assert len(stored.positions) == len(expected.positions)
    # One match's map reads that match's telemetry only, and draws what the fetch draws.
    match = ids[0]
    drawn, fetched_ax = (
        plot_match_map(opened, match_id=match),
        plot_match_map(fetched, expected, match),
    )
    assert drawn.get_title() == fetched_ax.get_title()
    assert [len(c.get_offsets()) for c in drawn.collections if hasattr(c, "get_offsets")] == [
        len(c.get_offsets()) for c in fetched_ax.collections if hasattr(c, "get_offsets")
    ]
    plt.close("all")

"""``archive.sync(..., telemetry=True)`` of the PUBG double: each day's matches with their
telemetry files, as :class:`~matchkit.telemetry.pubg.PubgTelemetryFrames`' tables in
``pubg-telemetry/<name>`` (never mixed with the Gamelocker format's ``telemetry/<name>``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import matchkit.archive as archive
from matchkit.analysis.pubg import damage_by_placement, weapon_kill_shares
from matchkit.telemetry.pubg import PubgTelemetryFrames
from matchkit.telemetry.pubg.schema import TABLE_NAMES
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

    # The same analyses on the archive's tables as on what the client fetched. (The PUBG
    # analyses take MatchFrames and PubgTelemetryFrames, not an archive: its tables computed.)
    stored = PubgTelemetryFrames(
        **{
            name: getattr(opened.telemetry, name).compute().reset_index(drop=True)
            for name in TABLE_NAMES
        }
    )
    frames = opened.to_frames(DAY, NOW)
    for analysis in (weapon_kill_shares, damage_by_placement):
        pd.testing.assert_frame_equal(
            analysis(frames, stored).reset_index(drop=True),
            analysis(fetched, expected).reset_index(drop=True),
            check_dtype=False,
            obj=analysis.__name__,
        )

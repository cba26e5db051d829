"""``archive.sync(..., telemetry=True)`` of the PUBG double: each day's matches with their
telemetry files, as :class:`~matchkit.telemetry.pubg.PubgTelemetryFrames`' tables in
``pubg-telemetry/<name>`` (never mixed with the Gamelocker format's ``telemetry/<name>``)."""

from __future__ import annotations

from pathlib import Path

import matchkit.archive as archive
from matchkit.telemetry.pubg import PubgTelemetryFrames
from tests.archive.pubg.conftest import archived_ids, client_at

NOW = "2026-11-12T00:00:00Z"
DAY = "2026-11-11T00:00:00Z"  # the newest sample's day: one batch


def test_telemetry_is_archived_with_its_matches_once(pubg_double, tmp_path: Path) -> None:
    folder, cache = tmp_path / "archive", tmp_path / "cache"
    with client_at(pubg_double, NOW, cache) as client:
        result = archive.sync(client, folder, start=DAY, telemetry=True)
        ids = archived_ids(folder)
        expected = client.telemetry(ids)
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

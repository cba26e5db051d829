"""Client.telemetry against the embedded reference service over loopback HTTP."""

from __future__ import annotations

from pathlib import Path

from matchkit.client.client import Client
from matchkit.telemetry.consistency import consistency_problems


def test_the_reference_services_telemetry_downloads_and_agrees(tmp_path: Path) -> None:
    with Client(cache_dir=tmp_path, progress=False) as client:
        frames = client.matches("2026-10-01", "2026-10-08", max_matches=40)
        assert frames.assets["url"].str.startswith(client.base_url).all()
        telemetry = client.telemetry(frames)
        assert sorted(telemetry.match_ids) == sorted(frames.matches["match_id"])
        assert telemetry.problems == ()
        assert consistency_problems(frames, telemetry) == []
    # A later run's embedded service listens elsewhere: the cached files still answer.
    with Client(cache_dir=tmp_path, progress=False) as client:
        again = client.telemetry(frames)
        assert again.round_player_stats.equals(telemetry.round_player_stats)
    with Client(cache_dir=tmp_path, progress=False, offline=True) as offline:
        cached = offline.telemetry(frames)
        assert cached.deaths.equals(telemetry.deaths)

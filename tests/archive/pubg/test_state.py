"""The state a day sync keeps in ``archive.json``: the scope's profile and each day's record
round-trip; a manifest of the default profile is written exactly as before (no new keys); a
damaged day record is refused by name."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import orjson
import pytest

from matchkit.archive.days import format_days
from matchkit.archive.manifest import ArchiveManifest
from matchkit.archive.state import DayRecord, PendingBatch, Scope, ScopePeriod
from matchkit.errors import ArchiveError
from matchkit.rules.windows import parse_time

T = parse_time("2026-11-10T00:00:00Z")
PLAYERS = Scope.of("steam", {"player_names": ["b", "A"]}, telemetry=True, profile="pubg")


def day(batch: int, offset: int, *, final: bool = True) -> DayRecord:
    return DayRecord(
        batch=batch,
        day=T + timedelta(days=offset),
        sync=1,
        synced_at=T + timedelta(days=3),
        listed=3,
        added=2,
        final=final,
    )


def test_a_day_archive_round_trips_through_json(tmp_path: Path) -> None:
    pending = PendingBatch(3, T + timedelta(days=2), T + timedelta(days=3), T, day=day(3, 2))
    manifest = ArchiveManifest(
        scopes=(ScopePeriod(PLAYERS, T),),
        batch=2,
        watermark=T + timedelta(days=2),
        pending=pending,
        versions={1: {"matches": 0}, 2: {"matches": 1}},
        days=(day(1, 0), day(2, 1, final=False)),
    )
    text = orjson.loads(orjson.dumps(manifest.to_json()))
    assert text["scopes"][0]["scope"]["profile"] == "pubg"
    assert ArchiveManifest.from_json(text, path=tmp_path) == manifest
    assert PLAYERS.filters == (("player_names", ("A", "b")),)
    assert str(PLAYERS) == "[profile pubg, shard steam, player_names=A,b, with telemetry]"
    done = manifest.with_batch_done(pending, {"matches": 2})
    assert done.days[-1] == pending.day


def test_the_default_profiles_manifest_is_written_as_before() -> None:
    text = ArchiveManifest.new(Scope("global"), source=None).to_json()
    assert "days" not in text
    assert text["scopes"][0]["scope"] == {"shard": "global", "filters": {}, "telemetry": False}
    assert Scope.from_json(text["scopes"][0]["scope"]).profile == "gamelocker"


def test_a_damaged_day_record_is_refused_by_name(tmp_path: Path) -> None:
    manifest = ArchiveManifest(scopes=(ScopePeriod(PLAYERS, T),), days=(day(1, 0),))
    text = manifest.to_json()
    text["days"][0]["final"] = "yes"
    with pytest.raises(ArchiveError, match=r"days\[\].final"):
        ArchiveManifest.from_json(text, path=tmp_path / "archive.json")


def test_days_are_shown_as_dates_and_runs() -> None:
    days = [T + timedelta(days=n) for n in (0, 1, 4, 5, 6, 7, 9)]
    assert (
        format_days(days) == "2026-11-10, 2026-11-11, 2026-11-14 to 2026-11-17 (4 days), 2026-11-19"
    )
    assert format_days([]) == ""
